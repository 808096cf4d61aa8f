// @ts-check
/**
 * The deck's slots: each one's disk (status, volume, recording time left), the active one,
 * and selecting a slot and a video format.
 */
import { Commands, SlotStatus, VideoFormat } from 'hyperdeck-connection';

const SLOT = [
  { value: SlotStatus.EMPTY, label: 'Empty' },
  { value: SlotStatus.MOUNTING, label: 'Mounting' },
  { value: SlotStatus.ERROR, label: 'Error' },
  { value: SlotStatus.MOUNTED, label: 'Mounted' },
];

/** The video formats the protocol names, as `transport/select` offers them. */
const FORMATS = Object.values(VideoFormat).map((format) => ({ value: format, label: format }));

/** The most slots read: no deck has more. */
export const MOST_SLOTS = 16;

/**
 * @param {import('patchbay-hub/connection').Choice[]} [slots]
 * @returns {import('patchbay-hub/connection').ParameterMeta}
 */
const selectMeta = (slots) => ({
  label: 'Select slot and format',
  arguments: {
    slot: { type: 'I', label: 'Slot', optional: true, ...(slots && { choices: slots }) },
    videoFormat: { type: 'S', label: 'Video format', optional: true, choices: FORMATS },
  },
});

/** @typedef {import('patchbay-hub/connection').OwnedParameter} OwnedParameter */

export class Slots {
  #commands;
  #active;
  #select;
  /** @type {Map<number, { status: OwnedParameter, volume: OwnedParameter, time: OwnedParameter }>} */
  #slots = new Map();

  /** @param {import('./commands.js').DeckCommands} commands */
  constructor(commands) {
    this.#commands = commands;
    this.#active = commands.setting('transport/slot', { type: 'I', meta: { label: 'Slot' } }, (slotId) =>
      Object.assign(new Commands.SlotSelectCommand(), { slotId: Number(slotId) }),
    );
    this.#select = commands.order(
      'transport/select',
      { type: 'S', meta: selectMeta() },
      (value) => {
        const { slot, videoFormat } = /** @type {{ slot?: number, videoFormat?: VideoFormat }} */ (JSON.parse(String(value)));
        return [Object.assign(new Commands.SlotSelectCommand(), { slotId: slot, format: videoFormat })];
      },
      (value) => (String(value).replace(/\s/g, '') === '{}' ? 'select: give a slot, a video format, or both' : undefined),
    );
  }

  /** The active slot the deck said last, or 0 before it said one. */
  get active() {
    return typeof this.#active.value === 'number' ? this.#active.value : 0;
  }

  /** @param {number} slotId */
  activeIs(slotId) {
    this.#active.report(slotId);
  }

  /** Each slot of the deck, read on connect. @param {number} count */
  async read(count) {
    for (let n = 1; n <= Math.min(count, MOST_SLOTS); n++)
      this.report(await this.#commands.send('a slot', new Commands.SlotInfoCommand(n)));
  }

  /** @param {{ slotId: number } & Partial<import('hyperdeck-connection').Commands.SlotInfoCommandResponse>} s what the deck said of a slot, whole or a change */
  report(s) {
    if (typeof s.slotId !== 'number' || s.slotId < 1 || s.slotId > MOST_SLOTS) return;
    const { status, volume, time } = this.#slot(s.slotId);
    if (s.status !== undefined) status.report(s.status);
    if (s.volumeName !== undefined) volume.report(s.volumeName);
    if (s.recordingTime !== undefined) time.report(s.recordingTime);
    const choices = [...this.#slots].map(([n, { volume: v }]) => ({ value: n, label: `Slot ${n}${v.value ? `: ${v.value}` : ''}` }));
    this.#active.describe({ label: 'Slot', choices });
    this.#select.describe(selectMeta(choices));
  }

  /** @param {number} n */
  #slot(n) {
    let found = this.#slots.get(n);
    if (!found) {
      found = {
        status: this.#commands.readOnly(`slot/${n}/status`, { type: 'S', meta: { label: `Slot ${n}`, choices: SLOT } }),
        volume: this.#commands.readOnly(`slot/${n}/volume`, { type: 'S', meta: { label: `Slot ${n} volume` } }),
        time: this.#commands.readOnly(`slot/${n}/recordingTime`, {
          type: 'I',
          meta: { label: `Slot ${n} recording time left`, unit: 's' },
        }),
      };
      this.#slots.set(n, found);
    }
    return found;
  }
}
