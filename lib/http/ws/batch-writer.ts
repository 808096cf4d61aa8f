import { toWire, type Value } from '../../core/value.ts';

/** Strings that are their own JSON text between quotes: printable ASCII without `"` or `\`. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** What comes before a value's address and before its value. */
const OPEN = Buffer.from('{"p":');
const BETWEEN = Buffer.from(',"v":');

/** The most bytes a string takes: plain, a byte a character and two quotes; JSON text, at most three bytes a character. */
const most = (plain: string, json: string | undefined) => (json === undefined ? plain.length + 2 : 3 * json.length);

/** The buffer a writer starts with; it grows for a larger array, and one grown past `KEPT_AT_MOST` is let go after sending. */
const FIRST_BYTES = 256 * 1024;
/** A slice of a fast snapshot fills a few hundred KiB: a buffer grown for one is kept for the next, up to this. */
const KEPT_AT_MOST = 1024 * 1024;

/**
 * Writes a batch array (`[{"p":…,"v":…},…]`, R-W1) straight into one buffer that is
 * reused. A snapshot of a million values made each value's message as a string, kept them
 * in an array and joined them: about 300 bytes of garbage a value, 18 of a snapshot's 34
 * young-generation collections (`bench/snapshot-stall.ts`), each a pause of every client.
 * Written here, a value leaves its JSON strings at most, and only when they need escapes.
 */
export class BatchWriter {
  private buffer = Buffer.allocUnsafe(FIRST_BYTES);
  /** Bytes written, `[` included; 0 while the array is empty. */
  private used = 0;

  /** Adds the `{p, v}` of a parameter's value. */
  value(address: string, value: Value): void {
    const p = PLAIN.test(address) ? undefined : JSON.stringify(address);
    const text = toWire(value);
    const v = PLAIN.test(text) ? undefined : JSON.stringify(text);
    this.reserve(OPEN.length + most(address, p) + BETWEEN.length + most(text, v) + 1);
    this.used += OPEN.copy(this.buffer, this.used);
    this.string(address, p);
    this.used += BETWEEN.copy(this.buffer, this.used);
    this.string(text, v);
    this.buffer[this.used++] = 0x7d; // }
  }

  /** Adds a `{p, v}` serialised already (a change's message). */
  message(message: string): void {
    this.reserve(3 * message.length);
    this.used += this.buffer.write(message, this.used, 'utf8');
  }

  /**
   * Sends what was added, as one array, and starts a new one. The target must copy the
   * bytes before `send` returns (uWS does). The bytes sent: 0 when nothing was added.
   */
  sendTo(target: { send(message: Buffer): unknown }): number {
    if (this.used === 0) return 0;
    this.buffer[this.used++] = 0x5d; // ]
    target.send(this.buffer.subarray(0, this.used));
    const sent = this.used;
    this.used = 0;
    if (this.buffer.length > KEPT_AT_MOST) this.buffer = Buffer.allocUnsafe(FIRST_BYTES);
    return sent;
  }

  /** Makes room for `bytes` more, the separator before them and the closing `]` after, and writes the separator. */
  private reserve(bytes: number): void {
    const needed = this.used + bytes + 2;
    if (needed > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(needed, 2 * this.buffer.length));
      this.buffer.copy(grown, 0, 0, this.used);
      this.buffer = grown;
    }
    this.buffer[this.used] = this.used === 0 ? 0x5b : 0x2c; // [ or ,
    this.used++;
  }

  private string(text: string, json: string | undefined): void {
    if (json !== undefined) {
      this.used += this.buffer.write(json, this.used, 'utf8');
      return;
    }
    this.buffer[this.used++] = 0x22; // "
    this.used += this.buffer.write(text, this.used, 'latin1');
    this.buffer[this.used++] = 0x22;
  }
}
