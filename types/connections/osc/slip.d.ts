/** `packet` as one SLIP frame, with an END before it too (it ends any noise the peer holds). */
export declare function slipFrame(packet: Buffer): Buffer;
export interface SlipHandlers {
    /** A whole frame, unescaped. */
    frame(packet: Buffer): void;
    /** A frame that grew past the bound: dropped. */
    tooLarge(bytes: number): void;
}
/** Reads frames out of a stream's chunks, holding at most `maxBytes` of a frame. */
export declare class SlipReader {
    private readonly maxBytes;
    private readonly handlers;
    private readonly buffer;
    private length;
    private escaped;
    /** Bytes of a frame being dropped since it went past the bound; 0 while reading normally. */
    private dropping;
    constructor(maxBytes: number, handlers: SlipHandlers);
    push(chunk: Buffer): void;
    /** Forgets a frame in progress: the stream it came on closed. */
    reset(): void;
}
