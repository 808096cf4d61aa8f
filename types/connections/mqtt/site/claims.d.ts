/**
 * Who owns a connection id that more than one hub of the site runs (R-M5, R-M6): what the
 * broker ordered. This hub claims each connection it shares by describing it; a claim is
 * confirmed once its description came back before any other hub's claim of the id, and lost
 * when another's came first — every hub hears the claims in the same order. A lost claim
 * fails this hub's connection with PB_CONNECTION_OWNED, and it never claims it again this
 * run. Only a connection this hub shares can lose: never its rest-api, its mqtt connection or
 * a connection with nothing shared.
 */
import type { Access, ValueType } from '../../../sdk/index.ts';
import type { ConnectionInfo, ServingContext } from '../../serving.ts';
import type { GroupDirectory } from '../group/directory.ts';
import type { RedundancyGroup } from '../group/group.ts';
import { type OtherHub, type SharedConnection } from './description.ts';
/** `[id, type, access]` of each parameter a connection shares, by connection. */
export type SharedParameters = Map<string, (readonly [string, ValueType, Access])[]>;
/** Who owns each id another hub claims, as decided. */
export type Owners = ReadonlyMap<string, {
    readonly hubId: string;
    readonly heard: number;
}>;
/** What deciding the claims needs of the sharing that holds them. */
export interface ClaimsHost {
    readonly others: ReadonlyMap<string, OtherHub>;
    readonly groups: GroupDirectory;
    /** This hub's group, when it is in one (set once the group is made). */
    group(): RedundancyGroup | undefined;
    /** Whether this hub runs the connection itself (not shown from another hub). */
    isLocal(connectionId: string): boolean;
}
export declare class Claims {
    private readonly context;
    private readonly host;
    /** This hub's shared connections: confirmed once the claim came back from the broker before any other hub's. */
    private readonly own;
    /** Its connections with something to share, as of the latest review. */
    private shareable;
    /** Its connections another hub owns: failed here, never claimed again by this run. */
    readonly refused: Set<string>;
    /** Claims of other hubs heard so far: the order they came in decides who owns an id. */
    private heard;
    constructor(context: ServingContext, host: ClaimsHost);
    /** The ids this hub claims. */
    ids(): string[];
    /** The place of a claim heard now among all heard: an earlier one owns the id. */
    nextHeard(): number;
    /** The connections this hub has something to share of now: only those can lose a claim. */
    sharing(connectionIds: Iterable<string>): void;
    /**
     * This hub's shared connections as the others read them (`shared`: what each shares now),
     * claiming those it shares for the first time and letting go of those that went.
     */
    describe(shared: SharedParameters, connections: readonly ConnectionInfo[]): SharedConnection[];
    /** Its own description came back: the claims in it came before any other hub's claim not yet heard. */
    confirm(payload: Buffer): void;
    /**
     * Decides every id some other hub claims. This hub's own shared connection keeps the id
     * when its claim came back from the broker before the other's (`republish`: its values go
     * out again, over the other's), and is refused when the other's came first (`refusedAny`);
     * a connection it runs but shares nothing of is left alone. The others are owned by the
     * hub whose claim was heard first (`owners`).
     */
    decide(): {
        owners: Owners;
        republish: string[];
        refusedAny: boolean;
    };
}
