/**
 * The switcher simulator's classic audio mixer (the switchers before Fairlight): each
 * channel's mix option (off, on, audio follows video), gain and balance, the master's gain and
 * balance, and peaks reset. Gains are kept as the switcher's 16-bit words (32768 is 0 dB).
 * Each encoder and decoder is checked against atem-connection's own in atem-switcher-breadth.spec.ts.
 */
import type { Area, Decoder, Fields } from './atem-switcher-wire.ts';
import { frame } from './atem-switcher-wire.ts';

/** `gain` as the switcher's word; `balance` from -10000 (left) to 10000 (right). */
export type Channel = { mixOption: number; gain: number; balance: number };

export const encode = {
  _AMC: (inputs: number) => frame('_AMC', 4, (b) => b.set([inputs, 1, 1])),
  /** Since 8.0 (AudioMixerInputUpdateV8Command) two bytes more say whether RCA-to-XLR applies; 0 here. */
  AMIP: (id: number, c: Channel) =>
    frame('AMIP', 16, (b) => {
      b.writeUInt16BE(id, 0);
      b[2] = id > 2000 ? 1 : 0; // an external input is video (0), a media player embedded (1)
      b.writeUInt16BE(id > 2000 ? 0 : 1, 6);
      b[8] = c.mixOption;
      b.writeUInt16BE(c.gain, 10);
      b.writeInt16BE(c.balance, 12);
    }),
  AMMO: (c: Channel) =>
    frame('AMMO', 8, (b) => {
      b.writeUInt16BE(c.gain, 0);
      b.writeInt16BE(c.balance, 2);
    }),
};

export const decode: Record<string, Decoder> = {
  CAMI: (b) => ({ flag: b[0]!, channel: b.readUInt16BE(2), mixOption: b[4]!, gain: b.readUInt16BE(6), balance: b.readInt16BE(8) }),
  CAMM: (b) => ({ flag: b[0]!, gain: b.readUInt16BE(2), balance: b.readInt16BE(4), followFadeToBlack: b[6] === 1 }),
  RAMP: (b) => ({ flag: b[0]!, all: b[1] === 1, channel: b.readUInt16BE(2), master: b[4] === 1, monitor: b[5] === 1 }),
};

export class ClassicAudio implements Area {
  readonly channels: Map<number, Channel>;
  readonly master: Channel = { mixOption: 0, gain: 32768, balance: 0 };
  /** Each peak reset heard, as the switcher took it. */
  readonly resets: Fields[] = [];

  /** @param ids the channels: the external inputs', and the media players' (2001 …). */
  constructor(ids: readonly number[]) {
    // At rest: cameras follow video, the players off, each at 0 dB, centred.
    this.channels = new Map(ids.map((id) => [id, { mixOption: id > 2000 ? 0 : 2, gain: 32768, balance: 0 }]));
  }

  dump(): Buffer[] {
    return [encode._AMC(this.channels.size), ...[...this.channels].map(([id, c]) => encode.AMIP(id, c)), encode.AMMO(this.master)];
  }

  apply(name: string, f: Fields): Buffer[] | undefined {
    const n = (field: string) => Number(f[field] ?? -1);
    if (name === 'CAMI') {
      const c = this.channels.get(n('channel'));
      if (!c) return [];
      if (n('flag') & 1 && n('mixOption') <= 2) c.mixOption = n('mixOption');
      if (n('flag') & 2) c.gain = n('gain');
      if (n('flag') & 4) c.balance = n('balance');
      return [encode.AMIP(n('channel'), c)];
    }
    if (name === 'CAMM') {
      if (n('flag') & 1) this.master.gain = n('gain');
      if (n('flag') & 2) this.master.balance = n('balance');
      return [encode.AMMO(this.master)];
    }
    if (name === 'RAMP') {
      this.resets.push(f);
      return [];
    }
    return undefined;
  }
}
