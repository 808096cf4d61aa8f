/**
 * Reloads: moving the running hub to an edited flow. The new flow is compared with the
 * running connections (kept, updated in place, restarted, added, removed) and summed up; a
 * flow whose running code flows would not load is refused, and the hub runs on as it was.
 */
import type { Subject } from 'rxjs';
import type { Flow } from '../config/flow-file.ts';
import { type Problem, Status } from '../connections/connection.ts';
import { type ConnectionRunner, startTogether } from '../connections/runner.ts';
import { HubError } from '../core/errors.ts';
import type { Logger } from '../core/log.ts';
import { formatIssue } from '../core/issue.ts';
import type { Scheduler } from '../core/scheduler.ts';
import type { StateStore } from '../state/store.ts';
import { count } from './count.ts';
import { InstalledAnew } from './installed-anew.ts';
import type { Logic } from './logic.ts';
import { type GroupRole, groupOf } from './redundancy.ts';
import type { RunnerFactory } from './runner-factory.ts';

/**
 * A reload not taken: a code flow that runs would not load as edited (a typo). The hub runs
 * on as it was, and lists the problem until a reload is taken.
 */
export class ReloadRefused extends HubError {
  constructor(message: string, code: 'PB_CODE_FLOW' | 'PB_FLOW_FILE_INVALID' = 'PB_CODE_FLOW') {
    super(code, message);
  }
}

/** What a reload changed. */
export interface ReloadSummary {
  /** Connections whose settings did not change, and those that took new settings in place. */
  readonly kept: readonly string[];
  /** Of the kept ones, those whose own settings changed and were taken without a restart. */
  readonly updated: readonly string[];
  readonly restarted: readonly string[];
  readonly added: readonly string[];
  readonly removed: readonly string[];
}

/** What a reload works on, of the hub. */
export interface ReloadTarget {
  readonly log: Logger;
  readonly state: StateStore | undefined;
  /** The rules and code flows of the running flow. */
  readonly logic: Logic;
  /** Makes the runners of new and restarted connections, and lets go of those that leave. */
  readonly factory: RunnerFactory;
  /** The hub's role in its redundancy group: a standby runs no rules or code flows. */
  readonly groupRole: GroupRole;
  /** The group the running flow puts the hub in (R-B1), if any. */
  group(): string | undefined;
  /** The connections of the running flow, in flow order. */
  runners(): readonly ConnectionRunner[];
  /** Every problem of the hub as it happens. */
  readonly problemStream: Subject<Problem>;
  /** Told when connections came or went, for the clients that follow them. */
  readonly connectionsChanged: Subject<void>;
  /** True when the hub runs the connection now (a standby runs only those that serve the hub). */
  runsHere(runner: ConnectionRunner): boolean;
  /** Starts the code flows, then the rules; resolves with how many rules run. */
  startLogic(): Promise<number>;
  /** Stops the rules and the code flows. */
  stopLogic(): void;
  /** Makes `flow` the running flow, then what `runners` makes its connections. */
  adopt(flow: Flow, runners: () => ConnectionRunner[]): void;
  /** The running flow. */
  flow(): Flow;
  readonly scheduler: Scheduler;
}

/** The hub's reloads, and what they leave for the hub to show: the refusal of the last one, the restarts they made. */
export class Reloads {
  /** Code flows a refused reload kept running, with why (until a reload is taken). */
  refusals: Problem[] = [];
  /** Restarts of each connection by reloads (`/metrics`). */
  readonly restarts = new Map<string, number>();
  /** The flow's packages installed again since they were loaded: what a reload would load (R-PK10). */
  readonly installed: InstalledAnew;

  constructor(private readonly hub: ReloadTarget) {
    this.installed = new InstalledAnew(
      hub.scheduler,
      () => hub.flow().plugins.types.flatMap((type) => (type.origin ? [type.origin] : [])),
      () => hub.connectionsChanged.next(),
    );
  }

