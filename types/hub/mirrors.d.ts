import { type Observable } from 'rxjs';
import { type Result } from '../core/errors.ts';
import type { Graph } from '../core/graph.ts';
import type { ConnectionInfo, MirroredConnection } from '../connections/connection.ts';
/**
 * The connections other hubs run that this hub shows (R-M5), kept beside its own: one
 * place for their listing, and for the rule that an id is this hub's or a mirror, never both.
 */
export declare class Mirrors {
    private readonly graph;
    /** True when the hub runs a connection of this id itself. */
    private readonly ownsId;
    private readonly shown;
    private readonly changed;
    /** Each mirrored connection's report as it changes, for the hub's problems. */
    readonly changes$: Observable<ConnectionInfo>;
    constructor(graph: Graph, 
    /** True when the hub runs a connection of this id itself. */
    ownsId: (id: string) => boolean);
    infos(): ConnectionInfo[];
    open(id: string, owner: string): Result<MirroredConnection>;
}
