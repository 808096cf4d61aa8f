// @ts-check
/**
 * The multiviewers' windows: the source of each, numbered from 1 as the software names them
 * (`mv/1/window/3` is the third window of the first multiviewer); the choices are the inputs.
 */

export class Multiviewers {
  #atem;
  #parameters;

  /**
   * @param {import('atem-connection').Atem} atem
   * @param {import('patchbay-hub/connection').CommandedParameters} parameters
   */
  constructor(atem, parameters) {
    this.#atem = atem;
    this.#parameters = parameters;
  }

  /**
   * A multiviewer's windows, or the one a state path names (`settings.multiViewers.0.windows.4`).
   * @param {import('atem-connection').AtemState} state @param {number} mv from 0 @param {number} [only] from 0
   */
  read(state, mv, only) {
    const windows = state.settings.multiViewers[mv]?.windows ?? [];
    windows.forEach((window, index) => {
      if (!window || (only !== undefined && only !== index)) return;
      const label = `Multiviewer ${mv + 1} window ${index + 1}`;
      this.#parameters
        .commanded(`mv/${mv + 1}/window/${index + 1}/source`, { type: 'I', meta: { label } }, (v) =>
          this.#atem.setMultiViewerWindowSource(Number(v), mv, index),
        )
        .report(window.source);
    });
  }
}
