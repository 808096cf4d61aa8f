import { type Observable, type OperatorFunction, Subject, type Subscription } from 'rxjs';
import { type ErrorCode, HubError, reasonOf } from '../core/errors.ts';
import type { Graph } from '../core/graph.ts';
import type { Logger } from '../core/log.ts';
import { changeClockOf, type Scheduler } from '../core/scheduler.ts';
import { toWire } from '../core/value.ts';
import { describeLoop, Loop, LoopGuard, type Point } from './loop-guard.ts';
import type { Rule } from './rule-tree.ts';
import { fuse, type Signal, type SignalFunction, transform } from './signal.ts';
import { pipeSteps } from './steps/index.ts';

/** A problem of one rule, reported as data with the rule that has it. */
export interface RuleProblem {
  readonly rule: string;
  readonly code: ErrorCode;
  readonly message: string;
}

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
  readonly notRunning?: (
    connectionId: string,
  ) => { readonly status: 'disabled' | 'failed'; readonly reason: string; readonly code?: ErrorCode } | undefined;
}

/** Part of a rule's pipe: steps fused into one function, or the operator of a step that waits. */
type EachStage = { readonly each: SignalFunction };
type Stage = EachStage | { readonly operator: OperatorFunction<Signal, Signal> };

interface RunningRule {
  readonly rule: Rule;
  /** Takes each change of the rule's source. */
  readonly accept: (signal: Signal) => void;
}

/**
 * Runs a flattened rule tree (R-R1–R-R5). Each source is subscribed once and hands every
 * change to its rules in tree order; each rule's pipe is an RxJS pipeline whose output is
 * converted and written to every destination. Feedback loops are cut by the loop guard: a
 * write whose change has come back round to it more than `loopLimit` times is dropped and
 * the loop's chain of addresses reported; a burst of independent changes never is.
 */
export class RuleEngine {
  /** Writes, refused writes and loop cuts since the start (`/metrics`). */
  readonly counts = { writes: 0, failures: 0, loopCuts: 0 };
  private readonly subscriptions: Subscription[] = [];
  private readonly problems = new Subject<RuleProblem>();
  private readonly guard: LoopGuard;

  readonly problems$: Observable<RuleProblem> = this.problems.asObservable();

  constructor(private readonly options: RuleEngineOptions) {
    this.guard = options.guard ?? new LoopGuard(options.loopLimit ?? 256);
  }

  /**
   * Starts every rule whose source and destinations exist and allow it (R-R4); the others
   * are reported and left out. Returns how many run.
   */
  start(rules: readonly Rule[]): number {
    const bySource = new Map<string, RunningRule[]>();
    for (const rule of rules) {
      const stopped = this.stoppedConnection(rule);
      if (stopped?.status === 'disabled') {
        this.options.log.info(`rule ${rule.name}: idle while connection "${stopped.id}" is disabled`);
        continue;
      }
      if (stopped) {
        this.report(
          rule,
          stopped.code ?? 'PB_START_FAILED',
          `${stopped.role} ${stopped.address}: connection "${stopped.id}" failed: ${stopped.reason}`,
        );
        continue;
      }
      const problem = this.checkAddresses(rule);
      if (problem) {
        this.report(rule, problem.code, problem.message);
        continue;
      }
      const destinations = rule.destinations.map((address) => this.guard.point(address));
      const origin = `rule ${rule.path}`;
      // Decided once per rule, so a rule that is not traced builds no text per change.
      const trace = this.tracer(rule);
      const send = (signal: Signal) => {
        if (trace) trace(signal);
        for (const destination of destinations) this.write(rule, origin, destination, signal);
      };
      const stages = this.stages(rule);
      let accept: (signal: Signal) => void;
      if (stages.every((stage): stage is EachStage => 'each' in stage)) {
        // Nothing in the pipe waits: each change runs through one function (runs are fused), no stream.
        const each = stages[0]?.each;
        let failed = false;
        accept = (signal) => {
          if (failed) return;
          let out: Signal | undefined;
          try {
            out = each ? each(signal) : signal;
          } catch (error) {
            failed = true;
            return this.report(rule, 'PB_RULE_FAILED', `stopped: ${reasonOf(error)}`);
          }
          if (out !== undefined) send(out);
        };
      } else {
        const input = new Subject<Signal>();
        const output = stages.reduce<Observable<Signal>>(
          (stream, stage) => stream.pipe('each' in stage ? transform(() => stage.each) : stage.operator),
          input,
        );
        this.subscriptions.push(
          output.subscribe({ next: send, error: (error: unknown) => this.report(rule, 'PB_RULE_FAILED', `stopped: ${reasonOf(error)}`) }),
        );
        accept = (signal) => input.next(signal);
      }
      const group = bySource.get(rule.source) ?? [];
      group.push({ rule, accept });
      bySource.set(rule.source, group);
    }
    for (const [source, group] of bySource) {
      const parameter = this.options.graph.get(source);
      if (!parameter) continue;
      const point = this.guard.point(source);
      const now = changeClockOf(this.options.scheduler);
      const only = group.length === 1 ? group[0]!.accept : undefined;
      this.subscriptions.push(
        parameter.changes$.subscribe((value) => {
          const signal: Signal = { value, source, time: now() };
          const mark = this.guard.arrive(point);
          try {
            if (only) only(signal);
            else for (const { accept } of group) accept(signal);
          } finally {
            this.guard.leave(mark);
          }
        }),
      );
    }
    // Loops close through parameters' queues of re-entrant writes; the guard follows them there.
    this.options.graph.causes.tracker = this.guard;
    return [...bySource.values()].reduce((sum, group) => sum + group.length, 0);
  }

