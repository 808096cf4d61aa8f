import { type Observable, type OperatorFunction, Subject, type Subscription } from 'rxjs';
import { HOLDING } from '../core/origins.ts';
import { type Answered, onChange, type Parameter } from '../core/parameter.ts';
import type { Value } from '../core/value.ts';
import { type ErrorCode, reasonOf } from '../core/errors.ts';
import type { Graph } from '../core/graph.ts';
import type { Logger } from '../core/log.ts';
import { after, changeClockOf, type Scheduler } from '../core/scheduler.ts';
import { toWire } from '../core/value.ts';
import { describeLoop, Loop, LoopGuard, type Point } from './loop-guard.ts';
import { HeldRule, type HeldRuleSpec } from './held-rule.ts';
import { JoinedWrites } from './joined-writes.ts';
import { matchPattern } from './rule-patterns.ts';
import { heldKey, type Rule, readsOf } from './rule-tree.ts';
import { fuse, type Signal, type SignalFunction, transform } from './signal.ts';
import { pipeSteps } from './steps/index.ts';

/** A problem of one rule, reported as data with the rule that has it. */
export interface RuleProblem {
  readonly rule: string;
  readonly code: ErrorCode;
  readonly message: string;
  /**
   * True for where the rule stands (waiting for a parameter, or unable to run as written):
   * it holds until `states()` says otherwise. False for an event: a refused write, a cut loop.
   */
  readonly lasting?: boolean;
}

/**
 * Where a rule stands (R-G2): `running`, `waiting` for a parameter it names (PB_WAITING),
 * `failed` (it cannot run as written: an unreadable source, an unwritable destination, a
 * failed connection, a pipe that threw), or `idle` while a connection it touches is disabled.
 */
export type RuleState =
  | { readonly status: 'running' | 'idle' }
  | { readonly status: 'waiting' | 'failed'; readonly code: ErrorCode; readonly reason: string };

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
  /** The ids of connections as they become ok again: rules that hold state write their destinations there anew (R-RS3). */
  readonly connectionBack$?: Observable<string>;
}

/** How long after the rules start a rule waiting for a parameter is only said at info (see `quietUntil`). */
const START_GRACE_MS = 10_000;

/** Part of a rule's pipe: steps fused into one function, or the operator of a step that waits. */
type EachStage = { readonly each: SignalFunction };
type Stage = EachStage | { readonly operator: OperatorFunction<Signal, Signal> };

interface RunningRule {
  readonly rule: Rule;
  /** Takes each change of the rule's source. */
  readonly accept: (signal: Signal) => void;
  /** A rule that holds state runs itself, on what it reads (held-rule.ts). */
  readonly held?: HeldRule;
  /** One match of a rule of patterns: while it waits, it is no problem. */
  readonly match?: boolean;
  state: RuleState;
}

/** The rules of one source, in tree order, and the parameter they follow while it is there. */
interface SourceRules {
  readonly rules: RunningRule[];
  /** Stops following the source's changes. */
  unfollow?: (() => void) | undefined;
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
export class RuleEngine {
  /** Writes, refused writes and loop cuts since the start (`/metrics`). */
  readonly counts = { writes: 0, failures: 0, loopCuts: 0 };
  private readonly subscriptions: Subscription[] = [];
  private readonly follows: (() => void)[] = [];
  /**
   * Rules found waiting as they start, said at info until the start's grace is over: a
   * device's parameters appear when it has said what it has, a moment after the rules start.
   */
  private quietUntil = Number.NEGATIVE_INFINITY;
  private readonly waitedQuietly = new Set<RunningRule>();
  private readonly running = new Map<string, RunningRule>();
  private readonly sources = new Map<string, SourceRules>();
  private readonly problems = new Subject<RuleProblem>();
  /** The rules that held state before this start, as `heldKey`s (`start`). */
  private heldBefore: ReadonlySet<string> | undefined;
  /** Destinations that rules saying `combine` share, with what each says (R-RS4). */
  private readonly joined = new Map<string, JoinedWrites>();
  /** Writes refused and not taken since, by rule path and destination (R-RS6). */
  private readonly failing = new Map<string, RuleProblem>();
  private readonly guard: LoopGuard;
  private readonly now: () => number;

