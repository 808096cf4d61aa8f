/**
 * Ember+ messages read from a peer without the peer holding the hub's event loop (R-G4).
 * emberplus-connection's BER decoder takes tens of microseconds an element, and whatever time
 * a crafted message asks of it (a path of 200,000 numbers held the loop for a second), so no
 * Glow message is decoded on the event loop: one worker thread of the process decodes them for
 * every Ember+ connection, one message at a time. Readers with messages waiting take turns, a
 * message each, so one peer's flood delays another's message by one message at most; a reader
 * with messages waiting has its socket paused, so what a peer sends waits in its own TCP
 * buffers, not in the hub. The thread's heap is bounded; a thread that dies drops the message it
 * was decoding (said as any dropped message is) and the next message starts another.
 */
import { Worker } from 'node:worker_threads';
import { type Decoded, type Met, S101Reader } from './ember-plus.ts';

/** The decoding thread's heap: a 4 MiB tree listing decodes in a fraction of it. */
const WORKER_HEAP_MB = 256;

const fromSources = import.meta.url.endsWith('.ts');
const workerEntry = new URL(`./ember-decode-worker.${fromSources ? 'ts' : 'js'}`, import.meta.url);

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
export class EmberReceiver {
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
  decoded(result: Decoded): void {
    this.unanswered--;
    if (this.closed) return;
    if ('met' in result) this.events.met(result.met);
    else this.events.dropped('malformed', result.dropped);
    if (this.unanswered === 0 && !this.closed) this.flow.resume();
  }
}

/** The process's decoding thread and the readers taking turns at it. */
class Decoding {
  private worker: Worker | undefined;
  /** The reader whose message the thread decodes now. */
  private busy: EmberReceiver | undefined;
  /** Readers with messages waiting, in turn (a Set keeps the order things were added in). */
  private readonly turns = new Set<EmberReceiver>();

  wants(receiver: EmberReceiver): void {
    if (receiver !== this.busy) this.turns.add(receiver);
    this.next();
  }

  forget(receiver: EmberReceiver): void {
    this.turns.delete(receiver);
  }

  /** Starts the thread ahead of the first message: loading it takes a good part of a second. */
  warm(): void {
    this.started();
  }

  private next(): void {
    if (this.busy !== undefined) return;
    for (const receiver of this.turns) {
      this.turns.delete(receiver);
      const ber = receiver.take();
      if (ber === undefined) continue;
      this.busy = receiver;
      this.started().postMessage(ber);
      return;
    }
  }

  private done(result: Decoded): void {
    const receiver = this.busy;
    this.busy = undefined;
    if (receiver !== undefined) {
      // Behind the others that wait: one message a turn.
      if (receiver.hasWaiting) this.turns.add(receiver);
      receiver.decoded(result);
    }
    this.next();
  }

  private started(): Worker {
    if (this.worker !== undefined) return this.worker;
    const worker = fromSources
      ? // A checkout's sources are TypeScript: the thread registers tsx's loader, as the hub's command does.
        new Worker(
          `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(({ register }) => { register(); return import(${JSON.stringify(workerEntry.href)}); });`,
          { eval: true, execArgv: [], resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } },
        )
      : new Worker(workerEntry, { execArgv: [], resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
    let why = 'stopped';
    worker.on('message', (result: Decoded) => this.done(result));
    worker.on('error', (error) => (why = error.message));
    worker.on('exit', () => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      if (this.busy !== undefined) this.done({ dropped: `a message the decoder could not finish (${why})` });
    });
    // It does not keep the process alive: the sockets whose messages it decodes do. (After the
    // listeners: a 'message' listener refs the thread again.)
    worker.unref();
    this.worker = worker;
    return worker;
  }
}

const decoding = new Decoding();
