/**
 * Values that came, signed, before the description of their connection: held for a minute
 * (within `limits.heldValues`) so that a parameter shown a moment later starts from its
 * owner's value rather than unknown.
 */
import type { Subscription } from 'rxjs';
import { every, type Scheduler } from '../../sdk/index.ts';
import type { Counter } from '../../broker/signing.ts';
import type { SiteOverruns } from '../settings.ts';

/** A value of another hub's as it came: its string form, who changed it, and the owner's counter of the message. */
export interface SharedValue {
  readonly text: string;
  readonly by: string;
  readonly counter: Counter;
}

/** A value that came, signed by `from`, before the description of its connection. */
export interface EarlyValue {
  readonly from: string;
  readonly value: SharedValue;
  readonly at: number;
}

/** How long a value waits for the description of its connection. */
const HELD_FOR_MS = 60_000;

export class EarlyValues {
  private readonly byAddress = new Map<string, EarlyValue>();
  private readonly ageing: Subscription;

  constructor(
    private readonly scheduler: Scheduler,
    private readonly heldAtMost: number,
    private readonly overruns: SiteOverruns,
  ) {
    this.ageing = every(scheduler, HELD_FOR_MS / 6, () => this.age());
  }

  get size(): number {
    return this.byAddress.size;
  }

  /** Holds a value for a parameter not shown yet; the newest of an address replaces the one before. */
  hold(address: string, value: Omit<EarlyValue, 'at'>): void {
    if (this.byAddress.size >= this.heldAtMost && !this.byAddress.has(address))
      return this.overruns.dropped(
        'held',
        `a value for ${address} is one more than the ${this.heldAtMost} held for parameters not shown yet`,
      );
    this.byAddress.delete(address);
    this.byAddress.set(address, { ...value, at: this.scheduler.now() });
  }

  /** The value held for `address`, let go of. */
  take(address: string): EarlyValue | undefined {
    const early = this.byAddress.get(address);
    if (early) this.byAddress.delete(address);
    return early;
  }

  stop(): void {
    this.ageing.unsubscribe();
  }

  /** Drops held values older than a minute: their parameters did not come. Oldest first, in the order they came. */
  private age(): void {
    const before = this.scheduler.now() - HELD_FOR_MS;
    for (const [address, value] of this.byAddress) {
      if (value.at > before) break;
      this.byAddress.delete(address);
    }
  }
}
