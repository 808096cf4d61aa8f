import { afterTurn } from '../../core/scheduler.ts';

export interface FairShareOptions<C> {
  /** Milliseconds one client's messages may take per event-loop turn before the rest waits for the next. */
  readonly msPerTurn: number;
  /** Bytes a client may have waiting, each message counted with what keeping it costs (`KEEPING_COSTS`); past them it is refused (`overflow`). */
  readonly maxWaitingBytes: number;
  /** Applies one message of a client; `gone` once the client has left (nothing can be sent to it). */
  readonly apply: (client: C, message: ArrayBuffer, gone: boolean) => void;
  /** A client that sends faster than the hub applies, beyond its waiting room. */
  readonly overflow: (client: C) => void;
  /** The clock shares are measured with (specs pass their own). */
  readonly now?: () => number;
}

/**
 * What the hub spends keeping one waiting message beyond its bytes (its copy's object and
 * allocation, its slot), counted against the waiting room: a client sending one-byte
 * messages would otherwise have millions waiting within 4 MiB, at about 250 bytes of hub
 * memory each (ten such clients held 750 MiB).
 */
export const KEEPING_COSTS = 256;

interface Waiting {
  readonly messages: ArrayBuffer[];
  next: number;
  bytes: number;
  /** The client has left: what it sent before is still applied, nothing is answered. */
  gone: boolean;
}

/**
 * WebSocket writes in fair shares: uWS hands over everything a socket has sent at once,
 * so one client writing 20,000 messages a second would make every other client wait
 * while the hub applies them (and sends each change to every listener). Each client gets
 * `msPerTurn` of applying per event-loop turn; the rest waits, in order, for the next turns, in which every waiting
 * client has its share again — while the other sockets are read in between. The waiting
 * room is bounded: a client beyond it is refused instead of growing the hub's memory.
 */
export class FairShare<C> {
  private readonly used = new Map<C, number>();
  private readonly waiting = new Map<C, Waiting>();
  private turnAhead = false;
  private readonly now: () => number;

  constructor(private readonly options: FairShareOptions<C>) {
    this.now = options.now ?? (() => performance.now());
  }

  /** A message from a client: applied now while the client is within its share, else queued behind its earlier ones. */
  offer(client: C, message: ArrayBuffer): void {
    const queued = this.waiting.get(client);
    const used = this.used.get(client) ?? 0;
    this.nextTurnAhead();
    if (!queued && used < this.options.msPerTurn) {
      const started = this.now();
      this.options.apply(client, message, false);
      this.used.set(client, used + this.now() - started);
      return;
    }
    const room = queued ?? { messages: [], next: 0, bytes: 0, gone: false };
    const cost = message.byteLength + KEEPING_COSTS;
    if (room.bytes + cost > this.options.maxWaitingBytes) {
      this.forget(client);
      this.options.overflow(client);
      return;
    }
    // uWS reuses the message's memory once the handler returns: what waits is a copy.
    room.messages.push(message.slice(0));
    room.bytes += cost;
    this.waiting.set(client, room);
  }

  /** A client that overflowed: what it had waiting is dropped. */
  forget(client: C): void {
    this.waiting.delete(client);
    this.used.delete(client);
  }

  /**
   * A client that has left: what it sent before leaving was received, so it is still
   * applied in its turns (a script that writes and disconnects loses nothing); only its
   * answers have nowhere to go.
   */
  leave(client: C): void {
    this.used.delete(client);
    const room = this.waiting.get(client);
    if (room) room.gone = true;
  }

  /** What the messages waiting over all clients cost to keep, in bytes (see `KEEPING_COSTS`). */
  get waitingBytes(): number {
    let bytes = 0;
    for (const room of this.waiting.values()) bytes += room.bytes;
    return bytes;
  }

  private nextTurnAhead(): void {
    if (this.turnAhead) return;
    this.turnAhead = true;
    afterTurn(() => this.turn());
  }

  private turn(): void {
    this.turnAhead = false;
    this.used.clear();
    for (const [client, room] of this.waiting) {
      const started = this.now();
      while (room.next < room.messages.length && this.now() - started < this.options.msPerTurn) {
        const message = room.messages[room.next] as ArrayBuffer;
        room.messages[room.next++] = EMPTY;
        room.bytes -= message.byteLength + KEEPING_COSTS;
        this.options.apply(client, message, room.gone);
        if (this.waiting.get(client) !== room) break;
      }
      if (!room.gone) this.used.set(client, this.now() - started);
      if (room.next >= room.messages.length) this.waiting.delete(client);
    }
    if (this.waiting.size > 0) this.nextTurnAhead();
  }
}

const EMPTY = new ArrayBuffer(0);
