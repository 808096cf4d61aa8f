/**
 * What a connection's process sends the hub, in order and in bounded memory (R-PK4, R-PK5);
 * child.ts is the process, session.ts the connection's side of the wall.
 */
import type { Channel } from '../../sdk/process/channel.ts';
import type { Change, ChildToHub, HubToChild } from './messages.ts';

/** The hub's end of the wire, as this process holds it. */
export type HubEnd = Pick<Channel<ChildToHub, HubToChild>, 'call' | 'tell'>;

/** `values` messages the hub may have untaken; past them changes wait, conflated. */
const MOST_UNTAKEN = 2;
/** The most changes one message carries. */
const BATCH = 1000;
/** Fires of triggers that may wait; past it later fires are dropped, and the log says so. */
const MOST_WAITING_FIRES = 100_000;

/**
 * What goes to the hub, in order and in bounded memory. The changes of a turn go as one
 * message (a message a change cost the hub more than the change), and the hub says when it
 * has taken each: a device may report faster than the hub can take (in its own process it
 * would be read no faster than that). While two messages of changes are untaken, each
 * parameter's changes wait as its latest value (R-W's rule for a slow client: every final
 * value, in order per parameter), a trigger's fires wait each, and any other message (an
 * answer, a status) first sends everything that waits, so that it overtakes nothing.
 */
export class Outbox {
  constructor(private readonly hub: HubEnd) {}

  private untaken = 0;
  /** This turn's changes, as they came. */
  private batch: Change[] = [];
  private flushing = false;
  /** While the hub is behind: by parameter id, or by fire for a trigger; in the order they first came. */
  private readonly waiting = new Map<string, Change>();
  private fires = 0;
  private dropped = 0;

  value(change: Change, trigger: boolean): void {
    if (this.untaken < MOST_UNTAKEN && this.waiting.size === 0) {
      this.batch.push(change);
      if (this.batch.length >= BATCH) this.sendBatch();
      else if (!this.flushing) {
        this.flushing = true;
        setImmediate(() => {
          this.flushing = false;
          this.sendBatch();
        });
      }
      return;
    }
    const [id] = change;
    if (!trigger) {
      this.waiting.delete(id);
      this.waiting.set(id, change);
      return;
    }
    if (this.fires >= MOST_WAITING_FIRES) {
      this.dropped += 1;
      return;
    }
    this.fires += 1;
    this.waiting.set(`${id}\u0000${this.fires}`, change);
  }

  /** The hub took a message of changes: what waits may go. */
  taken(): void {
    this.untaken = Math.max(0, this.untaken - 1);
    if (this.untaken < MOST_UNTAKEN) {
      this.sendBatch();
      this.sendWaiting();
    }
  }

  /** Sends what waits: this turn's changes, then those that waited while the hub was behind. */
  flush(): void {
    this.sendBatch();
    this.sendWaiting();
  }

  private sendBatch(): void {
    if (this.batch.length === 0) return;
    const changes = this.batch;
    this.batch = [];
    this.sendValues(changes);
  }

  private sendWaiting(): void {
    // Taken out before they go: sending flushes (the channel's `send`), which must find nothing.
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    this.fires = 0;
    if (waiting.length > 0) this.sendValues(waiting);
    if (this.dropped > 0) {
      const dropped = this.dropped;
      this.dropped = 0;
      this.hub.tell('log', {
        line: JSON.stringify({ level: 40, msg: `${dropped} trigger fires dropped: the hub took them slower than they came` }),
      });
    }
  }

  /** Changes, answered once the hub has taken them. */
  private sendValues(changes: readonly Change[]): void {
    this.untaken += 1;
    this.hub.call('values', { changes }).then(
      () => this.taken(),
      () => {},
    );
  }
}
