import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { type Observable, Subject, Subscription } from 'rxjs';
import { connectionTypes } from '../config/connection-types.ts';
import type { Flow } from '../config/flow-file.ts';
import { type ConnectionConfig, type ConnectionInfo, type Problem, type RuleListing, Status } from '../connections/connection.ts';
import type { Carried, GroupControl, HubServices, Redundancy, Role } from '../connections/serving.ts';
import { ConnectionRunner } from '../connections/runner.ts';
import { IsolatedConnection } from './isolation/isolated-connection.ts';
import type { HubCounts } from '../core/counts.ts';
import { HubError } from '../core/errors.ts';
import type { FlowView } from '../core/flow-view.ts';
import { Graph, type Reading } from '../core/graph.ts';
import { Lease, unfenced } from '../core/lease.ts';
import { type Logger, silentLogger } from '../core/log.ts';
import { mapStrings, relativePaths } from '../core/paths.ts';
import { realTime, type Scheduler } from '../core/scheduler.ts';
import { type Json, toWire } from '../core/value.ts';
import type { RuleProblem } from '../rules/engine.ts';
import { superviseStore } from '../state/supervise-store.ts';
import type { StateStore } from '../state/store.ts';
import { promoteStartGarbage } from './heap.ts';
import { Logic } from './logic.ts';
import { Mirrors } from './mirrors.ts';
import { connectionProblem, stateProblem } from './problems.ts';

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

/** What a reload changed. */
/**
 * A reload not taken: a code flow that runs would not load as edited (a typo). The hub runs
 * on as it was, and lists the problem until a reload is taken.
 */
export class ReloadRefused extends HubError {
  constructor(message: string, code: 'PB_CODE_FLOW' | 'PB_FLOW_FILE_INVALID' = 'PB_CODE_FLOW') {
    super(code, message);
  }
}

export interface ReloadSummary {
  /** Connections whose settings did not change, and those that took new settings in place. */
  readonly kept: readonly string[];
  /** Of the kept ones, those whose own settings changed and were taken without a restart. */
  readonly updated: readonly string[];
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
  private readonly problemStream = new Subject<Problem>();
  private readonly codeFlowFilesChanged = new Subject<void>();
  private readonly connectionsChanged = new Subject<void>();
  /** Without a state folder, the records of each connection (`ConnectionContext.records`): kept across the reloads that start it again, gone with it. */
  private readonly recordsInMemory = new Map<string, Map<string, Json>>();
  /** Connections other hubs run, shown here (R-M5); in a redundancy group, the active hub's on a standby. */
  private readonly mirrors = new Mirrors(this.graph, (id) => this.connection(id) !== undefined);
  /** In a redundancy group (R-B1): this hub's role, and the values a takeover carries into its connections. */
  private role: Role | undefined;
  private carried: Carried | undefined;
  private readonly lease = new Lease();
  private readonly flowFile: FlowView | undefined;
  private groupControl: GroupControl | undefined;

  /** Emits when the code flows loaded one more file: `codeFlowFiles()` grew. */
  readonly codeFlowFiles$: Observable<void> = this.codeFlowFilesChanged.asObservable();
  private readonly statusWatches = new Map<ConnectionRunner, Subscription>();
  private readonly subscriptions = new Subscription();
  private readonly state: StateStore | undefined;
  private readonly signInKey: () => Buffer;
  /** Code flows a refused reload kept running, with why (until a reload is taken). */
  private refusals: Problem[] = [];
  /** Restarts of each connection by reloads (`/metrics`). */
  private readonly restarts = new Map<string, number>();
  /** The rules and code flows of the running flow. */
  private readonly logic: Logic;
  private stopping: Promise<void> | undefined;
  /** True while connections, code flows and rules all run; work waiting for that meanwhile. */
  private running = false;
  private untilRunning: (() => void)[] = [];
  /** True once `start` is over (see `HubServices.whenServing`); work waiting for that meanwhile. */
  private serving = false;
  private untilServing: (() => void)[] = [];

  /** Problems of rules as they happen: missing addresses, failed writes, cut loops. */
  readonly ruleProblems$: Observable<RuleProblem>;

