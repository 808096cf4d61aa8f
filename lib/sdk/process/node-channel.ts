/**
 * Node's IPC channel to a child process, framed and read here rather than inside Node.
 *
 * Node reads what a child sends within the parent's own loop, and a frame that does not
 * deserialize throws where nobody can catch it: 64 bytes of junk written to a module's
 * channel descriptor ended the hub. So the child is given a plain pipe as its channel
 * (`NODE_CHANNEL_FD`, in the serialization `fork` uses with `serialization: 'advanced'`: a
 * 4-byte big-endian length, then V8's serialization of the message) and its own Node speaks
 * it as ever (`process.send`, `'message'`, `'disconnect'`), while the parent reads each frame
 * itself. A frame longer than the bound, or one that does not read, is the child's fault, told
 * once; the channel then reads no more. A wire whose messages are flat records (`flat`) has
 * every other message dropped unread: a record of four million small objects held the loop for
 * seconds while Node read it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { Duplex } from 'node:stream';
import { deserialize, serialize } from 'node:v8';

export interface ChannelEvents {
  message(message: unknown): void;
  /** A frame that is not a flat record, dropped unread (with `flat`). */
  dropped(): void;
  /** The child sent what is no frame: the channel reads no more. */
  fault(reason: string): void;
}

export interface ChannelOptions {
  /** The longest frame taken, bytes. */
  readonly maxFrameBytes: number;
  /** Only records whose values are texts, numbers, booleans, null or undefined are read. */
  readonly flat: boolean;
}

/**
 * A child with Node's IPC channel on descriptor 3, read by a `NodeChannel`: as `fork` starts
 * it, but for the channel; run by `wrapper` (a command that runs the rest, keeping its
 * descriptors: processes.ts's `privateView`) when given.
 */
export function spawnWithChannel(
  main: string,
  args: readonly string[],
  {
    cwd,
    env,
    execArgv,
    wrapper = [],
  }: {
    readonly cwd: string;
    readonly env: Readonly<Record<string, string>>;
    readonly execArgv: readonly string[];
    readonly wrapper?: readonly string[];
  },
): { readonly child: ChildProcess; readonly socket: Duplex } {
  const [command, ...rest] = [...wrapper, process.execPath, ...execArgv, main, ...args] as [string, ...string[]];
  const child = spawn(command, rest, {
    cwd,
    env: { ...env, NODE_CHANNEL_FD: '3', NODE_CHANNEL_SERIALIZATION_MODE: 'advanced' },
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  return { child, socket: child.stdio[3] as Duplex };
}

/** A message as the channel carries it: its length, 4 bytes big-endian, then V8's serialization. */
export function framed(message: unknown): Buffer {
  const body = serialize(message);
  const head = Buffer.allocUnsafe(4);
  head.writeUInt32BE(body.length);
  return Buffer.concat([head, body]);
}

export class NodeChannel {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private closed = false;

  constructor(
    private readonly socket: Duplex,
    private readonly events: ChannelEvents,
    private readonly options: ChannelOptions,
  ) {
    socket.on('data', (chunk: Buffer) => this.received(chunk));
    // The child's end went (it ended): its process's exit says why.
    socket.on('error', () => this.close());
    socket.on('close', () => {
      this.closed = true;
    });
  }

  /** Whether messages still reach the child. */
  get open(): boolean {
    return !this.closed;
  }

  send(message: unknown): void {
    if (!this.closed) this.socket.write(framed(message));
  }

  /** Reads and sends no more; the child sees its channel close (`'disconnect'`). */
  close(): void {
    this.closed = true;
    this.chunks = [];
    this.socket.destroy();
  }

  private received(chunk: Buffer): void {
    if (this.closed) return;
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    while (this.buffered >= 4) {
      const head = this.chunks[0] && this.chunks[0].length >= 4 ? this.chunks[0] : this.joined();
      const length = head.readUInt32BE(0);
      if (length > this.options.maxFrameBytes)
        return this.fault(`it sent a message of ${length} bytes, more than the ${this.options.maxFrameBytes} taken`);
      if (this.buffered < 4 + length) return;
      const all = this.joined();
      const frame = all.subarray(4, 4 + length);
      const rest = all.subarray(4 + length);
      this.chunks = rest.length > 0 ? [rest] : [];
      this.buffered = rest.length;
      if (frame[0] !== Tag.version) return this.fault('it sent what is no message (no serialization of one)');
      if (this.options.flat && !isFlatRecord(frame)) {
        this.events.dropped();
        continue;
      }
      let message: unknown;
      try {
        message = deserialize(frame);
      } catch (error) {
        return this.fault(`it sent what is no message (${error instanceof Error ? error.message : String(error)})`);
      }
      this.events.message(message);
      if (this.closed) return;
    }
  }

  private joined(): Buffer {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0] ?? Buffer.alloc(0);
  }

  private fault(reason: string): void {
    this.close();
    this.events.fault(reason);
  }
}

/** V8's serialization tags that a flat record holds (v8's ValueSerializer). */
const Tag = {
  version: 0xff,
  padding: 0x00,
  beginObject: 0x6f, // o
  endObject: 0x7b, // {
  oneByteString: 0x22, // "
  twoByteString: 0x63, // c
  utf8String: 0x53, // S
  int32: 0x49, // I
  uint32: 0x55, // U
  double: 0x4e, // N
  true: 0x54, // T
  false: 0x46, // F
  undefined: 0x5f, // _
  null: 0x30, // 0
} as const;

/**
 * Whether a frame is V8's serialization of one object whose keys and values are primitives:
 * a walk over its bytes, without making anything, so a frame of another shape costs no more
 * than its length to refuse.
 */
export function isFlatRecord(frame: Uint8Array): boolean {
  let at = 0;
  const varint = (): number | undefined => {
    let value = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const byte = frame[at++];
      if (byte === undefined) return undefined;
      value += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) return value;
    }
    return undefined;
  };
  /** Steps over one primitive; false when the next value is none. */
  const primitive = (): boolean => {
    let tag = frame[at++];
    while (tag === Tag.padding) tag = frame[at++];
    switch (tag) {
      case Tag.oneByteString:
      case Tag.twoByteString:
      case Tag.utf8String: {
        const length = varint();
        if (length === undefined || at + length > frame.length) return false;
        at += length;
        return true;
      }
      case Tag.int32:
      case Tag.uint32:
        return varint() !== undefined;
      case Tag.double:
        at += 8;
        return at <= frame.length;
      case Tag.true:
      case Tag.false:
      case Tag.undefined:
      case Tag.null:
        return true;
      default:
        return false;
    }
  };
  if (frame[at++] !== Tag.version || varint() === undefined || frame[at++] !== Tag.beginObject) return false;
  for (let properties = 0; ; properties++) {
    if (frame[at] === Tag.endObject) {
      at++;
      return varint() === properties && at === frame.length;
    }
    if (!primitive() || !primitive()) return false;
  }
}
