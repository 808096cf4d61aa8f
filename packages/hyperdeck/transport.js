// @ts-check
/**
 * The deck's transport: what it is doing (status, speed, timecode, loop, single clip, video
 * format, preview) and the commands that move it — play (with speed, loop and single clip),
 * stop, shuttle, jog, preview.
 */
import { Commands, TransportStatus } from 'hyperdeck-connection';

/** The transport's states, as the deck names them, for a person. */
const TRANSPORT = [
  { value: TransportStatus.PREVIEW, label: 'Preview' },
  { value: TransportStatus.STOPPED, label: 'Stopped' },
  { value: TransportStatus.PLAY, label: 'Playing' },
  { value: TransportStatus.FORWARD, label: 'Forward' },
  { value: TransportStatus.REWIND, label: 'Rewind' },
  { value: TransportStatus.JOG, label: 'Jog' },
  { value: TransportStatus.SHUTTLE, label: 'Shuttle' },
  { value: TransportStatus.RECORD, label: 'Recording' },
];

/** The fastest a deck plays or shuttles, in % of normal speed (50× forward or back). */
export const MOST_SPEED = 5000;

/** A timecode, or a distance from here: `00:00:01:00`, `+00:00:00:05`, `-00:00:10:00`. */
const TIMECODE = /^[+-]?\d{2}:\d{2}:\d{2}[:;]\d{2}$/;

/** @param {import('patchbay-hub/connection').Value} value */
export const notTimecode = (value) =>
  TIMECODE.test(String(value)) ? undefined : `"${value}" is not a timecode hh:mm:ss:ff (with + or - for a distance from here)`;

/** @typedef {Partial<import('hyperdeck-connection').Commands.TransportInfoCommandResponse>} TransportChange */

export class Transport {
  #status;
  #speed;
  #timecode;
  #loop;
  #singleClip;
  #videoFormat;
  #preview;

  /** @param {import('./commands.js').DeckCommands} commands */
  constructor(commands) {
    this.#status = commands.readOnly('transport/status', { type: 'S', meta: { label: 'Transport', choices: TRANSPORT } });
    this.#speed = commands.readOnly('transport/speed', { type: 'I', meta: { label: 'Speed', unit: '%' } });
    this.#timecode = commands.readOnly('transport/timecode', { type: 'S', meta: { label: 'Timecode' } });
    this.#loop = commands.readOnly('transport/loop', { type: 'B', meta: { label: 'Loop' } });
    this.#singleClip = commands.readOnly('transport/singleClip', { type: 'B', meta: { label: 'Single clip playback' } });
    this.#videoFormat = commands.readOnly('transport/videoFormat', { type: 'S', meta: { label: 'Video format' } });
    this.#preview = commands.setting(
      'transport/preview',
      { type: 'B', meta: { label: 'Preview (input shown)', description: 'true: the input is shown (preview); false: the clip (output)' } },
      (value) => new Commands.PreviewCommand(value === true),
    );
    commands.trigger('play', 'Play', () => new Commands.PlayCommand());
    commands.trigger('stop', 'Stop', () => new Commands.StopCommand());
    const speed = { label: 'Speed', unit: '%', minimum: -MOST_SPEED, maximum: MOST_SPEED };
    commands.order(
      'transport/play',
      {
        type: 'S',
        meta: {
          label: 'Play with speed',
          arguments: {
            speed: { type: 'I', ...speed, optional: true, description: 'of normal speed; negative in reverse (100 when left out)' },
            loop: { type: 'B', label: 'Loop', optional: true },
            singleClip: { type: 'B', label: 'Single clip', optional: true },
          },
        },
      },
      (value) => {
        const {
          speed: pace,
          loop,
          singleClip,
        } = /** @type {{ speed?: number, loop?: boolean, singleClip?: boolean }} */ (JSON.parse(String(value)));
        return [new Commands.PlayCommand(pace === undefined ? undefined : String(pace), loop, singleClip)];
      },
    );
    commands.order(
      'transport/shuttle',
      { type: 'I', meta: { ...speed, label: 'Shuttle', description: 'at this % of normal speed; negative in reverse' } },
      (value) => [new Commands.ShuttleCommand(Number(value))],
    );
    commands.order(
      'transport/jog',
      { type: 'S', meta: { label: 'Jog', description: 'to a timecode hh:mm:ss:ff, or by one: +00:00:00:05 forward, -00:00:00:05 back' } },
      (value) => [new Commands.JogCommand(String(value))],
      notTimecode,
    );
  }

  /** The status the deck said last. */
  get status() {
    return this.#status.value;
  }

  /** @param {TransportChange} t what the deck said of its transport, whole or a change */
  report(t) {
    if (t.speed !== undefined) this.#speed.report(t.speed);
    if (t.displayTimecode !== undefined) this.#timecode.report(t.displayTimecode);
    if (t.loop !== undefined) this.#loop.report(t.loop);
    if (t.singleClip !== undefined) this.#singleClip.report(t.singleClip);
    if (t.videoFormat) this.#videoFormat.report(t.videoFormat);
    if (t.status !== undefined) {
      this.#status.report(t.status);
      this.#preview.report(t.status === TransportStatus.PREVIEW);
    }
  }
}
