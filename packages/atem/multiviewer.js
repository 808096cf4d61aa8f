// @ts-check
/**
 * The multiviewers: their layout (which quarters of the screen are split in four) and the
 * source of each window, numbered from 1 as the software names them (`mv/1/window/3` is the
 * third window of the first multiviewer); the choices are the inputs.
 */
import { Enums } from 'atem-connection';

/** The quarters of the screen, each a bit of the switcher's layout: set, the quarter is four small windows. */
const QUARTERS = /** @type {const} */ ([
  ['topLeft', 'Top left', Enums.MultiViewerLayout.TopLeftSmall],
  ['topRight', 'Top right', Enums.MultiViewerLayout.TopRightSmall],
  ['bottomLeft', 'Bottom left', Enums.MultiViewerLayout.BottomLeftSmall],
  ['bottomRight', 'Bottom right', Enums.MultiViewerLayout.BottomRightSmall],
]);

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
    const at = state.settings.multiViewers[mv];
    if (only === undefined && at?.properties) this.#layout(mv, at.properties.layout);
    const windows = at?.windows ?? [];
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

  /**
   * The layout: which quarters are split in four, a JSON object of `topLeft` … (`true` split);
   * a quarter not named is kept.
   * @param {number} mv @param {number} layout
   */
  #layout(mv, layout) {
    const atem = this.#atem;
    const meta = {
      label: `Multiviewer ${mv + 1} layout`,
      description: 'each quarter of the screen split in four (true) or one window (false)',
      arguments: Object.fromEntries(QUARTERS.map(([name, label]) => [name, { type: /** @type {const} */ ('B'), label, optional: true }])),
    };
    this.#parameters
      .commanded(`mv/${mv + 1}/layout`, { type: 'S', meta }, (v) => {
        const split = /** @type {Record<string, boolean | undefined>} */ (JSON.parse(String(v)));
        const now = atem.state?.settings.multiViewers[mv]?.properties?.layout ?? layout;
        const next = QUARTERS.reduce(
          (bits, [name, , bit]) => (split[name] === undefined ? bits : split[name] ? bits | bit : bits & ~bit),
          now,
        );
        return atem.setMultiViewerProperties({ layout: next }, mv);
      })
      .report(JSON.stringify(Object.fromEntries(QUARTERS.map(([name, , bit]) => [name, (layout & bit) !== 0]))));
  }
}