  readonly problems$: Observable<RuleProblem> = this.problems.asObservable();

  constructor(private readonly options: RuleEngineOptions) {
    this.guard = options.guard ?? new LoopGuard(options.loopLimit ?? 256);
    this.now = changeClockOf(options.scheduler);
  }

  /**
   * Starts every rule: those whose addresses exist and allow it run at once, the others
   * wait for them (reported as they start waiting) or are reported as unable to run.
   * Returns how many rules it follows (all but the idle ones).
   */
  start(
    rules: readonly Rule[],
    { replaySince, heldBefore }: { readonly replaySince?: number; readonly heldBefore?: ReadonlySet<string> } = {},
  ): number {
    this.heldBefore = heldBefore;
    this.quietUntil = this.options.scheduler.now() + START_GRACE_MS;
    const grace = after(this.options.scheduler, START_GRACE_MS, () => this.warnStillWaiting());
    this.follows.push(() => grace.unsubscribe());
    for (const rule of rules) {
      const stopped = this.stoppedConnection(rule);
      if (stopped?.status === 'disabled') {
        this.options.log.info(`rule ${rule.name}: idle while connection "${stopped.id}" is disabled`);
        this.running.set(rule.path, { rule, accept: () => {}, state: { status: 'idle' } });
        continue;
      }
      const waiting = { status: 'waiting', code: 'PB_WAITING', reason: '' } as const;
      if (rule.state) {
        this.hold({ ...rule, state: rule.state });
        continue;
      }
      const running: RunningRule = { rule, accept: this.acceptor(rule), state: waiting };
      this.running.set(rule.path, running);
      let group = this.sources.get(rule.source);
      if (!group) {
        const created: SourceRules = { rules: [] };
        this.sources.set(rule.source, (group = created));
        this.follows.push(this.options.graph.follow(rule.source, (parameter) => this.followSource(rule.source, created, parameter)));
      }
      group.rules.push(running);
    }
    // Each rule follows its addresses once they all have a place: a rule whose addresses
    // exist starts now, in tree order, before any change can arrive.
    for (const running of this.running.values()) {
      if (running.state.status === 'idle' || running.rule.state) continue;
      const { rule } = running;
      for (const address of new Set([...readsOf(rule), ...rule.destinations]))
        this.follows.push(this.options.graph.follow(address, () => this.review(running)));
    }
    const back = this.options.connectionBack$?.subscribe((id) => {
      for (const { held, state } of this.running.values())
        if (held && state.status === 'running' && held.rule.destinations.some((address) => address.startsWith(`${id}/`))) held.settle(true);
    });
    if (back) this.subscriptions.push(back);
    if (replaySince !== undefined) this.replay(replaySince);
    // Rules of the flow: a pattern's matches are its own.
    return [...this.running.values()].filter((r) => r.state.status !== 'idle' && !r.match).length;
  }

  /**
   * Hands each source's value to its running rules when a connection said it at or after
   * `since` (the start of the hub or of a takeover): a device's state read as it connected
   * is a change its rules would have seen, had they been running then. Not replayed: a
   * value nobody said (a declared default), a kept one (`restore`, `takeover`: R-G3), a
   * trigger's fire.
   */
  private replay(since: number): void {
    for (const [source, group] of this.sources) {
      const parameter = this.options.graph.get(source);
      const said = parameter?.lastChange;
      if (!parameter || !said || parameter.type === 'T' || said.at < since || said.by === 'restore' || said.by === 'takeover') continue;
      if (parameter.value !== undefined) this.deliver(this.guard.point(source), group.rules, parameter.value);
    }
  }

