// @ts-check
/**
 * The Fairlight audio mixer, where the switcher has one: each source of each input (its fader,
 * input gain, delay, balance and mix option), the master fader, the monitor (its gain, the
 * master, talkback and sidetone feeds, each muted or not) and solo, peaks reset, a step of
 * each level for a knob, and the audio routing (which source feeds each output, from 9.4). Inputs keep the switcher's numbers and sources its ids
 * (`fairlight/input/1/-65280` is input 1's stereo pair); levels are in dB.
 */
import { Enums } from 'atem-connection';
import { HubError } from 'patchbay-hub/connection';
import { MIX_OPTIONS } from './audio.js';

/** @typedef {import('atem-connection').AtemState} AtemState */
/** @typedef {NonNullable<AtemState['fairlight']>} FairlightState */
/** @typedef {NonNullable<NonNullable<NonNullable<FairlightState['inputs'][number]>['sources'][string]>['properties']>} SourceProperties */

const FAIRLIGHT = [Enums.FairlightAudioMixOption.Off, Enums.FairlightAudioMixOption.On, Enums.FairlightAudioMixOption.AudioFollowVideo];
const FADER = { unit: 'dB', minimum: -100, maximum: 10, step: 0.1 };
const GAIN = { unit: 'dB', minimum: -100, maximum: 6, step: 0.1 };
const BALANCE = { minimum: -50, maximum: 50, step: 1 };
/** The switcher keeps levels in hundredths of a dB, and balance from -10000 to 10000. */
const dB = (/** @type {number} */ hundredths) => hundredths / 100;
const hundredths = (/** @type {unknown} */ v) => Math.round(Number(v) * 100);
const clamp = (/** @type {number} */ v, /** @type {{ minimum: number, maximum: number }} */ range) =>
  Math.min(range.maximum, Math.max(range.minimum, v));

/** The monitor's levels and mutes, by the library's names, and ours. */
const MONITOR_LEVELS = /** @type {const} */ ([
  ['gain', 'gain', 'Monitor gain'],
  ['inputMasterGain', 'master/gain', 'Monitor master gain'],
  ['inputTalkbackGain', 'talkback/gain', 'Monitor talkback gain'],
  ['inputSidetoneGain', 'sidetone/gain', 'Monitor sidetone gain'],
]);
const MONITOR_MUTES = /** @type {const} */ ([
  ['inputMasterMuted', 'master/muted', 'Monitor master muted'],
  ['inputTalkbackMuted', 'talkback/muted', 'Monitor talkback muted'],
]);

export class FairlightAudio {
  #atem;
  #parameters;
  #step;
  #fade;
  #write;

  /**
   * @param {import('atem-connection').Atem} atem
   * @param {import('patchbay-hub/connection').CommandedParameters} parameters
   * @param {import('./steps.js').Step} step
   * @param {import('./fades.js').Fade} fade
   * @param {import('./steps.js').WriteOnly} write
   */
  constructor(atem, parameters, step, fade, write) {
    this.#atem = atem;
    this.#parameters = parameters;
    this.#step = step;
    this.#fade = fade;
    this.#write = write;
  }

