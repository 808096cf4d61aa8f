/**
 * OSC 1.0 packets as the `osc` connection reads and writes them. Bundles are walked here,
 * in order and nested, so that their depth and the messages one packet can carry are
 * bounded before any work is done; each message is decoded by `node-osc`. A message keeps
 * the tag of its first argument, which node-osc's decoded values no longer tell (an `i` 1
 * and an `f` 1 decode alike): what a learned address takes its type from.
 */
import { decode as decodeOsc, encode as encodeOsc } from 'node-osc';
import { HubError, reasonOf, type Value, type ValueType } from '../../sdk/index.ts';

/** One message of a packet: its address, its first argument (absent when it has none) and that argument's tag. */
export interface OscMessage {
  readonly address: string;
  readonly firstTag: string | undefined;
  readonly first: unknown;
}

/** Bundles nested deeper than this are malformed for the hub: no device nests so, and the walk stays shallow. */
export const MAX_BUNDLE_DEPTH = 8;
const BUNDLE_HEADER = Buffer.from('#bundle\0');
/** `#bundle\0` and the timetag. */
const BUNDLE_HEADER_BYTES = 16;

export type PacketOutcome = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/**
 * Hands each message of `packet` to `apply`, in order, bundles walked depth-first (their
 * timetags are not waited for: every bundle applies at once). A malformed packet applies
 * nothing: it is checked whole before the first message is applied.
 */
export function readPacket(packet: Buffer, apply: (message: OscMessage) => void): PacketOutcome {
  const messages: OscMessage[] = [];
  try {
    collect(packet, 0, messages);
  } catch (error) {
    return { ok: false, reason: reasonOf(error) };
  }
  for (const message of messages) apply(message);
  return { ok: true };
}

function collect(packet: Buffer, depth: number, into: OscMessage[]): void {
  if (packet.length >= BUNDLE_HEADER.length && packet.subarray(0, BUNDLE_HEADER.length).equals(BUNDLE_HEADER)) {
    if (depth >= MAX_BUNDLE_DEPTH) throw new Error(`bundles nested deeper than ${MAX_BUNDLE_DEPTH}`);
    if (packet.length < BUNDLE_HEADER_BYTES) throw new Error('a bundle without its timetag');
    let offset = BUNDLE_HEADER_BYTES;
    while (offset < packet.length) {
      if (offset + 4 > packet.length) throw new Error('a bundle element without its size');
      const size = packet.readInt32BE(offset);
      offset += 4;
      if (size <= 0 || size % 4 !== 0 || offset + size > packet.length) throw new Error(`a bundle element of ${size} bytes does not fit`);
      collect(packet.subarray(offset, offset + size), depth + 1, into);
      offset += size;
    }
    return;
  }
  if (packet.length === 0 || packet[0] !== 0x2f) throw new Error('neither a message (an address starting with "/") nor a bundle');
  const decoded = decodeMessage(packet);
  into.push({ address: decoded.address, firstTag: firstTagOf(packet), first: decoded.args[0]?.value });
}

interface DecodedMessage {
  readonly address: string;
  readonly args: readonly { readonly value: unknown }[];
}

/** node-osc's decoder, typed: it throws on a malformed message. */
function decodeMessage(packet: Buffer): DecodedMessage {
  const decoded = decodeOsc(packet) as { oscType?: string; address?: unknown; args?: unknown };
  if (decoded.oscType !== 'message' || typeof decoded.address !== 'string' || !Array.isArray(decoded.args)) {
    throw new Error('not a message');
  }
  return decoded as DecodedMessage;
}

/** The tag of a message's first argument: the byte after the `,` that follows the padded address. */
function firstTagOf(packet: Buffer): string | undefined {
  const end = packet.indexOf(0);
  const tags = (end + 4) & ~3;
  const tag = packet[tags + 1];
  return tag === undefined || tag === 0 ? undefined : String.fromCharCode(tag);
}

/** The value type an address is learned as, from the tag of its first argument; undefined for a tag the hub does not map. */
export function typeOfTag(tag: string | undefined): ValueType | undefined {
  switch (tag) {
    case undefined:
      return 'T';
    case 'i':
      return 'I';
    case 'f':
      return 'F';
    case 's':
      return 'S';
    case 'T':
    case 'F':
      return 'B';
    default:
      return undefined;
  }
}

/**
 * What an argument is as a value for the hub (R-C converts it further): a float32 as the
 * shortest decimal that is the same float32 (`0.1`, not `0.10000000149011612`), so a value
 * the device echoes back equals the one written.
 */
export function valueOfArgument(tag: string | undefined, value: unknown): unknown {
  if (tag === 'f' && typeof value === 'number') return shortestFloat32(value);
  if (tag === undefined) return null;
  return value;
}

/** The shortest decimal that reads back as the same float32. */
export function shortestFloat32(value: number): number {
  if (!Number.isFinite(value)) return value;
  for (let digits = 1; digits < 9; digits++) {
    const shorter = Number(value.toPrecision(digits));
    if (Math.fround(shorter) === value) return shorter;
  }
  return Number(value.toPrecision(9));
}

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const FLOAT32_MAX = 3.4028234663852886e38;

/**
 * The message a write of `value` to a parameter of `type` sends: one argument typed by the
 * parameter (`i`, `f`, `s`, `T`/`F`), none for a trigger. A value OSC 1.0 cannot carry (an
 * integer beyond 32 bits, a float beyond float32, a string holding NUL) is refused.
 */
export function encodeWrite(address: string, type: ValueType, value: Value): Buffer {
  return encodeOsc({ oscType: 'message', address, args: argumentsOf(address, type, value) });
}

function argumentsOf(address: string, type: ValueType, value: Value): { type: string; value: unknown }[] {
  switch (type) {
    case 'T':
      return [];
    case 'B':
      return [{ type: value === true ? 'T' : 'F', value: value === true }];
    case 'I': {
      const n = value as number;
      if (n < INT32_MIN || n > INT32_MAX) throw refused(address, `${n} is beyond OSC's 32-bit integers`);
      return [{ type: 'i', value: n }];
    }
    case 'F': {
      const n = value as number;
      if (Math.abs(n) > FLOAT32_MAX) throw refused(address, `${n} is beyond OSC's 32-bit floats`);
      return [{ type: 'f', value: n }];
    }
    case 'S': {
      const text = value as string;
      if (text.includes('\0')) throw refused(address, 'an OSC string cannot hold the NUL character');
      return [{ type: 's', value: text }];
    }
  }
}

function refused(address: string, why: string): HubError {
  return new HubError('PB_CONVERSION', `${address}: ${why}`);
}

/** What an OSC address (of a method, not a pattern) is: `/` and parts of printable ASCII without space # * , / ? [ ] { }. */
export const oscAddressPattern = '^(/[!-~]+)+$';
const forbidden = /[ #*,?[\]{}]/;

/** Why `address` is not an OSC address the hub can answer to, or undefined when it is one. */
export function oscAddressProblem(address: string): string | undefined {
  if (!address.startsWith('/')) return `"${address}" is not an OSC address: it must start with "/"`;
  if (!new RegExp(oscAddressPattern).test(address) || address.includes('//') || address.endsWith('/'))
    return `"${address}" is not an OSC address: use parts of printable ASCII joined by "/", none empty`;
  const bad = forbidden.exec(address);
  if (bad) return `"${address}" is not an OSC address: "${bad[0]}" is a pattern character (the hub answers to exact addresses)`;
  return undefined;
}