  /** The hub's reload: refused when the group changes or a running code flow would not load as edited, else applied. */
  async reload(flow: Flow): Promise<ReloadSummary> {
    // Joining or leaving a group changes what this hub runs at all: that takes a restart.
    const group = groupOf(flow);
    if (group !== this.hub.group())
      throw new ReloadRefused(
        `hub.group changes from ${this.hub.group() === undefined ? 'none' : `"${this.hub.group()}"`} to ${group === undefined ? 'none' : `"${group}"`}: a hub joins or leaves a redundancy group when it restarts, not at a reload`,
        'PB_FLOW_FILE_INVALID',
      );
    // A running code flow whose edited module does not load keeps running, and so does
    // everything else: the reload is refused, as a flow file with mistakes is.
    const failures = await this.hub.logic.prepare(flow.flows);
    const kept = this.hub.logic.runningFlows().flatMap((id) => {
      const failure = failures.get(id);
      return failure
        ? [{ source: 'code-flow' as const, id, code: failure.code, message: `${failure.message}; the running version is kept` }]
        : [];
    });
    if (kept.length > 0) {
      this.hub.logic.discard();
      this.refusals = kept;
      for (const problem of kept) this.hub.problemStream.next(problem);
      throw new ReloadRefused(kept.map((problem) => problem.message.replace(/; the running version is kept$/, '')).join('\n'));
    }
    this.refusals = [];
    return this.apply(flow);
  }

  private async apply(flow: Flow): Promise<ReloadSummary> {
    this.hub.stopLogic();
    const next = new Map(flow.connections.map((config) => [config.id, config]));
    const kept = new Set<string>();
    const updated: string[] = [];
    for (const runner of this.hub.runners()) {
      const config = next.get(runner.id);
      // A failed connection starts again, as its trouble may be gone (a folder made, a port freed).
      if (!config || runner.status.status === Status.Failed) continue;
      if (runner.sameAs(config)) kept.add(runner.id);
      else if (await runner.update(config)) {
        kept.add(runner.id);
        updated.push(runner.id);
      }
    }
    const leaving = this.hub.runners().filter((r) => !kept.has(r.id));
    for (const runner of [...leaving].reverse()) {
      this.hub.factory.unwatch(runner);
      // A standby's stopped connection is not in the graph, but what it keeps goes when it leaves the flow.
      if (this.hub.runsHere(runner)) await runner.dispose({ forget: !next.has(runner.id) });
      else if (!next.has(runner.id)) await this.hub.state?.reset(runner.id);
      if (!next.has(runner.id)) this.hub.factory.forget(runner.id);
    }
    const previous = new Map(this.hub.runners().map((r) => [r.id, r]));
    this.hub.adopt(flow, () =>
      flow.connections.map((config) => (kept.has(config.id) ? previous.get(config.id)! : this.hub.factory.runnerFor(config, flow))),
    );
    await startTogether(this.hub.runners().filter((runner) => !kept.has(runner.id) && this.hub.runsHere(runner)));
    const rules = this.hub.groupRole.role === 'standby' ? 0 : await this.hub.startLogic();
    const summary: ReloadSummary = {
      kept: [...kept],
      updated,
      restarted: leaving.filter((r) => next.has(r.id)).map((r) => r.id),
      added: flow.connections.filter((c) => !previous.has(c.id)).map((c) => c.id),
      removed: leaving.filter((r) => !next.has(r.id)).map((r) => r.id),
    };
    for (const id of summary.restarted) this.restarts.set(id, (this.restarts.get(id) ?? 0) + 1);
    // Clients that list connections and rules hear of every reload: a connection gone, one that
    // took new settings in place (a satellite's keys, the decks it expects), rules changed alone.
    // The packages as this reload loaded them: none is installed anew any more, or one still is.
    this.installed.look();
    this.installed.watch();
    this.hub.connectionsChanged.next();
    this.hub.log.info(
      `reloaded: ${summary.kept.length} kept (${updated.length} updated in place), ${summary.restarted.length} restarted, ` +
        `${summary.added.length} added, ${summary.removed.length} removed, ${count(rules, 'rule')}`,
    );
    // What runs but likely not as meant (two writers of a lamp) is said as at the hub's start.
    for (const issue of flow.warnings) this.hub.log.warn(formatIssue(issue));
    return summary;
  }
}
