// @ts-check
/**
 * The classic audio mixer, where the switcher has one (before Fairlight): each channel's mix
 * option (off, on, audio follows video), gain and balance, the master's gain and balance, and
 * peaks reset, and a step of each for a knob. Channels keep the switcher's numbers: an input's own (`audio/input/1`), a media
 * player's 2001 and on. Gains are in dB, -60 (silence) to +6; balance -50 (left) to 50.
 */
import { Enums } from 'atem-connection';

/** @typedef {import('atem-connection').AtemState} AtemState */

export const MIX_OPTIONS = /** @type {const} */ ([
  { value: 'off', label: 'Off' },
  { value: 'on', label: 'On' },
  { value: 'afv', label: 'Audio follows video' },
]);
const CLASSIC = [Enums.AudioMixOption.Off, Enums.AudioMixOption.On, Enums.AudioMixOption.AudioFollowVideo];
const GAIN = { unit: 'dB', minimum: -60, maximum: 6, step: 0.1 };
const BALANCE = { minimum: -50, maximum: 50, step: 1 };
/** The switcher's silence (-infinity dB) as the least gain a write may give. */
const decibels = (/** @type {number} */ gain) => Math.max(gain, GAIN.minimum);
const clamp = (/** @type {number} */ v, /** @type {{ minimum: number, maximum: number }} */ range) =>
  Math.min(range.maximum, Math.max(range.minimum, v));

export class ClassicAudio {
  #atem;
  #parameters;
  #step;
  #fade;

  /**
   * @param {import('atem-connection').Atem} atem
   * @param {import('patchbay-hub/connection').CommandedParameters} parameters
   * @param {import('./steps.js').Step} step
   * @param {import('./fades.js').Fade} fade
   */
  constructor(atem, parameters, step, fade) {
    this.#atem = atem;
    this.#parameters = parameters;
    this.#step = step;
    this.#fade = fade;
  }

  /**
   * The mixer, or the part a state path names (`audio.channels.3`, `audio.master`).
   * @param {AtemState} state @param {string} [part] @param {number} [channel]
   */
  read(state, part, channel) {
    const audio = state.audio;
    if (!audio) return;
    if (part === 'channels' && channel !== undefined) this.#channel(channel, audio.channels[channel]);
    else if (!part || part === 'channels') for (const [id, at] of Object.entries(audio.channels)) this.#channel(Number(id), at);
    if (!part || part === 'master') this.#master(audio.master);
    if (!part && audio.hasMonitor)
      this.#parameters.trigger('audio/monitor/resetPeaks', { label: 'Audio monitor reset peaks' }, () =>
        this.#atem.setClassicAudioResetPeaks({ monitor: true }),
      );
  }

  /** @param {number} id @param {import('atem-connection').AudioState.ClassicAudioChannel | undefined} at */
  #channel(id, at) {
    if (!at) return;
    const atem = this.#atem;
    const parameters = this.#parameters;
    const base = `audio/input/${id}`;
    /** @param {Parameters<typeof atem.setClassicAudioMixerInputProps>[1]} props */
    const set = (props) => atem.setClassicAudioMixerInputProps(id, props);
    parameters
      .commanded(`${base}/mix`, { type: 'S', meta: { label: `Audio ${id} mix`, choices: [...MIX_OPTIONS] } }, (v) =>
        set({ mixOption: CLASSIC[MIX_OPTIONS.findIndex((o) => o.value === v)] ?? Enums.AudioMixOption.Off }),
      )
      .report(MIX_OPTIONS[CLASSIC.indexOf(at.mixOption)]?.value ?? 'off');
    parameters
      .commanded(`${base}/gain`, { type: 'F', meta: { label: `Audio ${id} gain`, ...GAIN } }, (v) => set({ gain: Number(v) }))
      .report(decibels(at.gain));
    parameters
      .commanded(`${base}/balance`, { type: 'F', meta: { label: `Audio ${id} balance`, ...BALANCE } }, (v) => set({ balance: Number(v) }))
      .report(at.balance);
    parameters.trigger(`${base}/resetPeaks`, { label: `Audio ${id} reset peaks` }, () => atem.setClassicAudioResetPeaks({ input: id }));
    const gain = () => decibels(atem.state?.audio?.channels[id]?.gain ?? 0);
    this.#step(`${base}/gain/step`, { label: `Audio ${id} gain step`, unit: 'dB' }, (by) => set({ gain: clamp(gain() + by, GAIN) }));
    this.#fade(`${base}/gain`, `Audio ${id} gain`, GAIN, gain, (v) => set({ gain: v }));
  }

  /** @param {import('atem-connection').AudioState.ClassicAudioMasterChannel | undefined} master */
  #master(master) {
    if (!master) return;
    const atem = this.#atem;
    const parameters = this.#parameters;
    parameters
      .commanded('audio/master/gain', { type: 'F', meta: { label: 'Audio master gain', ...GAIN } }, (v) =>
        atem.setClassicAudioMixerMasterProps({ gain: Number(v) }),
      )
      .report(decibels(master.gain));
    parameters
      .commanded('audio/master/balance', { type: 'F', meta: { label: 'Audio master balance', ...BALANCE } }, (v) =>
        atem.setClassicAudioMixerMasterProps({ balance: Number(v) }),
      )
      .report(master.balance);
    const now = () => atem.state?.audio?.master;
    this.#step('audio/master/gain/step', { label: 'Audio master gain step', unit: 'dB' }, (by) =>
      atem.setClassicAudioMixerMasterProps({ gain: clamp(decibels(now()?.gain ?? 0) + by, GAIN) }),
    );
    this.#step('audio/master/balance/step', { label: 'Audio master balance step' }, (by) =>
      atem.setClassicAudioMixerMasterProps({ balance: clamp((now()?.balance ?? 0) + by, BALANCE) }),
    );
    this.#fade(
      'audio/master/gain',
      'Audio master gain',
      GAIN,
      () => decibels(now()?.gain ?? 0),
      (v) => atem.setClassicAudioMixerMasterProps({ gain: v }),
    );
    this.#fade(
      'audio/master/balance',
      'Audio master balance',
      BALANCE,
      () => now()?.balance ?? 0,
      (v) => atem.setClassicAudioMixerMasterProps({ balance: Math.round(v) }),
    );
    parameters.trigger('audio/master/resetPeaks', { label: 'Audio master reset peaks' }, () =>
      atem.setClassicAudioResetPeaks({ master: true }),
    );
    parameters.trigger('audio/resetPeaks', { label: 'Audio reset all peaks' }, () => atem.setClassicAudioResetPeaks({ all: true }));
  }
}
