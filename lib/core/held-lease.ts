/**
 * How long a hub may drive on a lease it keeps alive with a coordinator (etcd, R-EG2), by its
 * own arithmetic and not by what a client library says. The coordinator ends the lease no
 * sooner than `lease` after it received the last keep-alive it acknowledged, and it received
 * that keep-alive after the hub sent it; so the lease surely holds until the keep-alive's
 * send time plus the lease, by the hub's clock, less a margin for the two clocks' rates. A
 * keep-alive acknowledged late still counts from its send time (never from its answer); one
 * lost counts for nothing; the hold never shrinks while it holds, and never comes back once it
 * ended (an end makes every keep-alive sent before it void).
 *
 * The clock is monotonic (`performance.now()` in a hub, the virtual clock in specs): a lease
 * must not grow when the wall clock is set back. Should it still read earlier than before,
 * the hold ends — a clock that cannot be trusted proves nothing. A clock that jumps forward
 * (the process was paused) finds the hold ended at the next look, before anything is sent.
 */
import type { Subscription } from 'rxjs';
import { after, type Scheduler } from './scheduler.ts';

/** The margin for clock drift: a tenth of the lease, at least 100 ms. */
export function driftMargin(leaseMs: number): number {
  return Math.max(100, Math.ceil(leaseMs / 10));
}

/** A keep-alive as it went out: hand it back to `acknowledged` with its answer. */
export interface KeepAliveSent {
  readonly at: number;
  readonly generation: number;
}

export class HeldLease {
  /** Clock time before which the hold is proven; 0 while nothing holds. */
  private until = 0;
  private latest = Number.NEGATIVE_INFINITY;
  private generation = 0;
  private check: Subscription | undefined;

  constructor(
    private readonly scheduler: Scheduler,
    private readonly clock: () => number,
    readonly leaseMs: number,
    /** Called once when a hold runs out by itself (not on `end`), at its moment on the scheduler or at the next look. */
    private readonly lapsed: () => void,
    readonly marginMs = driftMargin(leaseMs),
  ) {}

  /** A keep-alive (or the grant) goes out now. */
  sending(): KeepAliveSent {
    return { at: this.read(), generation: this.generation };
  }

  /** Its answer came: the hold reaches its send time plus the lease less the margin, if that is later and no end came since. */
  acknowledged(sent: KeepAliveSent): void {
    const now = this.read();
    if (sent.generation !== this.generation) return;
    const until = sent.at + this.leaseMs - this.marginMs;
    if (until <= now || until <= this.until) return;
    this.until = until;
    this.arm(now);
  }

  /** True while the hold is proven by the clock now. */
  holds(): boolean {
    return this.look();
  }

  /** Clock time the hold reaches (for the fence); 0 while it does not hold. */
  get holdsUntil(): number {
    return this.look() ? this.until : 0;
  }

  /** How long the hold has left now, in ms; 0 when it does not hold. */
  left(): number {
    return this.look() ? this.until - this.latest : 0;
  }

  /** Ends the hold now; keep-alives sent before count for nothing. */
  end(): void {
    this.generation++;
    this.until = 0;
    this.check?.unsubscribe();
    this.check = undefined;
  }

  /** Looks again when the hold should run out (the scheduler's clock may run apart from the lease's: then later again). */
  private arm(now: number): void {
    this.check?.unsubscribe();
    this.check = after(this.scheduler, Math.max(1, this.until - now), () => {
      if (this.look()) this.arm(this.latest);
    });
  }

  private look(): boolean {
    const held = this.until > 0;
    const now = this.read();
    if (this.until > 0 && now >= this.until) {
      this.end();
      if (held) this.lapsed();
      return false;
    }
    return this.until > 0;
  }

  /** The clock now; an earlier reading than the last ends the hold. */
  private read(): number {
    const now = this.clock();
    if (now < this.latest && this.until > 0) {
      this.end();
      this.lapsed();
    }
    this.latest = now;
    return now;
  }
}