  /** The rules that hold state and run now, as `heldKey`s: what the next start (a reload) ran before. */
  heldKeys(): Set<string> {
    return new Set([...this.running.values()].flatMap(({ rule, held }) => (held ? [heldKey(rule)] : [])));
  }

  /** Where each rule stands, by its path (`rules[0]`). */
  states(): ReadonlyMap<string, RuleState> {
    return new Map([...this.running].map(([path, { state }]) => [path, state]));
  }

  /** The rules that are not running as written: waiting or failed, as problems. */
  lastingProblems(): RuleProblem[] {
    const standing = [...this.running.values()].flatMap(({ rule, state, match }) =>
      (state.status === 'waiting' && !match) || state.status === 'failed'
        ? [{ rule: rule.name, code: state.code, message: state.reason, lasting: true }]
        : [],
    );
    return [...standing, ...this.failing.values()];
  }

  /** The source of a group of rules came, went or was replaced: follow its changes, if it can be read. */
  private followSource(source: string, group: SourceRules, parameter: Parameter | undefined): void {
    group.unfollow?.();
    group.unfollow = undefined;
    if (!parameter || parameter.access === 'write-only') return;
    const point = this.guard.point(source);
    const { rules } = group;
    group.unfollow = onChange(parameter, (value) => this.deliver(point, rules, value));
  }

  /** A change of the source at `point`, handed to its running rules in tree order under the loop guard. */
  private deliver(point: Point, rules: readonly RunningRule[], value: Value): void {
    const signal: Signal = { value, source: point.address, time: this.now() };
    const mark = this.guard.arrive(point);
    try {
      for (const running of rules) if (running.state.status === 'running') running.accept(signal);
    } finally {
      this.guard.leave(mark);
    }
  }

  /** Decides again where a rule stands after one of its addresses came or went, and says so when that changed. */
  private review(running: RunningRule): void {
    const before = running.state;
    if (before.status === 'failed' && before.code === 'PB_RULE_FAILED') return; // its pipe threw: stopped for good
    const next = this.stateOf(running.rule);
    if (sameState(next, before)) return;
    running.state = next;
    const { rule } = running;
    if (next.status === 'running') {
      // What a rule that holds state says goes to its destinations as soon as it can run (R-RS3).
      running.held?.settle(true);
      if (before.status === 'waiting' && before.reason)
        this.options.log.info(`rule ${rule.name}: running, every address it names is there`);
    } else if (next.status === 'waiting') {
      if (running.match) return;
      if (this.options.scheduler.now() < this.quietUntil) {
        this.options.log.info(`rule ${rule.name}: ${next.reason} (for now: its devices may not have said what they have yet)`);
        this.waitedQuietly.add(running);
      } else this.options.log.warn(`rule ${rule.name}: ${next.reason}`);
      this.problems.next({ rule: rule.name, code: next.code, message: next.reason, lasting: true });
    } else if (next.status === 'failed') {
      this.report(rule, next.code, next.reason, true);
    }
  }

  /** The start's grace is over: a rule still waiting for what it named is said as a warning. */
  private warnStillWaiting(): void {
    for (const running of this.waitedQuietly)
      if (running.state.status === 'waiting') this.options.log.warn(`rule ${running.rule.name}: ${running.state.reason}`);
    this.waitedQuietly.clear();
  }