  /**
   * Every problem of the hub as it happens, on one stream: a connection that fails or is
   * degraded, a code flow that fails, a rule that cannot run or fails to write.
   */
  readonly problems$: Observable<Problem> = this.problemStream.asObservable();

  constructor({ flow, scheduler = realTime, log = silentLogger, loopLimit, state, signInKey, flowFile }: HubOptions) {
    this.log = log;
    this.flowFile = flowFile;
    this.signInKey = signInKey ?? processKey();
    this.flow = flow;
    this.scheduler = scheduler;
    this.logic = new Logic({
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
      debugs: (id) => this.debugs(id),
      loaded: () => this.codeFlowFilesChanged.next(),
    });
    this.ruleProblems$ = this.logic.ruleProblems$;
    this.subscriptions.add(this.logic.problems$.subscribe((problem) => this.problemStream.next(problem)));
    this.state = state;
    // Parameters the hub keeps write each change through to the store, one hook for all.
    if (state) this.graph.keepWith('hub', (parameter, value) => state.setValue(parameter.address, value));
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
    this.runners = flow.connections.map((config) => this.runnerFor(config, flow));
    this.traceWrites();
  }

  /**
   * Debug lines for every write and report with its origin: all of them at `--log-level
   * debug`, those of connections with `debug: true` otherwise. Without either, no tracer is
   * set and a write pays one check.
   */
  private traceWrites(): void {
    const everything = this.log.isLevelEnabled('debug');
    const chosen = new Set(this.flow.connections.filter((c) => c.common.debug).map((c) => c.id));
    if (!everything && chosen.size === 0) {
      this.graph.traceWith('hub', undefined);
      return;
    }
    const loggers = new Map<string, Logger>();
    this.graph.traceWith('hub', (parameter, value, origin, changed) => {
      const id = parameter.connectionId;
      if (!everything && !chosen.has(id)) return;
      let log = loggers.get(id);
      if (!log) loggers.set(id, (log = this.log.child({ connection: id }, { level: 'debug' })));
      const text = parameter.type === 'T' ? 'fired' : `= ${JSON.stringify(toWire(value))}${changed ? '' : ' (unchanged)'}`;
      log.debug(`${parameter.address} ${text} by ${origin ?? 'its connection'}`);
    });
  }

  /** True when debug lines of this connection are wanted: `debug: true` on it, or `--log-level debug`. */
  private debugs(connectionId: string): boolean {
    return this.log.isLevelEnabled('debug') || this.connection(connectionId)?.config.common.debug === true;
  }

  /** What the hub counted of its own work since it started (R-O1). */
  counts(): HubCounts {
    const rules = this.logic.counts();
    const restarts = this.restarts;
    return this.state ? { restarts, rules, store: { healthy: this.state.health.ok, ...this.state.counts } } : { restarts, rules };
  }

  /**
   * What keeps the hub from running as written, now: connections that are failed or
   * degraded, rules and code flows that wait or cannot run, and what failed since the last (re)load.
   */
  problems(): Problem[] {
    const state = this.state && stateProblem(this.state.folder, this.state.health);
    const connections = [
      ...this.runningHere().map((runner) => connectionProblem(runner.id, runner.status)),
      ...this.mirrors.infos().map((info) => connectionProblem(info.id, info)),
    ];
    return [state, ...connections, ...this.refusals, ...this.logic.problems()].filter((problem) => problem !== undefined);
  }

  /** The enabled rules of the running flow, in the order they run (`GET /rules`). */
  rules(): RuleListing[] {
    return this.logic.listing(this.flow.rules);
  }

  get connections(): readonly ConnectionRunner[] {
    return this.runners;
  }

  /** Every connection as `GET /connections` lists it: this hub's, then those it shows of other hubs. */
  listConnections(): ConnectionInfo[] {
    return [...this.runningHere().map((c) => c.info), ...this.mirrors.infos()];
  }

  /** A connection this hub runs now (a standby runs only those that serve the hub). */
  connection(id: string): ConnectionRunner | undefined {
    return this.runningHere().find((c) => c.id === id);
  }

  /** The group the flow puts this hub in (R-B1), if any. */
  private get group(): string | undefined {
    return groupOf(this.flow);
  }

