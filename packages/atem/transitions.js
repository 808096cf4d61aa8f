// @ts-check
/**
 * What an M/E's next transition takes beyond its style and mix rate: the layers it moves
 * (background and each upstream keyer), the rates of the dip, wipe and DVE, the transition
 * previewed on program, and fade to black — numbered from 1 as the panel names them.
 */
import { Enums } from 'atem-connection';

/** @typedef {import('patchbay-hub/connection').OwnedParameter} OwnedParameter */
/** @typedef {import('atem-connection').AtemState} AtemState */

const RATE = { unit: 'frames', minimum: 1, maximum: 250 };
/** The styles that have a rate of their own, by the library's name of their settings. */
const RATES = /** @type {const} */ ([
  ['dip', 'Dip', 'setDipTransitionSettings'],
  ['wipe', 'Wipe', 'setWipeTransitionSettings'],
  ['DVE', 'DVE', 'setDVETransitionSettings'],
]);

/** Layer names as people say them, `background` and `key1` …, with the switcher's bit for each. */
const layers = (/** @type {number} */ keyers) => [
  { name: 'background', label: 'Background', bit: Enums.TransitionSelection.Background },
  ...Array.from({ length: keyers }, (_, k) => ({ name: `key${k + 1}`, label: `Key ${k + 1}`, bit: 1 << (k + 1) })),
];

export class Transitions {
  #atem;
  #parameters;
  #write;

  /**
   * @param {import('atem-connection').Atem} atem
   * @param {import('patchbay-hub/connection').CommandedParameters} parameters
   * @param {import('./steps.js').WriteOnly} write
   */
  constructor(atem, parameters, write) {
    this.#atem = atem;
    this.#parameters = parameters;
    this.#write = write;
  }

  /**
   * What the switcher says of an M/E's transitions: the part a state path names
   * (`transitionProperties`, `transitionSettings`, `transitionPreview`, `fadeToBlack`), or all.
   * @param {AtemState} state @param {number} me from 0 @param {string} [part]
   */
  read(state, me, part) {
    const at = state.video.mixEffects[me];
    if (!at) return;
    if (!part || part === 'transitionProperties') this.#selection(state, me, at.transitionProperties.nextSelection);
    if (!part || part === 'transitionSettings') this.#rates(me, at.transitionSettings);
    if (!part || part === 'transitionPreview') this.#preview(me).report(at.transitionPreview);
    if ((!part || part === 'fadeToBlack') && at.fadeToBlack) this.#fade(me, at.fadeToBlack);
  }

  /** @param {number} me @param {import('atem-connection').VideoState.TransitionSettings} settings */
  #rates(me, settings) {
    const n = me + 1;
    for (const [style, label, set] of RATES) {
      const at = settings[style];
      if (!at) continue;
      this.#parameters
        .commanded(
          `me/${n}/transition/${style.toLowerCase()}/rate`,
          { type: 'I', meta: { label: `M/E ${n} ${label} rate`, ...RATE } },
          (v) => this.#atem[set]({ rate: Number(v) }, me),
        )
        .report(at.rate);
    }
  }

  /** @param {number} me */
  #preview(me) {
    const n = me + 1;
    return this.#parameters.commanded(`me/${n}/transition/preview`, { type: 'B', meta: { label: `M/E ${n} preview transition` } }, (v) =>
      this.#atem.previewTransition(v === true, me),
    );
  }

  /**
   * The layers the next transition moves: all at once (`transition/selection`, a JSON object
   * of the layers to change) and each on its own (`transition/next/<layer>`).
   * @param {AtemState} state @param {number} me @param {Enums.TransitionSelection[]} next
   */
  #selection(state, me, next) {
    const n = me + 1;
    const all = layers(state.info.mixEffects[me]?.keyCount ?? 0);
    const atem = this.#atem;
    /** The selection with `changes` made, from what the switcher has now. @param {Record<string, unknown>} changes */
    const selecting = (changes) => {
      const now = atem.state?.video.mixEffects[me]?.transitionProperties.nextSelection ?? next;
      const bits = all.filter((l) => (l.name in changes ? changes[l.name] === true : now.includes(l.bit))).map((l) => l.bit);
      return atem.setTransitionStyle({ nextSelection: bits }, me);
    };
    const meta = {
      label: `M/E ${n} next transition layers`,
      arguments: Object.fromEntries(all.map((l) => [l.name, { type: /** @type {const} */ ('B'), label: l.label, optional: true }])),
    };
    this.#parameters
      .commanded(`me/${n}/transition/selection`, { type: 'S', meta }, (v) => selecting(JSON.parse(String(v))))
      .report(JSON.stringify(Object.fromEntries(all.map((l) => [l.name, next.includes(l.bit)]))));
    // The layers by what the transition should leave: a key `on` or `off` air after it (moved
    // only if it is not so now), or `include` / `omit` it as it is.
    const modes = ['include', 'omit', 'on', 'off'].map((value) => ({ value, label: value[0]?.toUpperCase() + value.slice(1) }));
    const layersMeta = {
      label: `M/E ${n} next transition, by what it leaves`,
      arguments: Object.fromEntries(
        all.map((l, k) => [
          l.name,
          { type: /** @type {const} */ ('S'), label: l.label, choices: k === 0 ? modes.slice(0, 2) : modes, optional: true },
        ]),
      ),
    };
    this.#write(`me/${n}/transition/layers`, 'S', layersMeta, (v) => {
      const wanted = /** @type {Record<string, string>} */ (JSON.parse(String(v)));
      const keyers = atem.state?.video.mixEffects[me]?.upstreamKeyers ?? [];
      return selecting(
        Object.fromEntries(
          Object.entries(wanted).map(([name, mode]) => {
            const onAir = keyers[all.findIndex((l) => l.name === name) - 1]?.onAir === true;
            return [name, mode === 'include' || (mode === 'on' && !onAir) || (mode === 'off' && onAir)];
          }),
        ),
      );
    });
    for (const l of all)
      this.#parameters
        .commanded(`me/${n}/transition/next/${l.name}`, { type: 'B', meta: { label: `M/E ${n} next transition: ${l.label}` } }, (v) =>
          selecting({ [l.name]: v === true }),
        )
        .report(next.includes(l.bit));
  }

  /** @param {number} me @param {import('atem-connection').VideoState.FadeToBlackProperties} fade */
  #fade(me, fade) {
    const n = me + 1;
    const atem = this.#atem;
    this.#parameters.trigger(`me/${n}/ftb/auto`, { label: `M/E ${n} fade to black` }, () => atem.fadeToBlack(me));
    this.#parameters
      .commanded(`me/${n}/ftb/rate`, { type: 'I', meta: { label: `M/E ${n} fade to black rate`, ...RATE } }, (v) =>
        atem.setFadeToBlackRate(Number(v), me),
      )
      .report(fade.rate);
    this.#parameters.readOnly(`me/${n}/ftb/black`, { type: 'B', meta: { label: `M/E ${n} faded to black` } }).report(fade.isFullyBlack);
    this.#parameters.readOnly(`me/${n}/ftb/running`, { type: 'B', meta: { label: `M/E ${n} fading` } }).report(fade.inTransition);
  }
}
