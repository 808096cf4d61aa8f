/**
 * The switcher simulator's media: the still pool (names by index) and the media players'
 * sources, a still captured from program and a still cleared. Each encoder and decoder is
 * checked against atem-connection's own in atem-switcher-breadth.spec.ts.
 */
import type { Area, Decoder, Fields } from './atem-switcher-wire.ts';
import { frame } from './atem-switcher-wire.ts';

/** A media player's source: 1 a still, 2 a clip (the library's MediaSourceType), and its index of each. */
export type PlayerSource = { type: number; still: number; clip: number };

export const encode = {
  _mpl: (stills: number, clips: number) => frame('_mpl', 4, (b) => b.set([stills, clips])),
  /** A still of the pool: used with a name, or free. */
  MPfe: (index: number, name: string | undefined) => {
    const bytes = Buffer.from(name ?? '', 'utf8');
    return frame('MPfe', Math.ceil((24 + bytes.length) / 4) * 4, (b) => {
      b.writeUInt16BE(index, 2);
      b[4] = name === undefined ? 0 : 1;
      b[23] = bytes.length;
      bytes.copy(b, 24);
    });
  },
  MPCE: (player: number, s: PlayerSource) => frame('MPCE', 4, (b) => b.set([player, s.type, s.still, s.clip])),
};

export const decode: Record<string, Decoder> = {
  MPSS: (b) => ({ flag: b[0]!, player: b[1]!, type: b[2]!, still: b[3]!, clip: b[4]! }),
  Capt: () => ({}),
  CSTL: (b) => ({ index: b[0]! }),
};

export class Media implements Area {
  readonly players: PlayerSource[];
  /** The still pool: a name where a still is. */
  readonly stills: (string | undefined)[];

  constructor(
    players: number,
    stills: number,
    readonly clips: number,
  ) {
    this.players = Array.from({ length: players }, () => ({ type: 1, still: 0, clip: 0 }));
    this.stills = Array.from({ length: stills }, (_, n) => (n < 3 ? ['Logo', 'Lower third', 'Slate'][n] : undefined));
  }

  dump(): Buffer[] {
    return [
      encode._mpl(this.stills.length, this.clips),
      ...this.stills.map((name, n) => encode.MPfe(n, name)),
      ...this.players.map((s, n) => encode.MPCE(n, s)),
    ];
  }

  apply(name: string, f: Fields): Buffer[] | undefined {
    const n = (field: string) => Number(f[field] ?? -1);
    const player = this.players[n('player')];
    switch (name) {
      case 'MPSS':
        if (!player) return [];
        if (n('flag') & 1 && (n('type') === 1 || n('type') === 2)) player.type = n('type');
        if (n('flag') & 2 && n('still') < this.stills.length) player.still = n('still');
        if (n('flag') & 4 && n('clip') < this.clips) player.clip = n('clip');
        return [encode.MPCE(n('player'), player)];
      case 'Capt': {
        // Into the first free place of the pool, named as the switcher names a capture.
        const free = this.stills.indexOf(undefined);
        if (free < 0) return [];
        this.stills[free] = `Capture ${free + 1}`;
        return [encode.MPfe(free, this.stills[free])];
      }
      case 'CSTL':
        if (n('index') >= this.stills.length) return [];
        this.stills[n('index')] = undefined;
        return [encode.MPfe(n('index'), undefined)];
      default:
        return undefined;
    }
  }
}
