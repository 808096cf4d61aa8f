// @ts-check
/**
 * The SuperSource, where the switcher has one: each box on or off, its source, where it is and
 * how big, numbered from 1 as the software names them (`ssrc/1/box/2`). Positions are the
 * software's: x from -48 to 48 and y from -27 to 27 (the library's hundredths), size 0.07 to 1,
 * crops 0 to 18 (top, bottom) and 0 to 32 (left, right).
 */

/** @typedef {import('atem-connection').VideoState.SuperSource.SuperSourceBox} Box */

/** Each number of a box as the software shows it, and the library's scale of it. */
const NUMBERS = /** @type {const} */ ([
  ['x', 'x', -48, 48, 100],
  ['y', 'y', -27, 27, 100],
  ['size', 'size', 0.07, 1, 1000],
  ['cropTop', 'crop/top', 0, 18, 1000],
  ['cropBottom', 'crop/bottom', 0, 18, 1000],
  ['cropLeft', 'crop/left', 0, 32, 1000],
  ['cropRight', 'crop/right', 0, 32, 1000],
]);

export class SuperSources {
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
   * A SuperSource's boxes, or the one a state path names (`video.superSources.0.boxes.2`).
   * @param {import('atem-connection').AtemState} state @param {number} ssrc from 0 @param {number} [only] from 0
   */
  read(state, ssrc, only) {
    const boxes = state.video.superSources[ssrc]?.boxes ?? [];
    boxes.forEach((box, index) => {
      if (box && (only === undefined || only === index)) this.#box(ssrc, index, box);
    });
  }

  /** @param {number} ssrc @param {number} index @param {Box} box */
  #box(ssrc, index, box) {
    const atem = this.#atem;
    const parameters = this.#parameters;
    const base = `ssrc/${ssrc + 1}/box/${index + 1}`;
    const name = `SuperSource ${ssrc + 1} box ${index + 1}`;
    /** @param {Partial<Box>} props */
    const set = (props) => atem.setSuperSourceBoxSettings(props, index, ssrc);
    parameters
      .commanded(`${base}/enabled`, { type: 'B', meta: { label: `${name} on` } }, (v) => set({ enabled: v === true }))
      .report(box.enabled);
    parameters
      .commanded(`${base}/source`, { type: 'I', meta: { label: `${name} source` } }, (v) => set({ source: Number(v) }))
      .report(box.source);
    for (const [field, label, minimum, maximum, scale] of NUMBERS)
      parameters
        .commanded(`${base}/${label}`, { type: 'F', meta: { label: `${name} ${label.replace('/', ' ')}`, minimum, maximum } }, (v) =>
          set({ [field]: Math.round(Number(v) * scale) }),
        )
        .report(box[field] / scale);
    parameters
      .commanded(`${base}/cropped`, { type: 'B', meta: { label: `${name} cropped` } }, (v) => set({ cropped: v === true }))
      .report(box.cropped);
  }
}
