/**
 * A Blackmagic ATEM video switcher for specs: the ATEM's own UDP protocol on 127.0.0.1, so that
 * `atem-connection`'s `Atem` connects to it as to a real one. Written from what the library's
 * compiled code reads and writes (dist/lib/atemSocketChild.js, atemSocket.js, dist/commands);
 * each encoder and decoder here is checked against the library's own in atem-switcher.spec.ts,
 * and those of its areas (atem-switcher-keyers, -transitions, -media, -views, -outputs, -clock,
 * -audio, -fairlight .ts: each with its own state, dump and commands) in
 * atem-switcher-breadth.spec.ts.
 *
 * Covers: the session (a hello answered with NewSessionId; the initial state once the client
 * acks that answer; packet ids; acks both ways; a keep-alive when it has said nothing for
 * 200 ms; a hello again is a new session; clients keyed by address:port; a client not heard for
 * 3 s is dropped); the initial state a client needs before it says 'connected' (_ver _pin _top
 * _MeC _MAC VidM InPr PrgI PrvI TrSS TMxP TrPs AuxS DskP DskS MPrp MRPr TlSr, then InCm); the
 * commands CPgI CPvI DCut DAut CTTp CTMx CTPs CAuS CDsL CDsG CDsM DDsA MAct MRCP CInL, and
 * each area's, applied, their state sent to every client, then acked. Any other command is
 * recorded and acked, and changes nothing.
 *
 * Does not have: the upstream keyers' DVE, luma, chroma and pattern settings and keyframes'
 * values, the SuperSource's border, media players' transport and clips' frames, data transfer
 * (locks, up- and downloads), audio levels, what cameras report (camera control commands are
 * decoded and kept, atem-switcher-camera.ts); nor does it resend its own packets
 * (127.0.0.1 does not lose them), nor send TlIn (tally by index, which the library does not read).
 */
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { createRequire } from 'node:module';
import { ClassicAudio, decode as audioDecoders } from './atem-switcher-audio.ts';
import { CameraControl, decode as cameraDecoders } from './atem-switcher-camera.ts';
import { decode as clockDecoders, DisplayClock } from './atem-switcher-clock.ts';
import { Fairlight, decode as fairlightDecoders } from './atem-switcher-fairlight.ts';
import { decode as keyerDecoders, Keyers } from './atem-switcher-keyers.ts';
import { Media, decode as mediaDecoders } from './atem-switcher-media.ts';
import { OutputsArea, decode as outputDecoders } from './atem-switcher-outputs.ts';
import { decode as transitionDecoders, TransitionsArea } from './atem-switcher-transitions.ts';
import { decode as viewDecoders, Views } from './atem-switcher-views.ts';
import { type Area, type Fields, frame } from './atem-switcher-wire.ts';

const { Enums } = createRequire(import.meta.url)('atem-connection') as typeof import('atem-connection');

/** The flags of a packet's first five bits (atemSocketChild.js names them alike). */
enum Flag {
  AckRequest = 1,
  NewSessionId = 2,
  IsRetransmit = 4,
  RetransmitRequest = 8,
  AckReply = 16,
}

export type { Fields };
export type Heard = { name: string; from: string; fields: Fields };
export type Input = { id: number; longName: string; shortName: string; externalPortType?: number };
export type InputState = Required<Input> & { renamed: boolean };
export interface MixEffect {
  program: number;
  preview: number;
  /** The transition's style (0 mix, 1 dip, 2 wipe, 3 DVE, 4 sting) and layers (a bit each, 1 the background). */
  style: number;
  selection: number;
  /** What the next transition takes: the style when none runs. */
  nextStyle: number;
  nextSelection: number;
  /** Frames, at 25 a second. */
  mixRate: number;
  inTransition: boolean;
  remainingFrames: number;
  /** Where the T-bar is, 0 to 10,000 (0 unless it was moved). */
  position?: number;
}
export type Keyer = {
  onAir: boolean;
  inTransition: boolean;
  isAuto: boolean;
  towardsOnAir: boolean;
  tie: boolean;
  rate: number;
  /** The key's shape (pre-multiplied unless said, clip and gain in tenths of a per cent) and its mask (top, bottom, left, right in thousandths). */
  general?: { preMultiply: boolean; clip: number; gain: number; invert: boolean };
  mask?: { enabled: boolean; sides: [number, number, number, number] };
};
/** The switcher's whole state: what a client is sent on connect. */
export interface Model {
  product: string;
  version: number;
  mixEffects: MixEffect[];
  auxes: number[];
  keyers: Keyer[];
  inputs: Map<number, InputState>;
  /** The macro pool: a name where a macro is recorded. */
  macros: (string | undefined)[];
  running: number | undefined;
  /** Whether a macro run loops. */
  loop?: boolean;
  /** The macros that wait, once started, until a client continues them; and whether the one that runs waits now. */
  waits?: readonly number[];
  waiting?: boolean;
  /** How many multiviewers and SuperSources the topology says (0 unless given). */
  multiviewers?: number;
  superSources?: number;
  /** Whether the topology says the switcher has camera control. */
  cameraControl?: boolean;
}
export interface SwitcherOptions {
  model?: string;
  protocolVersion?: number;
  mixEffects?: number;
  inputs?: readonly Input[];
  auxes?: number;
  downstreamKeyers?: number;
  /** The recorded macros' names by index (default Intro, Break, Outro at 0, 1, 2). */
  macros?: Readonly<Record<number, string>>;
  /** The macro pool's size (default 10). */
  macroPool?: number;
  /** The macros that wait for a continue once started (default none). */
  waitingMacros?: readonly number[];
  /** Upstream keyers on each M/E (default 2). */
  upstreamKeyers?: number;
  /** Multiviewers and SuperSources (default 1 each). */
  multiviewers?: number;
  superSources?: number;
  /** The audio mixer: classic (the default), Fairlight, or none. */
  audio?: 'classic' | 'fairlight' | 'none';
  /** The still pool's size (default 20, the first three used) and the clips' (default 2). */
  stills?: number;
  clips?: number;
  /** Whether it says it has camera control (default not). */
  cameraControl?: boolean;
}
type Session = {
  address: string;
  port: number;
  id: number;
  next: number;
  received: number;
  heardAt: number;
  sentAt: number;
  open: boolean;
};

