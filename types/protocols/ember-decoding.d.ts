/**
 * Ember+ messages read from a peer without the peer holding the hub's event loop (R-G4).
 * emberplus-connection's BER decoder takes tens of microseconds an element, and whatever time
 * a crafted message asks of it (a path of 200,000 numbers held the loop for a second), so no
 * Glow message is decoded on the event loop: one worker thread of the process decodes them for
 * every Ember+ connection, one message at a time. Readers with messages waiting take turns, a
 * message each, so one peer's flood delays another's message by one message at most; a reader
 * with messages waiting has its socket paused, so what a peer sends waits in its own TCP
 * buffers, not in the hub. The thread's heap is bounded; a thread that dies drops the message it
 * was decoding (said as any dropped message is) and the next message starts another. The thread
 * and the turns are `bounded-worker.ts`'s, as for the Satellite key bitmaps.
 */
import { type WorkerTurns } from './bounded-worker.ts';
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
export declare class EmberReceiver implements WorkerTurns<Buffer, Decoded> {
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
    done(result: Decoded): void;
}