  /** True when this hub runs the connection now: outside a group always; in a group the active hub runs all, a standby those that serve the hub. */
  private runsHere(runner: ConnectionRunner): boolean {
    return this.group === undefined || this.role === 'active' || runner.config.plan.servesHub;
  }

  private runningHere(): ConnectionRunner[] {
    return this.group === undefined || this.role === 'active' ? this.runners : this.runners.filter((r) => r.config.plan.servesHub);
  }

  async start(): Promise<void> {
    if (this.state) this.subscriptions.add(superviseStore(this.state, this.scheduler, this.log));
    // In a group every hub starts as a standby: its mqtt connection finds out whether it takes over.
    if (this.group !== undefined) this.role = 'standby';
    for (const runner of this.runningHere()) await runner.start();
    const rules = this.role === 'standby' ? 0 : await this.startLogic();
    promoteStartGarbage();
    this.serving = true;
    for (const work of this.untilServing.splice(0)) work();
    const failed = this.runners.filter((c) => c.status.status === 'failed').length;
    const group = this.group === undefined ? '' : `, a standby of group ${this.group} until its mqtt connection hears which hub is active`;
    this.log.info(
      `running: ${count(this.runningHere().length, 'connection')}, ${count(this.graph.size, 'parameter')}, ${count(rules, 'rule')}${failed ? `, ${failed} failed` : ''}${group}`,
    );
  }

  /** Takes over as the active hub of the group (R-B2, R-B4): see `Redundancy.activate`. */
  private async activate(carried: Carried): Promise<void> {
    if (this.role !== 'standby') return;
    this.role = 'active';
    this.carried = carried;
    // What it kept showing since it stood down gives way to the connections themselves.
    this.mirrors.release();
    const activeOnly = this.runners.filter((runner) => !runner.config.plan.servesHub);
    try {
      for (const runner of activeOnly) await runner.start();
    } finally {
      this.carried = undefined;
    }
    // The standbys keep every record from now on, also those no change will send.
    for (const runner of activeOnly) this.groupControl?.recordsChanged(runner.id, runner.recordEntries());
    const rules = await this.startLogic();
    this.connectionsChanged.next();
    this.log.info(
      `active in group ${this.group} (epoch ${this.lease.epoch}): ${count(this.runners.length, 'connection')}, ${count(rules, 'rule')}`,
    );
  }

  /** Stands down to a standby (R-B3): see `Redundancy.standDown`. The lease has ended already: no device hears this hub meanwhile. */
  private async standDown(): Promise<void> {
    if (this.role !== 'active') return;
    this.role = 'standby';
    this.stopLogic();
    const activeOnly = [...this.runners].reverse().filter((runner) => !runner.config.plan.servesHub);
    const last = readingsOf(this.graph, new Set(activeOnly.map((runner) => runner.id)));
    for (const runner of activeOnly) {
      const info = runner.info;
      await runner.dispose({ forget: false });
      // Shown as they were until the active hub's mirror comes: a dashboard reads values, not 404 (R-AV1).
      this.mirrors.keep(info, last.get(runner.id) ?? [], () => this.lease.refusal());
    }
    this.connectionsChanged.next();
    this.log.warn(
      `standby in group ${this.group}: the connections only the active hub runs are stopped; their last values are shown, writes refused, until the active hub's are`,
    );
  }

  /**
   * Moves the running hub to `flow`: connections whose settings did not change keep
   * running with their values (failed ones start again), changed ones take their new settings in place when their
   * type can (keeping the values that stay) or restart, removed ones stop and forget their
   * kept values, new ones start; code flows and rules are rebuilt.
   */
  async reload(flow: Flow): Promise<ReloadSummary> {
    // Joining or leaving a group changes what this hub runs at all: that takes a restart.
    const group = groupOf(flow);
    if (group !== this.group)
      throw new ReloadRefused(
        `hub.group changes from ${this.group === undefined ? 'none' : `"${this.group}"`} to ${group === undefined ? 'none' : `"${group}"`}: a hub joins or leaves a redundancy group when it restarts, not at a reload`,
        'PB_FLOW_FILE_INVALID',
      );
    // A running code flow whose edited module does not load keeps running, and so does
    // everything else: the reload is refused, as a flow file with mistakes is.
    const failures = await this.logic.prepare(flow.flows);
    const kept = this.logic.runningFlows().flatMap((id) => {
      const failure = failures.get(id);
      return failure
        ? [{ source: 'code-flow' as const, id, code: failure.code, message: `${failure.message}; the running version is kept` }]
        : [];
    });
    if (kept.length > 0) {
      this.logic.discard();
      this.refusals = kept;
      for (const problem of kept) this.problemStream.next(problem);
      throw new ReloadRefused(kept.map((problem) => problem.message.replace(/; the running version is kept$/, '')).join('\n'));
    }
    this.refusals = [];
    return this.apply(flow);
  }

