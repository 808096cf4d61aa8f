import { BehaviorSubject, type Observable, type Subscription } from 'rxjs';
import { asHubError, type ErrorCode, type HubError, reasonOf } from '../core/errors.ts';
import type { Graph } from '../core/graph.ts';
import { readOnlyView } from '../core/graph-view.ts';
import type { Logger } from '../core/log.ts';
import type { OwnedParameter } from '../core/parameter.ts';
import { Paced } from '../core/paced.ts';
import type { Scheduler } from '../core/scheduler.ts';
import type { Fence } from '../core/lease.ts';
import type { Json, Value } from '../core/value.ts';
import {
  canonicalJson,
  type ConnectionConfig,
  type ConnectionInfo,
  type ConnectionInstance,
  Status,
  type StopReason,
  type StatusReport,
} from './connection.ts';
import type { ConnectionContext } from '../sdk/context.ts';
import type { HubServices, ServingContext } from './serving.ts';
import { filesFolderOf } from './files-folder.ts';
import type { PartProblems } from './part-problems.ts';
import { KeptValues } from './kept-values.ts';
import { ConnectionRecords, type RecordsEnvironment } from './records.ts';

export const connectedParameterId = '_status/connected';

export interface RunnerEnvironment extends RecordsEnvironment {
  readonly graph: Graph;
  readonly scheduler: Scheduler;
  readonly log: Logger;
  readonly baseDir: string;
  /** What the hub grants the types that serve it (`servesHub`); the others never see it. */
  readonly hub: HubServices;
  /** See `ConnectionContext.whenRunning`. */
  readonly whenRunning: (work: () => void) => void;
  /** See `ConnectionContext.fence`. */
  readonly fence: Fence;
  /** Where its parts' problems are listed (`ConnectionContext.problem`); cleared when it stops. */
  readonly parts: PartProblems;
  /** While a standby takes over: the active hub's last value of a parameter, which it starts from (R-B2). */
  readonly carried?: (address: string) => Value | undefined;
  /**
   * Runs a connection in a process of its own (R-PK4): what its settings or its type ask
   * for. Absent: every connection runs in the hub's process.
   */
  readonly isolate?: (config: ConnectionConfig, hooks: IsolationHooks) => ConnectionInstance;
}

/** What a connection in a process of its own gets from its runner (see `RunnerEnvironment.isolate`). */
export interface IsolationHooks {
  /** Its context in the hub: where its parameters, statuses and records go. */
  readonly context: ConnectionContext;
  /** Every record it keeps now, for the process to read as it starts. */
  records(): readonly (readonly [string, Json])[];
  /** Shows it `failed` with the reason while its parameters stay (its process is gone, a new one is coming). */
  failed(error: HubError): void;
}

/**
 * Starts connections side by side: a device that takes its whole connect timeout to answer
 * (a switched-off deck, a host that drops packets) holds up no other, and whoever waits —
 * the hub's start, a takeover, a reload — waits as long as the slowest start, not the sum.
 * A start never rejects (a failing one fails its own connection).
 */
export async function startTogether(runners: Iterable<ConnectionRunner>): Promise<void> {
  await Promise.all([...runners].map((runner) => runner.start()));
}

/** Whether two configs run the same code: the same type, and for a type of a package, the package as installed then (R-PK9). */
const sameCode = (a: ConnectionConfig, b: ConnectionConfig): boolean =>
  a.plan.type === b.plan.type && a.plan.origin?.stamp === b.plan.origin?.stamp;

/**
 * Runs one configured connection through its lifecycle (R-L1, R-L2): disabled, or
 * starting → ok / degraded / failed. A start that throws leaves the connection `failed`
 * with the reason and its parameters removed; it never throws to the caller. `stop` is
 * idempotent.
 */
export class ConnectionRunner {
  private readonly report = new BehaviorSubject<StatusReport>({ status: Status.Starting, reason: '' });
  private instance: ConnectionInstance | undefined;
  private connected: OwnedParameter | undefined;
  private readonly log: Logger;

  readonly status$: Observable<StatusReport> = this.report.asObservable();

  private current: ConnectionConfig;
  /**
   * The status the connection itself reports (what is shown may add the store's trouble),
   * shown at most 20 times a second: a device or a module may flap without end.
   */
  private readonly own: Paced<StatusReport>;
  /** Whether it has been `ok` since it started: a device's first link up is "connected", later ones "ok again". */
  private wasOk = false;
  /** Why values are not being saved, while they are not. */
  private storeTrouble: { readonly reason: string; readonly code: ErrorCode } | undefined;
  /** What its parameters start from: kept values, or the active hub's in a takeover. */
  private readonly kept: KeptValues;
  private storeWatch: Subscription | undefined;
  /** Why another hub's claim keeps this connection from running, once one does (R-M5). */
  private refusal: HubError | undefined;
  /** Its records: in the state folder, or in memory (records.ts). */
  private readonly records: ConnectionRecords;

