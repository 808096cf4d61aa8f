import { type Observable } from 'rxjs';
import type { Flow } from '../config/flow-file.ts';
import { type ConnectionInfo, type Problem, type RuleListing } from '../connections/connection.ts';
import type { ConnectionRunner } from '../connections/runner.ts';
import type { HubCounts } from '../core/counts.ts';
import type { FlowView } from '../core/flow-view.ts';
import { Graph } from '../core/graph.ts';
import { type Logger } from '../core/log.ts';
import { type Scheduler } from '../core/scheduler.ts';
import type { RuleProblem } from '../rules/engine.ts';
import type { StateStore } from '../state/store.ts';
import { type ReloadSummary } from './reload.ts';
export interface HubOptions {
    readonly flow: Flow;
    readonly scheduler?: Scheduler;
    readonly log?: Logger;
    /** How many times a change may come back round a feedback loop of rules before it is cut (R-R5); default 256. */
    readonly loopLimit?: number;
    /** The state store (R-S1): persistent parameters start from it and are written through to it. */
    readonly state?: StateStore;
    /**
     * The key that signs browsers' session cookies (R-H11): read at each use, so a new one
     * counts at once. Default: a key of this process alone (a restart signs browsers out).
     */
    readonly signInKey?: () => Buffer;
    /** The flow file as the console edits it (R-ED3); absent: `/flow` says there is none. */
    readonly flowFile?: FlowView;
}
/**
 * The running hub: the graph, the connections of one flow, its code flows and its rules.
 * Start order: connections (in flow order, each isolated from the others' failures), then
 * code flows, then rules, so rules can reach what both define. Stop order is the reverse:
 * rules, code flows, then connections from last to first (R-L3).
 */
export declare class Hub {
    readonly graph: Graph;
    readonly log: Logger;
    private runners;
    private flow;
    private readonly scheduler;
    private readonly problemStream;
    private readonly codeFlowFilesChanged;
    private readonly connectionsChanged;
    /** Connections other hubs run, shown here (R-M5); in a redundancy group, the active hub's on a standby. */
    private readonly mirrors;
    /** In a redundancy group (R-B1): this hub's role, taking over and standing down. */
    private readonly groupRole;
    /** Makes the runners of the flow's connections. */
    private readonly factory;
    /** Reloads, and what they leave to list: the refusal of the last, the restarts they made. */
    private readonly reloads;
    private readonly flowFile;
    /** Emits when the code flows loaded one more file: `codeFlowFiles()` grew. */
    readonly codeFlowFiles$: Observable<void>;
    private readonly subscriptions;
    private readonly state;
    private readonly signInKey;
    /** The rules and code flows of the running flow. */
    private readonly logic;
    private stopping;
    /** True while connections, code flows and rules all run; work waiting for that meanwhile. */
    private running;
    private untilRunning;
    /** True once `start` is over (see `HubServices.whenServing`); work waiting for that meanwhile. */
    private serving;
    private untilServing;
    /** What the types that serve the hub (`servesHub`) are granted; made once, for every such connection. */
    private readonly services;
    /** Problems of rules as they happen: missing addresses, failed writes, cut loops. */
    readonly ruleProblems$: Observable<RuleProblem>;
    /**
     * Every problem of the hub as it happens, on one stream: a connection that fails or is
     * degraded, a code flow that fails, a rule that cannot run or fails to write.
     */
    readonly problems$: Observable<Problem>;
    constructor({ flow, scheduler, log, loopLimit, state, signInKey, flowFile }: HubOptions);
    /** True when debug lines of this connection are wanted: `debug: true` on it, or `--log-level debug`. */
    private debugs;
    /** What the hub counted of its own work since it started (R-O1). */
    counts(): HubCounts;
    /**
     * What keeps the hub from running as written, now: connections that are failed or
     * degraded, rules and code flows that wait or cannot run, and what failed since the last (re)load.
     */
    problems(): Problem[];
    /** The enabled rules of the running flow, in the order they run (`GET /rules`). */
    rules(): RuleListing[];
    get connections(): readonly ConnectionRunner[];
    /** Every connection as `GET /connections` lists it: this hub's, then those it shows of other hubs. */
    listConnections(): ConnectionInfo[];
    /** A connection this hub runs now (a standby runs only those that serve the hub). */
    connection(id: string): ConnectionRunner | undefined;
    /** The group the flow puts this hub in (R-B1), if any. */
    private get group();
    /** True when this hub runs the connection now: outside a group always; in a group the active hub runs all, a standby those that serve the hub. */
    private runsHere;
    private runningHere;
    start(): Promise<void>;
    /**
     * Moves the running hub to `flow`: connections whose settings did not change keep
     * running with their values (failed ones start again), changed ones take their new settings in place when their
     * type can (keeping the values that stay) or restart, removed ones stop and forget their
     * kept values, new ones start; code flows and rules are rebuilt.
     */
    reload(flow: Flow): Promise<ReloadSummary>;
    /** Stops rules, code flows, then connections in reverse start order. Idempotent. */
    stop(): Promise<void>;
    /** Code flows, then rules (R-R4: rules are checked once both have defined their parameters). */
    private startLogic;
    private stopLogic;
    /** The files of the running code flows and the local modules they import: what `--watch` watches besides the flow file. */
    codeFlowFiles(): string[];
}