/** The state commands, each as the switcher writes it (the spec reads each back with the library's `deserialize`). */
export const encode = {
  _ver: (version: number) => frame('_ver', 4, (b) => b.writeUInt32BE(version, 0)),
  _pin: (product: string, mixEffects: number) =>
    frame('_pin', 44, (b) => {
      b.write(product, 0, 39, 'utf8');
      // The model byte decides what the library assumes of the rest (two power supplies on a 2 M/E).
      b[40] = mixEffects > 1 ? Enums.Model.TwoME : Enums.Model.OneME;
    }),
  _top: (m: Model) =>
    frame('_top', 24, (b) => {
      // Since 8.0.1 a multiviewer count sits at 6 and pushes what follows one byte on.
      const at = m.version > Enums.ProtocolVersion.V8_0_1 ? 1 : 0;
      const players = [...m.inputs.keys()].filter((id) => id > 3000 && id < 4000 && id % 10 === 0).length;
      b.set([m.mixEffects.length, m.inputs.size, m.keyers.length, m.auxes.length, 0, players]);
      if (at) b[6] = m.multiviewers ?? 0;
      b[8 + at] = 1; // a DVE and a stinger, for the styles 3 and 4 a client may choose
      b[9 + at] = 1;
      b[10 + at] = m.superSources ?? 0;
      b[17 + at] = m.cameraControl ? 1 : 0;
    }),
  _MeC: (me: number, keyers = 0) => frame('_MeC', 4, (b) => b.set([me, keyers])),
  _MAC: (count: number) => frame('_MAC', 4, (b) => (b[0] = count)),
  VidM: (mode: number) => frame('VidM', 4, (b) => (b[0] = mode)),
  InPr: (input: InputState, mixEffects: number) =>
    frame('InPr', 36, (b) => {
      const id = input.id;
      b.writeUInt16BE(id, 0);
      b.write(input.longName, 2, 20, 'utf8');
      b.write(input.shortName, 22, 4, 'utf8');
      b[26] = input.renamed ? 0 : 1;
      b.writeUInt16BE(input.externalPortType, 28);
      b.writeUInt16BE(input.externalPortType, 30);
      // The internal port type follows from the id's range, as on the switcher: black, external,
      // bars, colour generators, media player fill/key, SuperSource, auxes, M/E outputs.
      const range = [1000, 3000, 4000, 7000, 9000].findIndex((bound) => id < bound);
      b[32] = id === 0 ? 1 : id === 1000 ? 2 : ([0, 3, 4 + (id % 10), 6, 129][range] ?? 128);
      // An M/E's output is a source of the M/Es before it only; anything under the auxes' ids of all.
      b[34] = id < 8000 ? 0x1f : 0x03;
      b[35] = id < 8000 ? (1 << mixEffects) - 1 : id > 10000 ? (1 << (Math.floor(id / 10) - 1001)) - 1 : 0;
    }),
  PrgI: (me: number, source: number) => frame('PrgI', 4, (b) => b.set([me, 0, source >> 8, source & 0xff])),
  PrvI: (me: number, source: number) => frame('PrvI', 4, (b) => b.set([me, 0, source >> 8, source & 0xff])),
  TrSS: (me: number, m: MixEffect) => frame('TrSS', 8, (b) => b.set([me, m.style, m.selection, m.nextStyle, m.nextSelection])),
  TMxP: (me: number, rate: number) => frame('TMxP', 4, (b) => b.set([me, rate])),
  TrPs: (me: number, m: MixEffect) =>
    frame('TrPs', 8, (b) => {
      b.set([me, m.inTransition ? 1 : 0, m.remainingFrames]);
      b.writeUInt16BE(m.position ?? 0, 4);
    }),
  AuxS: (aux: number, source: number) => frame('AuxS', 4, (b) => b.set([aux, 0, source >> 8, source & 0xff])),
  DskP: (keyer: number, k: Keyer) =>
    frame('DskP', 20, (b) => {
      b.set([keyer, k.tie ? 1 : 0, k.rate, k.general?.preMultiply === false ? 0 : 1]);
      b.writeUInt16BE(k.general?.clip ?? 0, 4);
      b.writeUInt16BE(k.general?.gain ?? 0, 6);
      b[8] = k.general?.invert ? 1 : 0;
      b[9] = k.mask?.enabled ? 1 : 0;
      k.mask?.sides.forEach((side, n) => b.writeInt16BE(side, 10 + 2 * n));
    }),
  DskS: (keyer: number, k: Keyer, version: number) =>
    frame('DskS', 8, (b) => {
      const state = [keyer, k.onAir, k.inTransition, k.isAuto].map(Number);
      // Since 8.0.1 the direction of an auto comes before the frames that remain.
      b.set(version >= Enums.ProtocolVersion.V8_0_1 ? [...state, Number(k.towardsOnAir), 0] : [...state, 0]);
    }),
  MPrp: (index: number, name: string | undefined) => {
    const bytes = Buffer.from(name ?? '', 'utf8');
    return frame('MPrp', Math.ceil((8 + bytes.length) / 4) * 4, (b) => {
      b.writeUInt16BE(index, 0);
      b[2] = name === undefined ? 0 : 1;
      b.writeUInt16BE(bytes.length, 4);
      bytes.copy(b, 8);
    });
  },
  /** No macro runs: index 0xffff, as none. */
  /** Running (bit 1) and waiting to be continued (bit 2). */
  MRPr: (running: number | undefined, loop = false, waiting = false) =>
    frame('MRPr', 4, (b) =>
      b.set([(running === undefined ? 0 : 1) | (waiting ? 2 : 0), loop ? 1 : 0, (running ?? 0xffff) >> 8, (running ?? 0xffff) & 0xff]),
    ),
  /** Tally of every input as M/E 1 shows it: program (bit 1), preview (bit 2); both sides of a transition on air. */
  TlSr: (m: Model) => {
    const me = m.mixEffects[0];
    const ids = [...m.inputs.keys()];
    return frame('TlSr', Math.ceil((2 + 3 * ids.length) / 4) * 4, (b) => {
      b.writeUInt16BE(ids.length, 0);
      ids.forEach((id, n) => {
        b.writeUInt16BE(id, 2 + 3 * n);
        b[4 + 3 * n] = (id === me?.program || (me?.inTransition && id === me.preview) ? 1 : 0) | (id === me?.preview ? 2 : 0);
      });
    });
  },
  // A body, so the command is parsed: the library reads a packet's commands while more than 8 bytes remain.
  InCm: () => frame('InCm', 4),
};

