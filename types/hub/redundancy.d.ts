/**
 * The hub's role in its redundancy group (R-B1–B5): taking over as the active hub, standing
 * down to a standby, and the `Redundancy` through which the group's mqtt connection drives both.
 */
import type { Subject } from 'rxjs';
import type { Flow } from '../config/flow-file.ts';
import type { ConnectionRunner } from '../connections/runner.ts';
import type { Carried, GroupControl, Redundancy, Role } from '../connections/serving.ts';
import type { Graph } from '../core/graph.ts';
import { Lease } from '../core/lease.ts';
import type { Logger } from '../core/log.ts';
import type { Mirrors } from './mirrors.ts';
/** What taking over and standing down work on, of the hub. */
export interface RoleHost {
    readonly graph: Graph;
    readonly log: Logger;
    /** What the hub shows of connections it does not run: on a standby, those it stopped. */
    readonly mirrors: Mirrors;
    /** Told when the hub's connections changed, for the clients that follow them. */
    readonly connectionsChanged: Subject<void>;
    /** The group the flow puts the hub in (R-B1), if any. */
    group(): string | undefined;
    /** The connections of the running flow, in flow order. */
    runners(): readonly ConnectionRunner[];
    /** Starts the code flows, then the rules; resolves with how many rules run. */
    startLogic(): Promise<number>;
    /** Stops the rules and the code flows. */
    stopLogic(): void;
}
/** The hub's role in its group, and what goes with it: the lease, what a takeover carries, the group's control. */
export declare class GroupRole {
    private readonly hub;
    /** In a redundancy group (R-B1): this hub's role, and the values a takeover carries into its connections. */
    role: Role | undefined;
    carried: Carried | undefined;
    readonly lease: Lease;
    groupControl: GroupControl | undefined;
    constructor(hub: RoleHost);
    /** Takes over as the active hub of the group (R-B2, R-B4): see `Redundancy.activate`. */
    private activate;
    /** Stands down to a standby (R-B3): see `Redundancy.standDown`. The lease has ended already: no device hears this hub meanwhile. */
    private standDown;
    /** The hub's side of the group, as its mqtt connection drives it (see `Redundancy`). */
    redundancy(): Redundancy;
}
/** The redundancy group a flow puts its hub in (R-B1), if any. */
export declare function groupOf(flow: Flow): string | undefined;
