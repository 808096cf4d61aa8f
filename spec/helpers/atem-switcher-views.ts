/**
 * The switcher simulator's composed pictures: the multiviewers' layouts and windows, and the SuperSource's
 * boxes (on, source, position and size). Each encoder and decoder is checked against
 * atem-connection's own in atem-switcher-breadth.spec.ts.
 */
import { createRequire } from 'node:module';
import type { Area, AreaTools, Decoder, Fields } from './atem-switcher-wire.ts';
import { frame } from './atem-switcher-wire.ts';

const { Enums } = createRequire(import.meta.url)('atem-connection') as typeof import('atem-connection');

/** The SuperSource's art: its fill and key, in front (1) or behind (0), and the key's shape (clip and gain in tenths of a per cent). */
export type Art = { fill: number; cut: number; option: number; preMultiplied: boolean; clip: number; gain: number; invert: boolean };
export type Box = {
  enabled: boolean;
  source: number;
  x: number;
  y: number;
  size: number;
  cropped: boolean;
  crop: [number, number, number, number];
};

/** Since 8.0 a SuperSource's id comes first, and the box's fields two bytes later. */
const at = (version: number) => (version >= Enums.ProtocolVersion.V8_0 ? 2 : 0);

export const encode = {
  /** Since 8.1.1 the count of multiviewers is the topology's, and this says their windows. */
  _MvC: (count: number, windows: number) => frame('_MvC', 4, (b) => b.set([count, windows])),
  /** A layout: a bit for each quarter of the screen split in four (1 top left, 2 top right, 4 bottom left, 8 bottom right). */
  MvPr: (mv: number, layout: number) => frame('MvPr', 4, (b) => b.set([mv, layout, 0])),
  MvIn: (mv: number, window: number, source: number) =>
    frame('MvIn', 8, (b) => {
      b.set([mv, window]);
      b.writeUInt16BE(source, 2);
      b.set([1, 1], 4);
    }),
  _SSC: (ssrc: number, boxes: number, version: number) =>
    frame('_SSC', 4, (b) => b.set(version >= Enums.ProtocolVersion.V8_0 ? [ssrc, 0, boxes] : [boxes])),
  /** The art, as a switcher since 8.0 says it (its border apart, in SSBd). */
  SSrc: (ssrc: number, a: Art) =>
    frame('SSrc', 16, (b) => {
      b[0] = ssrc;
      b.writeUInt16BE(a.fill, 2);
      b.writeUInt16BE(a.cut, 4);
      b.set([a.option, a.preMultiplied ? 1 : 0], 6);
      b.writeUInt16BE(a.clip, 8);
      b.writeUInt16BE(a.gain, 10);
      b[12] = a.invert ? 1 : 0;
    }),
  SSBP: (ssrc: number, box: number, x: Box, version: number) =>
    frame('SSBP', 20 + at(version), (b) => {
      const i = at(version);
      b.set(i > 0 ? [ssrc, box, x.enabled ? 1 : 0] : [box, x.enabled ? 1 : 0]);
      b.writeUInt16BE(x.source, i + 2);
      b.writeInt16BE(x.x, i + 4);
      b.writeInt16BE(x.y, i + 6);
      b.writeUInt16BE(x.size, i + 8);
      b[i + 10] = x.cropped ? 1 : 0;
      x.crop.forEach((c, n) => b.writeUInt16BE(c, i + 12 + 2 * n)); // top, bottom, left, right
    }),
};

export const decode: Record<string, Decoder> = {
  CMvI: (b) => ({ mv: b[0]!, window: b[1]!, source: b.readUInt16BE(2) }),
  /** The art since 8.0 (SuperSourcePropertiesV8Command). */
  CSSc: (b) => ({
    flag: b[0]!,
    ssrc: b[1]!,
    fill: b.readUInt16BE(2),
    cut: b.readUInt16BE(4),
    option: b[6]!,
    preMultiplied: b[7] === 1,
    clip: b.readUInt16BE(8),
    gain: b.readUInt16BE(10),
    invert: b[12] === 1,
  }),
  CMvP: (b) => ({ flag: b[0]!, mv: b[1]!, layout: b[2]!, swapped: b[3] === 1 }),
  CSBP: (b, version) => {
    // Since 8.0 the id, box and on-off sit one byte on (after the flag), the numbers two (kept even).
    const i = version >= Enums.ProtocolVersion.V8_0 ? 1 : 0;
    const j = 2 * i;
    return {
      flag: b.readUInt16BE(0),
      ssrc: i > 0 ? b[2]! : 0,
      box: b[i + 2]!,
      enabled: b[i + 3] === 1,
      source: b.readUInt16BE(j + 4),
      x: b.readInt16BE(j + 6),
      y: b.readInt16BE(j + 8),
      size: b.readUInt16BE(j + 10),
      cropped: b[j + 12] === 1,
      cropTop: b.readUInt16BE(j + 14),
      cropBottom: b.readUInt16BE(j + 16),
      cropLeft: b.readUInt16BE(j + 18),
      cropRight: b.readUInt16BE(j + 20),
    };
  },
};

