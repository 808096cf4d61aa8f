/**
 * Makes each connection's runner with its environment, what it is given of the hub: the
 * graph, its records, the group's fence and what a takeover carries, the services of the
 * types that serve the hub; and follows the runner's status into the hub's problems.
 */
import { pairwise, startWith, type Subject, type Subscription } from 'rxjs';
import type { Flow } from '../config/flow-file.ts';
import { type ConnectionConfig, type Problem, Status } from '../connections/connection.ts';
import { PartProblems } from '../connections/part-problems.ts';
import { ConnectionRunner } from '../connections/runner.ts';
import type { HubServices } from '../connections/serving.ts';
import type { Graph } from '../core/graph.ts';
import { unfenced } from '../core/lease.ts';
import type { Logger } from '../core/log.ts';
import type { Scheduler } from '../core/scheduler.ts';
import type { Json } from '../core/value.ts';
import type { StateStore } from '../state/store.ts';
import { IsolatedConnection } from './isolation/isolated-connection.ts';
import { connectionProblem } from './problems.ts';
import type { GroupRole } from './redundancy.ts';

/** What the runners are given of the hub. */
export interface RunnerEnvironment {
  readonly graph: Graph;
  readonly scheduler: Scheduler;
  readonly log: Logger;
  readonly state: StateStore | undefined;
  /** What the hub grants the types that serve it. */
  readonly services: HubServices;
  /** The hub's role in its redundancy group: the lease that fences its connections, what a takeover carries. */
  readonly groupRole: GroupRole;
  /** The group the flow puts the hub in (R-B1), if any. */
  group(): string | undefined;
  /** Every problem of the hub as it happens. */
  readonly problemStream: Subject<Problem>;
  /** Told when a connection changed its status, for the clients that follow connections. */
  readonly connectionsChanged: Subject<void>;
  /** Told a connection's id when it becomes ok (again). */
  readonly connectionBack: Subject<string>;
  /** Runs `work` once connections, code flows and rules all run (at once when they do). */
  whenRunning(work: () => void): void;
}

/** The maker of the hub's runners, with what it keeps of each: its records in memory, the watch on its status. */
export class RunnerFactory {
  /** Without a state folder, the records of each connection (`ConnectionContext.records`): kept across the reloads that start it again, gone with it. */
  private readonly recordsInMemory = new Map<string, Map<string, Json>>();
  /** Each runner's status watch, and where its parts' problems are listed. */
  private readonly watched = new Map<ConnectionRunner, { readonly watch: Subscription; readonly parts: PartProblems }>();

  constructor(private readonly hub: RunnerEnvironment) {}

  runnerFor(config: ConnectionConfig, flow: Flow): ConnectionRunner {
    const parts = new PartProblems(config.id);
    const runner = new ConnectionRunner(config, {
      parts,
      memory: (id) => this.recordsInMemory.get(id) ?? this.recordsInMemory.set(id, new Map()).get(id)!,
      graph: this.hub.graph,
      scheduler: this.hub.scheduler,
      log: this.hub.log,
      baseDir: flow.baseDir,
      hub: this.hub.services,
      fence: this.hub.group() === undefined ? unfenced : this.hub.groupRole.lease,
      carried: (address) => this.hub.groupRole.carried?.values.get(address),
      ...(this.hub.group() !== undefined && !config.plan.runsOnStandby
        ? {
            replicas: {
              carried: (id: string) => this.hub.groupRole.carried?.records.get(id),
              changed: (id: string, records: readonly (readonly [string, Json])[]) => {
                if (this.hub.groupRole.role === 'active') this.hub.groupRole.groupControl?.recordsChanged(id, records);
              },
            },
          }
        : {}),
      whenRunning: (work) => this.hub.whenRunning(work),
      ...(this.hub.state ? { state: this.hub.state } : {}),
      isolate: (isolated, hooks) => new IsolatedConnection(isolated, hooks),
    });
    const watch = runner.status$.pipe(startWith(undefined), pairwise()).subscribe(([before, report]) => {
      if (!report) return;
      const problem = connectionProblem(runner.id, report);
      if (problem) this.hub.problemStream.next(problem);
      this.hub.connectionsChanged.next();
      if (report.status === Status.Ok && before?.status !== Status.Ok) this.hub.connectionBack.next(runner.id);
    });
    // A part's problem moves the problems as a status does: the clients that list them hear of it alike.
    watch.add(
      parts.changed$.subscribe((problem) => {
        if (problem) this.hub.problemStream.next(problem);
        this.hub.connectionsChanged.next();
      }),
    );
    this.watched.set(runner, { watch, parts });
    return runner;
  }

  unwatch(runner: ConnectionRunner): void {
    this.watched.get(runner)?.watch.unsubscribe();
    this.watched.delete(runner);
  }

  /** What the parts of a runner's connection asked and failed, standing now. */
  partProblems(runner: ConnectionRunner): Problem[] {
    return this.watched.get(runner)?.parts.list() ?? [];
  }

  /** Lets go of the records in memory of a connection that left the flow. */
  forget(id: string): void {
    this.recordsInMemory.delete(id);
  }
}
