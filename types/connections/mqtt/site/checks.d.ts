import type { Records, SparseLog } from '../../../sdk/index.ts';
import type { MessageProperties } from '../broker-link.ts';
import { NO_HUB, REJECTED } from '../bridge.ts';
import type { MqttOverruns } from '../settings.ts';
import type { Signer, Verifier } from '../signing.ts';
/** The site key at work: what signs this hub's messages and checks the others'. */
export interface SiteTrust {
    readonly signer: Signer;
    readonly verifier: Verifier;
}
export declare class SiteChecks {
    private readonly hubId;
    private readonly trust;
    private readonly overruns;
    private readonly ignored;
    /** Where this hub keeps the signer's start across restarts. */
    private readonly records;
    /**
     * This hub's broker session, new at every connect and said in its presence: the other hubs
     * bind the writes they forward to it, and their lease renewals, so that none of them played
     * back later (after a restart, a takeover, a reconnect) is taken (R-AV3).
     */
    session: string;
    /** `scheduler.now()` when the session began: the others may bind to the one before for a moment. */
    sessionSince: number;
    constructor(hubId: string, trust: SiteTrust, overruns: MqttOverruns, ignored: SparseLog, 
    /** Where this hub keeps the signer's start across restarts. */
    records: Records);
    /** The broker connected (again): a new session, which what was bound to the one before does not match. */
    newSession(now: number): void;
    /** Who sent a write on a `set` topic: a hub's write counts only when it is bound to this hub's session now (R-AV3). */
    sender(topic: string, payload: Buffer, properties: MessageProperties): string | typeof NO_HUB | typeof REJECTED;
    /** The hub that signed a message on a hub or value topic; undefined (counted) for anything else. */
    signedBy(topic: string, payload: Buffer, properties: MessageProperties): string | undefined;
    /** True when the message was signed by this run of this hub (not one before a restart). */
    fromThisRun(properties: MessageProperties): boolean;
    /** Counts a signed message that is not taken: played back (`replayed`), or a role record the group's rules do not allow (`refused`). */
    refuse(kind: 'replayed' | 'refused', topic: string, why: string): void;
    /** The hub that signed a message; `none` when unsigned, `rejected` (counted) when it does not verify or was taken before. */
    private verified;
    /** Counts a message that is not taken, and says so: at most one line in ten seconds (all are counted in /metrics). */
    private unverified;
    private passSigned;
}
