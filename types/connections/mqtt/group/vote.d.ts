import type { Subscription } from 'rxjs';
import { type Result } from '../../../sdk/index.ts';
import type { ServingContext } from '../../serving.ts';
import { Candidate } from '../../../group/candidate.ts';
import { type Dropped, VoteEndpoint } from '../../../group/endpoint.ts';
import type { BrokerLink } from '../broker-link.ts';
import type { HubSettings } from '../settings.ts';
import type { Roles } from './roles.ts';
export interface Vote {
    readonly candidate: Candidate;
    readonly endpoint: VoteEndpoint;
    readonly rounds: Subscription;
    readonly keeping: Subscription;
    readonly dropped: Record<Dropped, number>;
}
export declare class Voting {
    private readonly context;
    private readonly hub;
    private readonly link;
    private readonly roles;
    /**
     * The group's vote, when `hub.voters` lists its voters (R-AV1, R-AV2): the lease comes from a
     * majority of them over UDP, and the broker carries only roles, values and records.
     */
    vote: Vote | undefined;
    /** An operator asked this hub to take over (a manual group's failover), until it holds the lease. */
    private operatorAsked;
    /** With voters: until when the takeover an operator asked of this hub may take (`performance.now()`); 0 when none was asked. */
    private failoverUntil;
    constructor(context: ServingContext, hub: HubSettings & {
        readonly group: string;
    }, link: BrokerLink, roles: Roles);
    /** With `hub.voters`: votes on a UDP port of its own, and asks the voters every round. Rejects when its port cannot be had. */
    startVoting(siteKey: Buffer): Promise<void>;
    stopVoting(): void;
    /** `POST /failover` on a standby of a group with voters (its vote running): it asks the voters for the lease. */
    failover(): Result<string>;
    /** Whether this hub may claim the lease when no voter names a holder: always in an auto group; in a manual one, at the first start, at an operator's word, or to take back its own lapse. */
    private mayClaim;
    /** After a round or an answer: takes over, renews, or stands down, as the majority says. */
    private voteChanged;
    /** Which voters this hub heard from within a lease, and whether each granted it the last time. */
    votersReached(): Record<string, {
        reached: boolean;
        granted: boolean;
    }>;
}
