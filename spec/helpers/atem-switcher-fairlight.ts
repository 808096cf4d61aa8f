/**
 * The switcher simulator's Fairlight audio mixer: each input's one stereo source (its fader,
 * input gain, delay, balance and mix option), the master fader, the monitor (its gain, the
 * master, talkback and sidetone feeds, muted or not) and solo, peaks reset, and the audio
 * routing (since 9.4: which source feeds each output, ids of 32 bits: the port, and the channel pair below). Levels are as
 * the switcher keeps them: hundredths of a dB. Each encoder and decoder is checked against
 * atem-connection's own in atem-switcher-breadth.spec.ts.
 */
import type { Area, Decoder, Fields } from './atem-switcher-wire.ts';
import { frame } from './atem-switcher-wire.ts';

/** The source id of an input's stereo pair, as the switcher numbers it. */
export const STEREO = '-65280';

/** `mixOption` as the library's FairlightAudioMixOption: 1 off, 2 on, 4 audio follows video. */
export type Source = { framesDelay: number; gain: number; faderGain: number; balance: number; mixOption: number };
export type Monitor = {
  gain: number;
  masterGain: number;
  masterMuted: boolean;
  talkbackGain: number;
  talkbackMuted: boolean;
  sidetoneGain: number;
};
export type Solo = { solo: boolean; index: number; source: string };

export const encode = {
  _FAC: (inputs: number) => frame('_FAC', 4, (b) => b.set([inputs, 1])),
  /** An input: external video (0) or a media player (1), stereo its only configuration (since 8.1.1). */
  FAIP: (id: number) =>
    frame('FAIP', 16, (b) => {
      b.writeUInt16BE(id, 0);
      b[2] = id > 2000 ? 1 : 0;
      b.writeUInt16BE(id > 2000 ? 0 : 1, 6);
      b[9] = 2;
      b[10] = 2;
    }),
  FASP: (id: number, source: string, s: Source) =>
    frame('FASP', 52, (b) => {
      b.writeUInt16BE(id, 0);
      b.writeBigInt64BE(BigInt(source), 8);
      b.set([0, 8, s.framesDelay], 16);
      b.writeInt32BE(s.gain, 20);
      b.writeInt16BE(s.balance, 40);
      b.writeInt32BE(s.faderGain, 44);
      b[48] = 1 | 2 | 4; // off, on and audio follows video, each a mix option it takes
      b[49] = s.mixOption;
    }),
  ARSP: (id: number, name: string) =>
    frame('ARSP', 72, (b) => {
      b.writeUInt32BE(id, 0);
      b.write(name, 8, 63, 'utf8');
    }),
  AROP: (id: number, source: number, name: string) =>
    frame('AROP', 76, (b) => {
      b.writeUInt32BE(id, 0);
      b.writeUInt32BE(source, 4);
      b.write(name, 12, 63, 'utf8');
    }),
  FAMP: (faderGain: number) => frame('FAMP', 20, (b) => b.writeInt32BE(faderGain, 12)),
  FMHP: (m: Monitor) =>
    frame('FMHP', 32, (b) => {
      b.writeInt32BE(m.gain, 0);
      b.writeInt32BE(m.masterGain, 4);
      b[8] = m.masterMuted ? 0 : 1;
      b.writeInt32BE(m.talkbackGain, 12);
      b[16] = m.talkbackMuted ? 0 : 1;
      b.writeInt32BE(m.sidetoneGain, 28);
    }),
  FAMS: (s: Solo) =>
    frame('FAMS', 24, (b) => {
      b[0] = s.solo ? 1 : 0;
      b.writeUInt16BE(s.index, 8);
      b.writeBigInt64BE(BigInt(s.source), 16);
    }),
};

export const decode: Record<string, Decoder> = {
  CFSP: (b) => ({
    flag: b.readUInt16BE(0),
    input: b.readUInt16BE(2),
    source: b.readBigInt64BE(8).toString(),
    framesDelay: b[16]!,
    gain: b.readInt32BE(20),
    balance: b.readInt16BE(36),
    faderGain: b.readInt32BE(40),
    mixOption: b[44]!,
  }),
  CFMP: (b) => ({ flag: b[0]!, faderGain: b.readInt32BE(12) }),
  CFMH: (b) => ({
    flag: b[0]!,
    gain: b.readInt32BE(4),
    masterGain: b.readInt32BE(8),
    masterMuted: b[12] === 0,
    talkbackGain: b.readInt32BE(16),
    talkbackMuted: b[20] === 0,
    sidetoneGain: b.readInt32BE(32),
  }),
  CFMS: (b) => ({ flag: b[0]!, solo: b[1] === 1, input: b.readUInt16BE(8), source: b.readBigInt64BE(16).toString() }),
  AROC: (b) => ({ flag: b[0]!, output: b.readUInt32BE(4), source: b.readUInt32BE(8) }),
  RFLP: (b) => ({ all: (b[0]! & 1) > 0, master: (b[0]! & 2) > 0 }),
  RFIP: (b) => ({ input: b.readUInt16BE(0), source: b.readBigInt64BE(8).toString(), output: (b[17]! & 4) > 0 }),
};