  private async apply(flow: Flow): Promise<ReloadSummary> {
    this.stopLogic();
    const next = new Map(flow.connections.map((config) => [config.id, config]));
    const kept = new Set<string>();
    const updated: string[] = [];
    for (const runner of this.runners) {
      const config = next.get(runner.id);
      // A failed connection starts again, as its trouble may be gone (a folder made, a port freed).
      if (!config || runner.status.status === Status.Failed) continue;
      if (runner.sameAs(config)) kept.add(runner.id);
      else if (await runner.update(config)) {
        kept.add(runner.id);
        updated.push(runner.id);
      }
    }
    const leaving = this.runners.filter((r) => !kept.has(r.id));
    for (const runner of [...leaving].reverse()) {
      this.unwatch(runner);
      // A standby's stopped connection is not in the graph, but what it keeps goes when it leaves the flow.
      if (this.runsHere(runner)) await runner.dispose({ forget: !next.has(runner.id) });
      else if (!next.has(runner.id)) await this.state?.reset(runner.id);
      if (!next.has(runner.id)) this.recordsInMemory.delete(runner.id);
    }
    const previous = new Map(this.runners.map((r) => [r.id, r]));
    this.flow = flow;
    this.runners = flow.connections.map((config) => (kept.has(config.id) ? previous.get(config.id)! : this.runnerFor(config, flow)));
    this.traceWrites();
    for (const runner of this.runners) if (!kept.has(runner.id) && this.runsHere(runner)) await runner.start();
    const rules = this.role === 'standby' ? 0 : await this.startLogic();
    const summary: ReloadSummary = {
      kept: [...kept],
      updated,
      restarted: leaving.filter((r) => next.has(r.id)).map((r) => r.id),
      added: flow.connections.filter((c) => !previous.has(c.id)).map((c) => c.id),
      removed: leaving.filter((r) => !next.has(r.id)).map((r) => r.id),
    };
    for (const id of summary.restarted) this.restarts.set(id, (this.restarts.get(id) ?? 0) + 1);
    if (summary.removed.length > 0) this.connectionsChanged.next();
    this.log.info(
      `reloaded: ${summary.kept.length} kept (${updated.length} updated in place), ${summary.restarted.length} restarted, ` +
        `${summary.added.length} added, ${summary.removed.length} removed, ${count(rules, 'rule')}`,
    );
    return summary;
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

  /** What the types that serve the hub (`servesHub`) are granted; made once, for every such connection. */
  private readonly services: HubServices = {
    graph: this.graph,
    // Served over HTTP, to anyone when the hub has no credentials: file-system paths are
    // given relative to the flow file folder (the log and the CLI keep them whole).
    connections: () => mapStrings(this.listConnections(), this.servedPaths()),
    connectionChanges$: this.connectionsChanged,
    mirror: (id, owner) => this.mirrors.open(id, owner),
    refuse: (id, error) => void this.connection(id)?.refuse(error),
    problems: () => mapStrings(this.problems(), this.servedPaths()),
    rules: () => this.rules(),
    counts: () => this.counts(),
    signInKey: () => this.signInKey(),
    whenServing: (work) => {
      if (this.serving) work();
      else this.untilServing.push(work);
    },
    // The types of packages the flow names too (R-PK1): those of the flow the hub started with.
    connectionMetrics: () =>
      [...connectionTypes, ...this.flow.plugins.types].flatMap(({ type, metrics }) => metrics.map((metric) => ({ type, ...metric }))),
    redundancy: this.redundancy(),
    flowFile: () => this.flowFile,
  };

  private redundancy(): Redundancy {
    const hub = this;
    return {
      get group() {
        return hub.group;
      },
      lease: this.lease,
      activate: (carried) => this.activate(carried),
      standDown: () => this.standDown(),
      activeOnly: () => this.runners.filter((r) => !r.config.plan.servesHub).map((r) => r.id),
      control: (control) => {
        this.groupControl = control;
        return () => {
          if (this.groupControl === control) this.groupControl = undefined;
        };
      },
      get current() {
        return hub.groupControl;
      },
    };
  }

  private runnerFor(config: ConnectionConfig, flow: Flow): ConnectionRunner {
    const runner = new ConnectionRunner(config, {
      memory: (id) => this.recordsInMemory.get(id) ?? this.recordsInMemory.set(id, new Map()).get(id)!,
      graph: this.graph,
      scheduler: this.scheduler,
      log: this.log,
      baseDir: flow.baseDir,
      hub: this.services,
      fence: this.group === undefined ? unfenced : this.lease,
      carried: (address) => this.carried?.values.get(address),
      ...(this.group !== undefined && !config.plan.servesHub
        ? {
            replicas: {
              carried: (id: string) => this.carried?.records.get(id),
              changed: (id: string, records: readonly (readonly [string, Json])[]) => {
                if (this.role === 'active') this.groupControl?.recordsChanged(id, records);
              },
            },
          }
        : {}),
      whenRunning: (work) => {
        if (this.running) work();
        else this.untilRunning.push(work);
      },
      ...(this.state ? { state: this.state } : {}),
      isolate: (isolated, hooks) => new IsolatedConnection(isolated, hooks),
    });
    this.statusWatches.set(
      runner,
      runner.status$.subscribe((report) => {
        const problem = connectionProblem(runner.id, report);
        if (problem) this.problemStream.next(problem);
        this.connectionsChanged.next();
      }),
    );
    return runner;
  }

  private servedPaths(): (text: string) => string {
    return relativePaths(
      this.flow.baseDir,
      rootEntries,
      this.flow.connections.flatMap((connection) => connection.plan.pathsAsWritten),
    );
  }

  private unwatch(runner: ConnectionRunner): void {
    this.statusWatches.get(runner)?.unsubscribe();
    this.statusWatches.delete(runner);
  }

  /** Code flows, then rules (R-R4: rules are checked once both have defined their parameters). */
  private async startLogic(): Promise<number> {
    const rules = await this.logic.start(this.flow.rules, this.flow.flows);
    this.running = true;
    for (const work of this.untilRunning.splice(0)) work();
    return rules;
  }

  private stopLogic(): void {
    this.running = false;
    this.logic.stop();
  }

  /** The files of the running code flows and the local modules they import: what `--watch` watches besides the flow file. */
  codeFlowFiles(): string[] {
    return this.logic.files();
  }
}

/** The redundancy group a flow puts its hub in (R-B1), if any. */
/** The readings of the connections `ids`, by connection, in one walk of the graph that makes no parameter. */
function readingsOf(graph: Graph, ids: ReadonlySet<string>): Map<string, Reading[]> {
  const found = new Map<string, Reading[]>();
  for (const reading of graph.readings()) {
    if (!ids.has(reading.connectionId)) continue;
    let list = found.get(reading.connectionId);
    if (!list) found.set(reading.connectionId, (list = []));
    list.push(reading);
  }
  return found;
}

function groupOf(flow: Flow): string | undefined {
  return flow.connections.find((config) => config.plan.redundancyGroup !== undefined)?.plan.redundancyGroup;
}

/** A sign-in key of this process alone. */
function processKey(): () => Buffer {
  const key = randomBytes(32);
  return () => key;
}

/**
 * The entries of the root folder (`home`, `tmp`, `srv` …): what an absolute path in a message
 * starts with. Not `dev`: a serial port's `/dev/ttyUSB0` tells nothing of how the machine is
 * laid out, and the operator needs it as it is.
 */
const rootEntries = (() => {
  try {
    return readdirSync('/').filter((entry) => entry !== 'dev');
  } catch {
    return [];
  }
})();

/** `1 rule`, `2 rules`. */
const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
