import { randomBytes } from 'node:crypto';
import { type Observable, Subject, Subscription } from 'rxjs';
import type { Flow } from '../config/flow-file.ts';
import { Moment } from '../core/moment.ts';
import { type ConnectionInfo, type Problem, type RuleListing, Status } from '../connections/connection.ts';
import type { HubServices } from '../connections/serving.ts';
import { type ConnectionRunner, startTogether } from '../connections/runner.ts';
import type { HubCounts } from '../core/counts.ts';
import type { FlowView } from '../core/flow-view.ts';
import type { StoreView } from '../core/store-view.ts';
import { Graph } from '../core/graph.ts';
import { type Logger, silentLogger } from '../core/log.ts';
import { changeClockOf, realTime, type Scheduler } from '../core/scheduler.ts';
import type { RuleProblem } from '../rules/engine.ts';
import { superviseStore } from '../state/supervise-store.ts';
import type { StateStore } from '../state/store.ts';
import { count } from './count.ts';
import { promoteStartGarbage } from './heap.ts';
import { Logic } from './logic.ts';
import { Mirrors } from './mirrors.ts';
import { connectionProblem, stateProblem } from './problems.ts';
import { GroupRole, groupOf } from './redundancy.ts';
import { type ReloadSummary, Reloads } from './reload.ts';
import { RunnerFactory } from './runner-factory.ts';
import { hubServices } from './services.ts';
import { traceWrites } from './trace-writes.ts';

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
  /** What a studio can add beside the flow file (R-ST2, lib/store/); absent: `/catalogue` says there is none. */
  readonly store?: StoreView;
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
  private readonly problemStream = new Subject<Problem>();
  private readonly codeFlowFilesChanged = new Subject<void>();
  private readonly connectionsChanged = new Subject<void>();
  /** Connections other hubs run, shown here (R-M5); in a redundancy group, the active hub's on a standby. */
  private readonly mirrors = new Mirrors(this.graph, (id) => this.connection(id) !== undefined);
  /** In a redundancy group (R-B1): this hub's role, taking over and standing down. */
  private readonly groupRole: GroupRole;
  /** Makes the runners of the flow's connections. */
  private readonly factory: RunnerFactory;
  /** Reloads, and what they leave to list: the refusal of the last, the restarts they made. */
  private readonly reloads: Reloads;

  /** Emits when the code flows loaded one more file: `codeFlowFiles()` grew. */
  readonly codeFlowFiles$: Observable<void> = this.codeFlowFilesChanged.asObservable();
  private readonly subscriptions = new Subscription();
  private readonly state: StateStore | undefined;
  private readonly signInKey: () => Buffer;
  /** The rules and code flows of the running flow. */
  private readonly logic: Logic;
  private stopping: Promise<void> | undefined;
  /** While connections, code flows and rules all run; work waits for it meanwhile. */
  private readonly running = new Moment();
  /** Once `start` is over (see `HubServices.whenServing`); work waits for it meanwhile. */
  private readonly serving = new Moment();
  /** What the types that serve the hub (`servesHub`) are granted; made once, for every such connection. */
  private readonly services: HubServices;

  /** Problems of rules as they happen: missing addresses, failed writes, cut loops. */
  readonly ruleProblems$: Observable<RuleProblem>;

  /**
   * Every problem of the hub as it happens, on one stream: a connection that fails or is
   * degraded, a code flow that fails, a rule that cannot run or fails to write.
   */
  readonly problems$: Observable<Problem> = this.problemStream.asObservable();

  constructor({ flow, scheduler = realTime, log = silentLogger, loopLimit, state, signInKey, flowFile, store }: HubOptions) {
    this.log = log;
    this.signInKey = signInKey ?? processKey();
    this.flow = flow;
    this.scheduler = scheduler;
    // A connection ok again: rules that hold state write its parameters anew (R-RS3).
    const connectionBack = new Subject<string>();
    this.logic = new Logic({
      connectionBack$: connectionBack,
      graph: this.graph,
      scheduler,
      log,
      loopLimit,
      notRunning: (id) => {
        const report = this.connection(id)?.status;
        return report && (report.status === Status.Disabled || report.status === Status.Failed)
          ? { ...report, status: report.status }
          : undefined;
      },
      // Debug lines of a connection are wanted with `debug: true` on it, or `--log-level debug`.
      debugs: (id) => this.log.isLevelEnabled('debug') || this.connection(id)?.config.common.debug === true,
      loaded: () => this.codeFlowFilesChanged.next(),
    });
    this.ruleProblems$ = this.logic.ruleProblems$;
    this.subscriptions.add(this.logic.problems$.subscribe((problem) => this.problemStream.next(problem)));
    this.state = state;
    // Parameters the hub keeps write each change through to the store, one hook for all.
    if (state) this.graph.hooks.keepWith('hub', (parameter, value) => state.setValue(parameter.address, value));
    this.subscriptions.add(
      state?.health$.subscribe((health) => {
        const problem = stateProblem(state.folder, health);
        if (problem) this.problemStream.next(problem);
      }),
    );
    this.subscriptions.add(
      this.mirrors.changes$.subscribe((info) => {
        const problem = connectionProblem(info.id, info);
        if (problem) this.problemStream.next(problem);
        // Clients that follow connections hear another hub's change of status as one of this hub's.
        this.connectionsChanged.next();
      }),
    );
    // What the hub's parts are given of it: each takes what its own interface names.
    const inside = {
      graph: this.graph,
      log,
      state,
      mirrors: this.mirrors,
      problemStream: this.problemStream,
      connectionsChanged: this.connectionsChanged,
      flow: () => this.flow,
      group: () => groupOf(this.flow),
      runners: () => this.runners,
      changeClock: changeClockOf(scheduler),
      startLogic: (replaySince?: number) => this.startLogic(replaySince),
      stopLogic: () => this.stopLogic(),
    };
    this.groupRole = new GroupRole(inside);
    this.services = hubServices(this, {
      ...inside,
      redundancy: this.groupRole.redundancy(),
      signInKey: () => this.signInKey(),
      whenServing: (work) => {
        this.serving.when(work);
      },
      flowFile: () => flowFile,
      store: () => store,
    });
    this.factory = new RunnerFactory({
      ...inside,
      connectionBack,
      scheduler,
      services: this.services,
      groupRole: this.groupRole,
      whenRunning: (work) => {
        this.running.when(work);
      },
    });
    this.reloads = new Reloads({
      ...inside,
      scheduler,
      logic: this.logic,
      factory: this.factory,
      groupRole: this.groupRole,
      runsHere: (runner) => this.runsHere(runner),
      adopt: (flow, runners) => {
        this.flow = flow;
        this.runners = runners();
        traceWrites(this.graph, this.flow, this.log);
      },
    });
    this.runners = flow.connections.map((config) => this.factory.runnerFor(config, flow));
    traceWrites(this.graph, this.flow, this.log);
  }

  /** What the hub counted of its own work since it started (R-O1). */
  counts(): HubCounts {
    const rules = this.logic.counts();
    const restarts = this.reloads.restarts;
    return this.state ? { restarts, rules, store: { healthy: this.state.health.ok, ...this.state.counts } } : { restarts, rules };
  }

  /**
   * What keeps the hub from running as written, now: connections that are failed or
   * degraded, and what their parts asked and failed (a key's press), rules and code flows that wait or cannot run, and what failed since the last (re)load.
   */
  problems(): Problem[] {
    const state = this.state && stateProblem(this.state.folder, this.state.health);
    const connections = [
      ...this.runningHere().flatMap((runner) => [connectionProblem(runner.id, runner.status), ...this.factory.partProblems(runner)]),
      ...this.mirrors.infos().map((info) => connectionProblem(info.id, info)),
    ];
    return [state, ...connections, ...this.reloads.installed.problems(), ...this.reloads.refusals, ...this.logic.problems()].filter(
      (problem) => problem !== undefined,
    );
  }

  /** The enabled rules of the running flow, in the order they run (`GET /rules`). */
  rules(): RuleListing[] {
    return this.logic.listing(this.flow.rules, this.flow.warnings);
  }

  get connections(): readonly ConnectionRunner[] {
    return this.runners;
  }

  /** Every connection as `GET /connections` lists it: this hub's, then those it shows of other hubs. */
  listConnections(): ConnectionInfo[] {
    const { installed } = this.reloads;
    return [...this.runningHere().map((c) => installed.shown(c.info)), ...this.mirrors.infos()];
  }

  /** A connection this hub runs now (a standby runs only those that serve the hub). */
  connection(id: string): ConnectionRunner | undefined {
    return this.runningHere().find((c) => c.id === id);
  }

  /** True when this hub runs the connection now: outside a group always; in a group the active hub runs all, a standby those that run on standby hubs (rest-api, mqtt). */
  private runsHere(runner: ConnectionRunner): boolean {
    return groupOf(this.flow) === undefined || this.groupRole.role === 'active' || runner.config.plan.runsOnStandby;
  }

  /** The connections this hub runs now. */
  private runningHere(): ConnectionRunner[] {
    return this.runners.filter((runner) => this.runsHere(runner));
  }

  async start(): Promise<void> {
    if (this.state) this.subscriptions.add(superviseStore(this.state, this.scheduler, this.log));
    // In a group every hub starts as a standby: its mqtt connection finds out whether it takes over.
    if (groupOf(this.flow) !== undefined) this.groupRole.role = 'standby';
    // What devices say as they connect is news the rules take when they start (R-DV2).
    const since = changeClockOf(this.scheduler)();
    await startTogether(this.runningHere());
    // Stopped while connections started (Ctrl-C while a device was away): no rule, code flow
    // or watch starts after the stop, and nothing says the hub runs.
    if (this.stopping) return;
    const rules = this.groupRole.role === 'standby' ? 0 : await this.startLogic(since);
    promoteStartGarbage();
    // A package installed again from now on is said at once (R-PK10).
    this.reloads.installed.watch();
    this.subscriptions.add(() => this.reloads.installed.stop());
    this.serving.arrive();
    const failed = this.runners.filter((c) => c.status.status === 'failed').length;
    const inGroup = groupOf(this.flow);
    const group = inGroup === undefined ? '' : `, a standby of group ${inGroup} until its mqtt connection hears which hub is active`;
    this.log.info(
      `running: ${count(this.runningHere().length, 'connection')}, ${count(this.graph.size, 'parameter')}, ${count(rules, 'rule')}${failed ? `, ${failed} failed` : ''}${group}`,
    );
  }

  /**
   * Moves the running hub to `flow`: connections whose settings did not change keep
   * running with their values (failed ones start again), changed ones take their new settings in place when their
   * type can (keeping the values that stay) or restart, removed ones stop and forget their
   * kept values, new ones start; code flows and rules are rebuilt.
   */
  reload(flow: Flow): Promise<ReloadSummary> {
    return this.reloads.reload(flow);
  }

  /** Stops rules, code flows, then connections in reverse start order. Idempotent. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.stopLogic();
      for (const runner of [...this.runningHere()].reverse()) await runner.stop();
      this.subscriptions.unsubscribe();
      await this.state?.settled();
      this.log.info('stopped');
    })();
    return this.stopping;
  }

  /**
   * Code flows, then rules (R-R4: rules are checked once both have defined their
   * parameters); with `replaySince`, the rules take what connections said since then.
   */
  private async startLogic(replaySince?: number): Promise<number> {
    const rules = await this.logic.start(this.flow.rules, this.flow.flows, replaySince);
    this.running.arrive();
    return rules;
  }

  private stopLogic(): void {
    this.running.pass();
    this.logic.stop();
  }

  /** The files of the running code flows and the local modules they import: what `--watch` watches besides the flow file. */
  codeFlowFiles(): string[] {
    return this.logic.files();
  }
}

/** A sign-in key of this process alone. */
function processKey(): () => Buffer {
  const key = randomBytes(32);
  return () => key;
}
