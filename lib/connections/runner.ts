import { BehaviorSubject, type Observable } from 'rxjs';
import type { ConnectionConfig } from '../config/flow-file.ts';
import { reasonOf } from '../core/errors.ts';
import type { Graph } from '../core/graph.ts';
import type { Logger } from '../core/log.ts';
import type { OwnedParameter } from '../core/parameter.ts';
import type { Scheduler } from '../core/scheduler.ts';
import { type ConnectionContext, type ConnectionInfo, type ConnectionInstance, Status, type StatusReport } from './connection.ts';

export const connectedParameterId = '_status/connected';

export interface RunnerEnvironment {
  readonly graph: Graph;
  readonly scheduler: Scheduler;
  readonly log: Logger;
  readonly baseDir: string;
  /** Every connection of the hub, for connections that report on the others (rest-api). */
  readonly connections: () => readonly ConnectionInfo[];
}

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

  constructor(
    readonly config: ConnectionConfig,
    private readonly env: RunnerEnvironment,
  ) {
    this.log = env.log.child({ connection: config.id }, config.common.debug ? { level: 'debug' } : {});
  }

  get id(): string {
    return this.config.id;
  }

  get status(): StatusReport {
    return this.report.value;
  }

  get info(): ConnectionInfo {
    const { id, type, common } = this.config;
    const details = this.instance?.details?.();
    return {
      id,
      type: type.type,
      ...this.status,
      description: common.description,
      location: common.location,
      group: common.group,
      ...(details ? { details } : {}),
    };
  }

  async start(): Promise<void> {
    const { graph } = this.env;
    const { id, common, type, settings } = this.config;
    graph.registerConnection(id);
    if (common.statusParameters) {
      const defined = graph.define(id, connectedParameterId, { type: 'B', access: 'read-only', initial: false }, { reserved: true });
      if (defined.ok) this.connected = defined.value;
    }
    if (!common.enabled) {
      this.setStatus(Status.Disabled, '');
      return;
    }
    this.setStatus(Status.Starting, '');
    try {
      this.instance = type.create(this.context(), settings as never);
      await this.instance.start();
      if (this.status.status === Status.Starting) this.setStatus(Status.Ok, '');
    } catch (error) {
      this.setStatus(Status.Failed, reasonOf(error));
      await this.stop();
    }
  }

  async stop(): Promise<void> {
    const instance = this.instance;
    this.instance = undefined;
    if (instance) {
      try {
        await instance.stop();
      } catch (error) {
        this.log.error(`stop failed: ${reasonOf(error)}`);
      }
    }
    this.env.graph.removeParameters(this.id, (parameterId) => parameterId === connectedParameterId);
    this.connected?.report(false);
    if (instance) this.log.info('stopped');
  }

  /** Stops the connection and removes every trace of it from the graph: it is gone from the flow. */
  async dispose(): Promise<void> {
    await this.stop();
    this.env.graph.removeParameters(this.id);
    this.env.graph.unregisterConnection(this.id);
  }

  /** True when `config` would run this connection exactly as it runs now. */
  sameAs(config: ConnectionConfig): boolean {
    const mine = this.config;
    return mine.type === config.type && canonical(mine.settings) === canonical(config.settings) && canonical(mine.common) === canonical(config.common);
  }

  private context(): ConnectionContext {
    const { graph, scheduler, baseDir, connections } = this.env;
    const id = this.id;
    return {
      id,
      scheduler,
      baseDir,
      graph,
      connections,
      log: this.log,
      define(parameterId, spec) {
        const defined = graph.define(id, parameterId, spec);
        if (!defined.ok) throw defined.error;
        return defined.value;
      },
      setStatus: (status, reason = '') => {
        if (this.instance) this.setStatus(status, reason);
      },
    };
  }

  private setStatus(status: Status, reason: string): void {
    const previous = this.report.value;
    if (previous.status === status && previous.reason === reason) return;
    this.report.next({ status, reason });
    this.connected?.report(status === Status.Ok || status === Status.Degraded);
    const suffix = reason ? `: ${reason}` : '';
    switch (status) {
      case Status.Failed:
        return this.log.error(`failed${suffix}`);
      case Status.Degraded:
        return this.log.warn(`degraded${suffix}`);
      case Status.Ok:
        return this.log.info(previous.status === Status.Starting ? `started (${this.config.type.type})` : 'ok again');
      case Status.Disabled:
        return this.log.info(`disabled${suffix}`);
      case Status.Starting:
        return this.log.debug('starting');
    }
  }
}

/** JSON with object keys sorted, so reordered keys in a flow file compare equal. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v,
  );
}
