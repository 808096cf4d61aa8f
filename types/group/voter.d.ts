/**
 * Who may drive is decided by a majority of a group's voters (R-AV2), never by one part: each
 * hub of the group is a voter, and with two hubs a witness is the third. A hub drives while a
 * majority of voters grant it the lease for its epoch; each grant runs `LEASE_MS` on the
 * voter's own clock from when the voter took the request, and a voter grants no other hub
 * until the grant it gave ran out. The hub counts its lease from when it *sent* the request,
 * a little shorter (`DRIFT_MARGIN_MS`): its lease has ended before any voter it counted can
 * grant another, so two majorities never hold at once — whatever happened to the messages,
 * and however long a hub was paused (it reads its lease by its clock before every write).
 *
 * This file is the voter's rule, pure: time is passed in (monotonic milliseconds), and what
 * it promised is handed to `keep` so that a restarted voter does not promise an epoch twice.
 */
/** How long a grant lasts on the voter's clock. */
export declare const LEASE_MS = 1000;
/** What a candidate takes off its lease for clocks that run at different rates (10 %) and the time a request takes to be read. */
export declare const DRIFT_MARGIN_MS = 100;
/** What a voter keeps across its restarts: the highest epoch it promised, and to whom. */
export interface Pledge {
    readonly epoch: number;
    readonly candidate: string;
}
export interface VoteRequest {
    /** The hub that asks to hold the lease. */
    readonly candidate: string;
    /** The epoch it asks for: the one it holds (a renewal), or a later one (a claim). */
    readonly epoch: number;
    /** Asks only who holds the lease: nothing is granted or promised (a standby watching). */
    readonly probe?: boolean;
    /** Gives back the grant of `epoch` (a hub that stood down or stops): the voter may grant another at once. */
    readonly release?: boolean;
}
export type VoteAnswer = {
    readonly granted: true;
    readonly epoch: number;
} | {
    readonly granted: false;
    /** The highest epoch this voter promised: a later claim must ask for more. */
    readonly epoch: number;
    /** The hub its grant is with, while the grant runs. */
    readonly holder: string | undefined;
    readonly reason: string;
};
export declare class Voter {
    readonly id: string;
    private readonly keep;
    private promised;
    /** The running grant: to the promised candidate, until this time (the voter's clock). */
    private until;
    /** A voter that (re)started may have granted a lease it no longer knows runs: it grants no other hub until this time. */
    private readonly quietUntil;
    constructor(id: string, kept: Pledge | undefined, now: number, keep?: (promised: Pledge) => void);
    /** The highest epoch promised, and to whom. */
    get promise(): Pledge;
    /** The hub whose grant runs now, if any. */
    holder(now: number): string | undefined;
    ask({ candidate, epoch, probe, release }: VoteRequest, now: number): VoteAnswer;
    /** A hub that stands down gives its grant back: the voter may grant another at once. */
    release(candidate: string, epoch: number): void;
}
