/**
 * S101, the framing Ember+ runs on: frames read from a byte stream within a bound (R-G4), and
 * a message written as frames. The library's codec writes frames and checks their CRC;
 * reading them is ours: its reader keeps no bound on a frame or on a message of many
 * frames, and decodes each message twice.
 */
import { S101Codec } from 'emberplus-connection';

/** The default bound of one message, all its frames together (R-G4). */
export const DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

const BOF = 0xfe;
const EOF = 0xff;
const CE = 0xfd;
const XOR = 0x20;
const MESSAGE_EMBER = 0x0e;
const COMMAND_EMBER = 0x00;
const COMMAND_KEEPALIVE_REQUEST = 0x01;
const FLAG_SINGLE = 0xc0;
const FLAG_FIRST = 0x80;
const FLAG_LAST = 0x40;
const FLAG_EMPTY = 0x20;

/** The library's codec writes frames and checks their CRC; both keep no state between calls. */
const codec = new S101Codec();

/** What an `S101Reader` hands on. */
export interface S101Events {
  /** Each whole frame, before what it carries is handed on: what a bound on a peer's rate counts. */
  frame?(): void;
  /** One whole Glow message (the BER of all its frames). */
  message(ber: Buffer): void;
  /** The peer asks whether we are alive. */
  keepalive(): void;
  /** A frame or message dropped: `malformed` (bad CRC, not Ember+) or `oversized` (past the bound). */
  dropped(kind: 'malformed' | 'oversized', reason: string): void;
}

/**
 * Reads S101 frames from a byte stream: unescapes them, checks their CRC, joins the frames of
 * one message, and drops (and says so) a frame or a message past `maxMessageBytes` without
 * holding more than that bound. A bad frame is dropped alone: the stream goes on at the next
 * frame's start.
 */
export class S101Reader {
  private inFrame = false;
  private escaped = false;
  private tooLong = false;
  private frame: Buffer = Buffer.allocUnsafe(1024);
  private length = 0;
  private parts: Buffer[] | undefined;
  private partsLength = 0;

  constructor(
    private readonly maxMessageBytes: number,
    private readonly events: S101Events,
  ) {}

  push(chunk: Buffer): void {
    let i = 0;
    while (i < chunk.length) {
      if (!this.inFrame) {
        const start = chunk.indexOf(BOF, i);
        if (start < 0) return;
        this.begin();
        i = start + 1;
        continue;
      }
      if (this.escaped) {
        this.escaped = false;
        this.append(chunk, i, i + 1, true);
        i++;
        continue;
      }
      let end = i;
      while (end < chunk.length && (chunk[end] as number) < CE) end++;
      if (end > i) this.append(chunk, i, end, false);
      if (end === chunk.length) return;
      const special = chunk[end];
      i = end + 1;
      if (special === CE) this.escaped = true;
      else if (special === EOF) {
        this.inFrame = false;
        this.end();
      } else {
        this.events.dropped('malformed', 'a frame began before the one before it ended');
        this.begin();
      }
    }
  }

  private begin(): void {
    this.inFrame = true;
    this.escaped = false;
    this.tooLong = false;
    this.length = 0;
  }

  private append(chunk: Buffer, from: number, to: number, escaped: boolean): void {
    if (this.tooLong) return;
    const count = to - from;
    if (this.length + count > this.maxMessageBytes + 16) {
      this.tooLong = true;
      return;
    }
    if (this.length + count > this.frame.length) {
      const grown = Buffer.allocUnsafe(Math.min(Math.max(this.frame.length * 2, this.length + count), this.maxMessageBytes + 16));
      this.frame.copy(grown, 0, 0, this.length);
      this.frame = grown;
    }
    if (escaped) this.frame[this.length] = (chunk[from] as number) ^ XOR;
    else chunk.copy(this.frame, this.length, from, to);
    this.length += count;
  }

  private end(): void {
    this.events.frame?.();
    if (this.tooLong) return this.events.dropped('oversized', `a frame over ${this.maxMessageBytes} bytes`);
    const frame = this.frame.subarray(0, this.length);
    if (frame.length < 4 || !codec.validateFrame(frame)) return this.events.dropped('malformed', 'a frame with a bad CRC');
    if (frame[0] !== 0 || frame[1] !== MESSAGE_EMBER) return this.events.dropped('malformed', 'a frame that is not Ember+');
    const command = frame[2];
    if (command === COMMAND_KEEPALIVE_REQUEST) return this.events.keepalive();
    if (command !== COMMAND_EMBER) return;
    const flags = frame[4] as number;
    const appBytes = frame[6] as number;
    const payload = frame.subarray(7 + appBytes, frame.length - 2);
    if ((flags & FLAG_SINGLE) === FLAG_SINGLE) {
      this.parts = undefined;
      if ((flags & FLAG_EMPTY) === 0 && payload.length > 0) this.events.message(Buffer.from(payload));
      return;
    }
    if ((flags & FLAG_FIRST) === FLAG_FIRST) {
      this.parts = [];
      this.partsLength = 0;
    }
    if (this.parts === undefined) return;
    this.partsLength += payload.length;
    if (this.partsLength > this.maxMessageBytes) {
      this.parts = undefined;
      return this.events.dropped('oversized', `a message over ${this.maxMessageBytes} bytes`);
    }
    this.parts.push(Buffer.from(payload));
    if ((flags & FLAG_LAST) === FLAG_LAST) {
      const message = Buffer.concat(this.parts, this.partsLength);
      this.parts = undefined;
      this.events.message(message);
    }
  }
}

/** The S101 frames of one Glow message, as one buffer to write. */
export function framesOf(ber: Buffer): Buffer {
  const frames = codec.encodeBER(ber);
  return frames.length === 1 ? (frames[0] as Buffer) : Buffer.concat(frames);
}

export const KEEPALIVE_RESPONSE: Buffer = codec.keepAliveResponse();