  /** Where a rule stands by the graph now. */
  private stateOf(rule: Rule): RuleState {
    const stopped = this.stoppedConnection(rule);
    if (stopped?.status === 'failed') {
      return {
        status: 'failed',
        code: stopped.code ?? 'PB_START_FAILED',
        reason: `${stopped.role} ${stopped.address}: connection "${stopped.id}" failed: ${stopped.reason}`,
      };
    }
    const { graph } = this.options;
    // Each missing address with its role: `source a/b`, `destination c/d`.
    const missing: [role: string, address: string][] = [];
    for (const address of readsOf(rule)) {
      const source = graph.get(address);
      if (!source) missing.push(['source', address]);
      else if (source.access === 'write-only')
        return { status: 'failed', code: 'PB_WRITE_ONLY', reason: `source ${address} is write-only, so it cannot be read` };
    }
    for (const destination of rule.destinations) {
      const found = graph.get(destination);
      if (!found) missing.push(['destination', destination]);
      else if (found.access === 'read-only')
        return { status: 'failed', code: 'PB_READ_ONLY', reason: `destination ${destination} is read-only` };
    }
    const [first] = missing;
    if (!first) return { status: 'running' };
    const named = missing.map(([role, address]) => `${role} ${address}`).join(', ');
    return { status: 'waiting', code: 'PB_WAITING', reason: `waiting for ${named}: ${graph.whyMissing(first[1])}` };
  }

  /** What a rule does with each change of its source: its pipe, then a write to every destination. */
  private acceptor(rule: Rule): (signal: Signal) => void {
    const destinations = rule.destinations.map((address) => ({ point: this.guard.point(address), answered: this.answerer(rule, address) }));
    const origin = `rule ${rule.path}`;
    // Decided once per rule, so a rule that is not traced builds no text per change.
    const trace = this.tracer(rule);
    const send = (signal: Signal) => {
      if (trace) trace(signal);
      for (const { point, answered } of destinations) this.write(rule, origin, point, signal.value, answered);
    };
    const stopped = (error: unknown) => {
      const running = this.running.get(rule.path);
      if (running) running.state = { status: 'failed', code: 'PB_RULE_FAILED', reason: `stopped: ${reasonOf(error)}` };
      this.report(rule, 'PB_RULE_FAILED', `stopped: ${reasonOf(error)}`);
    };
    const stages = this.stages(rule);
    if (stages.every((stage): stage is EachStage => 'each' in stage)) {
      // Nothing in the pipe waits: each change runs through one function (runs are fused), no stream.
      const each = stages[0]?.each;
      return (signal) => {
        let out: Signal | undefined;
        try {
          out = each ? each(signal) : signal;
        } catch (error) {
          return stopped(error);
        }
        if (out !== undefined) send(out);
      };
    }
    const input = new Subject<Signal>();
    const output = stages.reduce<Observable<Signal>>(
      (stream, stage) => stream.pipe('each' in stage ? transform(() => stage.each) : stage.operator),
      input,
    );
    this.subscriptions.push(output.subscribe({ next: send, error: stopped }));
    return (signal) => input.next(signal);
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
    for (const unfollow of this.follows.splice(0)) unfollow();
    for (const group of this.sources.values()) group.unfollow?.();
    this.sources.clear();
    for (const subscription of this.subscriptions.splice(0)) subscription.unsubscribe();
  }

  /** A debug line per hop of a rule that touches a connection whose debug lines are wanted; undefined for the others. */
  private tracer(rule: Rule): ((signal: Signal) => void) | undefined {
    const { debugs, log } = this.options;
    const touched = [...readsOf(rule), ...rule.destinations].map((a) => a.slice(0, a.indexOf('/')));
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
    for (const [role, address] of [
      ...readsOf(rule).map((s) => ['source', s] as const),
      ...rule.destinations.map((d) => ['destination', d] as const),
    ]) {
      const id = address.slice(0, address.indexOf('/'));
      const state = notRunning(id);
      if (state) return { ...state, id, role, address };
    }
    return undefined;
  }

