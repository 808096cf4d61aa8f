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
 * and the turns are the process kit's `bounded-worker.ts`'s, as for the Satellite key bitmaps.
 */
import { BoundedWorker, siblingModule, type WorkerTurns } from '../sdk/process/bounded-worker.ts';
import type { Decoded, Met } from './ember-plus.ts';
import { S101Reader } from './s101.ts';

/** The process's decoding thread: a 4 MiB tree listing decodes in a fraction of its heap. */
const decoding = new BoundedWorker<Buffer, Decoded>({
  entry: siblingModule(import.meta.url, 'ember-decode-worker'),
  heapMb: 256,
  failed: (why) => ({ dropped: `a message the decoder could not finish (${why})` }),
});

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
export class EmberReceiver implements WorkerTurns<Buffer, Decoded> {
  private readonly reader: S101Reader;
  private readonly waiting: Buffer[] = [];
  /** Messages read and not yet handed on: those waiting, and the one being decoded. */
  private unanswered = 0;
  private closed = false;

  constructor(
    maxMessageBytes: number,
    private readonly flow: ReadFlow,
    private readonly events: EmberReceiverEvents,
  ) {
    this.reader = new S101Reader(maxMessageBytes, {
      frame: () => {
        if (!this.closed) events.frame?.();
      },
      message: (ber) => {
        if (this.closed) return;
        this.waiting.push(ber);
        this.unanswered++;
        decoding.wants(this);
      },
      keepalive: () => {
        if (!this.closed) events.keepalive();
      },
      dropped: (kind, reason) => {
        if (!this.closed) events.dropped(kind, reason);
      },
    });
    decoding.warm();
  }

  push(chunk: Buffer): void {
    if (this.closed) return;
    this.reader.push(chunk);
    if (this.unanswered > 0 && !this.closed) this.flow.pause();
  }

  /** Reads no more: what waits is let go, a message being decoded is not handed on. */
  close(): void {
    this.closed = true;
    this.waiting.length = 0;
    decoding.forget(this);
  }

  /** @internal The next message to decode. */
  take(): Buffer | undefined {
    return this.waiting.shift();
  }

  /** @internal More messages wait. */
  get hasWaiting(): boolean {
    return this.waiting.length > 0;
  }

  /** @internal A message decoded. */
  done(result: Decoded): void {
    this.unanswered--;
    if (this.closed) return;
    if ('met' in result) this.events.met(result.met);
    else this.events.dropped('malformed', result.dropped);
    if (this.unanswered === 0 && !this.closed) this.flow.resume();
  }
}
