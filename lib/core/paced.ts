import type { Subscription } from 'rxjs';
import { after, type Scheduler } from './scheduler.ts';

/**
 * The latest of something another side may change without end (a connection's status, a
 * config a module saves), shown at once up to `most` times a second of the scheduler's
 * clock; past that, its latest once more when the second is up. Nothing is queued and
 * nothing final is lost: a status flapping 10,000 times a second costs `most` log lines and
 * events, and ends shown as it ended.
 */
export class Paced<T> {
  private second = Number.NEGATIVE_INFINITY;
  private shown = 0;
  private waiting: Subscription | undefined;

  constructor(
    private readonly scheduler: Scheduler,
    private readonly most: number,
    private latest: T,
    private readonly show: (value: T) => void,
  ) {}

  /** The latest value, shown or waiting. */
  get value(): T {
    return this.latest;
  }

  /** A new value: shown now, or when this second is up. */
  set(value: T): void {
    this.latest = value;
    if (this.waiting) return;
    const now = this.scheduler.now();
    if (now >= this.second + 1000) {
      this.second = now;
      this.shown = 0;
    }
    if (++this.shown <= this.most) return this.show(value);
    this.waiting = after(this.scheduler, this.second + 1000 - now, () => {
      this.waiting = undefined;
      this.set(this.latest);
    });
  }

  /** A value of this side's own (a failure, a stop): shown now, instead of what waits. */
  setNow(value: T): void {
    this.cancel();
    this.latest = value;
    this.show(value);
  }

  /** Shows what waits now (a stop must not lose it). */
  flush(): void {
    if (this.waiting) this.setNow(this.latest);
  }

  /** Forgets that something waits; the value stays. */
  cancel(): void {
    this.waiting?.unsubscribe();
    this.waiting = undefined;
  }
}
