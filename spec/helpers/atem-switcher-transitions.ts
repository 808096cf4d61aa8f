/**
 * The switcher simulator's transitions beyond the mix: fade to black (auto and rate), the
 * transition previewed on program, and the rates of the dip, wipe and DVE transitions. Each
 * encoder and decoder is checked against atem-connection's own in atem-switcher-breadth.spec.ts.
 */
import type { Area, AreaTools, Decoder, Fields } from './atem-switcher-wire.ts';
import { frame } from './atem-switcher-wire.ts';

export interface Transitions {
  fadeRate: number;
  black: boolean;
  fading: boolean;
  preview: boolean;
  dipRate: number;
  wipeRate: number;
  dveRate: number;
}

export const encode = {
  FtbS: (me: number, t: Transitions) => frame('FtbS', 4, (b) => b.set([me, t.black ? 1 : 0, t.fading ? 1 : 0, t.fading ? t.fadeRate : 0])),
  FtbP: (me: number, rate: number) => frame('FtbP', 4, (b) => b.set([me, rate])),
  TrPr: (me: number, preview: boolean) => frame('TrPr', 4, (b) => b.set([me, preview ? 1 : 0])),
  /** The dip's rate, and its source (colour 1, as the switcher's default). */
  TDpP: (me: number, rate: number) => frame('TDpP', 4, (b) => b.set([me, rate, 2001 >> 8, 2001 & 0xff])),
  TWpP: (me: number, rate: number) => frame('TWpP', 20, (b) => b.set([me, rate])),
  TDvP: (me: number, rate: number) => frame('TDvP', 20, (b) => b.set([me, rate])),
};

export const decode: Record<string, Decoder> = {
  FtbA: (b) => ({ me: b[0]! }),
  FtbC: (b) => ({ flag: b[0]!, me: b[1]!, rate: b[2]! }),
  CTPr: (b) => ({ me: b[0]!, preview: b[1] === 1 }),
  CTDp: (b) => ({ flag: b[0]!, me: b[1]!, rate: b[2]!, input: b.readUInt16BE(4) }),
  CTWp: (b) => ({ flag: b.readUInt16BE(0), me: b[2]!, rate: b[3]! }),
  CTDv: (b) => ({ flag: b.readUInt16BE(0), me: b[2]!, rate: b[3]! }),
};

export class TransitionsArea implements Area {
  readonly of: Transitions[];

  constructor(
    mixEffects: number,
    private readonly tools: AreaTools,
  ) {
    // At rest: a 1-s fade not black, no preview; dip, wipe and DVE of 1 s.
    this.of = Array.from({ length: mixEffects }, () => ({
      fadeRate: 25,
      black: false,
      fading: false,
      preview: false,
      dipRate: 25,
      wipeRate: 25,
      dveRate: 25,
    }));
  }

  dump(): Buffer[] {
    return this.of.flatMap((t, me) => [
      encode.FtbP(me, t.fadeRate),
      encode.FtbS(me, t),
      encode.TrPr(me, t.preview),
      encode.TDpP(me, t.dipRate),
      encode.TWpP(me, t.wipeRate),
      encode.TDvP(me, t.dveRate),
    ]);
  }

  apply(name: string, f: Fields): Buffer[] | undefined {
    const me = Number(f['me'] ?? -1);
    const t = this.of[me];
    const rate = Number(f['rate'] ?? 0);
    const inRange = rate >= 1 && rate <= 250;
    switch (name) {
      case 'FtbA': {
        // To black (or back) over the fade's rate at 25 fps; an auto while fading does nothing.
        if (!t || t.fading) return [];
        t.fading = true;
        this.tools.later(`ftb ${me}`, t.fadeRate * 40, () => {
          [t.black, t.fading] = [!t.black, false];
          this.tools.transmit([encode.FtbS(me, t)]);
        });
        return [encode.FtbS(me, t)];
      }
      case 'FtbC':
        if (!t || !inRange) return [];
        t.fadeRate = rate;
        return [encode.FtbP(me, rate)];
      case 'CTPr':
        if (!t) return [];
        t.preview = f['preview'] === true;
        return [encode.TrPr(me, t.preview)];
      case 'CTDp':
      case 'CTWp':
      case 'CTDv': {
        if (!t || !(Number(f['flag']) & 1) || !inRange) return [];
        const which = name === 'CTDp' ? 'dipRate' : name === 'CTWp' ? 'wipeRate' : 'dveRate';
        t[which] = rate;
        return [name === 'CTDp' ? encode.TDpP(me, rate) : name === 'CTWp' ? encode.TWpP(me, rate) : encode.TDvP(me, rate)];
      }
      default:
        return undefined;
    }
  }
}
