/**
 * Makes each connection's runner with its environment, what it is given of the hub: the
 * graph, its records, the group's fence and what a takeover carries, the services of the
 * types that serve the hub; and follows the runner's status into the hub's problems.
 */
import type { Subject } from 'rxjs';
import type { Flow } from '../config/flow-file.ts';
import type { ConnectionConfig, Problem } from '../connections/connection.ts';
import { ConnectionRunner } from '../connections/runner.ts';
import type { HubServices } from '../connections/serving.ts';
import type { Graph } from '../core/graph.ts';
import type { Logger } from '../core/log.ts';
import type { Scheduler } from '../core/scheduler.ts';
import type { StateStore } from '../state/store.ts';
import type { GroupRole } from './redundancy.ts';
/** What the runners are given of the hub. */
export interface RunnerEnvironment {
    readonly graph: Graph;
    readonly scheduler: Scheduler;
    readonly log: Logger;
    readonly state: StateStore | undefined;
    /** What the hub grants the types that serve it. */
    readonly services: HubServices;
    /** The hub's role in its redundancy group: the lease that fences its connections, what a takeover carries. */
    readonly groupRole: GroupRole;
    /** The group the flow puts the hub in (R-B1), if any. */
    group(): string | undefined;
    /** Every problem of the hub as it happens. */
    readonly problemStream: Subject<Problem>;
    /** Told when a connection changed its status, for the clients that follow connections. */
    readonly connectionsChanged: Subject<void>;
    /** Runs `work` once connections, code flows and rules all run (at once when they do). */
    whenRunning(work: () => void): void;
}
/** The maker of the hub's runners, with what it keeps of each: its records in memory, the watch on its status. */
export declare class RunnerFactory {
    private readonly hub;
    /** Without a state folder, the records of each connection (`ConnectionContext.records`): kept across the reloads that start it again, gone with it. */
    private readonly recordsInMemory;
    private readonly statusWatches;
    constructor(hub: RunnerEnvironment);
    runnerFor(config: ConnectionConfig, flow: Flow): ConnectionRunner;
    unwatch(runner: ConnectionRunner): void;
    /** Lets go of the records in memory of a connection that left the flow. */
    forget(id: string): void;
}
