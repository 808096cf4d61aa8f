import { type Observable } from 'rxjs';
import { type HubError, type Result } from '../core/errors.ts';
import type { Graph, Reading } from '../core/graph.ts';
import type { ConnectionInfo } from '../connections/connection.ts';
import type { MirroredConnection } from '../connections/serving.ts';
/**
 * The connections other hubs run that this hub shows (R-M5), kept beside its own: one
 * place for their listing, and for the rule that an id is this hub's or a mirror, never both.
 * Also the connections a hub of a redundancy group stopped when it stood down, shown as it
 * last had them until the active hub's take their place (`keep`).
 */
export declare class Mirrors {
    private readonly graph;
    /** True when the hub runs a connection of this id itself. */
    private readonly ownsId;
    private readonly shown;
    /** The ids `keep` shows: given up to the active hub's mirror (`open`), or to this hub's own connection when it takes over. */
    private readonly kept;
    private readonly changed;
    /** Each mirrored connection's report as it changes, for the hub's problems. */
    readonly changes$: Observable<ConnectionInfo>;
    constructor(graph: Graph, 
    /** True when the hub runs a connection of this id itself. */
    ownsId: (id: string) => boolean);
    infos(): ConnectionInfo[];
    open(id: string, owner: string): Result<MirroredConnection>;
    /**
     * Shows a connection this hub stopped when it stood down (R-AV1): every parameter at the
     * value, and with the last writer, it had then, and every write refused (`refusal`:
     * PB_NOT_ACTIVE), so that dashboards go on reading while no mirror of the active hub has
     * come (the broker away, or this hub cut off). One table, so a large connection costs a
     * row each and no parameter until one is read.
     */
    keep(info: ConnectionInfo, readings: readonly Reading[], refusal: () => HubError): void;
    /** Stops showing what `keep` showed of `id` (every id without one): the active hub's mirror, or this hub's own connection, takes its place. */
    release(id?: string): void;
}
