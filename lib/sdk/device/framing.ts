/**
 * How the line protocols (R-N1) cut a byte stream into frames and write frames back, written
 * once for TCP, UDP and serial: frames end at a `delimiter`, have a fixed `length`, or carry
 * their length in a big-endian `lengthPrefix` of 1, 2 or 4 bytes. A frame's bytes become text
 * in the connection's `encoding` (hex: two lowercase digits a byte), which is what receive
 * patterns match; frames to send are text in the same encoding.
 *
 * Bounded (R-G4): no frame, and nothing held while waiting for the end of one, grows past
 * `maxFrameBytes`. Past it a delimited stream drops what it held and takes up again after the
 * next delimiter; a length prefix that announces more cannot be resynchronised, so the stream
 * is given up (a TCP link then reconnects).
 */

import { StringDecoder } from 'node:string_decoder';

export type Encoding = 'utf8' | 'latin1' | 'hex';

export type Framing =
  | { readonly kind: 'delimiter'; readonly delimiter: Buffer }
  | { readonly kind: 'length'; readonly length: number }
  | { readonly kind: 'lengthPrefix'; readonly prefixBytes: 1 | 2 | 4 };

export interface FramingOptions {
  readonly framing: Framing;
  readonly encoding: Encoding;
  readonly maxFrameBytes: number;
}

/** What a stream's framer tells: each frame, and what it dropped past the bound. */
export interface FrameSink {
  frame(text: string): void;
  /** Bytes dropped, and why; `fatal` when the stream cannot go on (a length prefix past the bound). */
  overrun(reason: string, fatal: boolean): void;
}

/** The bytes of `text` in `encoding`: for hex, digits with any spaces between them. */
export function bytesOf(text: string, encoding: Encoding): Buffer {
  return encoding === 'hex' ? Buffer.from(text.replace(/\s+/g, ''), 'hex') : Buffer.from(text, encoding);
}

/** Why `text` is not hex an encoding of `hex` can send, or undefined when it is. */
export function notHex(text: string): string | undefined {
  const digits = text.replace(/\s+/g, '');
  return /^(?:[0-9a-fA-F]{2})*$/.test(digits)
    ? undefined
    : `${JSON.stringify(text)} is not hex: pairs of digits 0-9 a-f, spaces allowed between them`;
}

/** A frame as it goes on the wire: with its length prefix in front, when the framing has one. */
export function wireFrame(text: string, options: FramingOptions): Buffer {
  const body = bytesOf(text, options.encoding);
  const { framing } = options;
  if (framing.kind !== 'lengthPrefix') return body;
  const prefix = Buffer.alloc(framing.prefixBytes);
  prefix.writeUIntBE(body.length, 0, framing.prefixBytes);
  return Buffer.concat([prefix, body]);
}

/** The largest body a length prefix of `bytes` can announce. */
export const largestPrefixed = (bytes: 1 | 2 | 4) => 2 ** (8 * bytes) - 1;

/**
 * Cuts one byte stream (a TCP connection, a serial port, one datagram) into frames. Text
 * encodings with a delimiter are cut as text: each chunk is decoded once (a character split
 * across two chunks waits for its end), which costs a third of cutting bytes and decoding
 * each frame apart.
 */
export class Framer {
  private held: Buffer = Buffer.alloc(0);
  /** What a text stream holds of a frame not ended yet. */
  private heldText = '';
  private readonly decoder: StringDecoder | undefined;
  private readonly textDelimiter: string;
  /** A delimited stream that overran drops everything until the next delimiter. */
  private skipping = false;
  private failed = false;

  constructor(
    private readonly options: FramingOptions,
    private readonly sink: FrameSink,
  ) {
    const { framing, encoding } = options;
    // An empty delimiter would end an empty frame at every place, for ever.
    if (framing.kind === 'delimiter' && framing.delimiter.length === 0) throw new Error('a frame delimiter has at least one byte');
    this.textDelimiter = framing.kind === 'delimiter' && encoding !== 'hex' ? framing.delimiter.toString(encoding) : '';
    this.decoder = this.textDelimiter ? new StringDecoder(encoding) : undefined;
  }

