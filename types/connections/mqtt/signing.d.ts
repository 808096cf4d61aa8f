export { type KeySource, loadSiteKey, MIN_KEY_LENGTH } from '../../core/site-key.ts';
/** What is signed besides topic and payload. */
export interface SignedProperties {
    userProperties?: Record<string, string | string[]>;
    responseTopic?: string;
    correlationData?: Buffer;
}
/** Signs what one hub publishes. */
export declare class Signer {
    private readonly key;
    readonly hubId: string;
    private start;
    private session;
    private sequence;
    /** `start`: this run's first counter part, above every earlier run's (see `nextStart`). */
    constructor(key: Buffer, hubId: string, start?: number);
    /**
     * A message of this hub's that it did not send carries counter `n` (a holder of the key
     * signed it, as this hub): this hub's counters move past it, so that what it sends next is
     * taken over it. Returns the new start to keep, when it moved.
     */
    passed(n: unknown): number | undefined;
    /** True when counter `n` is one this signer gave: a message of this run, not of one before a restart. */
    issued(n: unknown): boolean;
    /**
     * A new broker session begins: returns its last will's properties, signed to count after
     * everything the hub sends in the session (the broker publishes it when the session ends)
     * and before anything of the next.
     */
    nextSession(topic: string, payload: string): SignedProperties;
    /** The properties with `hub`, `n` and `sig` set: what goes out with the message. */
    sign<P extends SignedProperties>(topic: string, payload: string | Buffer, properties: P): P;
    private signed;
}
/**
 * The start of a signer's run: now, or one past the start of the run before when the clock
 * says earlier (it was set back): counters then grow across restarts whatever the clock does.
 */
export declare function nextStart(before: unknown, now?: number): number;
/** Why a message was not taken: `duplicate` is the same message again (a retained one after a reconnect). */
export type Rejection = 'unsigned' | 'bad signature' | 'replayed' | 'duplicate';
/** The hub that signed a message, or why it is not taken. */
export type Verified = {
    readonly ok: true;
    readonly hub: string;
} | {
    readonly ok: false;
    readonly why: Rejection;
};
/** The last counter taken on topics whose marks outlive the run: kept in the hub's state folder. */
export interface KeptMarks {
    /** True for a topic whose mark is kept (what the broker retains). */
    keeps(topic: string): boolean;
    get(key: string): string | undefined;
    set(key: string, n: string): void;
}
/** Checks what other hubs (and anyone else) publish. */
export declare class Verifier {
    private readonly key;
    private readonly kept?;
    /** The last counter taken per hub and topic. */
    private readonly last;
    constructor(key: Buffer, kept?: KeptMarks | undefined);
    verify(topic: string, payload: Buffer, properties: SignedProperties): Verified;
}
