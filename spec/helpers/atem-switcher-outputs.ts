/**
 * The switcher simulator's outputs to the world: streaming (start, stop, service) and
 * recording (start, stop, file name, ISO, switch disk), the startup state saved or
 * cleared, and the timecode (its mode, and the time set). Each encoder and decoder is checked against atem-connection's own in
 * atem-switcher-breadth.spec.ts.
 */
import { createRequire } from 'node:module';
import type { Area, AreaTools, Decoder, Fields } from './atem-switcher-wire.ts';
import { frame } from './atem-switcher-wire.ts';

const { Enums } = createRequire(import.meta.url)('atem-connection') as typeof import('atem-connection');

export interface Outputs {
  /** The library's StreamingStatus: 1 idle, 2 connecting, 4 streaming, 32 stopping. */
  streaming: number;
  service: string;
  url: string;
  key: string;
  /** The library's RecordingStatus: 0 idle, 1 recording. */
  recording: number;
  filename: string;
  iso: boolean;
  /** The disks of the working sets, the first recorded to. */
  disks: [number, number];
  /** How often the startup state was saved, and cleared. */
  saved: number;
  cleared: number;
  /** The library's TimeMode: 0 free run, 1 time of day. */
  timeMode: number;
  /** The time last set: hh:mm:ss:ff. */
  time: string;
}

export const encode = {
  SRSU: (o: Outputs) =>
    frame('SRSU', 1100, (b) => {
      b.write(o.service, 0, 63, 'utf8');
      b.write(o.url, 64, 511, 'utf8');
      b.write(o.key, 576, 511, 'utf8');
      b.writeUInt32BE(6_000_000, 1088);
      b.writeUInt32BE(9_000_000, 1092);
    }),
  StRS: (status: number) => frame('StRS', 4, (b) => b.writeUInt16BE(status, 0)),
  RMSu: (o: Outputs) =>
    frame('RMSu', 140, (b) => {
      b.write(o.filename, 0, 127, 'utf8');
      b.writeUInt32BE(o.disks[0], 128);
      b.writeUInt32BE(o.disks[1], 132);
    }),
  /** The status with no error (the library's RecordingError.None is a bit of its own), and 1 h left. */
  RTMS: (status: number) =>
    frame('RTMS', 8, (b) => {
      b.writeUInt16BE(status | Enums.RecordingError.None, 0);
      b.writeUInt32BE(3600, 4);
    }),
  ISOi: (iso: boolean) => frame('ISOi', 4, (b) => (b[0] = iso ? 1 : 0)),
  TCCc: (mode: number) => frame('TCCc', 4, (b) => (b[0] = mode)),
};

export const decode: Record<string, Decoder> = {
  StrR: (b) => ({ streaming: b[0] === 1 }),
  CRSS: (b) => ({
    flag: b[0]!,
    service: b.toString('utf8', 1, 65).replace(/\0.*$/s, ''),
    url: b.toString('utf8', 65, 577).replace(/\0.*$/s, ''),
    key: b.toString('utf8', 577, 1089).replace(/\0.*$/s, ''),
  }),
  RcTM: (b) => ({ recording: b[0] === 1 }),
  CRMS: (b) => ({ flag: b[0]!, filename: b.toString('utf8', 1, 129).replace(/\0.*$/s, '') }),
  ISOi: (b) => ({ iso: b[0]! > 0 }),
  RMSp: () => ({}),
  SRsv: () => ({}),
  SRcl: () => ({}),
  CTCC: (b) => ({ mode: b[0]! }),
  Time: (b) => ({ time: [b[0], b[1], b[2], b[3]].map((n) => String(n).padStart(2, '0')).join(':'), dropFrame: b[5] === 1 }),
};

export class OutputsArea implements Area {
  readonly now: Outputs = {
    streaming: Enums.StreamingStatus.Idle,
    service: 'YouTube',
    url: 'rtmp://a.rtmp.youtube.com/live2',
    key: '',
    recording: Enums.RecordingStatus.Idle,
    filename: 'Show',
    iso: false,
    disks: [1, 2],
    saved: 0,
    cleared: 0,
    timeMode: Enums.TimeMode.FreeRun,
    time: '00:00:00:00',
  };

  constructor(private readonly tools: AreaTools) {}

  dump(): Buffer[] {
    const o = this.now;
    return [
      encode.SRSU(o),
      encode.StRS(o.streaming),
      encode.RMSu(o),
      encode.RTMS(o.recording),
      encode.ISOi(o.iso),
      encode.TCCc(o.timeMode),
    ];
  }

  apply(name: string, f: Fields): Buffer[] | undefined {
    const o = this.now;
    switch (name) {
      case 'StrR': {
        // Starting connects for 100 ms, then streams; stopping is at once.
        if (f['streaming'] !== true) return [encode.StRS((o.streaming = Enums.StreamingStatus.Idle))];
        if (o.streaming !== Enums.StreamingStatus.Idle) return [];
        this.tools.later('stream', 100, () => this.tools.transmit([encode.StRS((o.streaming = Enums.StreamingStatus.Streaming))]));
        return [encode.StRS((o.streaming = Enums.StreamingStatus.Connecting))];
      }
      case 'CRSS':
        if (Number(f['flag']) & 1) o.service = String(f['service']);
        if (Number(f['flag']) & 2) o.url = String(f['url']);
        if (Number(f['flag']) & 4) o.key = String(f['key']);
        return [encode.SRSU(o)];
      case 'RcTM':
        o.recording = f['recording'] === true ? Enums.RecordingStatus.Recording : Enums.RecordingStatus.Idle;
        return [encode.RTMS(o.recording)];
      case 'CRMS':
        if (Number(f['flag']) & 1) o.filename = String(f['filename']);
        return [encode.RMSu(o)];
      case 'ISOi':
        o.iso = f['iso'] === true;
        return [encode.ISOi(o.iso), encode.TCCc(o.timeMode)];
      case 'RMSp':
        o.disks = [o.disks[1], o.disks[0]];
        return [encode.RMSu(o)];
      case 'SRsv':
        o.saved += 1;
        return [];
      case 'SRcl':
        o.cleared += 1;
        return [];
      case 'CTCC':
        if (Number(f['mode']) > 1) return [];
        o.timeMode = Number(f['mode']);
        return [encode.TCCc(o.timeMode)];
      case 'Time':
        // The switcher keeps its time, and says it when asked (TiRq), which the library does not keep.
        o.time = String(f['time']);
        return [];
      default:
        return undefined;
    }
  }
}
