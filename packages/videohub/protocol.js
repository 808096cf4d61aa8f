// @ts-check
/**
 * The Blackmagic Videohub Ethernet protocol as text blocks: each block a title line ending in
 * `:` (or `ACK`, `NAK`), lines after it, and a blank line. Read here from a TCP stream
 * however it is cut, without regular expressions, so a block of 288 routes is one block.
 */
import { StringDecoder } from 'node:string_decoder';

/** The largest router the protocol describes: 288 inputs and 288 outputs. */
export const MAX_PORTS = 288;
/** The longest line taken, in bytes (longer ones are skipped and counted): a label is at most a few dozen characters. */
export const MAX_LINE_BYTES = 1024;
/** The most bytes held without the blank line that ends a block: a block of 288 labels is some 20 KiB. */
export const MAX_BLOCK_BYTES = 256 * 1024;

/**
 * @typedef {{ title: string, lines: string[] }} Block
 * A block: its title without the colon (`VIDEO OUTPUT ROUTING`, `ACK`), and its lines.
 */

/** Reads blocks from a stream of bytes. */
export class BlockReader {
  /** @type {string} */
  #held = '';
  #decoder = new StringDecoder('utf8');
  /** Lines skipped as longer than `MAX_LINE_BYTES`. */
  longLines = 0;

  /**
   * The blocks `chunk` completes, in order; throws when the device sends more than a block may hold.
   * @param {Buffer} chunk
   * @returns {Block[]}
   */
  read(chunk) {
    // Lines may end in CR LF; a CR at the end of a chunk waits for its LF.
    let text = (this.#held + this.#decoder.write(chunk)).replace(/\r\n/g, '\n');
    /** @type {Block[]} */
    const blocks = [];
    for (;;) {
      const end = text.indexOf('\n\n');
      if (end < 0) {
        this.#held = text;
        if (Buffer.byteLength(text) > MAX_BLOCK_BYTES)
          throw new Error(`the router sent ${Buffer.byteLength(text)} bytes without ending a block (at most ${MAX_BLOCK_BYTES})`);
        return blocks;
      }
      const lines = text.slice(0, end).split('\n');
      text = text.slice(end + 2);
      // Blank lines between blocks are not blocks.
      while (lines.length > 0 && lines[0] === '') lines.shift();
      const first = lines.shift();
      if (first === undefined) continue;
      // A line too long is skipped, not the link closed: a router that keeps such a label
      // (written by another panel) would otherwise close every connect the same way.
      const kept = lines.filter((line) => Buffer.byteLength(line) <= MAX_LINE_BYTES);
      this.longLines += lines.length - kept.length;
      blocks.push({ title: first.endsWith(':') ? first.slice(0, -1) : first, lines: kept });
    }
  }
}

/**
 * A block as the router reads it.
 * @param {string} title
 * @param {readonly string[]} lines
 */
export function block(title, lines) {
  return Buffer.from(`${title}:\n${lines.map((line) => `${line}\n`).join('')}\n`);
}

/**
 * `<index> <rest>` lines: the index and the rest, or undefined for a line that is not one.
 * @param {string} line
 * @returns {[number, string] | undefined}
 */
export function indexed(line) {
  const space = line.indexOf(' ');
  const digits = space < 0 ? line : line.slice(0, space);
  if (!/^\d{1,3}$/.test(digits)) return undefined;
  return [Number(digits), space < 0 ? '' : line.slice(space + 1)];
}

/**
 * `Name: value` lines of a block, as a map.
 * @param {readonly string[]} lines
 */
export function fields(lines) {
  /** @type {Map<string, string>} */
  const map = new Map();
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) map.set(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  return map;
}

/**
 * The leading number of a field (`"41"`; also `"41Video processing units: 0"`, as one
 * device simulator writes a line without its line break), or undefined.
 * @param {string | undefined} text
 */
export function count(text) {
  const digits = /^\d+/.exec(text ?? '')?.[0];
  return digits === undefined ? undefined : Number(digits);
}
