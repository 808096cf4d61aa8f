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
export declare const unfenced: Fence;
/** The lease of a hub in a redundancy group, as its mqtt connection grants, renews and ends it. */
export declare class Lease implements Fence {
    private heldEpoch;
    /** `performance.now()` past which the lease no longer holds; 0 while it is not held. */
    private until;
    get epoch(): number;
    holds(): boolean;
    /** Granted for `epoch`, until `until` (`performance.now()` time). */
    grant(epoch: number, until: number): void;
    /** Renewed: it holds until `until`, when that is later than now. Never revives a lease that ran out. */
    renew(until: number): void;
    /** Ended at once: the link to the broker closed, another hub took over, or the hub stands down. */
    end(): void;
    refusal(): HubError;
}
