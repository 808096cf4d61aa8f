import { type Observable } from 'rxjs';
import type { Problem, RuleListing } from '../connections/connection.ts';
import type { HubError } from '../core/errors.ts';
import type { Graph } from '../core/graph.ts';
import type { Logger } from '../core/log.ts';
import type { Scheduler } from '../core/scheduler.ts';
import { RuleEngine, type RuleEngineOptions, type RuleProblem } from '../rules/engine.ts';
import { type TreeNode } from '../rules/rule-tree.ts';
export interface LogicOptions {
    readonly graph: Graph;
    readonly scheduler: Scheduler;
    readonly log: Logger;
    /** How many times a change may come back round a feedback loop before it is cut (R-R5); default 256. */
    readonly loopLimit?: number | undefined;
    readonly notRunning: NonNullable<RuleEngineOptions['notRunning']>;
    readonly debugs: NonNullable<RuleEngineOptions['debugs']>;
    /** Told when the code flows loaded one more file (`files` grew). */
    readonly loaded: () => void;
}
/** What rules counted: writes, refused writes, loop cuts. */
export type RuleCounts = RuleEngine['counts'];
/**
 * The rules and code flows of one flow, started and stopped together (R-R4–R-R6, R-G2):
 * code flows first, then rules, so rules can reach what both define; one loop guard for
 * both, since a loop may run through both, and the hub's graph follows causes through it
 * while they run. Their problems are listed here: where each rule stands and what each
 * code flow waits for, as long as it holds, and the latest hundred events (refused writes,
 * cut loops, failed flows) since the last start.
 */
export declare class Logic {
    private readonly options;
    private engine;
    private codeFlows;
    /** Code flows loaded for the next start (see `prepare`), with the loop guard they will share with the rules. */
    private prepared;
    private events;
    private counted;
    private readonly problemsNow;
    private readonly ruleProblemsNow;
    /** Every problem of rules and code flows as it happens. */
    readonly problems$: Observable<Problem>;
    /** Problems of rules as they happen. */
    readonly ruleProblems$: Observable<RuleProblem>;
    constructor(options: LogicOptions);
    /**
     * Loads the code flows of `flows` for the next `start`, running nothing and leaving the
     * running ones as they are: resolves with the flows whose module did not load, by id.
     * `discard` lets go of them when that start is not to happen.
     */
    prepare(flows: readonly string[]): Promise<ReadonlyMap<string, HubError>>;
    /** Lets go of what `prepare` loaded. Idempotent. */
    discard(): void;
    /** The ids of the code flows that run now. */
    runningFlows(): string[];
    /**
     * Starts the code flows (those `prepare` loaded, or `flows`), then the rules of `rules`;
     * resolves with how many rules it follows.
     */
    start(rules: readonly TreeNode[], flows: readonly string[]): Promise<number>;
    /** Stops the rules, then the code flows. Idempotent. */
    stop(): void;
    /** What rules keep from running as written now, then the events since the last start. */
    problems(): Problem[];
    /** The enabled rules of `rules`, in the order they run, with where each stands (`GET /rules`). */
    listing(rules: readonly TreeNode[]): RuleListing[];
    /** What rules counted since the hub started, across restarts of the logic. */
    counts(): RuleCounts;
    /** The files of the running code flows and the local modules they import. */
    files(): string[];
    private event;
}
