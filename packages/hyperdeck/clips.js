// @ts-check
/**
 * The clips of the active slot: the current one by number and by name (the choices are the
 * deck's clips), going to one, to a timecode, by some clips forward or back, to the start or
 * end of the clip, and the list read again.
 */
import { HubError } from 'patchbay-hub/connection';
import { Commands } from 'hyperdeck-connection';
import { notTimecode } from './transport.js';

/** The most clips offered as choices: a deck with more offers none, and takes any clip by number. */
const MOST_CLIP_CHOICES = 1000;

/** @typedef {import('patchbay-hub/connection').Choice} Choice */

/**
 * `goto` with its arguments (R-PK8): a clip, a timecode, or both, as one write.
 * @param {Choice[]} [clips]
 * @returns {import('patchbay-hub/connection').ParameterMeta}
 */
const gotoMeta = (clips) => ({
  label: 'Go to',
  arguments: {
    clip: { type: 'I', label: 'Clip', optional: true, ...(clips && { choices: clips }) },
    timecode: { type: 'S', label: 'Timecode', description: 'hh:mm:ss:ff, or +/- frames from here', optional: true },
  },
});

export class Clips {
  #commands;
  #clip;
  #name;
  #goTo;
  #count;
  /** The clips of the active slot, by number. @type {Map<number, string>} */
  #names = new Map();

  /** @param {import('./commands.js').DeckCommands} commands */
  constructor(commands) {
    this.#commands = commands;
    this.#count = commands.readOnly('clips/count', { type: 'I', meta: { label: 'Clips' } });
    this.#clip = commands.setting(
      'transport/clip',
      { type: 'I', meta: { label: 'Clip' } },
      (clipId) => new Commands.GoToCommand(undefined, Number(clipId)),
    );
    this.#name = commands.setting('transport/clipName', { type: 'S', meta: { label: 'Clip by name' } }, (name) => {
      const found = [...this.#names].find(([, named]) => named === name);
      if (!found) throw new HubError('PB_CONVERSION', `transport/clipName: no clip is named "${name}"`);
      return new Commands.GoToCommand(undefined, found[0]);
    });
    this.#goTo = commands.order(
      'transport/goto',
      { type: 'S', meta: gotoMeta() },
      // The protocol's `goto` takes one of them: both are two commands, the clip first.
      (value) => {
        const { clip, timecode } = /** @type {{ clip?: number, timecode?: string }} */ (JSON.parse(String(value)));
        return [
          ...(clip === undefined ? [] : [new Commands.GoToCommand(undefined, clip)]),
          ...(timecode === undefined ? [] : [new Commands.GoToCommand(undefined, undefined, timecode)]),
        ];
      },
      (value) => {
        const { clip, timecode } = /** @type {{ clip?: number, timecode?: string }} */ (JSON.parse(String(value)));
        if (clip === undefined && timecode === undefined) return 'goto: give a clip, a timecode, or both';
        return timecode === undefined || /^[+-]\d+$/.test(timecode) ? undefined : notTimecode(timecode);
      },
    );
    commands.order(
      'transport/skip',
      {
        type: 'I',
        meta: { label: 'Skip clips', description: 'n clips forward, or back when negative', minimum: -999, maximum: 999 },
      },
      (value) => [new Commands.GoToCommand(undefined, `${Number(value) > 0 ? '+' : '-'}${Math.abs(Number(value))}`)],
      (value) => (Number(value) === 0 ? 'skip at least one clip, forward (+) or back (-)' : undefined),
    );
    commands.trigger('transport/clipStart', 'Go to the start of the clip', () => new Commands.GoToCommand('start'));
    commands.trigger('transport/clipEnd', 'Go to the end of the clip', () => new Commands.GoToCommand('end'));
    commands.parameters.trigger('clips/fetch', { label: 'Read the clips again' }, () => this.read());
  }

  /** The current clip, as the deck said it. @param {number} clipId */
  current(clipId) {
    this.#clip.report(clipId);
    this.#name.report(this.#names.get(clipId) ?? '');
  }

  /** The clips of the active slot, as the choices of the clip, its name and `transport/goto`. */
  async read() {
    const clips = await this.#commands.send('the clips', new Commands.ClipsGetCommand());
    this.#count.report(clips.clipCount);
    this.#names = new Map(clips.clips.map(({ clipId, name }) => [clipId, name]));
    // Past the bound no choices are offered: a list cut short would refuse the clips left out.
    const few = clips.clips.length <= MOST_CLIP_CHOICES;
    const choices = few ? clips.clips.map(({ clipId, name }) => ({ value: clipId, label: `${clipId}: ${name}` })) : undefined;
    this.#clip.describe({ label: 'Clip', ...(choices && { choices }) });
    const names = few ? [...new Set(this.#names.values())].map((name) => ({ value: name, label: name })) : undefined;
    this.#name.describe({ label: 'Clip by name', ...(names && { choices: names }) });
    this.#goTo.describe(gotoMeta(choices));
    if (typeof this.#clip.value === 'number') this.#name.report(this.#names.get(this.#clip.value) ?? '');
  }
}
