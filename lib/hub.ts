import { type Observable, Subject } from 'rxjs';
import type { Flow } from './config/flow-file.ts';
import { ConnectionRunner } from './connections/runner.ts';
import { Graph } from './core/graph.ts';
import { type Logger, silentLogger } from './core/log.ts';
import { realTime, type Scheduler } from './core/scheduler.ts';
import { CodeFlows } from './rules/code-flows.ts';
import { type RuleProblem, RuleEngine } from './rules/engine.ts';
import { flattenRules } from './rules/rule-tree.ts';

export interface HubOptions {
  readonly flow: Flow;
  readonly scheduler?: Scheduler;
  readonly log?: Logger;
  /** How many times a change may come back round a feedback loop of rules before it is cut (R-R5); default 256. */
  readonly loopLimit?: number;
}

/** What a reload changed. */
export interface ReloadSummary {
  readonly kept: readonly string[];
  readonly restarted: readonly string[];
  readonly added: readonly string[];
  readonly removed: readonly string[];
}

/**
 * The running hub: the graph, the connections of one flow, its code flows and its rules.
 * Start order: connections (in flow order, each isolated from the others' failures), then
 * code flows, then rules, so rules can reach what both define. Stop order is the reverse:
 * rules, code flows, then connections from last to first (R-L3).
 */
export class Hub {
  readonly graph = new Graph();
  readonly log: Logger;
  private runners: ConnectionRunner[];
  private flow: Flow;
  private readonly scheduler: Scheduler;
  private readonly problems = new Subject<RuleProblem>();
  private readonly loopLimit: number | undefined;
  private engine: RuleEngine | undefined;
  private codeFlows: CodeFlows | undefined;
  private stopping: Promise<void> | undefined;

  /** Problems of rules as they happen: missing addresses, failed writes, cut loops. */
  readonly ruleProblems$: Observable<RuleProblem> = this.problems.asObservable();

  constructor({ flow, scheduler = realTime, log = silentLogger, loopLimit }: HubOptions) {
    this.log = log;
    this.flow = flow;
    this.scheduler = scheduler;
    this.loopLimit = loopLimit;
    this.runners = flow.connections.map((config) => this.runnerFor(config, flow));
  }

  get connections(): readonly ConnectionRunner[] {
    return this.runners;
  }

  connection(id: string): ConnectionRunner | undefined {
    return this.runners.find((c) => c.id === id);
  }

  async start(): Promise<void> {
    for (const runner of this.runners) await runner.start();
    const rules = await this.startLogic();
    const failed = this.runners.filter((c) => c.status.status === 'failed').length;
    this.log.info(
      `running: ${this.runners.length} connection${this.runners.length === 1 ? '' : 's'}, ${this.graph.size} parameters, ` +
        `${rules} rule${rules === 1 ? '' : 's'}${failed ? `, ${failed} failed` : ''}`,
    );
  }

  /**
   * Moves the running hub to `flow`: connections whose settings did not change keep
   * running with their values, changed ones restart, removed ones stop, new ones start;
   * code flows and rules are rebuilt.
   */
  async reload(flow: Flow): Promise<ReloadSummary> {
    this.stopLogic();
    const next = new Map(flow.connections.map((config) => [config.id, config]));
    const kept = new Set(this.runners.filter((r) => next.has(r.id) && r.sameAs(next.get(r.id)!)).map((r) => r.id));
    const leaving = this.runners.filter((r) => !kept.has(r.id));
    for (const runner of [...leaving].reverse()) await runner.dispose();
    const previous = new Map(this.runners.map((r) => [r.id, r]));
    this.flow = flow;
    this.runners = flow.connections.map((config) => (kept.has(config.id) ? previous.get(config.id)! : this.runnerFor(config, flow)));
    for (const runner of this.runners) if (!kept.has(runner.id)) await runner.start();
    const rules = await this.startLogic();
    const summary: ReloadSummary = {
      kept: [...kept],
      restarted: leaving.filter((r) => next.has(r.id)).map((r) => r.id),
      added: flow.connections.filter((c) => !previous.has(c.id)).map((c) => c.id),
      removed: leaving.filter((r) => !next.has(r.id)).map((r) => r.id),
    };
    this.log.info(
      `reloaded: ${summary.kept.length} kept, ${summary.restarted.length} restarted, ${summary.added.length} added, ` +
        `${summary.removed.length} removed, ${rules} rules`,
    );
    return summary;
  }

  /** Stops rules, code flows, then connections in reverse start order. Idempotent. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.stopLogic();
      for (const runner of [...this.runners].reverse()) await runner.stop();
      this.log.info('stopped');
    })();
    return this.stopping;
  }

  private runnerFor(config: Flow['connections'][number], flow: Flow): ConnectionRunner {
    return new ConnectionRunner(config, {
      graph: this.graph,
      scheduler: this.scheduler,
      log: this.log,
      baseDir: flow.baseDir,
      connections: () => this.runners.map((c) => c.info),
    });
  }

  /** Code flows, then rules (R-R4: rules are checked once both have defined their parameters). */
  private async startLogic(): Promise<number> {
    this.codeFlows = new CodeFlows({ graph: this.graph, scheduler: this.scheduler, log: this.log });
    await this.codeFlows.start(this.flow.flows);
    const engine = new RuleEngine({
      graph: this.graph,
      scheduler: this.scheduler,
      log: this.log,
      isDisabled: (id) => this.connection(id)?.status.status === 'disabled',
      ...(this.loopLimit === undefined ? {} : { loopLimit: this.loopLimit }),
    });
    engine.problems$.subscribe(this.problems);
    this.engine = engine;
    return engine.start(flattenRules(this.flow.rules));
  }

  private stopLogic(): void {
    this.engine?.stop();
    this.engine = undefined;
    this.codeFlows?.stop();
    this.codeFlows = undefined;
  }
}
