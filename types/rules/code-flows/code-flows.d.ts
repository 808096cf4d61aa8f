import { HubError } from '../../core/errors.ts';
import type { Graph } from '../../core/graph.ts';
import type { Logger } from '../../core/log.ts';
import type { Scheduler } from '../../core/scheduler.ts';
import { type LoopGuard } from '../loop-guard.ts';
export interface CodeFlowsOptions {
    readonly graph: Graph;
    readonly scheduler: Scheduler;
    readonly log: Logger;
    /**
     * The hub's loop guard (R-R5), shared with the rules: every write of a flow goes through
     * it, so a flow that writes what it watches is cut like a loop of rules.
     */
    readonly guard: LoopGuard;
    /**
     * Told of every problem of a flow, as a HubError naming its file: PB_CODE_FLOW when it
     * fails to load, throws (at start, from a timer, by a rejection nobody handles) or its
     * stream errors, and it is stopped; PB_FEEDBACK_LOOP when one of its writes was cut.
     */
    readonly report?: (id: string, error: HubError) => void;
    /**
     * Told when the flows loaded one more file: tsx tells of ES modules by message, so some
     * arrive after the import that loaded them resolved (see `files`).
     */
    readonly loaded?: () => void;
}
/**
 * Loads and runs the code flows of a flow file (R-R6), each isolated: a flow that fails to
 * load, throws, or whose Observable errors is reported with its file and stopped; the
 * others run on. Everything a flow returns is owned here and stopped by `stop`.
 */
export declare class CodeFlows {
    private readonly options;
    private readonly owned;
    /** How many watches of each flow wait for each address that has no parameter yet (R-G2). */
    private readonly waitingFor;
    private loader;
    /** What `load` imported, for `run`. */
    private readonly pending;
    constructor(options: CodeFlowsOptions);
    /** Starts every module in order; resolves with the ids that run. */
    start(paths: readonly string[]): Promise<string[]>;
    /**
     * Imports the modules of `paths` afresh, in a loader of their own, and runs none of them
     * yet (`run` does): so a hub can learn that an edited flow does not load while the old one
     * still runs. Resolves with the flows that failed to load, by id, with why.
     */
    load(paths: readonly string[]): Promise<ReadonlyMap<string, HubError>>;
    /** Runs what `load` imported, in order, reporting those that did not load; resolves with the ids that run. */
    run(): Promise<string[]>;
    /** The ids of the flows that run now. */
    running(): string[];
    /**
     * The files the running flows were loaded from, with the local modules they import, as
     * far as known: an ES module may be told of just after its flow started (`loaded`).
     */
    files(): string[];
    /**
     * What the running flows watch that does not exist yet (R-G2): one entry per flow and
     * address, with the code PB_WAITING, until a parameter appears there or the watch ends.
     */
    waiting(): {
        readonly id: string;
        readonly code: 'PB_WAITING';
        readonly message: string;
    }[];
    /** `Graph.watch`, counted in `waiting` while no parameter is at the address. */
    private watched;
    /** Stops every flow and removes the parameters they defined; forgets what `load` loaded. Idempotent. */
    stop(): void;
    private stopOne;
    private own;
    private api;
}