  /**
   * The rule's pipe as stages: runs of steps that act on each signal at once fused into one
   * function, and the operators of steps that wait.
   */
  private stages(rule: Rule): Stage[] {
    const context = { scheduler: this.options.scheduler };
    const stages: Stage[] = [];
    let run: SignalFunction[] = [];
    for (const { step: name, argument } of rule.pipe) {
      const step = pipeSteps[name]!;
      if (step.each) {
        run.push(step.each(argument as never, context));
        continue;
      }
      if (run.length) stages.push({ each: fuse(run) });
      run = [];
      stages.push({ operator: step.operator(argument as never, context) });
    }
    if (run.length) stages.push({ each: fuse(run) });
    return stages;
  }

  /** Stops every rule, timed steps included. Idempotent. */
  stop(): void {
    for (const subscription of this.subscriptions.splice(0)) subscription.unsubscribe();
    const { causes } = this.options.graph;
    if (causes.tracker === this.guard) causes.tracker = undefined;
  }

  /** A debug line per hop of a rule that touches a connection whose debug lines are wanted; undefined for the others. */
  private tracer(rule: Rule): ((signal: Signal) => void) | undefined {
    const { debugs, log } = this.options;
    const touched = [rule.source, ...rule.destinations].map((a) => a.slice(0, a.indexOf('/')));
    if (!debugs || !touched.some(debugs)) return undefined;
    const debug = log.isLevelEnabled('debug') ? log : log.child({}, { level: 'debug' });
    const to = rule.destinations.join(', ');
    return (signal) =>
      debug.debug(`rule ${rule.name}: ${signal.source} → ${to}: ${signal.value === null ? 'fire' : JSON.stringify(toWire(signal.value))}`);
  }

  /** The first connection the rule touches that is disabled or failed, with the address and its role. */
  private stoppedConnection(rule: Rule) {
    const { notRunning } = this.options;
    if (!notRunning) return undefined;
    for (const [role, address] of [['source', rule.source] as const, ...rule.destinations.map((d) => ['destination', d] as const)]) {
      const id = address.slice(0, address.indexOf('/'));
      const state = notRunning(id);
      if (state) return { ...state, id, role, address };
    }
    return undefined;
  }

  private checkAddresses(rule: Rule): HubError | undefined {
    const { graph } = this.options;
    const source = graph.lookup(rule.source);
    if (!source.ok) return new HubError(source.error.code, `source ${source.error.message}`);
    if (source.value.access === 'write-only')
      return new HubError('PB_WRITE_ONLY', `source ${rule.source} is write-only, so it cannot be read`);
    for (const destination of rule.destinations) {
      const found = graph.lookup(destination);
      if (!found.ok) return new HubError(found.error.code, `destination ${found.error.message}`);
      if (found.value.access === 'read-only') return new HubError('PB_READ_ONLY', `destination ${destination} is read-only`);
    }
    return undefined;
  }

  private write(rule: Rule, origin: string, destination: Point, signal: Signal): void {
    const mark = this.guard.enter(destination);
    if (typeof mark !== 'number') {
      this.counts.loopCuts++;
      if (mark !== Loop.quiet) this.report(rule, 'PB_FEEDBACK_LOOP', describeLoop(mark));
      return;
    }
    try {
      this.counts.writes++;
      const written = this.options.graph.write(destination.address, signal.value, origin);
      if (!written.ok) {
        this.counts.failures++;
        this.report(rule, written.error.code, written.error.message);
      }
    } finally {
      this.guard.leave(mark);
    }
  }

  private report(rule: Rule, code: ErrorCode, message: string): void {
    this.options.log.error(`rule ${rule.name}: ${message}`);
    this.problems.next({ rule: rule.name, code, message });
  }
}
