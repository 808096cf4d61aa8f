/**
 * The displays a receiver made from what it heard, by when each was heard last: which one may
 * give its place to a display heard for the first time when `maxDisplays` are shown. Without
 * it, a sender that named a thousand displays once filled the table until a restart, and the
 * mixer's own were never shown. Only a display quiet for `forgetAfter` gives way, so a flood
 * cannot push out displays a tally source keeps sending; listed displays are never here.
 */
export declare class HeardDisplays {
    private readonly now;
    private readonly forgetAfter;
    /** By key, when heard last; oldest first (a display heard again moves to the end). */
    private readonly heardAt;
    constructor(now: () => number, forgetAfter: number);
    heard(key: string): void;
    /** The display heard longest ago, if it has not been heard for `forgetAfter`: it is forgotten. */
    takeStale(): string | undefined;
}
