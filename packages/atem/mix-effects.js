// @ts-check
/**
 * The switcher's M/Es: program, preview, cut and auto, and the next transition of each,
 * numbered from 1 as its panel names them (`me/1` is M/E 1).
 */
import { Enums } from 'atem-connection';

/** @typedef {import('patchbay-hub/connection').OwnedParameter} OwnedParameter */
/** @typedef {Record<'program' | 'preview' | 'style' | 'rate' | 'running' | 'position', OwnedParameter>} MixEffect */

/** Transition styles by the names people use, and the switcher's numbers for them. */
const STYLES = [
  { value: 'mix', label: 'Mix', style: Enums.TransitionStyle.MIX },
  { value: 'dip', label: 'Dip', style: Enums.TransitionStyle.DIP },
  { value: 'wipe', label: 'Wipe', style: Enums.TransitionStyle.WIPE },
  { value: 'dve', label: 'DVE', style: Enums.TransitionStyle.DVE },
  { value: 'sting', label: 'Stinger', style: Enums.TransitionStyle.STING },
];

export class MixEffects {
  #atem;
  #parameters;
  #fade;
  /** @type {Map<number, MixEffect>} */
  #made = new Map();

  /**
   * @param {import('atem-connection').Atem} atem
   * @param {import('patchbay-hub/connection').CommandedParameters} parameters
   * @param {import('./fades.js').Fade} fade
   */
  constructor(atem, parameters, fade) {
    this.#atem = atem;
    this.#parameters = parameters;
    this.#fade = fade;
  }

  /**
   * What the switcher says of an M/E: the part a state path names (`programInput`,
   * `transitionPosition` …), or all of it.
   * @param {import('atem-connection').AtemState} state @param {number} me from 0 @param {string} [part]
   */
  read(state, me, part) {
    const at = state.video.mixEffects[me];
    if (!at) return;
    const { program, preview, style, rate, running, position } = this.#parametersOf(me);
    if (!part || part === 'programInput') program.report(at.programInput);
    if (!part || part === 'previewInput') preview.report(at.previewInput);
    if (!part || part === 'transitionProperties')
      style.report(STYLES.find((s) => s.style === at.transitionProperties.nextStyle)?.value ?? 'mix');
    if ((!part || part === 'transitionSettings') && at.transitionSettings.mix) rate.report(at.transitionSettings.mix.rate);
    if (!part || part === 'transitionPosition') {
      running.report(at.transitionPosition.inTransition);
      position.report(at.transitionPosition.handlePosition / 10_000);
    }
  }

  /** An M/E's parameters, defined once. @param {number} me the library's index, from 0 */
  #parametersOf(me) {
    const known = this.#made.get(me);
    if (known) return known;
    const atem = this.#atem;
    const parameters = this.#parameters;
    const n = me + 1;
    parameters.trigger(`me/${n}/cut`, { label: `M/E ${n} cut` }, () => atem.cut(me));
    parameters.trigger(`me/${n}/auto`, { label: `M/E ${n} auto` }, () => atem.autoTransition(me));
    // The T-bar moved over a time, as a hand does.
    this.#fade(
      `me/${n}/transition/position`,
      `M/E ${n} T-bar`,
      { minimum: 0, maximum: 1 },
      () => (atem.state?.video.mixEffects[me]?.transitionPosition.handlePosition ?? 0) / 10_000,
      (v) => atem.setTransitionPosition(Math.round(v * 10_000), me),
    );
    const made = {
      program: parameters.commanded(`me/${n}/program`, { type: 'I', meta: { label: `M/E ${n} program` } }, (v) =>
        atem.changeProgramInput(Number(v), me),
      ),
      preview: parameters.commanded(`me/${n}/preview`, { type: 'I', meta: { label: `M/E ${n} preview` } }, (v) =>
        atem.changePreviewInput(Number(v), me),
      ),
      style: parameters.commanded(
        `me/${n}/transition/style`,
        { type: 'S', meta: { label: `M/E ${n} next transition`, choices: STYLES.map(({ value, label }) => ({ value, label })) } },
        (v) => atem.setTransitionStyle({ nextStyle: STYLES.find((s) => s.value === v)?.style ?? Enums.TransitionStyle.MIX }, me),
      ),
      rate: parameters.commanded(
        `me/${n}/transition/rate`,
        { type: 'I', meta: { label: `M/E ${n} mix rate`, unit: 'frames', minimum: 1, maximum: 250 } },
        (v) => atem.setMixTransitionSettings({ rate: Number(v) }, me),
      ),
      running: parameters.readOnly(`me/${n}/transition/running`, { type: 'B', meta: { label: `M/E ${n} in transition` } }),
      // The T-bar: a write moves it there at once (1 takes the transition), as a hand on the bar.
      position: parameters.commanded(
        `me/${n}/transition/position`,
        { type: 'F', meta: { label: `M/E ${n} T-bar`, minimum: 0, maximum: 1, step: 0.01 } },
        (v) => atem.setTransitionPosition(Math.round(Number(v) * 10_000), me),
      ),
    };
    this.#made.set(me, made);
    return made;
  }
}
