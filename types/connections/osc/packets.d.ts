import { type Value, type ValueType } from '../../sdk/index.ts';
/** One message of a packet: its address, its first argument (absent when it has none) and that argument's tag. */
export interface OscMessage {
    readonly address: string;
    readonly firstTag: string | undefined;
    readonly first: unknown;
}
/** Bundles nested deeper than this are malformed for the hub: no device nests so, and the walk stays shallow. */
export declare const MAX_BUNDLE_DEPTH = 8;
export type PacketOutcome = {
    readonly ok: true;
} | {
    readonly ok: false;
    readonly reason: string;
};
/**
 * Hands each message of `packet` to `apply`, in order, bundles walked depth-first (their
 * timetags are not waited for: every bundle applies at once). A malformed packet applies
 * nothing: it is checked whole before the first message is applied.
 */
export declare function readPacket(packet: Buffer, apply: (message: OscMessage) => void): PacketOutcome;
/** The value type an address is learned as, from the tag of its first argument; undefined for a tag the hub does not map. */
export declare function typeOfTag(tag: string | undefined): ValueType | undefined;
/**
 * What an argument is as a value for the hub (R-C converts it further): a float32 as the
 * shortest decimal that is the same float32 (`0.1`, not `0.10000000149011612`), so a value
 * the device echoes back equals the one written.
 */
export declare function valueOfArgument(tag: string | undefined, value: unknown): unknown;
/** The shortest decimal that reads back as the same float32. */
export declare function shortestFloat32(value: number): number;
/**
 * The message a write of `value` to a parameter of `type` sends: one argument typed by the
 * parameter (`i`, `f`, `s`, `T`/`F`), none for a trigger. A value OSC 1.0 cannot carry (an
 * integer beyond 32 bits, a float beyond float32, a string holding NUL) is refused.
 */
export declare function encodeWrite(address: string, type: ValueType, value: Value): Buffer;
/** What an OSC address (of a method, not a pattern) is: `/` and parts of printable ASCII without space # * , / ? [ ] { }. */
export declare const oscAddressPattern = "^(/[!-~]+)+$";
/** Why `address` is not an OSC address the hub can answer to, or undefined when it is one. */
export declare function oscAddressProblem(address: string): string | undefined;