  /**
   * The mixer, or the part a state path names (`fairlight.inputs.3.sources.-65280.properties`,
   * `fairlight.master`, `fairlight.monitor`, `fairlight.solo`).
   * @param {AtemState} state @param {string} [part] @param {number} [input]
   */
  read(state, part, input) {
    const fairlight = state.fairlight;
    if (!fairlight) return;
    for (const [id, at] of Object.entries(fairlight.inputs)) {
      if ((part && part !== 'inputs') || (input !== undefined && input !== Number(id))) continue;
      for (const [source, props] of Object.entries(at?.sources ?? {}))
        if (props?.properties) this.#source(Number(id), source, props.properties);
    }
    if ((!part || part === 'master') && fairlight.master?.properties) this.#master(fairlight.master.properties.faderGain);
    if ((!part || part === 'monitor') && fairlight.monitor) this.#monitor(fairlight.monitor);
    if (!part || part === 'solo') this.#solo(fairlight.solo);
    if ((!part || part === 'audioRouting') && fairlight.audioRouting) this.#routing(fairlight.audioRouting);
    if (!part) {
      const atem = this.#atem;
      this.#parameters.trigger('fairlight/resetPeaks', { label: 'Fairlight reset all peaks' }, () =>
        atem.setFairlightAudioMixerResetPeaks({ all: true, master: false }),
      );
      this.#parameters.trigger('fairlight/master/resetPeaks', { label: 'Fairlight master reset peaks' }, () =>
        atem.setFairlightAudioMixerResetPeaks({ all: false, master: true }),
      );
    }
  }

  /** @param {number} id @param {string} source @param {SourceProperties} at */
  #source(id, source, at) {
    const atem = this.#atem;
    const parameters = this.#parameters;
    const base = `fairlight/input/${id}/${source}`;
    const name = `Fairlight ${id} (${source})`;
    /** @param {Parameters<typeof atem.setFairlightAudioMixerSourceProps>[2]} props */
    const set = (props) => atem.setFairlightAudioMixerSourceProps(id, source, props);
    const now = () => atem.state?.fairlight?.inputs[id]?.sources[source]?.properties;
    parameters
      .commanded(`${base}/fader`, { type: 'F', meta: { label: `${name} fader`, ...FADER } }, (v) => set({ faderGain: hundredths(v) }))
      .report(dB(at.faderGain));
    parameters
      .commanded(`${base}/gain`, { type: 'F', meta: { label: `${name} input gain`, ...GAIN } }, (v) => set({ gain: hundredths(v) }))
      .report(dB(at.gain));
    parameters
      .commanded(`${base}/balance`, { type: 'F', meta: { label: `${name} balance`, ...BALANCE } }, (v) =>
        set({ balance: Math.round(Number(v) * 200) }),
      )
      .report(at.balance / 200);
    const delay = { unit: 'frames', minimum: 0, maximum: at.maxFramesDelay };
    parameters
      .commanded(`${base}/delay`, { type: 'I', meta: { label: `${name} delay`, ...delay } }, (v) => set({ framesDelay: Number(v) }))
      .report(at.framesDelay);
    const choices = MIX_OPTIONS.filter((_o, n) => at.supportedMixOptions.includes(FAIRLIGHT[n] ?? Enums.FairlightAudioMixOption.Off));
    parameters
      .commanded(`${base}/mix`, { type: 'S', meta: { label: `${name} mix`, choices } }, (v) =>
        set({ mixOption: FAIRLIGHT[MIX_OPTIONS.findIndex((o) => o.value === v)] ?? Enums.FairlightAudioMixOption.Off }),
      )
      .report(MIX_OPTIONS[FAIRLIGHT.indexOf(at.mixOption)]?.value ?? 'off');
    parameters.trigger(`${base}/resetPeaks`, { label: `${name} reset peaks` }, () =>
      atem.setFairlightAudioMixerSourceResetPeaks(id, source, { output: true, dynamicsInput: false, dynamicsOutput: false }),
    );
    this.#step(`${base}/fader/step`, { label: `${name} fader step`, unit: 'dB' }, (by) =>
      set({ faderGain: hundredths(clamp(dB(now()?.faderGain ?? 0) + by, FADER)) }),
    );
    this.#step(`${base}/gain/step`, { label: `${name} input gain step`, unit: 'dB' }, (by) =>
      set({ gain: hundredths(clamp(dB(now()?.gain ?? 0) + by, GAIN)) }),
    );
    this.#fade(
      `${base}/fader`,
      `${name} fader`,
      FADER,
      () => dB(now()?.faderGain ?? 0),
      (v) => set({ faderGain: hundredths(v) }),
    );
    this.#fade(
      `${base}/gain`,
      `${name} input gain`,
      GAIN,
      () => dB(now()?.gain ?? 0),
      (v) => set({ gain: hundredths(v) }),
    );
    this.#step(`${base}/delay/step`, { label: `${name} delay step`, unit: 'frames' }, (by) =>
      set({ framesDelay: Math.round(clamp((now()?.framesDelay ?? 0) + by, delay)) }),
    );
  }

  /** @param {number} faderGain hundredths of a dB */
  #master(faderGain) {
    const atem = this.#atem;
    this.#parameters
      .commanded('fairlight/master/fader', { type: 'F', meta: { label: 'Fairlight master fader', ...FADER } }, (v) =>
        atem.setFairlightAudioMixerMasterProps({ faderGain: hundredths(v) }),
      )
      .report(dB(faderGain));
    this.#fade(
      'fairlight/master/fader',
      'Fairlight master fader',
      FADER,
      () => dB(atem.state?.fairlight?.master?.properties?.faderGain ?? 0),
      (v) => atem.setFairlightAudioMixerMasterProps({ faderGain: hundredths(v) }),
    );
    this.#step('fairlight/master/fader/step', { label: 'Fairlight master fader step', unit: 'dB' }, (by) =>
      atem.setFairlightAudioMixerMasterProps({
        faderGain: hundredths(clamp(dB(atem.state?.fairlight?.master?.properties?.faderGain ?? 0) + by, FADER)),
      }),
    );
  }

  /** @param {NonNullable<FairlightState['monitor']>} monitor */
  #monitor(monitor) {
    const atem = this.#atem;
    for (const [field, id, label] of MONITOR_LEVELS) {
      this.#parameters
        .commanded(`fairlight/monitor/${id}`, { type: 'F', meta: { label, ...FADER } }, (v) =>
          atem.setFairlightAudioMixerMonitorProps({ [field]: hundredths(v) }),
        )
        .report(dB(monitor[field]));
      this.#fade(
        `fairlight/monitor/${id}`,
        label,
        FADER,
        () => dB(atem.state?.fairlight?.monitor?.[field] ?? 0),
        (v) => atem.setFairlightAudioMixerMonitorProps({ [field]: hundredths(v) }),
      );
      this.#step(`fairlight/monitor/${id}/step`, { label: `${label} step`, unit: 'dB' }, (by) =>
        atem.setFairlightAudioMixerMonitorProps({
          [field]: hundredths(clamp(dB(atem.state?.fairlight?.monitor?.[field] ?? 0) + by, FADER)),
        }),
      );
    }
    for (const [field, id, label] of MONITOR_MUTES)
      this.#parameters
        .commanded(`fairlight/monitor/${id}`, { type: 'B', meta: { label } }, (v) =>
          atem.setFairlightAudioMixerMonitorProps({ [field]: v === true }),
        )
        .report(monitor[field]);
  }

  /**
   * The routing: the source of each output (`fairlight/routing/1501-1/source`, an output's port
   * and channel pair; the choices are the sources by name), and one source to several outputs in
   * one write (`{"source": 65537, "to": "1501-1 1502-1"}`).
   * @param {NonNullable<FairlightState['audioRouting']>} routing
   */
  #routing(routing) {
    const atem = this.#atem;
    const name = (/** @type {number} */ id) => `${id >> 16}-${id & 0xffff}`;
    const choices = Object.entries(routing.sources).map(([id, s]) => ({ value: Number(id), label: s.name || name(Number(id)) }));
    for (const [id, output] of Object.entries(routing.outputs)) {
      const label = `Routing ${output.name || name(Number(id))}`;
      this.#parameters
        .commanded(`fairlight/routing/${name(Number(id))}/source`, { type: 'I', meta: { label, choices } }, (v) =>
          atem.setFairlightAudioRoutingOutputProperties(Number(id), { sourceId: Number(v) }),
        )
        .report(output.sourceId);
    }
    const meta = {
      label: 'Routing, one source to several outputs',
      arguments: {
        source: { type: /** @type {const} */ ('I'), label: 'Source', choices },
        to: { type: /** @type {const} */ ('S'), label: 'Outputs', description: 'output-pair, space or comma between' },
      },
    };
    this.#write('fairlight/routing', 'S', meta, (v) => {
      const { source, to } = /** @type {{ source: number, to: string }} */ (JSON.parse(String(v)));
      const outputs = to.split(/[\s,]+/).filter(Boolean);
      const ids = outputs.map((o) => Object.keys(routing.outputs).find((id) => name(Number(id)) === o));
      const unknown = outputs.find((_o, n) => ids[n] === undefined);
      if (unknown !== undefined)
        return Promise.reject(new HubError('PB_CONVERSION', `fairlight/routing: no output ${unknown.slice(0, 20)}`));
      return Promise.all(ids.map((id) => atem.setFairlightAudioRoutingOutputProperties(Number(id), { sourceId: source })));
    });
  }

  /** What the monitor solos: `<input>/<source>`, or empty for none. @param {FairlightState['solo']} solo */
  #solo(solo) {
    const atem = this.#atem;
    this.#parameters
      .commanded(
        'fairlight/monitor/solo',
        { type: 'S', meta: { label: 'Monitor solo', description: '<input>/<source>, or empty for none' } },
        (v) => {
          const [input, source] = String(v).split('/');
          return input && source
            ? atem.setFairlightAudioMixerMonitorSolo({ solo: true, index: Number(input), source })
            : atem.setFairlightAudioMixerMonitorSolo({ solo: false });
        },
      )
      .report(solo?.solo ? `${solo.index}/${solo.source}` : '');
  }
}