  constructor(
    config: ConnectionConfig,
    private readonly env: RunnerEnvironment,
  ) {
    this.current = config;
    this.records = new ConnectionRecords(config.id, env);
    this.log = env.log.child({ connection: config.id }, config.common.debug ? { level: 'debug' } : {});
    this.kept = new KeptValues(config.id, env, this.log, () => this.current);
    this.own = new Paced<StatusReport>(env.scheduler, 20, { status: Status.Starting, reason: '' }, () => this.publish());
  }

  get id(): string {
    return this.current.id;
  }

  get config(): ConnectionConfig {
    return this.current;
  }

  get status(): StatusReport {
    return this.report.value;
  }

  get info(): ConnectionInfo {
    const { id, plan, common } = this.current;
    const details = this.instance?.details?.();
    return {
      id,
      type: plan.type,
      ...(plan.origin ? { package: { name: plan.origin.package, version: plan.origin.version } } : {}),
      ...this.status,
      description: common.description,
      location: common.location,
      group: common.group,
      ...(details ? { details } : {}),
    };
  }

  async start(): Promise<void> {
    const { graph } = this.env;
    const { id, common, plan } = this.current;
    graph.registerConnection(id);
    if (common.statusParameters) {
      const defined = graph.define(id, connectedParameterId, { type: 'B', access: 'read-only', initial: false }, { reserved: true });
      if (defined.ok) this.connected = defined.value;
    }
    if (!common.enabled) {
      this.setStatus(Status.Disabled, '');
      return;
    }
    // Another hub owns its id, or its type's package was refused: nothing of it runs, here or in a process.
    const refusal = this.refusal ?? plan.refused;
    if (refusal) {
      this.setStatus(Status.Failed, refusal.message, refusal.code);
      return;
    }
    this.setStatus(Status.Starting, '');
    try {
      const context = this.context();
      const isolate = common.isolate ?? (plan.origin ? 'process' : 'none');
      this.instance =
        isolate === 'process' && this.env.isolate && !plan.servesHub
          ? this.env.isolate(this.current, {
              context,
              records: () => this.records.list(this.current.common.persist),
              failed: (error) => {
                // What its parts asked ended with its process.
                this.env.parts.clear();
                this.setStatus(Status.Failed, error.message, error.code);
              },
            })
          : plan.create(context);
      const instance = this.instance;
      await this.kept.starting(() => instance.start());
      if (this.own.value.status === Status.Starting) this.setStatus(Status.Ok, '');
      this.watchStore();
    } catch (error) {
      await this.fail(error);
    }
  }

  /**
   * A connection whose values are kept shows `degraded` while the store cannot save them
   * (6 of R-S: a failing store is never a failing hub, but it is visible where people look).
   */
  private watchStore(): void {
    const state = this.env.state;
    if (!this.kept.keeps || !state || this.storeWatch) return;
    this.storeWatch = state.health$.subscribe((health) => {
      this.storeTrouble = health.ok ? undefined : { reason: health.reason, code: health.code ?? 'PB_STATE_UNAVAILABLE' };
      this.publish();
    });
  }

  /**
   * Moves the connection to `config` in place when it can: only its descriptive settings
   * changed, or its type updates itself. Resolves false when a restart is needed (another
   * type, its package installed again (R-PK9), `enabled`, `debug`, `statusParameters` or
   * `persist` changed, or the type cannot update).
   */
  async update(config: ConnectionConfig): Promise<boolean> {
    const before = this.current;
    const lifecycle = ({ enabled, debug, statusParameters, persist, isolate, maxMemoryMb, hangMs }: ConnectionConfig['common']) =>
      canonicalJson({ enabled, debug, statusParameters, persist, isolate, maxMemoryMb, hangMs });
    if (!sameCode(config, before) || lifecycle(config.common) !== lifecycle(before.common)) return false;
    if (config.plan.fingerprint !== before.plan.fingerprint) {
      const instance = this.instance;
      if (!instance?.update) return false;
      try {
        if (!(await instance.update(config.plan))) return false;
      } catch (error) {
        this.current = config;
        await this.fail(error);
        return true;
      }
      this.log.info('settings updated in place');
      this.watchStore();
    }
    this.current = config;
    return true;
  }

  /** Fails the connection for good (until it is replaced): another hub owns its id. */
  async refuse(error: HubError): Promise<void> {
    if (this.refusal) return;
    this.refusal = error;
    if (this.report.value.status !== Status.Disabled) await this.fail(error);
  }

  private async fail(error: unknown): Promise<void> {
    const failure = asHubError(error, 'PB_START_FAILED');
    this.setStatus(Status.Failed, failure.message, failure.code);
    await this.stop();
  }

