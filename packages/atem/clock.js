// @ts-check
/**
 * The display clock, where the switcher has one (the clock it can key over program): started,
 * stopped or reset; shown, its size, opacity, place, auto-hide and mode in one write; the time
 * it starts from (`hh:mm:ss`), and a step of it in seconds.
 */
import { Enums } from 'atem-connection';
import { HubError } from 'patchbay-hub/connection';

const STATES = [
  { value: 'running', label: 'Running', state: Enums.DisplayClockClockState.Running },
  { value: 'stopped', label: 'Stopped', state: Enums.DisplayClockClockState.Stopped },
  { value: 'reset', label: 'Reset', state: Enums.DisplayClockClockState.Reset },
];
const MODES = [
  { value: 'countdown', label: 'Count down', mode: Enums.DisplayClockClockMode.Countdown },
  { value: 'countup', label: 'Count up', mode: Enums.DisplayClockClockMode.Countup },
  { value: 'time-of-day', label: 'Time of day', mode: Enums.DisplayClockClockMode.TimeOfDay },
];
const DAY = 24 * 3600;
const two = (/** @type {number} */ n) => String(n).padStart(2, '0');

export class Clock {
  #atem;
  #parameters;
  #step;

  /**
   * @param {import('atem-connection').Atem} atem
   * @param {import('patchbay-hub/connection').CommandedParameters} parameters
   * @param {import('./steps.js').Step} step
   */
  constructor(atem, parameters, step) {
    this.#atem = atem;
    this.#parameters = parameters;
    this.#step = step;
  }

  /** The clock, where the switcher has said it has one. @param {import('atem-connection').AtemState} state */
  read(state) {
    const at = state.displayClock?.properties;
    if (!at) return;
    const atem = this.#atem;
    const parameters = this.#parameters;
    parameters
      .commanded(
        'clock/state',
        { type: 'S', meta: { label: 'Display clock', choices: STATES.map(({ value, label }) => ({ value, label })) } },
        (v) => atem.setDisplayClockState(STATES.find((s) => s.value === v)?.state ?? Enums.DisplayClockClockState.Stopped),
      )
      .report(STATES.find((s) => s.state === at.clockState)?.value ?? 'stopped');
    const unit = { type: /** @type {const} */ ('F'), minimum: 0, maximum: 1, optional: true };
    const meta = {
      label: 'Display clock look',
      arguments: {
        enabled: { type: /** @type {const} */ ('B'), label: 'Shown', optional: true },
        size: { ...unit, label: 'Size' },
        opacity: { ...unit, label: 'Opacity' },
        x: { type: /** @type {const} */ ('F'), label: 'Across', minimum: -16, maximum: 16, optional: true },
        y: { type: /** @type {const} */ ('F'), label: 'Up', minimum: -9, maximum: 9, optional: true },
        autoHide: { type: /** @type {const} */ ('B'), label: 'Hide when stopped', optional: true },
        mode: {
          type: /** @type {const} */ ('S'),
          label: 'Mode',
          choices: MODES.map(({ value, label }) => ({ value, label })),
          optional: true,
        },
      },
    };
    parameters
      .commanded('clock/properties', { type: 'S', meta }, (v) => {
        const { enabled, size, opacity, x, y, autoHide, mode } =
          /** @type {{ enabled?: boolean, size?: number, opacity?: number, x?: number, y?: number, autoHide?: boolean, mode?: string }} */ (
            JSON.parse(String(v))
          );
        return atem.setDisplayClockProperties({
          ...(enabled !== undefined && { enabled }),
          ...(size !== undefined && { size: Math.round(size * 100) }),
          ...(opacity !== undefined && { opacity: Math.round(opacity * 100) }),
          ...(x !== undefined && { positionX: Math.round(x * 1000) }),
          ...(y !== undefined && { positionY: Math.round(y * 1000) }),
          ...(autoHide !== undefined && { autoHide }),
          ...(mode !== undefined && { clockMode: MODES.find((m) => m.value === mode)?.mode ?? Enums.DisplayClockClockMode.Countdown }),
        });
      })
      .report(
        JSON.stringify({
          enabled: at.enabled,
          size: at.size / 100,
          opacity: at.opacity / 100,
          x: at.positionX / 1000,
          y: at.positionY / 1000,
          autoHide: at.autoHide,
          mode: MODES.find((m) => m.mode === at.clockMode)?.value ?? 'countdown',
        }),
      );
    /** @param {number} seconds from midnight, round the day */
    const startAt = (seconds) => {
      const s = ((seconds % DAY) + DAY) % DAY;
      return atem.setDisplayClockProperties({
        startFrom: { hours: Math.floor(s / 3600), minutes: Math.floor((s % 3600) / 60), seconds: s % 60, frames: 0 },
      });
    };
    parameters
      .commanded('clock/start', { type: 'S', meta: { label: 'Display clock starts from', description: 'hh:mm:ss' } }, (v) => {
        const [, h, m, s] = /^(\d{1,2}):(\d{2}):(\d{2})$/.exec(String(v)) ?? [];
        if (h === undefined) return Promise.reject(new HubError('PB_CONVERSION', `clock/start: ${String(v).slice(0, 40)} is not hh:mm:ss`));
        return startAt(Number(h) * 3600 + Number(m) * 60 + Number(s));
      })
      .report(`${two(at.startFrom.hours)}:${two(at.startFrom.minutes)}:${two(at.startFrom.seconds)}`);
    this.#step('clock/start/step', { label: 'Display clock start step', unit: 's' }, (by) => {
      const from = atem.state?.displayClock?.properties.startFrom ?? at.startFrom;
      return startAt(from.hours * 3600 + from.minutes * 60 + from.seconds + Math.round(by));
    });
  }
}
