import { type Observable } from 'rxjs';
import { type ErrorCode } from '../core/errors.ts';
import type { Graph } from '../core/graph.ts';
import type { Logger } from '../core/log.ts';
import { type Scheduler } from '../core/scheduler.ts';
import { LoopGuard } from './loop-guard.ts';
import type { Rule } from './rule-tree.ts';
/** A problem of one rule, reported as data with the rule that has it. */
export interface RuleProblem {
    readonly rule: string;
    readonly code: ErrorCode;
    readonly message: string;
    /**
     * True for where the rule stands (waiting for a parameter, or unable to run as written):
     * it holds until `ruleStates` says otherwise. False for an event: a refused write, a cut loop.
     */
    readonly lasting?: boolean;
}
/**
 * Where a rule stands (R-G2): `running`, `waiting` for a parameter it names (PB_WAITING),
 * `failed` (it cannot run as written: an unreadable source, an unwritable destination, a
 * failed connection, a pipe that threw), or `idle` while a connection it touches is disabled.
 */
export type RuleState = {
    readonly status: 'running' | 'idle';
} | {
    readonly status: 'waiting' | 'failed';
    readonly code: ErrorCode;
    readonly reason: string;
};
export interface RuleEngineOptions {
    readonly graph: Graph;
    readonly scheduler: Scheduler;
    readonly log: Logger;
    /**
     * How many times a change may come back round a feedback loop of rules before the loop
     * is cut (R-R5); default 256. See `LoopGuard`.
     */
    readonly loopLimit?: number;
    /** The loop guard to use, when code flows share it (the hub's); else one of its own with `loopLimit`. */
    readonly guard?: LoopGuard;
    /** True for connections whose debug lines are wanted: each hop of a rule that touches one is logged. */
    readonly debugs?: (connectionId: string) => boolean;
    /**
     * The status of a connection, when it is not running: a rule that touches a disabled one
     * is idle, not wrong; one that touches a failed one says so, rather than that its
     * parameters are missing.
     */
    readonly notRunning?: (connectionId: string) => {
        readonly status: 'disabled' | 'failed';
        readonly reason: string;
        readonly code?: ErrorCode;
    } | undefined;
}
/**
 * Runs a flattened rule tree (R-R1–R-R5, R-G2). Each rule follows the addresses it names:
 * it runs while its source and every destination exist and allow it, and waits while one
 * is missing — started when a connection defines it later (a device tree, another hub's
 * connection), waiting again when it goes. Each source is subscribed once while it exists
 * and hands every change to its running rules in tree order; each rule's pipe is an RxJS
 * pipeline whose output is converted and written to every destination. Feedback loops
 * are cut by the loop guard: a write whose change has come back round to it more than
 * `loopLimit` times is dropped and the loop's chain of addresses reported; a burst of
 * independent changes never is.
 */
export declare class RuleEngine {
    private readonly options;
    /** Writes, refused writes and loop cuts since the start (`/metrics`). */
    readonly counts: {
        writes: number;
        failures: number;
        loopCuts: number;
    };
    private readonly subscriptions;
    private readonly follows;
    private readonly running;
    private readonly sources;
    private readonly problems;
    private readonly guard;
    readonly problems$: Observable<RuleProblem>;
    constructor(options: RuleEngineOptions);
    /**
     * Starts every rule: those whose addresses exist and allow it run at once, the others
     * wait for them (reported as they start waiting) or are reported as unable to run.
     * Returns how many rules it follows (all but the idle ones).
     */
    start(rules: readonly Rule[]): number;
    /** Where each rule stands, by its path (`rules[0]`). */
    states(): ReadonlyMap<string, RuleState>;
    /** The rules that are not running as written: waiting or failed, as problems. */
    lastingProblems(): RuleProblem[];
    /** The source of a group of rules came, went or was replaced: follow its changes, if it can be read. */
    private followSource;
    /** Decides again where a rule stands after one of its addresses came or went, and says so when that changed. */
    private review;
    /** Where a rule stands by the graph now. */
    private stateOf;
    /** What a rule does with each change of its source: its pipe, then a write to every destination. */
    private acceptor;
    /**
     * The rule's pipe as stages: runs of steps that act on each signal at once fused into one
     * function, and the operators of steps that wait.
     */
    private stages;
    /** Stops every rule, timed steps included. Idempotent. */
    stop(): void;
    /** A debug line per hop of a rule that touches a connection whose debug lines are wanted; undefined for the others. */
    private tracer;
    /** The first connection the rule touches that is disabled or failed, with the address and its role. */
    private stoppedConnection;
    private write;
    private report;
}
