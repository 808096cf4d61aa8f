import { type Observable, Subject } from 'rxjs';
import type { Problem, RuleListing } from '../connections/connection.ts';
import type { HubError } from '../core/errors.ts';
import type { Graph } from '../core/graph.ts';
import type { Logger } from '../core/log.ts';
import { formatIssue, formatPath, type Issue } from '../core/issue.ts';
import type { Scheduler } from '../core/scheduler.ts';
import { CodeFlows } from '../rules/code-flows/code-flows.ts';
import { RuleEngine, type RuleEngineOptions, type RuleProblem } from '../rules/engine.ts';
import { LoopGuard } from '../rules/loop-guard.ts';
import { flattenRules, type TreeNode } from '../rules/rule-tree.ts';
import { ruleProblem } from './problems.ts';

export interface LogicOptions {
  readonly graph: Graph;
  readonly scheduler: Scheduler;
  readonly log: Logger;
  /** How many times a change may come back round a feedback loop before it is cut (R-R5); default 256. */
  readonly loopLimit?: number | undefined;
  readonly notRunning: NonNullable<RuleEngineOptions['notRunning']>;
  readonly debugs: NonNullable<RuleEngineOptions['debugs']>;
  readonly connectionBack$: NonNullable<RuleEngineOptions['connectionBack$']>;
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
export class Logic {
  private engine: RuleEngine | undefined;
  private codeFlows: CodeFlows | undefined;
  /** Code flows loaded for the next start (see `prepare`), with the loop guard they will share with the rules. */
  private prepared: { readonly guard: LoopGuard; readonly codeFlows: CodeFlows } | undefined;
  private events: Problem[] = [];
  private counted = { writes: 0, failures: 0, loopCuts: 0 };
  /** The rules that held state when the rules last stopped (`RuleEngine.heldKeys`). */
  private heldBefore: ReadonlySet<string> | undefined;
  private readonly problemsNow = new Subject<Problem>();
  private readonly ruleProblemsNow = new Subject<RuleProblem>();

  /** Every problem of rules and code flows as it happens. */
  readonly problems$: Observable<Problem> = this.problemsNow.asObservable();
  /** Problems of rules as they happen. */
  readonly ruleProblems$: Observable<RuleProblem> = this.ruleProblemsNow.asObservable();

  constructor(private readonly options: LogicOptions) {}

  /**
   * Loads the code flows of `flows` for the next `start`, running nothing and leaving the
   * running ones as they are: resolves with the flows whose module did not load, by id.
   * `discard` lets go of them when that start is not to happen.
   */
  async prepare(flows: readonly string[]): Promise<ReadonlyMap<string, HubError>> {
    this.discard();
    const { graph, scheduler, log } = this.options;
    const guard = new LoopGuard(this.options.loopLimit ?? 256);
    const codeFlows = new CodeFlows({
      graph,
      scheduler,
      log,
      guard,
      report: (id, error) => this.event({ source: 'code-flow', id, code: error.code, message: error.message }),
      loaded: this.options.loaded,
    });
    this.prepared = { guard, codeFlows };
    return codeFlows.load(flows);
  }

  /** Lets go of what `prepare` loaded. Idempotent. */
  discard(): void {
    this.prepared?.codeFlows.stop();
    this.prepared = undefined;
  }

  /** The ids of the code flows that run now. */
  runningFlows(): string[] {
    return this.codeFlows?.running() ?? [];
  }

  /**
   * Starts the code flows (those `prepare` loaded, or `flows`), then the rules of `rules`;
   * resolves with how many rules it follows. With `replaySince`, what connections said
   * since then reaches the rules as changes (see `RuleEngine.start`).
   */
  async start(rules: readonly TreeNode[], flows: readonly string[], replaySince?: number): Promise<number> {
    const { graph, scheduler, log } = this.options;
    if (!this.prepared) await this.prepare(flows);
    const { guard, codeFlows } = this.prepared as NonNullable<typeof this.prepared>;
    this.prepared = undefined;
    this.events = [];
    graph.hooks.followCausesWith('hub', guard);
    this.codeFlows = codeFlows;
    await codeFlows.run();
    const { notRunning, debugs, connectionBack$ } = this.options;
    const engine = new RuleEngine({ graph, scheduler, log, guard, notRunning, debugs, connectionBack$ });
    engine.problems$.subscribe((problem) => {
      this.ruleProblemsNow.next(problem);
      // Where a rule stands is listed from the engine while it holds; events are kept here.
      if (problem.lasting) this.problemsNow.next(ruleProblem(problem));
      else this.event(ruleProblem(problem));
    });
    this.engine = engine;
    // A reload goes on from what ran; the hub's start or a takeover holds every destination anew.
    return engine.start(flattenRules(rules), replaySince === undefined ? { heldBefore: this.heldBefore ?? new Set() } : { replaySince });
  }