  /** Stops the running instance, if any, telling it why (see `StopReason`). */
  async stop(reason: StopReason = 'stop'): Promise<void> {
    this.own.flush();
    const instance = this.instance;
    this.instance = undefined;
    this.storeWatch?.unsubscribe();
    this.storeWatch = undefined;
    this.storeTrouble = undefined;
    this.env.parts.clear();
    if (instance) {
      try {
        await instance.stop(reason);
      } catch (error) {
        this.log.error(`stop failed: ${reasonOf(error)}`);
      }
    }
    this.env.graph.removeParameters(this.id, (parameterId) => parameterId === connectedParameterId);
    this.connected?.report(false);
    if (instance) this.log.info('stopped');
  }

  /**
   * Stops the connection and removes every trace of it from the graph. With `forget` it
   * is gone from the flow, and its kept values and records go too; without, it is about
   * to start again with other settings and finds them.
   */
  async dispose({ forget }: { forget: boolean }): Promise<void> {
    await this.stop(forget ? 'stop' : 'restart');
    this.env.graph.removeParameters(this.id);
    this.env.graph.unregisterConnection(this.id);
    if (forget) await this.env.state?.reset(this.id);
  }

  /** True when `config` would run this connection exactly as it runs now. */
  sameAs(config: ConnectionConfig): boolean {
    const mine = this.current;
    return (
      sameCode(mine, config) &&
      mine.plan.fingerprint === config.plan.fingerprint &&
      canonicalJson(mine.common) === canonicalJson(config.common)
    );
  }

  private context(): ServingContext {
    const { graph, scheduler, baseDir, state, hub } = this.env;
    const id = this.id;
    const keeping = state && this.current.common.persist ? state : undefined;
    return {
      records: this.records.open(keeping),
      ...(keeping ? { settled: (done: () => void) => keeping.whenSettled(done) } : {}),
      ...(state ? { filesFolder: filesFolderOf(state.folder, this.current.plan.type) } : {}),
      id,
      scheduler,
      baseDir,
      graph: readOnlyView(graph),
      hub,
      whenRunning: this.env.whenRunning,
      fence: this.env.fence,
      log: this.log,
      define: (parameterId, spec) => {
        const defined = graph.define(id, parameterId, this.kept.seeded(parameterId, spec));
        if (!defined.ok) throw defined.error;
        return defined.value;
      },
      defineTable: (table) => {
        this.kept.table(table);
        const defined = graph.defineTable(id, table, (row) => this.kept.seeded(row.id, row, true));
        if (!defined.ok) throw defined.error;
      },
      remove: (parameterId) => void graph.remove(`${id}/${parameterId}`),
      problem: (part, problem) => {
        if (this.instance) this.env.parts.set(part, problem);
      },
      setStatus: (status, reason = '', code) => {
        if (!this.instance) return;
        this.own.set({ status, reason, ...(code ? { code } : {}) });
      },
    };
  }

  /** Every record of the running connection, as [key, record]: what a standby keeps of it. */
  recordEntries(): [string, Json][] {
    return this.records.entries();
  }

  private setStatus(status: Status, reason: string, code?: ErrorCode): void {
    this.own.setNow({ status, reason, ...(code ? { code } : {}) });
  }

  /** Shows the connection's own status, or `degraded` while it is ok but its values cannot be saved. */
  private publish(): void {
    const own = this.own.value;
    const trouble = own.status === Status.Ok ? this.storeTrouble : undefined;
    const { status, reason, code } = trouble === undefined ? own : { status: Status.Degraded, ...trouble };
    const previous = this.report.value;
    if (previous.status === Status.Ok) this.wasOk = true;
    if (previous.status === status && previous.reason === reason && previous.code === code) return;
    this.report.next({ status, reason, ...(code ? { code } : {}) });
    // Degraded by a passing problem it still works; degraded because its device is away, it is not connected (R-DV5).
    const away = code === 'PB_DEVICE_UNAVAILABLE' || code === 'PB_DEVICE_TIMEOUT';
    this.connected?.report(status === Status.Ok || (status === Status.Degraded && !away));
    const suffix = reason ? `: ${reason}` : '';
    switch (status) {
      case Status.Failed:
        return this.log.error(`failed${suffix}`);
      case Status.Degraded:
        return this.log.warn(`degraded${suffix}`);
      case Status.Ok:
        if (previous.status === Status.Starting) return this.log.info(`started (${this.current.plan.type})`);
        // A device's first link up after `connecting` is no recovery.
        return this.log.info(previous.status === Status.Connecting && !this.wasOk ? 'connected' : 'ok again');
      case Status.Disabled:
        return this.log.info(`disabled${suffix}`);
      case Status.Starting:
        return this.log.debug('starting');
      case Status.Connecting:
        return this.log.debug('connecting');
    }
  }
}
