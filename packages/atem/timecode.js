// @ts-check
/**
 * The switcher's timecode: whether it runs free or follows the time of day, and the time it
 * should count from (`10:00:00:00`, or `10:00:00`), which it takes and does not say back.
 */
import { Enums } from 'atem-connection';
import { HubError } from 'patchbay-hub/connection';

const MODES = [
  { value: 'free-run', label: 'Free run', mode: Enums.TimeMode.FreeRun },
  { value: 'time-of-day', label: 'Time of day', mode: Enums.TimeMode.TimeOfDay },
];
const TIME = /^(\d{1,2}):(\d{2}):(\d{2})(?:[:;](\d{2}))?$/;

export class Timecode {
  #atem;
  #parameters;

  /**
   * Setting the time is every switcher's: from the start.
   * @param {import('atem-connection').Atem} atem
   * @param {import('patchbay-hub/connection').CommandedParameters} parameters
   * @param {import('./steps.js').WriteOnly} write
   */
  constructor(atem, parameters, write) {
    this.#atem = atem;
    this.#parameters = parameters;
    write('timecode/set', 'S', { label: 'Set the timecode', description: 'hh:mm:ss or hh:mm:ss:ff' }, (v) => {
      const [, hour, minute, second, frame] = TIME.exec(String(v)) ?? [];
      if (hour === undefined)
        return Promise.reject(new HubError('PB_CONVERSION', `timecode/set: ${String(v).slice(0, 40)} is not hh:mm:ss or hh:mm:ss:ff`));
      return atem.setTime(Number(hour), Number(minute), Number(second), Number(frame ?? 0));
    });
  }

  /** The mode, where the switcher has said it. @param {import('atem-connection').AtemState} state */
  read(state) {
    const mode = state.settings.timeMode;
    if (mode === undefined) return;
    this.#parameters
      .commanded(
        'timecode/mode',
        { type: 'S', meta: { label: 'Timecode mode', choices: MODES.map(({ value, label }) => ({ value, label })) } },
        (v) => this.#atem.setTimeMode(MODES.find((m) => m.value === v)?.mode ?? Enums.TimeMode.FreeRun),
      )
      .report(MODES.find((m) => m.mode === mode)?.value ?? 'free-run');
  }
}