  /** Stops the rules, then the code flows. Idempotent. */
  stop(): void {
    if (this.engine) {
      // A reload starts them again: what held state then, its destinations heard already.
      this.heldBefore = this.engine.heldKeys();
      this.engine.stop();
      const { writes, failures, loopCuts } = this.engine.counts;
      this.counted = {
        writes: this.counted.writes + writes,
        failures: this.counted.failures + failures,
        loopCuts: this.counted.loopCuts + loopCuts,
      };
    }
    this.engine = undefined;
    this.codeFlows?.stop();
    this.codeFlows = undefined;
    this.options.graph.hooks.followCausesWith('hub', undefined);
  }

  /** What rules keep from running as written now, then the events since the last start. */
  problems(): Problem[] {
    const rules = (this.engine?.lastingProblems() ?? []).map(ruleProblem);
    const watches = (this.codeFlows?.waiting() ?? []).map((waiting): Problem => ({ source: 'code-flow', ...waiting }));
    return [...rules, ...watches, ...this.events];
  }

  /**
   * The enabled rules of `rules`, in the order they run, with where each stands and the
   * flow's `warnings` of another writer of what it writes, at it or naming it (`GET /rules`).
   */
  listing(rules: readonly TreeNode[], warnings: readonly Issue[] = []): RuleListing[] {
    const states = this.engine?.states();
    return flattenRules(rules).map(({ path, folders, name, source, destinations, pipe, state: held }) => {
      const state = states?.get(path);
      const conflicts = warnings.filter((warning) => concerns(warning, path)).map(formatIssue);
      return {
        path,
        folders,
        name,
        source,
        destinations,
        pipe: pipe.map(({ step, argument }) => ({ [step]: argument })),
        ...(held
          ? {
              from: Object.fromEntries(held.from),
              on: held.on,
              ...(held.expression ? { expr: held.expression.source } : {}),
              ...(held.combine ? { combine: held.combine } : {}),
            }
          : {}),
        status: state?.status ?? 'waiting',
        ...(state && 'code' in state ? { code: state.code, reason: state.reason } : {}),
        ...(conflicts.length ? { conflicts } : {}),
      };
    });
  }

  /** What rules counted since the hub started, across restarts of the logic. */
  counts(): RuleCounts {
    const now = this.engine?.counts ?? { writes: 0, failures: 0, loopCuts: 0 };
    const before = this.counted;
    return { writes: before.writes + now.writes, failures: before.failures + now.failures, loopCuts: before.loopCuts + now.loopCuts };
  }

  /** The files of the running code flows and the local modules they import. */
  files(): string[] {
    return this.codeFlows?.files() ?? [];
  }

  private event(problem: Problem): void {
    this.events.push(problem);
    // Failed writes repeat with every change: the listing keeps the latest hundred.
    if (this.events.length > 100) this.events.splice(0, this.events.length - 100);
    this.problemsNow.next(problem);
  }
}

/**
 * Whether a warning of two writers (R-RS4) is of the rule at `path`: at its `to` or
 * `destinations`, or naming it as the other writer.
 */
function concerns(warning: Issue, path: string): boolean {
  const at = formatPath(warning.path);
  if (at === `${path}.to` || at.startsWith(`${path}.to[`) || at === `${path}.destinations` || at.startsWith(`${path}.destinations[`))
    return true;
  return new RegExp(`(written|held) by ${path.replace(/[.[\]]/g, '\\$&')}[ :]`).test(warning.message);
}
