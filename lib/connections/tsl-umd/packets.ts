/**
 * TSL UMD messages, as TSL Products publishes them.
 *
 * v3.1: 18 bytes a display. Byte 0 is the address + 0x80 (0–126); byte 1 the control: bits
 * 0–3 tally 1–4, bits 4–5 brightness (0–3), bits 6–7 zero; bytes 2–17 sixteen characters
 * of printable ASCII.
 *
 * v5.0: PBC (bytes after it, 16-bit little-endian), VER (0), FLAGS (bit 0: text is UTF-16LE;
 * bit 1: a screen control message), SCREEN (16-bit), then display messages: INDEX (16-bit),
 * CONTROL (bits 0–1 right-hand tally, 2–3 text tally, 4–5 left-hand tally, each 0 off,
 * 1 red, 2 green, 3 amber; bits 6–7 brightness; bit 15 a control message, not display
 * data), LENGTH (bytes of text), TEXT. Over TCP a packet starts with DLE/STX (0xFE 0x02),
 * and a DLE in it is sent twice. 0xFFFF as a screen or an index means every one.
 */

export const V31_LENGTH = 18;
export const V31_TEXT_LENGTH = 16;
export const V31_MAX_ADDRESS = 126;
export const EVERY = 0xffff;

const DLE = 0xfe;
const STX = 0x02;
/** The longest v5.0 packet: PBC counts at most 65,535 bytes after itself. */
const V5_MAX_PACKET = 2 + 0xffff;

export interface V31Display {
  readonly address: number;
  readonly text: string;
  readonly brightness: number;
  /** Tally 1 to 4. */
  readonly tally: readonly [boolean, boolean, boolean, boolean];
}

export interface V5Display {
  readonly index: number;
  readonly text: string;
  readonly brightness: number;
  readonly rh: number;
  readonly textTally: number;
  readonly lh: number;
}

export interface V5Packet {
  readonly screen: number;
  readonly displays: readonly V5Display[];
  /** Display messages that carried control data rather than a display's state (skipped). */
  readonly controls: number;
}

/** A malformed message: what is wrong with it. */
export type Malformed = string;

export function encodeV31(display: V31Display): Buffer {
  const packet = Buffer.alloc(V31_LENGTH, 0x20);
  packet[0] = 0x80 + display.address;
  const [t1, t2, t3, t4] = display.tally;
  packet[1] = (t1 ? 1 : 0) | (t2 ? 2 : 0) | (t3 ? 4 : 0) | (t4 ? 8 : 0) | ((display.brightness & 3) << 4);
  // Only printable ASCII is allowed; anything else shows as "?".
  const text = display.text.slice(0, V31_TEXT_LENGTH);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    packet[2 + i] = code >= 0x20 && code <= 0x7e ? code : 0x3f;
  }
  return packet;
}

export function decodeV31(packet: Buffer): V31Display | Malformed {
  if (packet.length !== V31_LENGTH) return `${packet.length} bytes where a v3.1 message has ${V31_LENGTH}`;
  if (packet[0]! < 0x80 || packet[0]! > 0x80 + V31_MAX_ADDRESS) return `address byte 0x${packet[0]!.toString(16)} (0x80–0xfe)`;
  const control = packet[1]!;
  if (control & 0xc0) return `control byte 0x${control.toString(16)} has its reserved bits set`;
  return {
    address: packet[0]! - 0x80,
    // The text is a fixed field padded with spaces: shown without the padding.
    text: packet
      .toString('latin1', 2, V31_LENGTH)
      .replace(/[^\x20-\x7e]/g, '?')
      .trimEnd(),
    brightness: (control >> 4) & 3,
    tally: [(control & 1) !== 0, (control & 2) !== 0, (control & 4) !== 0, (control & 8) !== 0],
  };
}

/** One v5.0 packet of one screen's displays; the text is ASCII unless a display's needs UTF-16LE. */
export function encodeV5(screen: number, displays: readonly V5Display[]): Buffer {
  const unicode = displays.some((display) => /[^\x20-\x7e]/.test(display.text));
  const texts = displays.map((display) => Buffer.from(display.text, unicode ? 'utf16le' : 'latin1'));
  const length = 6 + displays.reduce((sum, _display, i) => sum + 6 + texts[i]!.length, 0);
  const packet = Buffer.alloc(length);
  packet.writeUInt16LE(length - 2, 0);
  packet[2] = 0;
  packet[3] = unicode ? 1 : 0;
  packet.writeUInt16LE(screen, 4);
  let at = 6;
  displays.forEach((display, i) => {
    const text = texts[i]!;
    const control = (display.rh & 3) | ((display.textTally & 3) << 2) | ((display.lh & 3) << 4) | ((display.brightness & 3) << 6);
    packet.writeUInt16LE(display.index, at);
    packet.writeUInt16LE(control, at + 2);
    packet.writeUInt16LE(text.length, at + 4);
    text.copy(packet, at + 6);
    at += 6 + text.length;
  });
  return packet;
}

