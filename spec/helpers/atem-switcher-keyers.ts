/**
 * The switcher simulator's keyers beyond on air and tie: each M/E's upstream keyers (on air,
 * type, fill and key sources, flying key to its keyframes) and the downstream keyers' sources
 * and rate. Each encoder and decoder is checked against atem-connection's own in
 * atem-switcher-breadth.spec.ts.
 */
import { createRequire } from 'node:module';
import type { Area, AreaTools, Decoder, Fields } from './atem-switcher-wire.ts';
import { frame } from './atem-switcher-wire.ts';

const { Enums } = createRequire(import.meta.url)('atem-connection') as typeof import('atem-connection');

export interface UpstreamKeyer {
  onAir: boolean;
  /** 0 luma, 1 chroma, 2 pattern, 3 DVE. */
  type: number;
  flyEnabled: boolean;
  fill: number;
  cut: number;
  isASet: boolean;
  isBSet: boolean;
  /** 0 none, 1 A, 2 B, 4 run to infinite (the library's IsAtKeyFrame). */
  atKeyFrame: number;
  /** The direction of the last run to infinite (0 centre … 9 bottom right). */
  infinite: number;
  /** The mask: on, and its top, bottom, left and right in thousandths. */
  mask: { enabled: boolean; sides: [number, number, number, number] };
  /** The pattern key: its style (the library's Pattern), size, symmetry and softness (0–10000), place (0–10000) and invert. */
  pattern: { style: number; size: number; symmetry: number; softness: number; x: number; y: number; invert: boolean };
}
export type KeyerSources = { fill: number; cut: number };

export const encode = {
  KeOn: (me: number, keyer: number, onAir: boolean) => frame('KeOn', 4, (b) => b.set([me, keyer, onAir ? 1 : 0])),
  KeBP: (me: number, keyer: number, k: UpstreamKeyer) =>
    frame('KeBP', 20, (b) => {
      b.set([me, keyer, k.type, 0, 1, k.flyEnabled ? 1 : 0]);
      b.writeUInt16BE(k.fill, 6);
      b.writeUInt16BE(k.cut, 8);
      b[10] = k.mask.enabled ? 1 : 0;
      k.mask.sides.forEach((side, n) => b.writeInt16BE(side, 12 + 2 * n));
    }),
  KePt: (me: number, keyer: number, p: UpstreamKeyer['pattern']) =>
    frame('KePt', 16, (b) => {
      b.set([me, keyer, p.style]);
      [p.size, p.symmetry, p.softness, p.x, p.y].forEach((v, n) => b.writeUInt16BE(v, 4 + 2 * n));
      b[14] = p.invert ? 1 : 0;
    }),
  KeFS: (me: number, keyer: number, k: UpstreamKeyer) =>
    frame('KeFS', 8, (b) => b.set([me, keyer, k.isASet ? 1 : 0, k.isBSet ? 1 : 0, 0, 0, k.atKeyFrame, k.infinite])),
  DskB: (keyer: number, s: KeyerSources) =>
    frame('DskB', 8, (b) => {
      b[0] = keyer;
      b.writeUInt16BE(s.fill, 2);
      b.writeUInt16BE(s.cut, 4);
    }),
};

export const decode: Record<string, Decoder> = {
  CKOn: (b) => ({ me: b[0]!, keyer: b[1]!, onAir: b[2] === 1 }),
  CKTp: (b) => ({ flag: b[0]!, me: b[1]!, keyer: b[2]!, type: b[3]!, flyEnabled: b[4] === 1 }),
  CKeF: (b) => ({ me: b[0]!, keyer: b[1]!, source: b.readUInt16BE(2) }),
  CKeC: (b) => ({ me: b[0]!, keyer: b[1]!, source: b.readUInt16BE(2) }),
  RFlK: (b) => ({ flag: b[0]!, me: b[1]!, keyer: b[2]!, keyFrame: b[4]!, direction: b[5]! }),
  SFKF: (b) => ({ me: b[0]!, keyer: b[1]!, keyFrame: b[2]! }),
  CKPt: (b) => ({
    flag: b[0]!,
    me: b[1]!,
    keyer: b[2]!,
    style: b[3]!,
    size: b.readUInt16BE(4),
    symmetry: b.readUInt16BE(6),
    softness: b.readUInt16BE(8),
    x: b.readUInt16BE(10),
    y: b.readUInt16BE(12),
    invert: b[14] === 1,
  }),
  CKMs: (b) => ({
    flag: b[0]!,
    me: b[1]!,
    keyer: b[2]!,
    enabled: b[3] === 1,
    top: b.readInt16BE(4),
    bottom: b.readInt16BE(6),
    left: b.readInt16BE(8),
    right: b.readInt16BE(10),
  }),
  CDsF: (b) => ({ keyer: b[0]!, source: b.readUInt16BE(2) }),
  CDsC: (b) => ({ keyer: b[0]!, source: b.readUInt16BE(2) }),
  CDsR: (b) => ({ keyer: b[0]!, rate: b[1]! }),
};

