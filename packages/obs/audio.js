// @ts-check
/**
 * The audio of each input that has any (OBS's mixer): mute, volume in dB, its steps and a
 * fade, sync offset, balance, monitoring, and the peak level. Read on connect and as inputs
 * come, kept current by OBS's events; the meters, OBS's one high-volume event, are told at
 * most five times a second an input.
 */

/** @typedef {import('patchbay-hub/connection').OwnedParameter} OwnedParameter */
/** @typedef {{ muted: OwnedParameter, volume: OwnedParameter, syncOffset: OwnedParameter, balance: OwnedParameter, monitor: OwnedParameter, peak: OwnedParameter, peakAt: number, steps: { volume: Stepped, syncOffset: Stepped, balance: Stepped } }} Strip */
import { Stepped } from 'patchbay-hub/connection';

/** OBS's fader: 0 dB at the top, -100 dB (silence) at the bottom, +26 dB of gain at most. */
const VOLUME = { minimum: -100, maximum: 26 };
/** Milliseconds between two reports of an input's peak. */
const PEAK_EVERY_MS = 200;

/** OBS's monitoring types and the values of `monitor`. */
const MONITOR = /** @type {const} */ ({
  none: 'OBS_MONITORING_TYPE_NONE',
  monitorOnly: 'OBS_MONITORING_TYPE_MONITOR_ONLY',
  monitorAndOutput: 'OBS_MONITORING_TYPE_MONITOR_AND_OUTPUT',
});
const MONITOR_CHOICES = [
  { value: 'none', label: 'Monitor off' },
  { value: 'monitorOnly', label: 'Monitor only (mute output)' },
  { value: 'monitorAndOutput', label: 'Monitor and output' },
];

/** @param {string} type */
const monitorOf = (type) => Object.entries(MONITOR).find(([, obs]) => obs === type)?.[0] ?? 'none';

/**
 * Where OBS's fader stands for a volume, 0–1 (libobs's logarithmic fader: -96 dB and less at
 * the bottom, 0 dB at the top; gain above 0 dB is past the top).
 * @param {number} db
 */
export function faderOf(db) {
  if (db >= 0) return 1;
  if (db <= -96) return 0;
  const bottom = -Math.log10(96 + 6);
  const top = -Math.log10(6);
  return (-Math.log10(-db + 6) - bottom) / (top - bottom);
}

/** The volume of a fader's place, 0–1. @param {number} place */
export function volumeOf(place) {
  if (place >= 1) return 0;
  if (place <= 0) return VOLUME.minimum;
  return Math.max(VOLUME.minimum, -(96 + 6) * ((96 + 6) / 6) ** -place + 6);
}

/** @param {number} value @param {number} minimum @param {number} maximum */
const within = (value, minimum, maximum) => Math.min(maximum, Math.max(minimum, value));

export class Audio {
  #obs;
  #ask;
  #parameters;
  #segments;
  #scheduler;
  /** Strips by input name. @type {Map<string, Strip>} */
  #strips = new Map();

  /**
   * @param {import('obs-websocket-js').OBSWebSocket} obs
   * @param {import('./requests.js').Ask} ask
   * @param {import('patchbay-hub/connection').CommandedParameters} parameters
   * @param {import('./segments.js').Segments} segments
   * @param {import('patchbay-hub/connection').Scheduler} scheduler
   */
  constructor(obs, ask, parameters, segments, scheduler) {
    this.#obs = obs;
    this.#ask = ask;
    this.#parameters = parameters;
    this.#segments = segments;
    this.#scheduler = scheduler;
  }

