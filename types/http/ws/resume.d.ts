/** How long and how much a topic keeps for clients that may come back (the rest-api's `resumeWindow`, `resumeChanges`). */
export interface ResumeLimits {
    /** Milliseconds a message is kept, and a topic whose clients all left waits for one to come back. */
    readonly window: number;
    /** Messages a topic keeps at most. */
    readonly changes: number;
    /** Bytes of messages a topic keeps at most: a few long strings must not hold the hub's memory. */
    readonly bytes: number;
    /**
     * Bytes all topics of the hub keep together: a thousand clients with a filter set each must
     * not make a thousand times `bytes`. A topic that would pass it lets go of its own oldest.
     */
    readonly totalBytes: number;
}
export declare const defaultResumeLimits: ResumeLimits;
/** What the topics of one hub keep together, in bytes (see `ResumeLimits.totalBytes`). */
export declare class ReplayBudget {
    used: number;
}
/**
 * The messages one resumable topic sent, with their `seq`, newest last: at most
 * `changes` of them and `bytes` of text, none older than `window`. What it lets go, it
 * remembers as a `seq` below which it can no longer replay, so a client further behind is
 * sent a snapshot instead of an incomplete replay.
 */
export declare class ReplayBuffer {
    private readonly limits;
    private readonly budget;
    private readonly seqs;
    private readonly messages;
    /** What each message is of (its parameter): a rate-limited client's replay keeps one message per key. */
    private readonly keys;
    private readonly times;
    /** Index of the oldest message; the arrays are a ring once they hold `changes`. */
    private head;
    private count;
    private held;
    /** Every message with a `seq` at or below this may have been let go. */
    private lostUpTo;
    /** `from`: the hub's `seq` when the topic began; nothing before it was kept. */
    constructor(limits: ResumeLimits, from: number, budget?: ReplayBudget);
    get size(): number;
    /** Bytes of text held (two a character at most in V8; counted as one, as `/metrics` counts sent bytes). */
    get bytes(): number;
    push(seq: number, key: unknown, message: string, now: number): void;
    /** Lets go of everything: the topic is gone. */
    clear(): void;
    /**
     * What was sent after `seq`, in order; with `conflate`, only the last message of each
     * key (a rate-limited client resumes to the latest value of each parameter). Undefined
     * when some of it is no longer kept.
     */
    since(seq: number, conflate: boolean, now: number): {
        readonly messages: string[];
        readonly seqs: number[];
    } | undefined;
    private dropOlderThan;
    private dropOldest;
}
/** What a resume token says of a client that comes back with it. */
export type TokenCheck = 
/** Given by this hub to the same login, filters and options: it may resume. */
'ours'
/** Given before the hub (or this rest-api connection) started again: what it missed is gone, it is sent a snapshot. */
 | 'stale'
/** Given to another login, or to other filters or options: refused. */
 | 'foreign';
/**
 * Resume tokens: `<run>.<mac>`, the MAC of the topic's key (login, filters, options) under
 * a key made when this rest-api connection started. Nothing is kept per token: the hub
 * checks a token by making it again for the client that brings it. The token grants
 * nothing by itself (the upgrade is authenticated as any other); it only names the stream
 * the client was on.
 */
export declare class ResumeTokens {
    private readonly run;
    private readonly key;
    tokenFor(topicKey: string): string;
    check(token: string, topicKey: string): TokenCheck;
    private mac;
}
/** The shape of a token in an upgrade's query (checked before anything is looked up). */
export declare const RESUME_TOKEN: RegExp;
/** What a token of another shape is taken as: one of no run of this hub, so `stale` (a resync), never `foreign`. */
export declare const UNKNOWN_TOKEN = "";
/** `{"p":…,"v":…,"seq":n}`: a message of a resumable topic, from the message every other topic is sent. */
export declare const withSeq: (message: string, seq: number) => string;
/** The `seq` a message of a resumable topic carries (its last member, written by `withSeq`). */
export declare const seqOf: (message: string) => number;