export class Keyers implements Area {
  /** By M/E, then keyer. */
  readonly upstream: UpstreamKeyer[][];
  readonly downstream: KeyerSources[];

  constructor(
    mixEffects: number,
    perMixEffect: number,
    downstreamKeyers: number,
    private readonly tools: AreaTools,
    /** The downstream keyers' rates live with their on-air state, in the switcher's model. */
    private readonly dskRate: (keyer: number, rate?: number) => Buffer | undefined,
  ) {
    const off = { onAir: false, type: 0, flyEnabled: false, isASet: false, isBSet: false, atKeyFrame: 0, infinite: 0 };
    this.upstream = Array.from({ length: mixEffects }, () =>
      Array.from({ length: perMixEffect }, (_, k) => ({
        ...off,
        fill: 3010,
        cut: k === 0 ? 3011 : 0,
        mask: { enabled: false, sides: [0, 0, 0, 0] as [number, number, number, number] },
        pattern: { style: 0, size: 5000, symmetry: 5000, softness: 0, x: 5000, y: 5000, invert: false },
      })),
    );
    this.downstream = Array.from({ length: downstreamKeyers }, () => ({ fill: 3010, cut: 3011 }));
  }

  dump(): Buffer[] {
    return [
      ...this.upstream.flatMap((keyers, me) =>
        keyers.flatMap((k, n) => [
          encode.KeBP(me, n, k),
          encode.KeOn(me, n, k.onAir),
          encode.KeFS(me, n, k),
          encode.KePt(me, n, k.pattern),
        ]),
      ),
      ...this.downstream.map((s, n) => encode.DskB(n, s)),
    ];
  }

  apply(name: string, f: Fields): Buffer[] | undefined {
    const n = (field: string) => Number(f[field] ?? -1);
    const usk = this.upstream[n('me')]?.[n('keyer')];
    const dsk = this.downstream[n('keyer')];
    const source = this.tools.isInput(n('source')) ? n('source') : undefined;
    switch (name) {
      case 'CKOn':
        if (!usk) return [];
        usk.onAir = f['onAir'] === true;
        return [encode.KeOn(n('me'), n('keyer'), usk.onAir)];
      case 'CKTp':
        if (!usk) return [];
        if (n('flag') & 1 && n('type') <= Enums.MixEffectKeyType.DVE) usk.type = n('type');
        if (n('flag') & 2) usk.flyEnabled = f['flyEnabled'] === true;
        return [encode.KeBP(n('me'), n('keyer'), usk)];
      case 'CKeF':
      case 'CKeC':
        if (!usk || source === undefined) return [];
        usk[name === 'CKeF' ? 'fill' : 'cut'] = source;
        return [encode.KeBP(n('me'), n('keyer'), usk)];
      case 'CKPt': {
        if (!usk) return [];
        const p = usk.pattern;
        const fields = ['style', 'size', 'symmetry', 'softness', 'x', 'y'] as const;
        fields.forEach((field, s) => {
          if (n('flag') & (1 << s)) p[field] = n(field);
        });
        if (n('flag') & 64) p.invert = f['invert'] === true;
        return [encode.KePt(n('me'), n('keyer'), p)];
      }
      case 'CKMs':
        if (!usk) return [];
        if (n('flag') & 1) usk.mask.enabled = f['enabled'] === true;
        ['top', 'bottom', 'left', 'right'].forEach((side, s) => {
          if (n('flag') & (2 << s)) usk.mask.sides[s] = n(side);
        });
        return [encode.KeBP(n('me'), n('keyer'), usk)];
      case 'SFKF':
        if (!usk) return [];
        if (n('keyFrame') === Enums.FlyKeyKeyFrame.A) usk.isASet = true;
        if (n('keyFrame') === Enums.FlyKeyKeyFrame.B) usk.isBSet = true;
        return [encode.KeFS(n('me'), n('keyer'), usk)];
      case 'RFlK': {
        // A fly to a keyframe that was never stored goes nowhere; full and infinite always go.
        const to = n('keyFrame');
        if (!usk || (to === Enums.FlyKeyKeyFrame.A && !usk.isASet) || (to === Enums.FlyKeyKeyFrame.B && !usk.isBSet)) return [];
        if (to === Enums.FlyKeyKeyFrame.RunToInfinite) [usk.atKeyFrame, usk.infinite] = [Enums.IsAtKeyFrame.RunToInfinite, n('direction')];
        else usk.atKeyFrame = to === Enums.FlyKeyKeyFrame.Full ? Enums.IsAtKeyFrame.None : to;
        return [encode.KeFS(n('me'), n('keyer'), usk)];
      }
      case 'CDsF':
      case 'CDsC':
        if (!dsk || source === undefined) return [];
        dsk[name === 'CDsF' ? 'fill' : 'cut'] = source;
        return [encode.DskB(n('keyer'), dsk)];
      case 'CDsR': {
        const changed = n('rate') >= 1 && n('rate') <= 250 ? this.dskRate(n('keyer'), n('rate')) : undefined;
        return changed ? [changed] : [];
      }
      default:
        return undefined;
    }
  }
}