  /** Reads the audio of every input that has any. @param {{ inputName: string }[]} inputs */
  read(inputs) {
    return Promise.all(inputs.map(({ inputName }) => this.#readInput(inputName)));
  }

  /** @param {(read: () => Promise<unknown>) => void} _again */
  listen(_again) {
    const obs = this.#obs;
    obs.on('InputMuteStateChanged', ({ inputName, inputMuted }) => this.#strips.get(inputName)?.muted.report(inputMuted));
    obs.on('InputVolumeChanged', ({ inputName, inputVolumeDb }) => this.#heard(inputName, 'volume', decibels(inputVolumeDb)));
    obs.on('InputAudioSyncOffsetChanged', ({ inputName, inputAudioSyncOffset }) =>
      this.#heard(inputName, 'syncOffset', inputAudioSyncOffset),
    );
    obs.on('InputAudioBalanceChanged', ({ inputName, inputAudioBalance }) => this.#heard(inputName, 'balance', inputAudioBalance));
    obs.on('InputAudioMonitorTypeChanged', ({ inputName, monitorType }) =>
      this.#strips.get(inputName)?.monitor.report(monitorOf(monitorType)),
    );
    obs.on('InputVolumeMeters', ({ inputs }) => this.#meters(inputs));
  }

  /** An input's audio, when it has any (OBS refuses the mute of an input without). @param {string} inputName */
  async #readInput(inputName) {
    const obs = this.#obs;
    const muted = await obs.call('GetInputMute', { inputName }).catch(() => undefined);
    if (!muted) return;
    const [volume, offset, balance, monitor] = await Promise.all([
      obs.call('GetInputVolume', { inputName }),
      obs.call('GetInputAudioSyncOffset', { inputName }),
      obs.call('GetInputAudioBalance', { inputName }),
      obs.call('GetInputAudioMonitorType', { inputName }),
    ]);
    const strip = this.#strip(inputName);
    strip.muted.report(muted.inputMuted);
    this.#heard(inputName, 'volume', decibels(volume.inputVolumeDb));
    this.#heard(inputName, 'syncOffset', offset.inputAudioSyncOffset);
    this.#heard(inputName, 'balance', balance.inputAudioBalance);
    strip.monitor.report(monitorOf(monitor.monitorType));
  }

  /** A level OBS said: the parameter, and where its next step starts. @param {string} inputName @param {'volume' | 'syncOffset' | 'balance'} what @param {number} value */
  #heard(inputName, what, value) {
    const strip = this.#strips.get(inputName);
    if (!strip) return;
    strip.steps[what].heard(value);
    strip[what].report(value);
  }

  /** An input's parameters, defined the first time its audio is read. @param {string} inputName */
  #strip(inputName) {
    let strip = this.#strips.get(inputName);
    if (strip) return strip;
    const p = this.#parameters;
    const ask = this.#ask;
    const at = `input/${this.#segments.of('input', inputName)}/audio`;
    const label = (/** @type {string} */ what) => `${inputName} ${what}`;
    const steps = { volume: new Stepped(), syncOffset: new Stepped(), balance: new Stepped() };
    const setVolume = (/** @type {number} */ db) =>
      steps.volume.write(within(db, VOLUME.minimum, VOLUME.maximum), (inputVolumeDb) =>
        ask('SetInputVolume', { inputName, inputVolumeDb }),
      );
    const setOffset = (/** @type {number} */ ms) =>
      steps.syncOffset.write(within(ms, -950, 20_000), (inputAudioSyncOffset) =>
        ask('SetInputAudioSyncOffset', { inputName, inputAudioSyncOffset }),
      );
    const setBalance = (/** @type {number} */ to) =>
      steps.balance.write(within(to, 0, 1), (inputAudioBalance) => ask('SetInputAudioBalance', { inputName, inputAudioBalance }));
    /** @type {OwnedParameter} */
    const volume = p.commanded(`${at}/volume`, { type: 'F', meta: { label: label('volume'), unit: 'dB', ...VOLUME, step: 0.1 } }, (v) =>
      setVolume(Number(v)),
    );
    /** @type {OwnedParameter} */
    const syncOffset = p.commanded(
      `${at}/syncOffset`,
      { type: 'I', meta: { label: label('sync offset'), unit: 'ms', minimum: -950, maximum: 20_000 } },
      (v) => setOffset(Number(v)),
    );
    /** @type {OwnedParameter} */
    const balance = p.commanded(
      `${at}/balance`,
      { type: 'F', meta: { label: label('balance'), description: '0 left, 0.5 centre, 1 right', minimum: 0, maximum: 1, step: 0.01 } },
      (v) => setBalance(Number(v)),
    );
    strip = {
      muted: p.commanded(`${at}/muted`, { type: 'B', meta: { label: label('muted') } }, (v) =>
        ask('SetInputMute', { inputName, inputMuted: v === true }),
      ),
      volume,
      syncOffset,
      balance,
      monitor: p.commanded(`${at}/monitor`, { type: 'S', meta: { label: label('monitoring'), choices: MONITOR_CHOICES } }, (v) =>
        ask('SetInputAudioMonitorType', { inputName, monitorType: MONITOR[/** @type {keyof typeof MONITOR} */ (String(v))] }),
      ),
      peak: p.readOnly(`${at}/peak`, {
        type: 'F',
        meta: { label: label('peak'), unit: 'dBFS', description: 'the peak of its first channel, told at most 5 times a second' },
      }),
      peakAt: Number.NEGATIVE_INFINITY,
      steps,
    };
    // Steps from the value written last or OBS's, within the parameter's range.
    p.order(
      `${at}/volumeAdjust`,
      { type: 'F', meta: { label: label('volume up or down'), unit: 'dB', minimum: -126, maximum: 126 } },
      (v) => setVolume(steps.volume.now(0) + Number(v)),
    );
    p.order(
      `${at}/volumePercentAdjust`,
      {
        type: 'F',
        meta: { label: label('fader up or down'), unit: '%', minimum: -100, maximum: 100, description: "of OBS's fader's travel" },
      },
      (v) => setVolume(volumeOf(faderOf(steps.volume.now(0)) + Number(v) / 100)),
    );
    p.order(
      `${at}/volumeFade`,
      {
        type: 'S',
        meta: {
          label: label('fade'),
          description: 'fades the volume to `volume` over `duration`, in 25 steps OBS takes on its own',
          arguments: {
            volume: { type: 'F', label: 'Volume', unit: 'dB', ...VOLUME },
            duration: { type: 'I', label: 'Duration', unit: 'ms', minimum: 50, maximum: 5000 },
          },
        },
      },
      (v) => this.#fade(inputName, steps.volume.now(0), /** @type {{ volume: number, duration: number }} */ (JSON.parse(String(v)))),
    );
    p.order(
      `${at}/syncOffsetAdjust`,
      { type: 'I', meta: { label: label('sync offset later or earlier'), unit: 'ms', minimum: -20_950, maximum: 20_950 } },
      (v) => setOffset(steps.syncOffset.now(0) + Number(v)),
    );
    p.order(`${at}/balanceAdjust`, { type: 'F', meta: { label: label('balance right or left'), minimum: -1, maximum: 1 } }, (v) =>
      setBalance(steps.balance.now(0.5) + Number(v)),
    );
    this.#strips.set(inputName, strip);
    return strip;
  }

  /**
   * A fade: its first step a request whose answer is the write's, the rest one batch OBS runs
   * on its own, steps and pauses, so that a fade longer than the request timeout is not
   * answered as lost, and goes on if the link drops.
   * @param {string} inputName @param {number} from @param {{ volume: number, duration: number }} to
   */
  async #fade(inputName, from, { volume, duration }) {
    const steps = 25;
    const step = (/** @type {number} */ n) => from + ((volume - from) * n) / steps;
    await this.#ask('SetInputVolume', { inputName, inputVolumeDb: step(1) });
    /** @type {import('obs-websocket-js').RequestBatchRequest[]} */
    const batch = [];
    for (let n = 2; n <= steps; n++) {
      batch.push({ requestType: 'Sleep', requestData: { sleepMillis: Math.round(duration / steps) } });
      batch.push({ requestType: 'SetInputVolume', requestData: { inputName, inputVolumeDb: step(n) } });
    }
    void this.#obs.callBatch(batch, { haltOnFailure: true }).catch(() => {});
  }

  /**
   * OBS's meters (every 50 ms, of the inputs that are active): each input's peak at most every
   * 200 ms; an input OBS no longer meters (off air, removed from the scenes) falls to silence.
   * @param {{ [key: string]: unknown }[]} inputs
   */
  #meters(inputs) {
    const now = this.#scheduler.now();
    const metered = new Map(inputs.map((input) => [String(input['inputName']), input]));
    for (const [inputName, strip] of this.#strips) {
      if (now - strip.peakAt < PEAK_EVERY_MS) continue;
      const channel = /** @type {number[][] | undefined} */ (metered.get(inputName)?.['inputLevelsMul'])?.[0];
      const peak = channel?.[1] ?? 0;
      strip.peakAt = now;
      strip.peak.report(peak > 0 ? Math.max(VOLUME.minimum, Math.round(200 * Math.log10(peak)) / 10) : VOLUME.minimum);
    }
  }
}

/** OBS's dB to a tenth (silence is -100). @param {number} db */
function decibels(db) {
  return Number.isFinite(db) ? Math.round(db * 10) / 10 : VOLUME.minimum;
}