/** The client commands, read as the library's `serialize` writes them (the spec checks each against it). */
export const decode: Record<string, (b: Buffer, version: number) => Fields> = {
  CPgI: (b) => ({ me: b[0]!, source: b.readUInt16BE(2) }),
  CPvI: (b) => ({ me: b[0]!, source: b.readUInt16BE(2) }),
  DCut: (b) => ({ me: b[0]! }),
  DAut: (b) => ({ me: b[0]! }),
  CTTp: (b) => ({ flag: b[0]!, me: b[1]!, nextStyle: b[2]!, nextSelection: b[3]! }),
  CTMx: (b) => ({ me: b[0]!, rate: b[1]! }),
  CAuS: (b) => ({ flag: b[0]!, aux: b[1]!, source: b.readUInt16BE(2) }),
  CDsL: (b) => ({ keyer: b[0]!, onAir: b[1] === 1 }),
  CDsG: (b) => ({ flag: b[0]!, keyer: b[1]!, preMultiply: b[2] === 1, clip: b.readInt16BE(4), gain: b.readInt16BE(6), invert: b[8] === 1 }),
  CDsM: (b) => ({
    flag: b[0]!,
    keyer: b[1]!,
    enabled: b[2] === 1,
    top: b.readInt16BE(4),
    bottom: b.readInt16BE(6),
    left: b.readInt16BE(8),
    right: b.readInt16BE(10),
  }),
  // Before 8.0.1 only the keyer; since, a flag says whether a direction is given.
  DDsA: (b, version) =>
    version >= Enums.ProtocolVersion.V8_0_1 ? { flag: b[0]!, keyer: b[1]!, towardsOnAir: b[2] === 1 } : { keyer: b[0]! },
  MAct: (b) => ({ index: b.readUInt16BE(0), action: b[2]! }),
  MRCP: (b) => ({ flag: b[0]!, loop: b[1] === 1 }),
  CTPs: (b) => ({ me: b[0]!, position: b.readUInt16BE(2) }),
  ...keyerDecoders,
  ...transitionDecoders,
  ...mediaDecoders,
  ...viewDecoders,
  ...outputDecoders,
  ...audioDecoders,
  ...fairlightDecoders,
  ...clockDecoders,
  ...cameraDecoders,
  CInL: (b) => ({
    flag: b[0]!,
    input: b.readUInt16BE(2),
    longName: b.toString('utf8', 4, 24).replace(/\0.*$/s, ''),
    shortName: b.toString('utf8', 24, 28).replace(/\0.*$/s, ''),
    externalPortType: b.readUInt16BE(28),
  }),
};

