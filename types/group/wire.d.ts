import type { VoteAnswer, VoteRequest } from './voter.ts';
/** The largest datagram read: a vote is a few hundred bytes. */
export declare const MAX_DATAGRAM = 2048;
/** The key the votes are signed with: the site key, bound to this use. */
export declare function voteKey(siteKey: Buffer): Buffer;
/** Who sent a request, and when in its life: `start` grows across restarts, `n` within a run. */
export interface Stamp {
    readonly start: number;
    readonly n: number;
}
export type Datagram = {
    readonly k: 'ask';
    readonly g: string;
    readonly from: string;
    readonly to: string;
    readonly s: Stamp;
    readonly request: VoteRequest;
} | {
    readonly k: 'answer';
    readonly g: string;
    readonly from: string;
    readonly to: string;
    readonly re: Stamp;
    readonly answer: VoteAnswer;
};
export declare function encode(key: Buffer, datagram: Datagram): Buffer;
/** The datagram, or why it was not taken: `unsigned` (no valid signature: not a member of the site) or `malformed`. */
export declare function decode(key: Buffer, bytes: Buffer): {
    ok: true;
    datagram: Datagram;
} | {
    ok: false;
    why: 'unsigned' | 'malformed';
};
/** True when `next` comes after `last` from the same sender (a later start, or the same start and a later round). */
export declare function isAfter(next: Stamp, last: Stamp | undefined): boolean;
