/**
 * A hub's side of the vote (R-AV2). Every `ASK_EVERY_MS` it asks every voter of its group,
 * itself included:
 *
 * - the holder renews its epoch, and holds the lease while a majority granted one of its
 *   rounds: until that round was *sent* plus `LEASE_MS` less `DRIFT_MARGIN_MS` (voter.ts says
 *   why that keeps two holders apart);
 * - the others only ask who holds it (`probe`), and claim the next epoch only when no voter
 *   has named another holder for two rounds (a voter names the holder while its grant runs,
 *   a lease after the holder's last renewal it heard) — so the role moves only when the holder is
 *   gone from a majority, never because one link or the witness failed — and then after a
 *   wait by their rank among the hubs that may take it (the group's members in order, less
 *   the holder that went: a standby alone takes over at once) and a random part, so that two
 *   hubs starting together do not split the votes for ever. A claim also needs a majority of
 *   voters heard since, naming no holder: a hub woken from a pause hears who holds first;
 * - a hub an operator asked to take over claims at every round for a while (`claimFor`),
 *   and the holder that heard of it gives its grants back (`release`) and claims nothing
 *   meanwhile (`standAside`).
 *
 * A round's answers count only for that round, so an answer played back or delayed from
 * another round counts for nothing. Pure: time is passed in, `send` carries a request to a
 * voter, `random` draws the waits.
 */
import { type VoteAnswer, type VoteRequest } from './voter.ts';
/** How often a candidate asks: five rounds a lease, so that a lost datagram or two costs nothing. */
export declare const ASK_EVERY_MS = 200;
export interface Round {
    readonly n: number;
    readonly epoch: number;
    readonly sentAt: number;
    readonly granted: Set<string>;
}
export interface CandidateOptions {
    /** The group's hubs in order: who claims first when none holds (the first that is not the holder that went). */
    readonly members: readonly string[];
    /** A number in [0, 1): Math.random, or a seeded source in a spec. */
    readonly random?: () => number;
}
export declare class Candidate {
    readonly id: string;
    readonly voters: readonly string[];
    private readonly send;
    private readonly options;
    private next;
    private readonly rounds;
    /** The epoch of the lease and the time (this hub's clock) it holds until; until 0: not held. */
    private held;
    /** The highest epoch any voter said it promised. */
    private seen;
    /** When a voter last named another hub as the holder, and which. */
    private otherHolder;
    /** When this hub first found no holder, since it last knew one: its claim waits from then. */
    private noneSince;
    private claimAt;
    /**
     * The voters that answered since `noneSince` without naming a holder: a claim needs a
     * majority of them, so a hub that wakes from a pause hears who holds before it claims.
     */
    private readonly heardNone;
    /** Until then it claims at every round, whoever holds: an operator asked it to take over. */
    private eagerUntil;
    /** Until then it claims nothing: it stood down for another hub, or released the lease. */
    private asideUntil;
    /** The epoch of its last claim: claimed again while no voter refused it or named another holder, so that a lost answer spends no epoch. */
    private claiming;
    /** Set once a voter refused `claiming` for a promise at or past it, or named another holder: the next claim asks for more. */
    private claimSpent;
    /**
     * Set while it holds the lease and a voter refused it because it promised that epoch (or a
     * later one) to another hub — two hubs that claimed one epoch together, one winning with the
     * others' votes: the holder then renews with the next epoch, so that every voter can grant it
     * again and losing any one other voter does not take it off air.
     */
    private behind;
    /** Its first round: a hub just started hears the voters for a lease before it may claim. */
    private startedAt;
    /** What each voter answered last, for the status of the group (which voters this hub reaches). */
    readonly lastAnswer: Map<string, {
        readonly at: number;
        readonly answer: VoteAnswer;
    }>;
    private readonly random;
    constructor(id: string, voters: readonly string[], send: (voter: string, request: VoteRequest & {
        readonly n: number;
    }) => void, options?: CandidateOptions);
    get majority(): number;
    /** The highest epoch heard of: a claim asks for one more. */
    get highestEpoch(): number;
    /** The epoch held, and until when (this hub's clock), while it holds at `now`. */
    lease(now: number): {
        readonly epoch: number;
        readonly until: number;
    } | undefined;
    /** The hub a voter named as holder within the last lease, if not this one. */
    holderSeen(now: number): string | undefined;
    /** Its place among the members that may take the lease now: all of them, less the last holder a voter named. */
    private rank;
    /** A round: renew, watch, or claim (see the header). `claims` false: never claim (a manual group waiting for its operator). */
    tick(now: number, claims?: boolean): void;
    /** The epoch to claim: the one claimed last while no voter said a later one, else one past the highest heard of. */
    private claimEpoch;
    /** Starts over the wait for a claim: a holder is known again (or this hub holds). */
    private forgetNone;
    /**
     * The hub `hub` says it no longer holds (it stood down, or stops): a voter's naming of it
     * no longer holds this hub back, nor does standing aside. Only the wait changes: the
     * voters still grant no one while its grants run, unless it gave them back.
     */
    holderGone(hub: string): void;
    /** Claims at every round for `ms`, whoever holds (an operator's failover): the voters still grant only once the holder's grants ran out. */
    claimFor(now: number, ms: number): void;
    /** Ends the lease here and claims nothing for `ms`: another hub was asked to take over. */
    standAside(now: number, ms: number): void;
    /** Claims the next epoch now (an operator's failover), whoever holds it: the voters still refuse while a grant runs. */
    claim(now: number): number;
    /** Asks every voter for `epoch` (to renew or claim), only who holds it (`probe`), or to free its grant (`release`); the round's number. */
    ask(epoch: number, now: number, probe?: boolean, release?: boolean): number;
    /** A voter's answer to round `n`; the lease as it holds now, if it does. */
    answered(voter: string, n: number, answer: VoteAnswer, now: number): {
        readonly epoch: number;
        readonly until: number;
    } | undefined;
    /** Ends the lease here at once (standing down): no round asked before counts any more. */
    end(): void;
    /**
     * Gives the lease back to every voter, so that another hub is granted it at once rather
     * than when its grants run out. Call only once this hub drives nothing (its lease ended
     * here): the voters free their grants as they read this.
     */
    release(now: number): void;
}
