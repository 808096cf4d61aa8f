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
export type Encoding = 'utf8' | 'latin1' | 'hex';
export type Framing = {
    readonly kind: 'delimiter';
    readonly delimiter: Buffer;
} | {
    readonly kind: 'length';
    readonly length: number;
} | {
    readonly kind: 'lengthPrefix';
    readonly prefixBytes: 1 | 2 | 4;
};
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
export declare function bytesOf(text: string, encoding: Encoding): Buffer;
/** Why `text` is not hex an encoding of `hex` can send, or undefined when it is. */
export declare function notHex(text: string): string | undefined;
/** A frame as it goes on the wire: with its length prefix in front, when the framing has one. */
export declare function wireFrame(text: string, options: FramingOptions): Buffer;
/** The largest body a length prefix of `bytes` can announce. */
export declare const largestPrefixed: (bytes: 1 | 2 | 4) => number;
/**
 * Cuts one byte stream (a TCP connection, a serial port, one datagram) into frames. Text
 * encodings with a delimiter are cut as text: each chunk is decoded once (a character split
 * across two chunks waits for its end), which costs a third of cutting bytes and decoding
 * each frame apart.
 */
export declare class Framer {
    private readonly options;
    private readonly sink;
    private held;
    /** What a text stream holds of a frame not ended yet. */
    private heldText;
    private readonly decoder;
    private readonly textDelimiter;
    /** A delimited stream that overran drops everything until the next delimiter. */
    private skipping;
    private failed;
    constructor(options: FramingOptions, sink: FrameSink);
    push(chunk: Buffer): void;
    /** The stream ended: a datagram's last delimited frame needs no delimiter; anything else held is dropped. */
    end({ lastFrameOpen }?: {
        lastFrameOpen?: boolean | undefined;
    }): void;
    private delimitedText;
    /** True, and told, when a text frame is over the bound in bytes: counted only when its characters could be. */
    private oversized;
    private delimited;
    private fixed;
    private prefixed;
    private tooLong;
    private emit;
}
