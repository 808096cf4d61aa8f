/**
 * Who may talk to devices now (R-B3). Outside a redundancy group a hub always may. In a
 * group only the active hub may, and only while its lease holds: the lease runs out at a
 * moment the hub knows from its own clock (the last renewal the broker acknowledged, plus
 * the lease's length), so a hub that was paused, cut off or starved finds out at its next
 * write, before it sends anything, and not when a timer to check would have run.
 *
 * That clock is `performance.now()`, not the scheduler's: a lease must not grow when the
 * machine's wall clock is set back (the scheduler's time is the wall clock, which a
 * schedule wants). The redundancy group (lib/site/group/) and the vote count on it too.
 */
import { performance } from 'node:perf_hooks';
import { HubError } from './errors.ts';

/** Asked before every write to a device: the seam that keeps two hubs from driving one device. */
export interface Fence {
  /** True while this hub may send commands to devices. */
  holds(): boolean;
  /** The epoch of the lease this hub holds or last held; 0 outside a group. */
  readonly epoch: number;
  /** Why a write was not sent, while `holds()` is false. */
  refusal(): HubError;
}

/** The fence of a hub that is in no group: it always drives its devices. */
export const unfenced: Fence = {
  holds: () => true,
  epoch: 0,
  refusal: () => new HubError('PB_INTERNAL', 'a hub outside a redundancy group always drives its devices'),
};

/** The lease of a hub in a redundancy group, as its mqtt connection grants, renews and ends it. */
export class Lease implements Fence {
  private heldEpoch = 0;
  /** `performance.now()` past which the lease no longer holds; 0 while it is not held. */
  private until = 0;

  get epoch(): number {
    return this.heldEpoch;
  }

  holds(): boolean {
    return this.until > 0 && performance.now() < this.until;
  }

  /** Granted for `epoch`, until `until` (`performance.now()` time). */
  grant(epoch: number, until: number): void {
    this.heldEpoch = epoch;
    this.until = until;
  }

  /** Renewed: it holds until `until`, when that is later than now. Never revives a lease that ran out. */
  renew(until: number): void {
    if (this.holds() && until > this.until) this.until = until;
  }

  /** Ended at once: the link to the broker closed, another hub took over, or the hub stands down. */
  end(): void {
    this.until = 0;
  }

  refusal(): HubError {
    return new HubError(
      'PB_NOT_ACTIVE',
      this.heldEpoch === 0
        ? 'this hub is a standby: the active hub of its group talks to devices'
        : `this hub's lease (epoch ${this.heldEpoch}) ended: the active hub of its group talks to devices`,
    );
  }
}
