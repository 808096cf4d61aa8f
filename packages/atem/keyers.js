// @ts-check
/**
 * The keyers: each M/E's upstream keyers (`me/1/usk/1` …) — on air, type, fill and key, mask,
 * the flying key's keyframes — and the downstream keyers (`dsk/1` …) — on air, tie, auto, fill
 * and key, rate, pre-multiplied key, mask — numbered from 1 as the panel names them.
 */
import { Enums } from 'atem-connection';

/** @typedef {import('atem-connection').AtemState} AtemState */

const TYPES = [
  { value: 'luma', label: 'Luma', type: Enums.MixEffectKeyType.Luma },
  { value: 'chroma', label: 'Chroma', type: Enums.MixEffectKeyType.Chroma },
  { value: 'pattern', label: 'Pattern', type: Enums.MixEffectKeyType.Pattern },
  { value: 'dve', label: 'DVE', type: Enums.MixEffectKeyType.DVE },
];
/** Where a flying key is, by the switcher's IsAtKeyFrame; `full` is written, and reads `none` once there. */
/** @type {{ value: string, label: string, to: Enums.FlyKeyKeyFrame.A | Enums.FlyKeyKeyFrame.B | Enums.FlyKeyKeyFrame.Full, at: number }[]} */
const KEYFRAMES = [
  { value: 'a', label: 'Keyframe A', to: Enums.FlyKeyKeyFrame.A, at: Enums.IsAtKeyFrame.A },
  { value: 'b', label: 'Keyframe B', to: Enums.FlyKeyKeyFrame.B, at: Enums.IsAtKeyFrame.B },
  { value: 'full', label: 'Full', to: Enums.FlyKeyKeyFrame.Full, at: -1 },
];
const DIRECTIONS = [
  'centre of key',
  'top left',
  'top centre',
  'top right',
  'middle left',
  'middle centre',
  'middle right',
  'bottom left',
  'bottom centre',
  'bottom right',
].map((label, direction) => ({ value: label.replaceAll(' ', '-'), label: label[0]?.toUpperCase() + label.slice(1), direction }));
const RATE = { unit: 'frames', minimum: 1, maximum: 250 };
/** The pattern key's styles by the library's names, as people write them: `left-to-right-bar` … */
const PATTERNS = Object.entries(Enums.Pattern)
  .filter(([, style]) => typeof style === 'number')
  .map(([name, style]) => ({
    value: name.replace(/(?<=[a-z])(?=[A-Z0-9])/g, '-').toLowerCase(),
    label: name.replace(/(?<=[a-z])(?=[A-Z0-9])/g, ' '),
    style: Number(style),
  }));

