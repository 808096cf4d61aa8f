import type { Subject } from 'rxjs';
import type { Flow } from '../config/flow-file.ts';
import type { ConnectionInfo, Problem, RuleListing } from '../connections/connection.ts';
import type { ConnectionRunner } from '../connections/runner.ts';
import type { HubServices, Redundancy } from '../connections/serving.ts';
import type { HubCounts } from '../core/counts.ts';
import type { FlowView } from '../core/flow-view.ts';
import type { Graph } from '../core/graph.ts';
import type { Mirrors } from './mirrors.ts';
/** The hub as the services read it: what it lists to anyone who asks. */
export interface ServedHub {
    readonly graph: Graph;
    listConnections(): ConnectionInfo[];
    connection(id: string): ConnectionRunner | undefined;
    problems(): Problem[];
    rules(): RuleListing[];
    counts(): HubCounts;
}
/** What the services reach that the hub keeps to itself. */
export interface ServedInsides {
    /** What the hub shows of connections other hubs run (R-M5). */
    readonly mirrors: Mirrors;
    /** Emits after a connection of the hub changed its status, or connections came or went. */
    readonly connectionsChanged: Subject<void>;
    /** The hub's side of its redundancy group. */
    readonly redundancy: Redundancy;
    /** The running flow. */
    flow(): Flow;
    signInKey(): Buffer;
    whenServing(work: () => void): void;
    flowFile(): FlowView | undefined;
}
/** What the types that serve the hub (`servesHub`) are granted; made once, for every such connection. */
export declare function hubServices(hub: ServedHub, inside: ServedInsides): HubServices;
