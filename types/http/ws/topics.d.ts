/**
 * The topics clients share, and what the server lets out at all. Clients with the same
 * filters, access, options and rate (on the ladder) share one topic, made when the first
 * joins and gone when the last leaves — or, for a resumable topic (R-W3), kept for
 * `resumeWindow` in case one comes back. A resume token is the topic key's MAC, so a token
 * brought back to other filters or another login is refused.
 */
import type { Pattern } from '../../core/regex.ts';
import { type Scheduler } from '../../core/scheduler.ts';
import { type ResumeLimits, type TokenCheck } from './resume.ts';
import { Topic, type WsClient } from './state.ts';
export declare class Topics {
    private readonly serverFilters;
    private readonly scheduler;
    private readonly resume;
    private readonly byKey;
    /** Bumped when a topic comes or goes: each entry's list of topics is found again at its next change. */
    version: number;
    private made;
    private readonly tokens;
    /** What every resumable topic keeps together (`ResumeLimits.totalBytes`). */
    private readonly replayBudget;
    /** Resumable topics without members, waiting for a client to come back; the longest waiting first. */
    private readonly idle;
    /** Clients that came back (R-W3): resumed, sent a snapshot instead, refused at the upgrade. */
    readonly comebacks: {
        resumed: number;
        resynced: number;
        refused: number;
    };
    constructor(serverFilters: readonly Pattern[], scheduler: Scheduler, resume?: ResumeLimits);
    get size(): number;
    values(): IterableIterator<Topic>;
    /** Whether the topic is still one of the hub's (a topic that went leaves its slices of work behind). */
    has(topic: Topic): boolean;
    /** Whether the server's filters let the parameter at `address` out at all. */
    exposes(address: string): boolean;
    /** Whether the topic's clients are sent the parameter at `address`. */
    passes(topic: Topic, address: string): boolean;
    /** Whether a topic's snapshot goes through the graph itself, nothing found first: it and the server filter nothing. */
    passesAll(topic: Topic): boolean;
    /**
     * The topic a client joins, one more member: made for the first of its kind, taken back
     * from waiting when a client comes back to it. A resumable topic keeps what it sends from
     * the hub's change count `now` on.
     */
    enter(client: WsClient, now: number): Topic;
    /** A member left: the last one out drops the topic, or has a resumable one wait for a client to come back. */
    left(topic: Topic): void;
    /**
     * What the token a client brings back says of it (R-W3), before it is let in: one given
     * to another login or to other filters or options is `foreign`, and refused; undefined
     * for a client that brings none.
     */
    checkResume(client: WsClient): TokenCheck | undefined;
    /** Whether `token` is the one this hub gave the topic's clients. */
    gave(token: string, topic: Topic): boolean;
    /** Every topic's filters are found anew at its next client: a parameter went. */
    forgetMatched(): void;
    /** What resumable topics keep, with how clients that came back fared: for `/metrics`. */
    resumeStats(): {
        topics: number;
        messages: number;
        bytes: number;
        resumed: number;
        resynced: number;
        refused: number;
    };
    /** Every topic's timers stopped: the hub stops. */
    stop(): void;
    /** A resumable topic whose clients all left waits `window` for one to come back, still keeping what it would send. */
    private waitForComeback;
    private drop;
}
