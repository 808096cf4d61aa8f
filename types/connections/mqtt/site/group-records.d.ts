/**
 * What the hubs of this hub's redundancy group say of themselves (R-B1–B5): their role
 * records, taken as the group's rules allow (an epoch more than one step ahead waits for that
 * hub's own renewals to confirm it); their lease renewals, counted only when bound to this
 * hub's session; and the records of the active hub's connections, kept for a takeover (R-B4).
 */
import type { Scheduler, Json } from '../../../sdk/index.ts';
import type { MessageProperties } from '../broker-link.ts';
import type { GroupDirectory } from '../group/directory.ts';
import type { RedundancyGroup } from '../group/group.ts';
import type { SiteChecks } from './checks.ts';
import type { Corrections } from './corrections.ts';
import { type OtherHub } from './description.ts';
/** What the records need of the sharing that holds them. */
export interface RecordsHost {
    /** This hub's group, when it is in one (set once the group is made). */
    group(): RedundancyGroup | undefined;
    readonly groups: GroupDirectory;
    readonly others: ReadonlyMap<string, OtherHub>;
    /** Whether the broker is connected now. */
    up(): boolean;
    /** Who holds a lease changed: who owns which connection is decided again. */
    ownersChanged(): void;
}
export declare class GroupRecords {
    private readonly hubId;
    private readonly host;
    private readonly checks;
    private readonly corrections;
    private readonly scheduler;
    /** The records each hub of the group publishes of its connections, while it is active. */
    private readonly recordsOf;
    /** Role records of the group's hubs whose epoch is more than one step ahead: taken once that hub's own fresh renewals say the same epoch. */
    private readonly unconfirmed;
    constructor(hubId: string, host: RecordsHost, checks: SiteChecks, corrections: Corrections, scheduler: Scheduler);
    /** A hub's role in a redundancy group, as the group's rules allow it: who owns a group's connections may have changed. */
    roleRecord(topic: string, hubId: string, payload: Buffer, properties: MessageProperties): void;
    /**
     * A renewal of a hub of the group: it counts when it is bound to this hub's session (one
     * played back from before is not), and it confirms a record of that hub's that was more
     * than one epoch ahead.
     */
    renewal(topic: string, hubId: string, payload: Buffer): void;
    /** Records of a hub's connections, signed by it: kept, in case it is the active hub of this hub's group when it goes (R-B4). */
    records(hubId: string, connectionId: string, payload: Buffer): void;
    /** The records `owner` published of its connections: what a takeover from it starts from. */
    recordsOfHub(owner: string | undefined): Map<string, [string, Json][]>;
    /** The hubs whose records say they are active in a later epoch than this hub knows, not confirmed yet. */
    unconfirmedActive(): string[];
    /** The broker sessions of the other hubs of the group that are here: a renewal names them, bound to each. */
    sessions(): Record<string, string>;
    private take;
}