  /**
   * Runs a rule that holds state: it follows what it reads itself, and where it stands as
   * any rule. A rule of patterns runs one such rule per parameter it matches (those of a
   * match whose destination is not there wait quietly: a switcher has more inputs than a
   * studio has lamps).
   */
  private hold(rule: HeldRuleSpec, match = false): void {
    if (rule.state.pattern) {
      this.running.set(rule.path, { rule, accept: () => {}, state: { status: 'running' } });
      this.follows.push(matchPattern(rule, this.options.graph, (instance) => this.hold(instance, true)));
      return;
    }
    const held = this.held(rule);
    if (this.heldBefore?.has(heldKey(rule))) held.ranBefore();
    const running: RunningRule = { rule, accept: () => {}, held, match, state: { status: 'waiting', code: 'PB_WAITING', reason: '' } };
    this.running.set(rule.path, running);
    this.follows.push(held.follow(() => running.state.status === 'running'));
    for (const address of new Set([...held.sources, ...rule.destinations]))
      this.follows.push(this.options.graph.follow(address, () => this.review(running)));
  }

  /** A rule that holds state, writing as every rule writes. */
  private held(rule: HeldRuleSpec): HeldRule {
    const origin = `rule ${rule.path}`;
    const trace = this.tracer(rule);
    // By the destination's place in `to`: what HeldRule writes to, as it writes (no lookup per write).
    const points = rule.destinations.map((address) => ({
      address,
      point: this.guard.point(address),
      answered: this.answerer(rule, address),
    }));
    const holdingOrigin = `${origin}${HOLDING}`;
    const { combine } = rule.state;
    if (combine)
      for (const address of rule.destinations) {
        const joined = this.joined.get(address) ?? new JoinedWrites(combine);
        this.joined.set(address, joined);
        joined.add(rule.path);
      }
    return new HeldRule(rule, {
      graph: this.options.graph,
      mostPerPass: this.guard.limit,
      write: (at, said, holding) => {
        const { address, point, answered } = points[at] as (typeof points)[number];
        const joined = combine ? this.joined.get(address)?.offer(rule.path, said) : undefined;
        if (joined && !joined.ok) return answered(joined);
        const value = joined ? joined.value : said;
        if (value === undefined) return;
        if (trace) trace({ value, source: rule.source, time: this.now() });
        this.write(rule, holding ? holdingOrigin : origin, point, value, answered);
      },
      report: (code, message) => this.report(rule, code, message),
    });
  }

  /**
   * `answered` hears the write's answer: at once, or from a device or another hub when it
   * answers later (a forwarded write, R-RS6).
   */
  private write(rule: Rule, origin: string, destination: Point, value: Value | null, answered: Answered): void {
    const mark = this.guard.enter(destination);
    if (typeof mark !== 'number') {
      this.counts.loopCuts++;
      if (mark !== Loop.quiet) this.report(rule, 'PB_FEEDBACK_LOOP', describeLoop(mark));
      return;
    }
    try {
      this.counts.writes++;
      const written = this.options.graph.write(destination.address, value, origin, answered);
      // A refusal now; or a write taken that may end one listed (one forwarded is answered again later).
      if (!written.ok || this.failing.size > 0) answered(written);
    } finally {
      this.guard.leave(mark);
    }
  }

  /**
   * What a rule hears of its writes to one destination (R-RS6): a refusal is said (at warn,
   * with the rule and the destination) and listed as a problem of the rule until a later
   * write there is taken.
   */
  private answerer(rule: Rule, address: string): Answered {
    const key = `${rule.path}\u0000${address}`;
    return (result) => {
      if (result.ok) {
        this.failing.delete(key);
        return;
      }
      this.counts.failures++;
      const { code, message } = result.error;
      this.failing.set(key, { rule: rule.name, code, message, lasting: true });
      this.options.log.warn(`rule ${rule.name}: writing ${address} failed: ${message}`);
      this.problems.next({ rule: rule.name, code, message, lasting: true });
    };
  }

  private report(rule: Rule, code: ErrorCode, message: string, lasting = false): void {
    this.options.log.error(`rule ${rule.name}: ${message}`);
    this.problems.next({ rule: rule.name, code, message, ...(lasting ? { lasting } : {}) });
  }
}

const sameState = (a: RuleState, b: RuleState): boolean =>
  a.status === b.status && ('reason' in a ? 'reason' in b && a.code === b.code && a.reason === b.reason : true);