export function decodeV5(packet: Buffer): V5Packet | Malformed {
  if (packet.length < 6) return `${packet.length} bytes, shorter than a v5.0 header`;
  const counted = packet.readUInt16LE(0);
  if (counted !== packet.length - 2) return `its byte count says ${counted} bytes follow, ${packet.length - 2} do`;
  if (packet[2] !== 0) return `version ${packet[2]} (v5.0 is 0)`;
  const flags = packet[3]!;
  const screen = packet.readUInt16LE(4);
  // A screen control message has no displays in it: nothing this hub shows.
  if (flags & 2) return { screen, displays: [], controls: 1 };
  const unicode = (flags & 1) !== 0;
  const displays: V5Display[] = [];
  let controls = 0;
  let at = 6;
  while (at < packet.length) {
    if (at + 6 > packet.length) return `a display message cut short at byte ${at}`;
    const index = packet.readUInt16LE(at);
    const control = packet.readUInt16LE(at + 2);
    const length = packet.readUInt16LE(at + 4);
    if (at + 6 + length > packet.length) return `a display message's text of ${length} bytes runs past the end`;
    if (unicode && length % 2 !== 0) return `UTF-16 text of an odd ${length} bytes`;
    const text = packet.toString(unicode ? 'utf16le' : 'latin1', at + 6, at + 6 + length);
    at += 6 + length;
    if (control & 0x8000) {
      controls++;
      continue;
    }
    displays.push({
      index,
      text,
      rh: control & 3,
      textTally: (control >> 2) & 3,
      lh: (control >> 4) & 3,
      brightness: (control >> 6) & 3,
    });
  }
  return { screen, displays, controls };
}

/** A v5.0 packet as TCP carries it: DLE/STX, then the packet with each DLE sent twice. */
export function wrapV5(packet: Buffer): Buffer {
  const wrapped = Buffer.alloc(2 + packet.length * 2);
  wrapped[0] = DLE;
  wrapped[1] = STX;
  let at = 2;
  for (const byte of packet) {
    wrapped[at++] = byte;
    if (byte === DLE) wrapped[at++] = DLE;
  }
  return wrapped.subarray(0, at);
}

/**
 * Reads v5.0 packets from a TCP stream: each starts at DLE/STX, its DLEs doubled, and
 * ends when its byte count is read. Bytes outside a packet are skipped and counted.
 */
export class V5StreamReader {
  private packet = Buffer.alloc(V5_MAX_PACKET);
  private length = 0;
  private inPacket = false;
  private sawDle = false;

  constructor(
    private readonly handlers: {
      packet(packet: Buffer): void;
      /** Bytes that were not part of a packet (once a chunk), or a packet cut by the next DLE/STX. */
      skipped(why: string): void;
    },
  ) {}

  push(chunk: Buffer): void {
    let outside = 0;
    for (const byte of chunk) {
      if (this.sawDle) {
        this.sawDle = false;
        if (byte === STX) {
          if (this.inPacket && this.length > 0) this.handlers.skipped(`a packet cut short after ${this.length} bytes by the next`);
          this.inPacket = true;
          this.length = 0;
          continue;
        }
        if (byte !== DLE) {
          // A lone DLE inside a packet: the packet is broken.
          if (this.inPacket) this.handlers.skipped('a DLE not doubled inside a packet');
          this.inPacket = false;
          continue;
        }
        // A doubled DLE: one DLE of data.
      } else if (byte === DLE) {
        this.sawDle = true;
        continue;
      }
      if (!this.inPacket) {
        outside++;
        continue;
      }
      this.packet[this.length++] = byte;
      if (this.length >= 2) {
        const whole = 2 + this.packet.readUInt16LE(0);
        if (this.length === whole) {
          this.inPacket = false;
          this.handlers.packet(Buffer.from(this.packet.subarray(0, whole)));
        }
      }
    }
    if (outside > 0) this.handlers.skipped(`${outside} bytes outside a packet`);
  }
}