/** Black, eight cameras, bars, two colours, a media player, the SuperSource, the auxes and each M/E's program and preview outputs. */
function defaultInputs(mixEffects: number, auxes: number): Input[] {
  const me = (n: number) => (n === 0 ? '' : `ME ${n + 1} `);
  return [
    { id: 0, longName: 'Black', shortName: 'BLK' },
    ...Array.from({ length: 8 }, (_, n) => ({ id: n + 1, longName: `Camera ${n + 1}`, shortName: `CAM${n + 1}` })),
    { id: 1000, longName: 'Color Bars', shortName: 'BARS' },
    { id: 2001, longName: 'Color 1', shortName: 'COL1' },
    { id: 2002, longName: 'Color 2', shortName: 'COL2' },
    { id: 3010, longName: 'Media Player 1', shortName: 'MP1' },
    { id: 3011, longName: 'Media Player 1 Key', shortName: 'MP1K' },
    { id: 6000, longName: 'SuperSource', shortName: 'SSRC' },
    ...Array.from({ length: auxes }, (_, n) => ({ id: 8001 + n, longName: `Aux ${n + 1}`, shortName: `AUX${n + 1}` })),
    ...Array.from({ length: mixEffects }, (_, n) => [
      { id: 10010 + 10 * n, longName: `${me(n)}Program`, shortName: n === 0 ? 'PGM' : `M${n + 1}PG` },
      { id: 10011 + 10 * n, longName: `${me(n)}Preview`, shortName: n === 0 ? 'PVW' : `M${n + 1}PV` },
    ]).flat(),
  ];
}

export class AtemSwitcher {
  readonly port: number;
  /** Every command a client sent, decoded (a name the switcher does not know: its body in hex). */
  readonly heard: Heard[] = [];
  /** Told of each command as it arrives (a bench times a write to the switcher). */
  onHeard: ((heard: Heard) => void) | undefined;
  private readonly model: Model;
  /** The upstream keyers, and the downstream keyers' sources. */
  readonly keyers: Keyers;
  /** Fade to black, the transition preview, and the dip, wipe and DVE rates, by M/E. */
  readonly transitions: TransitionsArea;
  /** The still pool and the media players. */
  readonly media: Media;
  /** The multiviewers' windows and the SuperSources' boxes. */
  readonly views: Views;
  /** Streaming, recording and the startup state. */
  readonly outputs: OutputsArea;
  /** The classic audio mixer, where the switcher has one. */
  readonly audio: ClassicAudio | undefined;
  /** The Fairlight audio mixer, where the switcher has one. */
  readonly fairlight: Fairlight | undefined;
  /** The display clock. */
  readonly clock = new DisplayClock();
  /** The commands sent to the cameras. */
  readonly cameras = new CameraControl();
  private readonly areas: Area[];
  private readonly sessions = new Map<string, Session>();
  /** What finishes later (an auto transition, a keyer's auto, a macro's run), by what it is of. */
  private readonly pending = new Map<string, NodeJS.Timeout>();
  private readonly ticker: NodeJS.Timeout;
  private opened = 0;
  private silent = false;
  private refusing = false;

