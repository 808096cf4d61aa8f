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
export declare const V31_LENGTH = 18;
export declare const V31_TEXT_LENGTH = 16;
export declare const V31_MAX_ADDRESS = 126;
export declare const EVERY = 65535;
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
export declare function encodeV31(display: V31Display): Buffer;
export declare function decodeV31(packet: Buffer): V31Display | Malformed;
/** One v5.0 packet of one screen's displays; the text is ASCII unless a display's needs UTF-16LE. */
export declare function encodeV5(screen: number, displays: readonly V5Display[]): Buffer;
export declare function decodeV5(packet: Buffer): V5Packet | Malformed;
/** A v5.0 packet as TCP carries it: DLE/STX, then the packet with each DLE sent twice. */
export declare function wrapV5(packet: Buffer): Buffer;
/**
 * Reads v5.0 packets from a TCP stream: each starts at DLE/STX, its DLEs doubled, and
 * ends when its byte count is read. Bytes outside a packet are skipped and counted.
 */
export declare class V5StreamReader {
    private readonly handlers;
    private packet;
    private length;
    private inPacket;
    private sawDle;
    constructor(handlers: {
        packet(packet: Buffer): void;
        /** Bytes that were not part of a packet (once a chunk), or a packet cut by the next DLE/STX. */
        skipped(why: string): void;
    });
    push(chunk: Buffer): void;
}