export class Keyers {
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
   * An upstream keyer, or the part a state path names (`onAir`, `flyProperties`; the rest, all).
   * @param {AtemState} state @param {number} me from 0 @param {number} key from 0 @param {string} [part]
   */
  upstream(state, me, key, part) {
    const at = state.video.mixEffects[me]?.upstreamKeyers[key];
    if (!at) return;
    const atem = this.#atem;
    const parameters = this.#parameters;
    const base = `me/${me + 1}/usk/${key + 1}`;
    const name = `M/E ${me + 1} key ${key + 1}`;
    if (!part || part === 'onAir')
      parameters
        .commanded(`${base}/onAir`, { type: 'B', meta: { label: `${name} on air` } }, (v) =>
          atem.setUpstreamKeyerOnAir(v === true, me, key),
        )
        .report(at.onAir);
    if (part === 'onAir') return;
    if (part !== 'flyProperties') {
      parameters
        .commanded(
          `${base}/type`,
          { type: 'S', meta: { label: `${name} type`, choices: TYPES.map(({ value, label }) => ({ value, label })) } },
          (v) =>
            atem.setUpstreamKeyerType({ mixEffectKeyType: TYPES.find((t) => t.value === v)?.type ?? Enums.MixEffectKeyType.Luma }, me, key),
        )
        .report(TYPES.find((t) => t.type === at.mixEffectKeyType)?.value ?? 'luma');
      parameters
        .commanded(`${base}/fly`, { type: 'B', meta: { label: `${name} flying key` } }, (v) =>
          atem.setUpstreamKeyerType({ flyEnabled: v === true }, me, key),
        )
        .report(at.flyEnabled);
      this.#sources(base, name, at.fillSource, at.cutSource, {
        fill: (source) => atem.setUpstreamKeyerFillSource(source, me, key),
        key: (source) => atem.setUpstreamKeyerCutSource(source, me, key),
      });
      if (at.patternSettings)
        this.#pattern(base, name, at.patternSettings, (props) => atem.setUpstreamKeyerPatternSettings(props, me, key));
      const m = at.maskSettings;
      this.#mask(base, name, { enabled: m.maskEnabled, top: m.maskTop, bottom: m.maskBottom, left: m.maskLeft, right: m.maskRight }, (p) =>
        atem.setUpstreamKeyerMaskSettings(
          {
            ...(p.enabled !== undefined && { maskEnabled: p.enabled }),
            ...(p.top !== undefined && { maskTop: p.top }),
            ...(p.bottom !== undefined && { maskBottom: p.bottom }),
            ...(p.left !== undefined && { maskLeft: p.left }),
            ...(p.right !== undefined && { maskRight: p.right }),
          },
          me,
          key,
        ),
      );
    }
    const fly = at.flyProperties;
    if (!fly || !at.canFlyKey) return;
    parameters
      .commanded(
        `${base}/keyframe`,
        { type: 'S', meta: { label: `${name} fly to keyframe`, choices: KEYFRAMES.map(({ value, label }) => ({ value, label })) } },
        (v) => atem.runUpstreamKeyerFlyKeyTo(me, key, KEYFRAMES.find((k) => k.value === v)?.to ?? Enums.FlyKeyKeyFrame.Full),
      )
      .report(
        fly.isAtKeyFrame === Enums.IsAtKeyFrame.RunToInfinite
          ? 'infinite'
          : (KEYFRAMES.find((k) => k.at === fly.isAtKeyFrame)?.value ?? 'none'),
      );
    parameters
      .commanded(
        `${base}/infinite`,
        { type: 'S', meta: { label: `${name} fly to infinite`, choices: DIRECTIONS.map(({ value, label }) => ({ value, label })) } },
        (v) =>
          atem.runUpstreamKeyerFlyKeyToInfinite(
            me,
            key,
            DIRECTIONS.find((d) => d.value === v)?.direction ?? Enums.FlyKeyDirection.CentreOfKey,
          ),
      )
      .report(DIRECTIONS[fly.runToInfiniteIndex]?.value ?? 'centre-of-key');
    for (const [letter, keyframe, set] of /** @type {const} */ ([
      ['a', Enums.FlyKeyKeyFrame.A, fly.isASet],
      ['b', Enums.FlyKeyKeyFrame.B, fly.isBSet],
    ])) {
      const upper = letter.toUpperCase();
      parameters.trigger(`${base}/store/${letter}`, { label: `${name} store keyframe ${upper}` }, () =>
        atem.storeUpstreamKeyerFlyKeyKeyframe(me, key, keyframe),
      );
      parameters.readOnly(`${base}/stored/${letter}`, { type: 'B', meta: { label: `${name} keyframe ${upper} stored` } }).report(set);
    }
  }

  /**
   * A downstream keyer, or the part a state path names (`onAir`, `properties`, `sources` …).
   * @param {AtemState} state @param {number} key from 0
   */
  downstream(state, key) {
    const at = state.video.downstreamKeyers[key];
    if (!at) return;
    const atem = this.#atem;
    const parameters = this.#parameters;
    const n = key + 1;
    parameters
      .commanded(`dsk/${n}/onAir`, { type: 'B', meta: { label: `DSK ${n} on air` } }, (v) => atem.setDownstreamKeyOnAir(v === true, key))
      .report(at.onAir);
    parameters
      .commanded(`dsk/${n}/tie`, { type: 'B', meta: { label: `DSK ${n} tie` } }, (v) => atem.setDownstreamKeyTie(v === true, key))
      .report(at.properties?.tie ?? false);
    parameters.trigger(`dsk/${n}/auto`, { label: `DSK ${n} auto` }, () => atem.autoDownstreamKey(key));
    if (at.properties) {
      const p = at.properties;
      parameters
        .commanded(`dsk/${n}/rate`, { type: 'I', meta: { label: `DSK ${n} rate`, ...RATE } }, (v) =>
          atem.setDownstreamKeyRate(Number(v), key),
        )
        .report(p.rate);
      this.#shape(`dsk/${n}`, `DSK ${n}`, p, (props) => atem.setDownstreamKeyGeneralProperties(props, key));
      this.#mask(`dsk/${n}`, `DSK ${n}`, p.mask, (props) => atem.setDownstreamKeyMaskSettings(props, key));
    }
    if (at.sources)
      this.#sources(`dsk/${n}`, `DSK ${n}`, at.sources.fillSource, at.sources.cutSource, {
        fill: (source) => atem.setDownstreamKeyFillSource(source, key),
        key: (source) => atem.setDownstreamKeyCutSource(source, key),
      });
  }

  /**
   * A key's shape in one write: pre-multiplied, clip and gain (per cent), inverted — the
   * switcher keeps tenths of a per cent.
   * @param {string} base @param {string} name
   * @param {{ preMultiply: boolean, clip: number, gain: number, invert: boolean }} now
   * @param {(props: Partial<{ preMultiply: boolean, clip: number, gain: number, invert: boolean }>) => Promise<void>} set
   */
  #shape(base, name, now, set) {
    const percent = { type: /** @type {const} */ ('F'), unit: '%', minimum: 0, maximum: 100, optional: true };
    const meta = {
      label: `${name} pre-multiplied key`,
      arguments: {
        preMultiply: { type: /** @type {const} */ ('B'), label: 'Pre-multiplied', optional: true },
        clip: { ...percent, label: 'Clip' },
        gain: { ...percent, label: 'Gain' },
        invert: { type: /** @type {const} */ ('B'), label: 'Invert', optional: true },
      },
    };
    this.#parameters
      .commanded(`${base}/premultiplied`, { type: 'S', meta }, (v) => {
        const { preMultiply, clip, gain, invert } =
          /** @type {{ preMultiply?: boolean, clip?: number, gain?: number, invert?: boolean }} */ (JSON.parse(String(v)));
        return set({
          ...(preMultiply !== undefined && { preMultiply }),
          ...(clip !== undefined && { clip: Math.round(clip * 10) }),
          ...(gain !== undefined && { gain: Math.round(gain * 10) }),
          ...(invert !== undefined && { invert }),
        });
      })
      .report(JSON.stringify({ preMultiply: now.preMultiply, clip: now.clip / 10, gain: now.gain / 10, invert: now.invert }));
  }

  /**
   * A pattern key in one write: its style by name, size, symmetry and softness (per cent), its
   * centre (0 to 1 across and down) and invert — the switcher keeps hundredths of a per cent and
   * ten-thousandths.
   * @param {string} base @param {string} name
   * @param {import('atem-connection').VideoState.USK.UpstreamKeyerPatternSettings} now
   * @param {(props: Partial<import('atem-connection').VideoState.USK.UpstreamKeyerPatternSettings>) => Promise<void>} set
   */
  #pattern(base, name, now, set) {
    const percent = { type: /** @type {const} */ ('F'), unit: '%', minimum: 0, maximum: 100, optional: true };
    const place = { type: /** @type {const} */ ('F'), minimum: 0, maximum: 1, optional: true };
    const meta = {
      label: `${name} pattern`,
      arguments: {
        style: {
          type: /** @type {const} */ ('S'),
          label: 'Style',
          choices: PATTERNS.map(({ value, label }) => ({ value, label })),
          optional: true,
        },
        size: { ...percent, label: 'Size' },
        symmetry: { ...percent, label: 'Symmetry' },
        softness: { ...percent, label: 'Softness' },
        x: { ...place, label: 'Across' },
        y: { ...place, label: 'Down' },
        invert: { type: /** @type {const} */ ('B'), label: 'Invert', optional: true },
      },
    };
    this.#parameters
      .commanded(`${base}/pattern`, { type: 'S', meta }, (v) => {
        const p =
          /** @type {{ style?: string, size?: number, symmetry?: number, softness?: number, x?: number, y?: number, invert?: boolean }} */ (
            JSON.parse(String(v))
          );
        return set({
          ...(p.style !== undefined && { style: PATTERNS.find((s) => s.value === p.style)?.style ?? 0 }),
          ...(p.size !== undefined && { size: Math.round(p.size * 100) }),
          ...(p.symmetry !== undefined && { symmetry: Math.round(p.symmetry * 100) }),
          ...(p.softness !== undefined && { softness: Math.round(p.softness * 100) }),
          ...(p.x !== undefined && { positionX: Math.round(p.x * 10_000) }),
          ...(p.y !== undefined && { positionY: Math.round(p.y * 10_000) }),
          ...(p.invert !== undefined && { invert: p.invert }),
        });
      })
      .report(
        JSON.stringify({
          style: PATTERNS.find((s) => s.style === now.style)?.value ?? '',
          size: now.size / 100,
          symmetry: now.symmetry / 100,
          softness: now.softness / 100,
          x: now.positionX / 10_000,
          y: now.positionY / 10_000,
          invert: now.invert,
        }),
      );
  }

  /**
   * A key's mask in one write: on, and its sides (top and bottom -9 to 9, left and right -16 to
   * 16, as the software shows them; the switcher keeps thousandths).
   * @param {string} base @param {string} name
   * @param {{ enabled: boolean, top: number, bottom: number, left: number, right: number }} now
   * @param {(props: Partial<{ enabled: boolean, top: number, bottom: number, left: number, right: number }>) => Promise<void>} set
   */
  #mask(base, name, now, set) {
    const side = (/** @type {string} */ label, /** @type {number} */ most) => ({
      type: /** @type {const} */ ('F'),
      label,
      minimum: -most,
      maximum: most,
      optional: true,
    });
    const meta = {
      label: `${name} mask`,
      arguments: {
        enabled: { type: /** @type {const} */ ('B'), label: 'On', optional: true },
        top: side('Top', 9),
        bottom: side('Bottom', 9),
        left: side('Left', 16),
        right: side('Right', 16),
      },
    };
    this.#parameters
      .commanded(`${base}/mask`, { type: 'S', meta }, (v) => {
        const given = /** @type {Record<string, number | boolean>} */ (JSON.parse(String(v)));
        return set(
          Object.fromEntries(
            Object.entries(given).map(([field, value]) => [field, typeof value === 'number' ? Math.round(value * 1000) : value]),
          ),
        );
      })
      .report(
        JSON.stringify({
          enabled: now.enabled,
          top: now.top / 1000,
          bottom: now.bottom / 1000,
          left: now.left / 1000,
          right: now.right / 1000,
        }),
      );
  }

  /**
   * A keyer's fill and key sources, each on its own and both in one write (`sources`,
   * `{"fill": 3010, "key": 3011}`); the choices are the inputs by name.
   * @param {string} base @param {string} name @param {number} fill @param {number} cut
   * @param {Record<'fill' | 'key', (source: number) => Promise<void>>} set
   */
  #sources(base, name, fill, cut, set) {
    const parameters = this.#parameters;
    parameters.commanded(`${base}/fill`, { type: 'I', meta: { label: `${name} fill` } }, (v) => set.fill(Number(v))).report(fill);
    parameters.commanded(`${base}/key`, { type: 'I', meta: { label: `${name} key source` } }, (v) => set.key(Number(v))).report(cut);
    const meta = {
      label: `${name} fill and key`,
      arguments: {
        fill: { type: /** @type {const} */ ('I'), label: 'Fill', optional: true },
        key: { type: /** @type {const} */ ('I'), label: 'Key', optional: true },
      },
    };
    parameters
      .commanded(`${base}/sources`, { type: 'S', meta }, (v) => {
        const { fill: f, key: k } = /** @type {{ fill?: number, key?: number }} */ (JSON.parse(String(v)));
        return Promise.all([f === undefined ? undefined : set.fill(f), k === undefined ? undefined : set.key(k)]);
      })
      .report(JSON.stringify({ fill, key: cut }));
  }
}