  private constructor(
    private readonly socket: Socket,
    options: SwitcherOptions,
  ) {
    this.port = socket.address().port;
    const { mixEffects = 2, auxes = 2, downstreamKeyers = 2, macroPool = 10 } = options;
    const macros = options.macros ?? { 0: 'Intro', 1: 'Break', 2: 'Outro' };
    const inputs = (options.inputs ?? defaultInputs(mixEffects, auxes)).map((input) => ({
      externalPortType: input.id > 0 && input.id < 1000 ? Enums.ExternalPortType.SDI : Enums.ExternalPortType.Internal,
      ...input,
      renamed: false,
    }));
    const cameras = inputs.filter((input) => input.id > 0 && input.id < 1000).map((input) => input.id);
    const camera = (n: number) => cameras[n % Math.max(cameras.length, 1)] ?? 0;
    // At rest: a mix of 25 frames (1 s) of the background, the next the same; keyers off air, a 1-s auto.
    const off = { onAir: false, inTransition: false, isAuto: false, towardsOnAir: false, tie: false, rate: 25 };
    const still = { style: 0, nextStyle: 0, selection: 1, nextSelection: 1, mixRate: 25, inTransition: false, remainingFrames: 0 };
    this.model = {
      product: options.model ?? 'ATEM Simulated 2 M/E',
      version: options.protocolVersion ?? Enums.ProtocolVersion.V8_1_1,
      // M/E n shows cameras 2n+1 and 2n+2 (1 and 2 on M/E 1, 3 and 4 on M/E 2).
      mixEffects: Array.from({ length: mixEffects }, (_, n) => ({ program: camera(2 * n), preview: camera(2 * n + 1), ...still })),
      auxes: Array.from({ length: auxes }, () => (inputs.some((input) => input.id === 10010) ? 10010 : 0)),
      keyers: Array.from({ length: downstreamKeyers }, () => ({ ...off })),
      inputs: new Map(inputs.map((input) => [input.id, input])),
      macros: Array.from({ length: macroPool }, (_, n) => macros[n]),
      running: undefined,
      waits: options.waitingMacros ?? [],
      multiviewers: options.multiviewers ?? 1,
      superSources: options.superSources ?? 1,
      cameraControl: options.cameraControl ?? false,
    };
    const tools = {
      transmit: (commands: readonly Buffer[]) => this.transmit(commands),
      later: (key: string, ms: number, finish: () => void) => this.later(key, ms, finish),
      isInput: (id: number) => this.model.inputs.has(id),
    };
    this.keyers = new Keyers(mixEffects, options.upstreamKeyers ?? 2, downstreamKeyers, tools, (n, rate) => {
      const keyer = this.model.keyers[n];
      if (!keyer || rate === undefined) return undefined;
      keyer.rate = rate;
      return encode.DskP(n, keyer);
    });
    this.transitions = new TransitionsArea(mixEffects, tools);
    const players = [...this.model.inputs.keys()].filter((id) => id > 3000 && id < 4000 && id % 10 === 0).length;
    this.media = new Media(players, options.stills ?? 20, options.clips ?? 2);
    this.views = new Views(this.model.multiviewers ?? 0, this.model.superSources ?? 0, tools);
    this.outputs = new OutputsArea(tools);
    // A channel for each external input and each media player, as a classic mixer has.
    const channels = [...this.model.inputs.keys()]
      .filter((id) => id > 0 && id < 1000)
      .concat(Array.from({ length: players }, (_, n) => 2001 + n));
    this.audio = (options.audio ?? 'classic') === 'classic' ? new ClassicAudio(channels) : undefined;
    this.fairlight = options.audio === 'fairlight' ? new Fairlight(channels) : undefined;
    this.areas = [
      this.keyers,
      this.transitions,
      this.media,
      this.views,
      this.outputs,
      this.clock,
      this.cameras,
      ...[this.audio, this.fairlight].filter((a) => a !== undefined),
    ];
    socket.on('message', (packet, from) => this.receive(packet, from));
    // An unconnected UDP socket's errors (a client gone) say nothing the sessions' timeout does not.
    socket.on('error', () => {});
    // A keep-alive to a client told nothing for 200 ms (the library restarts after 5 s of
    // silence; 200 ms leaves a loaded machine room under 500); a client silent for 3 s (it acks
    // every packet, keep-alives included) is gone.
    this.ticker = setInterval(() => {
      const now = Date.now();
      for (const [key, session] of this.sessions) {
        if (now - session.heardAt > 3000) this.sessions.delete(key);
        else if (session.open && now - session.sentAt >= 200) this.transmit([], [session]);
      }
    }, 100);
  }