export class Views implements Area {
  /** By multiviewer, each window's source. */
  readonly multiviewers: number[][];
  /** By multiviewer, its layout (0: program and preview large, the bottom half in eight). */
  readonly layouts: number[];
  /** By SuperSource, its four boxes. */
  readonly superSources: Box[][];
  /** By SuperSource, its art. */
  readonly art: Art[];

  constructor(
    multiviewers: number,
    superSources: number,
    private readonly tools: AreaTools,
  ) {
    // Preview and program large, then the cameras, as a switcher starts.
    this.multiviewers = Array.from({ length: multiviewers }, () => [10011, 10010, 1, 2, 3, 4, 5, 6, 7, 8]);
    this.layouts = Array.from({ length: multiviewers }, () => 12);
    this.art = Array.from({ length: superSources }, () => ({
      fill: 3010,
      cut: 3011,
      option: 0,
      preMultiplied: true,
      clip: 0,
      gain: 0,
      invert: false,
    }));
    this.superSources = Array.from({ length: superSources }, () =>
      [
        [-800, 450],
        [800, 450],
        [-800, -450],
        [800, -450],
      ].map(([x, y], n) => ({ enabled: n < 2, source: n + 1, x: x!, y: y!, size: 500, cropped: false, crop: [0, 0, 0, 0] as Box['crop'] })),
    );
  }

  dump(version: number): Buffer[] {
    return [
      encode._MvC(this.multiviewers.length, this.multiviewers[0]?.length ?? 0),
      ...this.multiviewers.flatMap((windows, mv) => [
        encode.MvPr(mv, this.layouts[mv] ?? 0),
        ...windows.map((source, w) => encode.MvIn(mv, w, source)),
      ]),
      ...this.superSources.flatMap((boxes, s) => [
        encode._SSC(s, boxes.length, version),
        ...(version >= Enums.ProtocolVersion.V8_0 && this.art[s] ? [encode.SSrc(s, this.art[s])] : []),
        ...boxes.map((box, n) => encode.SSBP(s, n, box, version)),
      ]),
    ];
  }

  apply(name: string, f: Fields, version: number): Buffer[] | undefined {
    const n = (field: string) => Number(f[field] ?? -1);
    if (name === 'CMvI') {
      const windows = this.multiviewers[n('mv')];
      // Windows 0 and 1 are program and preview on a switcher's layouts: they take no source.
      if (!windows || n('window') < 2 || n('window') >= windows.length || !this.tools.isInput(n('source'))) return [];
      windows[n('window')] = n('source');
      return [encode.MvIn(n('mv'), n('window'), n('source'))];
    }
    if (name === 'CSSc') {
      const art = this.art[n('ssrc')];
      if (!art) return [];
      const flag = n('flag');
      if (flag & 1 && this.tools.isInput(n('fill'))) art.fill = n('fill');
      if (flag & 2 && this.tools.isInput(n('cut'))) art.cut = n('cut');
      if (flag & 4 && n('option') <= 1) art.option = n('option');
      if (flag & 8) art.preMultiplied = f['preMultiplied'] === true;
      if (flag & 16) art.clip = n('clip');
      if (flag & 32) art.gain = n('gain');
      if (flag & 64) art.invert = f['invert'] === true;
      return [encode.SSrc(n('ssrc'), art)];
    }
    if (name === 'CMvP') {
      if (this.layouts[n('mv')] === undefined) return [];
      if (n('flag') & 1 && (n('layout') & ~15) === 0) this.layouts[n('mv')] = n('layout');
      return [encode.MvPr(n('mv'), this.layouts[n('mv')]!)];
    }
    if (name === 'CSBP') {
      const box = this.superSources[n('ssrc')]?.[n('box')];
      if (!box) return [];
      const flag = n('flag');
      if (flag & 1) box.enabled = f['enabled'] === true;
      if (flag & 2 && this.tools.isInput(n('source'))) box.source = n('source');
      if (flag & 4) box.x = n('x');
      if (flag & 8) box.y = n('y');
      if (flag & 16) box.size = n('size');
      if (flag & 32) box.cropped = f['cropped'] === true;
      ['cropTop', 'cropBottom', 'cropLeft', 'cropRight'].forEach((field, c) => {
        if (flag & (64 << c)) box.crop[c] = n(field);
      });
      return [encode.SSBP(n('ssrc'), n('box'), box, version)];
    }
    return undefined;
  }
}
