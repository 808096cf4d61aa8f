/**
 * The connections of other hubs this hub shows (R-M5): each at the same addresses as its
 * owner's, its parameters added, removed or retyped as the owner's description says, its
 * status the owner's (failed while the owner is away), its values the owner's signed ones.
 * Writes go to the owner (`remote-writes.ts`). When the active hub of this hub's group goes,
 * the last values of what it ran are kept: a takeover starts from them (R-B2).
 */
import { type Answered, type SetResult, type Value, type ValueType } from '../../../sdk/index.ts';
import type { MirroredConnection, ProxyParameter, ServingContext } from '../../serving.ts';
import type { MessageProperties } from '../broker-link.ts';
import type { OtherHub, SharedConnection } from './description.ts';
import type { EarlyValues } from './early-values.ts';
export interface Mirror {
    readonly owner: string;
    readonly handle: MirroredConnection;
    readonly parameters: Map<string, {
        readonly parameter: ProxyParameter;
        readonly key: string;
    }>;
}
/** Sends a write of a shown parameter to its owner. */
type Forward = (address: string, type: ValueType, value: Value, origin: string | undefined, answered: Answered | undefined) => SetResult;
export declare class Mirrors {
    private readonly context;
    private readonly others;
    private readonly early;
    private readonly forward;
    private readonly byId;
    /** The last values of the active hub's connections, kept when it went away: a takeover starts from them. */
    private leftValues;
    constructor(context: ServingContext, others: ReadonlyMap<string, OtherHub>, early: EarlyValues, forward: Forward);
    has(connectionId: string): boolean;
    get(connectionId: string): Mirror | undefined;
    /** Shows `id` as its owner describes it: parameters added, removed or retyped to match. */
    mirror(id: string, owner: string, shared: SharedConnection): void;
    /** A value signed by `from` on the value topic of a connection this hub does not run: followed when shown, else held. */
    value(connectionId: string, address: string, from: string, payload: Buffer, properties: MessageProperties): void;
    /** Every connection shown again with its owner's status: after a connect. */
    showAll(): void;
    /** The broker is gone: every connection shown is degraded, its values maybe stale. */
    down(reason: string): void;
    /**
     * A hub came or went. Gone, its values are unknown until it is back and sends them again;
     * of what only this hub group's active hub runs (`groupRuns`), the last values are kept
     * for a takeover, which starts from them.
     */
    ownerPresence(hubId: string, online: boolean, groupRuns: (connectionId: string) => boolean): void;
    /** Closes every connection shown whose owner is no longer the one `owners` names (the claims were decided again). */
    keepOwnedBy(owners: ReadonlyMap<string, {
        readonly hubId: string;
    }>, groupRuns: (connectionId: string) => boolean): void;
    /** The values shown of what only the group's active hub runs, with those it left: what a takeover starts from (R-B2). */
    carried(groupRuns: (connectionId: string) => boolean): ReadonlyMap<string, Value>;
    closeAll(): void;
    private keepLeft;
    private describe;
    private show;
    /** A value signed by `from`: taken when it is the owner's (a hub that lost the id may have sent one too). */
    private follow;
}
export {};