  /** A switcher on a free UDP port of 127.0.0.1. */
  static async start(options: SwitcherOptions = {}): Promise<AtemSwitcher> {
    const socket = createSocket('udp4');
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(0, '127.0.0.1', () => {
        socket.off('error', reject);
        resolve();
      });
    });
    return new AtemSwitcher(socket, options);
  }

  // The panel: as a person at the switcher's own buttons; every client is told.
  setProgram(me: number, source: number): void {
    this.apply('CPgI', { me, source });
  }
  setPreview(me: number, source: number): void {
    this.apply('CPvI', { me, source });
  }
  cut(me: number): void {
    this.apply('DCut', { me });
  }
  setAux(aux: number, source: number): void {
    this.apply('CAuS', { flag: 1, aux, source });
  }
  setDownstreamKeyer(keyer: number, onAir: boolean): void {
    this.apply('CDsL', { keyer, onAir });
  }
  rename(input: number, longName: string, shortName?: string): void {
    this.apply('CInL', { flag: shortName === undefined ? 1 : 3, input, longName, shortName: shortName ?? '' });
  }
  runMacro(index: number): void {
    this.apply('MAct', { index, action: Enums.MacroAction.Run });
  }
  /** Any command, as the panel's buttons send it (fields as the decoders read them). */
  panel(name: string, fields: Fields): void {
    this.apply(name, fields);
  }
  macroLoops(): boolean {
    return this.model.loop === true;
  }

  program(me: number): number | undefined {
    return this.model.mixEffects[me]?.program;
  }
  preview(me: number): number | undefined {
    return this.model.mixEffects[me]?.preview;
  }
  aux(n: number): number | undefined {
    return this.model.auxes[n];
  }
  /** The style the next transition takes (0 mix, 1 dip, 2 wipe, 3 DVE, 4 sting). */
  transitionStyle(me: number): number | undefined {
    return this.model.mixEffects[me]?.nextStyle;
  }
  mixRate(me: number): number | undefined {
    return this.model.mixEffects[me]?.mixRate;
  }
  downstreamKeyerOnAir(n: number): boolean | undefined {
    return this.model.keyers[n]?.onAir;
  }
  clients(): number {
    return [...this.sessions.values()].filter((session) => session.open).length;
  }

  /**
   * Gone without a word, as a switcher powered off: answers nothing, sends nothing, forgets its
   * sessions (its state still changes from the panel). A client learns it by its own timeout.
   */
  silence(): void {
    this.silent = true;
    this.sessions.clear();
  }
  /** Back: answers hellos again; a client comes back by its own reconnect, and is sent the whole state. */
  resume(): void {
    this.silent = false;
  }
  /** Drops every packet of commands unacked and unheard while on: a command never answered. */
  refuseCommands(refuse: boolean): void {
    this.refusing = refuse;
  }

  async close(): Promise<void> {
    clearInterval(this.ticker);
    for (const timer of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
    this.sessions.clear();
    await new Promise<void>((resolve) => this.socket.close(() => resolve()));
  }

  private receive(packet: Buffer, from: RemoteInfo): void {
    if (this.silent || packet.length < 12 || (packet.readUInt16BE(0) & 0x7ff) !== packet.length) return;
    const flags = packet[0]! >> 3;
    const key = `${from.address}:${from.port}`;
    if (flags & Flag.NewSessionId) {
      // A hello (again, too): a new session; its id is the client's own until it is answered.
      this.opened = (this.opened + 1) % 0x8000;
      const now = Date.now();
      const { address, port } = from;
      this.sessions.set(key, { address, port, id: 0x8000 | this.opened, next: 1, received: 0, heardAt: now, sentAt: now, open: false });
      const answer = Buffer.alloc(20);
      answer.writeUInt16BE((Flag.NewSessionId << 11) | 20, 0);
      answer.writeUInt16BE(packet.readUInt16BE(2), 2);
      answer[12] = 0x02; // accepted
      this.socket.send(answer, from.port, from.address);
      return;
    }
    const session = this.sessions.get(key);
    if (!session) return;
    session.heardAt = Date.now();
    // The client's ack of the hello's answer: then the whole state, as a switcher starts a session.
    if (flags & Flag.AckReply && !session.open) {
      session.open = true;
      this.transmit(this.dump(), [session]);
    }
    if (!(flags & Flag.AckRequest) || (this.refusing && packet.length > 12)) return;
    const packetId = packet.readUInt16BE(10);
    // A packet the client sent again (it resends what is not acked within 60 ms) is acked, not applied twice.
    const ahead = (packetId - session.received + 0x8000) % 0x8000;
    if (ahead > 0 && ahead < 0x4000) {
      session.received = packetId;
      for (let at = 12; at + 8 <= packet.length; ) {
        const length = packet.readUInt16BE(at);
        if (length < 8) break;
        const name = packet.toString('ascii', at + 4, at + 8);
        const body = packet.subarray(at + 8, at + length);
        const fields = decode[name]?.(body, this.model.version);
        const heard = { name, from: key, fields: fields ?? { body: body.toString('hex') } };
        this.heard.push(heard);
        this.onHeard?.(heard);
        if (fields) this.apply(name, fields);
        at += length;
      }
    }
    // Acked after the state it changed went out, so a client's awaited command finds its state changed.
    const ack = Buffer.alloc(12);
    ack.writeUInt16BE((Flag.AckReply << 11) | 12, 0);
    ack.writeUInt16BE(session.id, 2);
    ack.writeUInt16BE(packetId, 4);
    this.socket.send(ack, session.port, session.address);
  }

  /** Applies a command (a client's or the panel's) and tells every client what changed. */
  private apply(name: string, fields: Fields): void {
    const m = this.model;
    const n = (field: string) => Number(fields[field] ?? -1);
    const me = m.mixEffects[n('me')];
    const keyer = m.keyers[n('keyer')];
    const source = m.inputs.has(n('source')) ? n('source') : undefined;
    for (const area of this.areas) {
      const said = area.apply(name, fields, m.version);
      if (said === undefined) continue;
      if (said.length > 0) this.transmit(said);
      return;
    }
    const changed: Buffer[] = [];
    // The end of a transition: program and preview swap, the next style becomes the style.
    const takeOver = (index: number, e: MixEffect) => {
      [e.program, e.preview, e.inTransition, e.remainingFrames, e.position] = [e.preview, e.program, false, 0, 0];
      [e.style, e.selection] = [e.nextStyle, e.nextSelection];
      return [encode.PrgI(index, e.program), encode.PrvI(index, e.preview), encode.TrPs(index, e), encode.TrSS(index, e), encode.TlSr(m)];
    };
    if ((name === 'CPgI' || name === 'CPvI') && me && source !== undefined) {
      me[name === 'CPgI' ? 'program' : 'preview'] = source;
      changed.push(name === 'CPgI' ? encode.PrgI(n('me'), source) : encode.PrvI(n('me'), source), encode.TlSr(m));
    } else if (name === 'DCut' && me) {
      // A cut during an auto ends it now.
      clearTimeout(this.pending.get(`me ${n('me')}`));
      this.pending.delete(`me ${n('me')}`);
      changed.push(...takeOver(n('me'), me));
    } else if (name === 'DAut' && me && !me.inTransition) {
      // An auto takes its rate in frames at 25 fps; in between, TrPs says it is in transition.
      [me.inTransition, me.remainingFrames] = [true, me.mixRate];
      changed.push(encode.TrPs(n('me'), me), encode.TlSr(m));
      const index = n('me');
      this.later(`me ${index}`, me.mixRate * 40, () => this.transmit(takeOver(index, me)));
    } else if (name === 'CTTp' && me) {
      if (n('flag') & 1 && n('nextStyle') <= 4) me.nextStyle = n('nextStyle');
      if (n('flag') & 2 && n('nextSelection') > 0) me.nextSelection = n('nextSelection');
      if (!me.inTransition) [me.style, me.selection] = [me.nextStyle, me.nextSelection];
      changed.push(encode.TrSS(n('me'), me));
    } else if (name === 'CTPs' && me && n('position') <= 10_000) {
      // The T-bar: in transition while between its ends; at the far end the transition is taken.
      [me.position, me.inTransition] = [n('position'), n('position') > 0 && n('position') < 10_000];
      changed.push(...(n('position') === 10_000 ? takeOver(n('me'), me) : [encode.TrPs(n('me'), me), encode.TlSr(m)]));
    } else if (name === 'MRCP' && n('flag') & 1) {
      m.loop = fields['loop'] === true;
      changed.push(encode.MRPr(m.running, m.loop));
    } else if (name === 'CTMx' && me && n('rate') >= 1 && n('rate') <= 250) {
      me.mixRate = n('rate');
      changed.push(encode.TMxP(n('me'), me.mixRate));
    } else if (name === 'CAuS' && m.auxes[n('aux')] !== undefined && source !== undefined) {
      m.auxes[n('aux')] = source;
      changed.push(encode.AuxS(n('aux'), source));
    } else if (name === 'CDsG' && keyer) {
      const g = (keyer.general ??= { preMultiply: true, clip: 0, gain: 0, invert: false });
      if (n('flag') & 1) g.preMultiply = fields['preMultiply'] === true;
      if (n('flag') & 2) g.clip = n('clip');
      if (n('flag') & 4) g.gain = n('gain');
      if (n('flag') & 8) g.invert = fields['invert'] === true;
      changed.push(encode.DskP(n('keyer'), keyer));
    } else if (name === 'CDsM' && keyer) {
      const mask = (keyer.mask ??= { enabled: false, sides: [0, 0, 0, 0] });
      if (n('flag') & 1) mask.enabled = fields['enabled'] === true;
      ['top', 'bottom', 'left', 'right'].forEach((side, s) => {
        if (n('flag') & (2 << s)) mask.sides[s] = n(side);
      });
      changed.push(encode.DskP(n('keyer'), keyer));
    } else if (name === 'CDsL' && keyer && !keyer.inTransition) {
      keyer.onAir = fields['onAir'] === true;
      changed.push(encode.DskS(n('keyer'), keyer, m.version));
    } else if (name === 'DDsA' && keyer && !keyer.inTransition && keyer.onAir !== (n('flag') > 0 ? fields['towardsOnAir'] : !keyer.onAir)) {
      // An auto takes the keyer to the other side over its rate; towards the side it is on (a
      // client names a side from 8.0.1 on), nothing.
      const towards = !keyer.onAir;
      [keyer.inTransition, keyer.isAuto, keyer.towardsOnAir] = [true, true, towards];
      changed.push(encode.DskS(n('keyer'), keyer, m.version));
      const index = n('keyer');
      this.later(`keyer ${index}`, keyer.rate * 40, () => {
        [keyer.onAir, keyer.inTransition, keyer.isAuto] = [towards, false, false];
        this.transmit([encode.DskS(index, keyer, m.version)]);
      });
    } else if (name === 'MAct' && n('action') === Enums.MacroAction.Run && m.macros[n('index')] !== undefined) {
      // A macro runs for 100 ms: long enough to be seen running; one that waits, until it is continued.
      m.running = n('index');
      m.waiting = m.waits?.includes(n('index')) === true;
      changed.push(encode.MRPr(m.running, m.loop, m.waiting));
      if (!m.waiting) this.later('macro', 100, () => this.transmit([encode.MRPr((m.running = undefined), m.loop)]));
    } else if (name === 'MAct' && n('action') === Enums.MacroAction.Continue && m.waiting) {
      m.waiting = false;
      changed.push(encode.MRPr(m.running, m.loop));
      this.later('macro', 100, () => this.transmit([encode.MRPr((m.running = undefined), m.loop)]));
    } else if (name === 'MAct' && n('action') === Enums.MacroAction.Stop) {
      clearTimeout(this.pending.get('macro'));
      this.pending.delete('macro');
      m.waiting = false;
      changed.push(encode.MRPr((m.running = undefined), m.loop));
    } else if (name === 'CInL' && m.inputs.has(n('input'))) {
      const input = m.inputs.get(n('input'))!;
      if (n('flag') & 1) input.longName = String(fields['longName']).slice(0, 20);
      if (n('flag') & 2) input.shortName = String(fields['shortName']).slice(0, 4);
      if (n('flag') & 4) input.externalPortType = n('externalPortType');
      input.renamed = true;
      changed.push(encode.InPr(input, m.mixEffects.length));
    }
    if (changed.length > 0) this.transmit(changed);
  }

  /** Runs `finish` after `ms`, in place of what was pending of the same `key`; `close` clears it. */
  private later(key: string, ms: number, finish: () => void): void {
    clearTimeout(this.pending.get(key));
    this.pending.set(
      key,
      setTimeout(() => {
        this.pending.delete(key);
        finish();
      }, ms),
    );
  }

  /** The whole state, in the order a switcher sends it: the version first (it decides how the rest reads), InCm last. */
  private dump(): Buffer[] {
    const m = this.model;
    return [
      encode._ver(m.version),
      encode._pin(m.product, m.mixEffects.length),
      encode._top(m),
      ...m.mixEffects.map((_, me) => encode._MeC(me, this.keyers.upstream[me]?.length ?? 0)),
      encode._MAC(m.macros.length),
      encode.VidM(Enums.VideoMode.P1080i50),
      ...[...m.inputs.values()].map((input) => encode.InPr(input, m.mixEffects.length)),
      ...m.mixEffects.flatMap((e, me) => [encode.PrgI(me, e.program), encode.PrvI(me, e.preview), encode.TrSS(me, e)]),
      ...m.mixEffects.flatMap((e, me) => [encode.TMxP(me, e.mixRate), encode.TrPs(me, e)]),
      ...m.auxes.map((source, aux) => encode.AuxS(aux, source)),
      ...m.keyers.flatMap((k, n) => [encode.DskP(n, k), encode.DskS(n, k, m.version)]),
      ...m.macros.map((name, index) => encode.MPrp(index, name)),
      encode.MRPr(m.running, m.loop),
      ...this.areas.flatMap((area) => area.dump(m.version)),
      encode.TlSr(m),
      encode.InCm(),
    ];
  }

  /**
   * Sends `commands` to `to` (every open session by default) in packets of at most 1400 bytes
   * of commands (the library's own stay under 1416 with the header), each asking for an ack;
   * no commands: one empty packet, a keep-alive.
   */
  private transmit(commands: readonly Buffer[], to = [...this.sessions.values()].filter((session) => session.open)): void {
    if (this.silent) return;
    const payloads: Buffer[][] = [[]];
    let size = 0;
    for (const command of commands) {
      if (size > 0 && size + command.length > 1400) {
        payloads.push([]);
        size = 0;
      }
      payloads.at(-1)!.push(command);
      size += command.length;
    }
    for (const session of to)
      for (const payload of payloads.map((p) => Buffer.concat(p))) {
        const packet = Buffer.alloc(12 + payload.length);
        packet.writeUInt16BE((Flag.AckRequest << 11) | packet.length, 0);
        packet.writeUInt16BE(session.id, 2);
        packet.writeUInt16BE(session.next, 10);
        payload.copy(packet, 12);
        // 15 bits of packet id, as the library counts.
        session.next = (session.next + 1) % 0x8000;
        session.sentAt = Date.now();
        this.socket.send(packet, session.port, session.address);
      }
  }
}
