/**
 * Putting back what someone else overwrote on this hub's topics (its presence, description,
 * values, role record): at once, then at most once a second per topic, so that two hubs
 * that both think a topic theirs do not flood the broker.
 */
import type { Subscription } from 'rxjs';
import { after, type Scheduler } from '../../sdk/index.ts';

/** The shortest time between two corrections of one topic. */
const CORRECT_AFTER_MS = 1000;

export class Corrections {
  /** Topics of this hub's someone else published on, and when each was last put back. */
  private readonly byTopic = new Map<string, { at: number; queued?: Subscription | undefined }>();

  constructor(
    private readonly scheduler: Scheduler,
    /** Whether the broker is connected: a correction due while it is not is left to `up`, which publishes anyway. */
    private readonly up: () => boolean,
  ) {}

  /** Publishes again what someone else overwrote on `topic`. */
  correct(topic: string, republish: () => void): void {
    const now = this.scheduler.now();
    const last = this.byTopic.get(topic) ?? { at: Number.NEGATIVE_INFINITY };
    this.byTopic.set(topic, last);
    if (last.queued) return;
    const run = () => {
      last.queued = undefined;
      last.at = this.scheduler.now();
      if (this.up()) republish();
    };
    const wait = last.at + CORRECT_AFTER_MS - now;
    if (wait <= 0) return run();
    last.queued = after(this.scheduler, wait, run);
  }

  stop(): void {
    for (const { queued } of this.byTopic.values()) queued?.unsubscribe();
  }
}
