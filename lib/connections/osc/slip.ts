/**
 * SLIP framing (RFC 1055) of OSC packets over a stream, as OSC 1.1 uses it: each packet
 * between END bytes, END and ESC inside it escaped. The reader is bounded: a frame that
 * grows past `maxBytes` is dropped whole, up to its END, and the stream reads on.
 */
const END = 0xc0;
const ESC = 0xdb;
const ESC_END = 0xdc;
const ESC_ESC = 0xdd;

/** `packet` as one SLIP frame, with an END before it too (it ends any noise the peer holds). */
export function slipFrame(packet: Buffer): Buffer {
  let escapes = 0;
  for (const byte of packet) if (byte === END || byte === ESC) escapes++;
  const frame = Buffer.allocUnsafe(packet.length + escapes + 2);
  let at = 0;
  frame[at++] = END;
  for (const byte of packet) {
    if (byte === END) {
      frame[at++] = ESC;
      frame[at++] = ESC_END;
    } else if (byte === ESC) {
      frame[at++] = ESC;
      frame[at++] = ESC_ESC;
    } else frame[at++] = byte;
  }
  frame[at] = END;
  return frame;
}

export interface SlipHandlers {
  /** A whole frame, unescaped. */
  frame(packet: Buffer): void;
  /** A frame that grew past the bound: dropped. */
  tooLarge(bytes: number): void;
}

/** Reads frames out of a stream's chunks, holding at most `maxBytes` of a frame. */
export class SlipReader {
  private readonly buffer: Buffer;
  private length = 0;
  private escaped = false;
  /** Bytes of a frame being dropped since it went past the bound; 0 while reading normally. */
  private dropping = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly handlers: SlipHandlers,
  ) {
    this.buffer = Buffer.allocUnsafe(maxBytes);
  }

  push(chunk: Buffer): void {
    for (const byte of chunk) {
      if (byte === END) {
        if (this.dropping > 0) this.handlers.tooLarge(this.dropping);
        else if (this.length > 0) this.handlers.frame(Buffer.from(this.buffer.subarray(0, this.length)));
        this.length = 0;
        this.dropping = 0;
        this.escaped = false;
        continue;
      }
      if (this.dropping > 0) {
        this.dropping++;
        continue;
      }
      let value = byte;
      if (this.escaped) {
        this.escaped = false;
        value = byte === ESC_END ? END : byte === ESC_ESC ? ESC : byte;
      } else if (byte === ESC) {
        this.escaped = true;
        continue;
      }
      if (this.length === this.maxBytes) {
        this.dropping = this.length + 1;
        this.length = 0;
        continue;
      }
      this.buffer[this.length++] = value;
    }
  }

  /** Forgets a frame in progress: the stream it came on closed. */
  reset(): void {
    this.length = 0;
    this.dropping = 0;
    this.escaped = false;
  }
}