  push(chunk: Buffer): void {
    if (this.failed) return;
    if (this.decoder) return this.delimitedText(this.heldText + this.decoder.write(chunk));
    const data = this.held.length === 0 ? chunk : Buffer.concat([this.held, chunk]);
    const { framing } = this.options;
    const rest =
      framing.kind === 'delimiter'
        ? this.delimited(data, framing.delimiter)
        : framing.kind === 'length'
          ? this.fixed(data, framing.length)
          : this.prefixed(data, framing.prefixBytes);
    // A copy, so that a small remainder does not keep a large chunk alive.
    this.held = rest.length === 0 ? Buffer.alloc(0) : Buffer.from(rest);
  }

  /** The stream ended: a datagram's last delimited frame needs no delimiter; anything else held is dropped. */
  end({ lastFrameOpen = false } = {}): void {
    if (lastFrameOpen && this.options.framing.kind === 'delimiter' && !this.skipping) {
      if (this.decoder) {
        const last = this.heldText + this.decoder.end();
        if (last.length > 0 && !this.oversized(last, last.length)) this.sink.frame(last);
      } else if (this.held.length > 0) this.emit(this.held);
    }
    this.held = Buffer.alloc(0);
    this.heldText = '';
    this.skipping = false;
  }

  private delimitedText(data: string): void {
    const delimiter = this.textDelimiter;
    let start = 0;
    for (;;) {
      const at = data.indexOf(delimiter, start);
      if (at < 0) break;
      if (this.skipping) this.skipping = false;
      else {
        const frame = data.slice(start, at);
        if (!this.oversized(frame, frame.length)) this.sink.frame(frame);
      }
      start = at + delimiter.length;
    }
    const rest = start === 0 ? data : data.slice(start);
    // Past the bound without a delimiter: dropped, but the delimiter's first characters may be at the end.
    if (rest.length > this.options.maxFrameBytes + delimiter.length) {
      if (!this.skipping) this.tooLong(Buffer.byteLength(rest, this.options.encoding));
      this.skipping = true;
      this.heldText = rest.slice(rest.length - (delimiter.length - 1));
      return;
    }
    this.heldText = rest;
  }

  /** True, and told, when a text frame is over the bound in bytes: counted only when its characters could be. */
  private oversized(frame: string, characters: number): boolean {
    const { maxFrameBytes, encoding } = this.options;
    if (characters * (encoding === 'utf8' ? 3 : 1) <= maxFrameBytes) return false;
    const bytes = Buffer.byteLength(frame, encoding);
    if (bytes <= maxFrameBytes) return false;
    this.tooLong(bytes);
    return true;
  }

  private delimited(data: Buffer, delimiter: Buffer): Buffer {
    let start = 0;
    for (;;) {
      const at = data.indexOf(delimiter, start);
      if (at < 0) break;
      if (this.skipping) this.skipping = false;
      else if (at - start > this.options.maxFrameBytes) this.tooLong(at - start);
      else this.emit(data.subarray(start, at));
      start = at + delimiter.length;
    }
    const rest = data.subarray(start);
    // Past the bound without a delimiter: dropped, but the delimiter's first bytes may be at the end.
    if (rest.length > this.options.maxFrameBytes + delimiter.length) {
      if (!this.skipping) this.tooLong(rest.length);
      this.skipping = true;
      return rest.subarray(rest.length - (delimiter.length - 1));
    }
    return rest;
  }

  private fixed(data: Buffer, length: number): Buffer {
    let start = 0;
    for (; start + length <= data.length; start += length) this.emit(data.subarray(start, start + length));
    return data.subarray(start);
  }

  private prefixed(data: Buffer, prefixBytes: 1 | 2 | 4): Buffer {
    let start = 0;
    while (start + prefixBytes <= data.length) {
      const length = data.readUIntBE(start, prefixBytes);
      if (length > this.options.maxFrameBytes) {
        this.failed = true;
        this.sink.overrun(`a frame announced ${length} bytes, more than maxFrameBytes (${this.options.maxFrameBytes})`, true);
        return Buffer.alloc(0);
      }
      if (start + prefixBytes + length > data.length) break;
      this.emit(data.subarray(start + prefixBytes, start + prefixBytes + length));
      start += prefixBytes + length;
    }
    return data.subarray(start);
  }

  private tooLong(bytes: number): void {
    this.sink.overrun(`a frame of more than maxFrameBytes (${this.options.maxFrameBytes}): ${bytes} bytes without a delimiter`, false);
  }

  private emit(bytes: Buffer): void {
    this.sink.frame(bytes.toString(this.options.encoding));
  }
}
