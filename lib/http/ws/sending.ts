/**
 * What a topic sends: each message to the clients listening (through the outbox, at the end
 * of the turn) and to those whose snapshot is under way (queued behind it), and for a
 * rate-limited topic the latest message of each parameter on ticks (R-W2).
 */
import type { Observable } from 'rxjs';
import { after, type Scheduler } from '../../core/scheduler.ts';
import type { Outbox } from './outbox.ts';
import type { Snapshots } from './snapshots.ts';
import type { Entry, Topic } from './state.ts';

export class Sending {
  /** Topics whose next tick is set. */
  private readonly ticking = new Set<Topic>();

  constructor(
    private readonly outbox: Outbox,
    private readonly snapshots: Snapshots,
    private readonly scheduler: Scheduler,
    /** Topics as they go: a tick of theirs never comes. */
    dropped$: Observable<Topic>,
  ) {
    dropped$.subscribe((topic) => this.untick(topic));
  }

  /** A message for a topic's clients: those joining get it after their snapshot, the others when the turn ends. */
  send(topic: Topic, message: string): void {
    this.snapshots.queueBehind(topic, message);
    this.outbox.add(topic, message);
  }

  /**
   * R-W2: a rate-limited topic sends on ticks at least its interval apart, each with the
   * latest message of every parameter that changed since the one before (one per parameter,
   * so memory stays bounded and the last value always arrives). A change after a quiet
   * interval goes out at once (with whatever else changes before the next timer turn).
   * Ticking per topic rather than per parameter is what makes the limit cheap: however many
   * parameters change, a client is written to at most n times a second (see `Outbox.flush`).
   */
  hold(topic: Topic, entry: Entry, message: string): void {
    // A resumable topic's tick goes in the order of last changes, so its `seq`s only grow.
    if (topic.replay) topic.held.delete(entry);
    topic.held.set(entry, message);
    if (topic.nextTick) return;
    const wait = Math.max(0, topic.lastTick + topic.interval - this.scheduler.now());
    topic.nextTick = after(this.scheduler, wait, () => this.tick(topic));
    this.ticking.add(topic);
  }

  /** Parameters removed: their messages held for a tick are not sent. */
  forget(entries: readonly Entry[]): void {
    for (const entry of entries) for (const topic of entry.topics) topic.held.delete(entry);
  }

  /** Every tick cancelled: the hub stops. */
  stop(): void {
    for (const topic of this.ticking) this.untick(topic);
  }

  private tick(topic: Topic): void {
    topic.nextTick = undefined;
    this.ticking.delete(topic);
    topic.lastTick = this.scheduler.now();
    for (const message of topic.held.values()) this.send(topic, message);
    topic.held.clear();
  }

  private untick(topic: Topic): void {
    topic.nextTick?.unsubscribe();
    topic.nextTick = undefined;
    this.ticking.delete(topic);
  }
}
