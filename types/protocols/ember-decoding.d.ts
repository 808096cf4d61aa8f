import { type Decoded, type Met } from './ember-plus.ts';
/** What an `EmberReceiver` hands on, in the order the peer sent it. */
export interface EmberReceiverEvents {
    /** Each whole frame, before what it carries is handed on: what a bound on a peer's rate counts. */
    frame?(): void;
    /** The elements of one message, decoded. */
    met(met: readonly Met[]): void;
    /** The peer asks whether we are alive: answered at once, not after the messages before it. */
    keepalive(): void;
    /** A frame or message dropped: malformed, past a bound, or not decoded. */
    dropped(kind: 'malformed' | 'oversized', reason: string): void;
}
/** The socket a receiver reads: paused while its messages wait to be decoded. */
export interface ReadFlow {
    pause(): void;
    resume(): void;
}
/**
 * Reads one peer's byte stream: frames within `maxMessageBytes` (see `S101Reader`), messages
 * decoded off the event loop, handed on in order.
 */
export declare class EmberReceiver {
    private readonly flow;
    private readonly events;
    private readonly reader;
    private readonly waiting;
    /** Messages read and not yet handed on: those waiting, and the one being decoded. */
    private unanswered;
    private closed;
    constructor(maxMessageBytes: number, flow: ReadFlow, events: EmberReceiverEvents);
    push(chunk: Buffer): void;
    /** Reads no more: what waits is let go, a message being decoded is not handed on. */
    close(): void;
    /** @internal The next message to decode. */
    take(): Buffer | undefined;
    /** @internal More messages wait. */
    get hasWaiting(): boolean;
    /** @internal A message decoded. */
    decoded(result: Decoded): void;
}
