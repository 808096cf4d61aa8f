// @ts-check
/**
 * The SuperSource, where the switcher has one: its art (fill and key, in front or behind, the
 * key's shape), each box on or off, its source, where it is and how big (and an offset of them
 * in one write), numbered from 1 as the software names them (`ssrc/1/box/2`). Positions are the
 * software's: x from -48 to 48 and y from -27 to 27 (the library's hundredths), size 0.07 to 1,
 * crops 0 to 18 (top, bottom) and 0 to 32 (left, right).
 */

import { Enums } from 'atem-connection';

/** @typedef {import('atem-connection').VideoState.SuperSource.SuperSourceBox} Box */
/** @typedef {import('atem-connection').VideoState.SuperSource.SuperSourceProperties} Art */

const OPTIONS = [
  { value: 'background', label: 'Behind the boxes', option: Enums.SuperSourceArtOption.Background },
  { value: 'foreground', label: 'In front of the boxes', option: Enums.SuperSourceArtOption.Foreground },
];

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

/** How far an offset may move a number: from one end of its range to the other, and at least 1. */
const span = (/** @type {number} */ minimum, /** @type {number} */ maximum) => Math.max(1, Math.round((maximum - minimum) * 1000) / 1000);

export class SuperSources {
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
   * A SuperSource's boxes, or the one a state path names (`video.superSources.0.boxes.2`).
   * @param {import('atem-connection').AtemState} state @param {number} ssrc from 0 @param {number} [only] from 0
   */
  read(state, ssrc, only) {
    const at = state.video.superSources[ssrc];
    if (only === undefined && at?.properties) this.#art(ssrc, at.properties);
    const boxes = at?.boxes ?? [];
    boxes.forEach((box, index) => {
      if (box && (only === undefined || only === index)) this.#box(ssrc, index, box);
    });
  }

  /**
   * The art: its fill and key, in front or behind (each on its own), and all of it with the key's
   * shape in one write (`ssrc/1/art`, clip and gain in per cent; the switcher keeps tenths).
   * @param {number} ssrc @param {Art} art
   */
  #art(ssrc, art) {
    const atem = this.#atem;
    const parameters = this.#parameters;
    const base = `ssrc/${ssrc + 1}/art`;
    const name = `SuperSource ${ssrc + 1} art`;
    /** @param {Partial<Art>} props */
    const set = (props) => atem.setSuperSourceProperties(props, ssrc);
    const option = (/** @type {unknown} */ v) => OPTIONS.find((o) => o.value === v)?.option ?? Enums.SuperSourceArtOption.Background;
    parameters
      .commanded(`${base}/fill`, { type: 'I', meta: { label: `${name} fill` } }, (v) => set({ artFillSource: Number(v) }))
      .report(art.artFillSource);
    parameters
      .commanded(`${base}/key`, { type: 'I', meta: { label: `${name} key` } }, (v) => set({ artCutSource: Number(v) }))
      .report(art.artCutSource);
    parameters
      .commanded(
        `${base}/option`,
        { type: 'S', meta: { label: `${name} place`, choices: OPTIONS.map(({ value, label }) => ({ value, label })) } },
        (v) => set({ artOption: option(v) }),
      )
      .report(OPTIONS.find((o) => o.option === art.artOption)?.value ?? 'background');
    const percent = { type: /** @type {const} */ ('F'), unit: '%', minimum: 0, maximum: 100, optional: true };
    const meta = {
      label: name,
      arguments: {
        fill: { type: /** @type {const} */ ('I'), label: 'Fill', optional: true },
        key: { type: /** @type {const} */ ('I'), label: 'Key', optional: true },
        option: {
          type: /** @type {const} */ ('S'),
          label: 'Place',
          choices: OPTIONS.map(({ value, label }) => ({ value, label })),
          optional: true,
        },
        preMultiplied: { type: /** @type {const} */ ('B'), label: 'Pre-multiplied', optional: true },
        clip: { ...percent, label: 'Clip' },
        gain: { ...percent, label: 'Gain' },
        invert: { type: /** @type {const} */ ('B'), label: 'Invert', optional: true },
      },
    };
    parameters
      .commanded(base, { type: 'S', meta }, (v) => {
        const a =
          /** @type {{ fill?: number, key?: number, option?: string, preMultiplied?: boolean, clip?: number, gain?: number, invert?: boolean }} */ (
            JSON.parse(String(v))
          );
        return set({
          ...(a.fill !== undefined && { artFillSource: a.fill }),
          ...(a.key !== undefined && { artCutSource: a.key }),
          ...(a.option !== undefined && { artOption: option(a.option) }),
          ...(a.preMultiplied !== undefined && { artPreMultiplied: a.preMultiplied }),
          ...(a.clip !== undefined && { artClip: Math.round(a.clip * 10) }),
          ...(a.gain !== undefined && { artGain: Math.round(a.gain * 10) }),
          ...(a.invert !== undefined && { artInvertKey: a.invert }),
        });
      })
      .report(
        JSON.stringify({
          fill: art.artFillSource,
          key: art.artCutSource,
          option: OPTIONS.find((o) => o.option === art.artOption)?.value ?? 'background',
          preMultiplied: art.artPreMultiplied,
          clip: art.artClip / 10,
          gain: art.artGain / 10,
          invert: art.artInvertKey,
        }),
      );
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
    const offsets = Object.fromEntries(
      NUMBERS.map(([field, label, minimum, maximum]) => [
        field,
        { type: /** @type {const} */ ('F'), label, minimum: -span(minimum, maximum), maximum: span(minimum, maximum), optional: true },
      ]),
    );
    const offsetMeta = {
      label: `${name} offset`,
      description: 'moves the box by the values written, within its ranges',
      arguments: offsets,
    };
    this.#write(`${base}/offset`, 'S', offsetMeta, (v) => {
      const by = /** @type {Record<string, number>} */ (JSON.parse(String(v)));
      const now = atem.state?.video.superSources[ssrc]?.boxes[index] ?? box;
      return set(
        Object.fromEntries(
          NUMBERS.filter(([field]) => by[field] !== undefined).map(([field, , minimum, maximum, scale]) => [
            field,
            Math.round(Math.min(maximum, Math.max(minimum, now[field] / scale + (by[field] ?? 0))) * scale),
          ]),
        ),
      );
    });
    parameters
      .commanded(`${base}/cropped`, { type: 'B', meta: { label: `${name} cropped` } }, (v) => set({ cropped: v === true }))
      .report(box.cropped);
  }
}
