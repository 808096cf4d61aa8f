import type { ServingContext } from '../../serving.ts';
import type { HubSettings } from '../settings.ts';
import type { GroupDirectory } from './directory.ts';
import type { Renewals } from './renewals.ts';
import type { Roles } from './roles.ts';
import type { GroupSharing } from './sharing.ts';
export interface Claim {
    readonly epoch: number;
    /** The hub that held the lease when the claim went out, if any. */
    readonly previous: string | undefined;
    /** `performance.now()` when the claim came back as the first of its epoch. */
    wonAt: number | undefined;
}
/** What the claims need of the group that makes them (group.ts). */
export interface TakeoverHost {
    /** True when the group has voters: then the vote decides, not the claims. */
    voting(): boolean;
    /** The hub's sharing (site/site-share.ts), once it is set. */
    sharing(): GroupSharing | undefined;
}
export declare class Takeover {
    private readonly context;
    private readonly hub;
    private readonly directory;
    private readonly roles;
    private readonly renewals;
    private readonly host;
    /** This hub's claim of the next epoch, from when it went out until it won and took over, or lost. */
    claim: Claim | undefined;
    constructor(context: ServingContext, hub: HubSettings & {
        readonly group: string;
    }, directory: GroupDirectory, roles: Roles, renewals: Renewals, host: TakeoverHost);
    /** Shows who is active; then, without voters, claims when no hub here holds the lease, or takes over once its claim won. */
    decide(): void;
    claimNext(): Claim;
    /** Its own claim came back: won when no other hub's claim of the epoch came first. */
    claimCameBack(): void;
    /**
     * Takes over once the old lease has surely run out: `FENCE_WAIT_MS` after the claim came
     * back, or at once when the hub that held it said it stood down for this claim.
     */
    private tryActivate;
}