export class Fairlight implements Area {
  /** By input, its stereo source. */
  readonly inputs: Map<number, Source>;
  masterFader = 0;
  readonly monitor: Monitor = { gain: 0, masterGain: 0, masterMuted: false, talkbackGain: 0, talkbackMuted: true, sidetoneGain: 0 };
  readonly solo: Solo = { solo: false, index: 0, source: STEREO };
  /** The routing's sources (camera 1 and 2, each channel pair 1/2) and outputs (two, on the first channel pair), by id. */
  readonly routingSources = new Map([
    [(1 << 16) | 1, 'Camera 1'],
    [(2 << 16) | 1, 'Camera 2'],
  ]);
  readonly routing = new Map([
    [(1501 << 16) | 1, { source: (1 << 16) | 1, name: 'Headphones' }],
    [(1502 << 16) | 1, { source: (1 << 16) | 1, name: 'Monitor' }],
  ]);
  /** Each peak reset heard. */
  readonly resets: Fields[] = [];

  constructor(ids: readonly number[]) {
    // At rest: cameras follow video, players off, faders and gains at 0 dB, no delay.
    this.inputs = new Map(ids.map((id) => [id, { framesDelay: 0, gain: 0, faderGain: 0, balance: 0, mixOption: id > 2000 ? 1 : 4 }]));
  }

  dump(): Buffer[] {
    return [
      encode._FAC(this.inputs.size),
      ...[...this.inputs].flatMap(([id, s]) => [encode.FAIP(id), encode.FASP(id, STEREO, s)]),
      encode.FAMP(this.masterFader),
      encode.FMHP(this.monitor),
      encode.FAMS(this.solo),
      ...[...this.routingSources].map(([id, name]) => encode.ARSP(id, name)),
      ...[...this.routing].map(([id, o]) => encode.AROP(id, o.source, o.name)),
    ];
  }

  apply(name: string, f: Fields): Buffer[] | undefined {
    const n = (field: string) => Number(f[field] ?? Number.NaN);
    const flag = n('flag');
    switch (name) {
      case 'CFSP': {
        const s = f['source'] === STEREO ? this.inputs.get(n('input')) : undefined;
        if (!s) return [];
        if (flag & 1) s.framesDelay = Math.min(n('framesDelay'), 8);
        if (flag & 2) s.gain = n('gain');
        if (flag & 64) s.balance = n('balance');
        if (flag & 128) s.faderGain = n('faderGain');
        if (flag & 256 && [1, 2, 4].includes(n('mixOption'))) s.mixOption = n('mixOption');
        return [encode.FASP(n('input'), STEREO, s)];
      }
      case 'CFMP':
        if (flag & 8) this.masterFader = n('faderGain');
        return [encode.FAMP(this.masterFader)];
      case 'CFMH': {
        const m = this.monitor;
        if (flag & 1) m.gain = n('gain');
        if (flag & 2) m.masterGain = n('masterGain');
        if (flag & 4) m.masterMuted = f['masterMuted'] === true;
        if (flag & 8) m.talkbackGain = n('talkbackGain');
        if (flag & 16) m.talkbackMuted = f['talkbackMuted'] === true;
        if (flag & 128) m.sidetoneGain = n('sidetoneGain');
        return [encode.FMHP(m)];
      }
      case 'CFMS':
        if (flag & 1) this.solo.solo = f['solo'] === true;
        if (flag & 2 && this.inputs.has(n('input'))) [this.solo.index, this.solo.source] = [n('input'), String(f['source'])];
        return [encode.FAMS(this.solo)];
      case 'AROC': {
        const output = this.routing.get(n('output'));
        if (!output || !(flag & 1) || !this.routingSources.has(n('source'))) return [];
        output.source = n('source');
        return [encode.AROP(n('output'), output.source, output.name)];
      }
      case 'RFLP':
      case 'RFIP':
        this.resets.push({ name, ...f });
        return [];
      default:
        return undefined;
    }
  }
}
