import type { Static, TObject } from '@sinclair/typebox';
import type { Graph } from '../core/graph.ts';
import type { Logger } from '../core/log.ts';
import type { OwnedParameter, ParameterSpec } from '../core/parameter.ts';
import type { Scheduler } from '../core/scheduler.ts';
import type { Issue } from '../config/issue.ts';

/** The status values of R-L2. */
export const Status = {
  Starting: 'starting',
  Ok: 'ok',
  Degraded: 'degraded',
  Failed: 'failed',
  Disabled: 'disabled',
} as const;
export type Status = (typeof Status)[keyof typeof Status];

export interface StatusReport {
  readonly status: Status;
  /** Why the connection is degraded or failed; empty otherwise. */
  readonly reason: string;
}

/** A connection as dashboards and tools see it (`GET /connections`). */
export interface ConnectionInfo {
  readonly id: string;
  readonly type: string;
  readonly status: Status;
  readonly reason: string;
  readonly description: string;
  readonly location: string;
  readonly group: string;
  /** Facts the connection reports about itself while running, such as the port it listens on. */
  readonly details?: Readonly<Record<string, unknown>>;
}

/** What a running connection gets from the hub. Its only door to parameters and time. */
export interface ConnectionContext {
  readonly id: string;
  readonly scheduler: Scheduler;
  readonly log: Logger;
  /** The folder of the flow file: relative paths in settings resolve against it. */
  readonly baseDir: string;
  /** Read access to every parameter, for connections that combine others (virtual-core). */
  readonly graph: Graph;
  /** Defines `<connection id>/<id>`; throws a HubError on a bad or duplicate id. */
  define(id: string, spec: ParameterSpec): OwnedParameter;
  /** Every connection of the hub with its current status. */
  connections(): readonly ConnectionInfo[];
  /**
   * Reports a passing problem (`degraded`), its end (`ok`), or that the connection chose
   * not to run here (`disabled`, with the reason).
   */
  setStatus(status: typeof Status.Ok | typeof Status.Degraded | typeof Status.Disabled, reason?: string): void;
}

/** A started connection. `stop` is idempotent and must release everything `start` took. */
export interface ConnectionInstance {
  start(): void | Promise<void>;
  stop(): void | Promise<void>;
  /** Facts worth showing while running (listening port, file name…). */
  details?(): Readonly<Record<string, unknown>>;
}

/**
 * One connection type: the schema of its own settings (the common ones are added by the
 * hub), semantic checks the schema cannot express, and a factory. Registered once in
 * registry.ts.
 */
export interface ConnectionType<S extends TObject = TObject> {
  readonly type: string;
  readonly summary: string;
  readonly settings: S;
  /** Mistakes the schema cannot express, with paths relative to the connection. */
  check?(settings: Static<S>, connection: { readonly id: string }): Issue[];
  create(context: ConnectionContext, settings: Static<S>): ConnectionInstance;
}

/** Declares a connection type with its settings type inferred from the schema. */
export function defineConnectionType<S extends TObject>(type: ConnectionType<S>): ConnectionType<S> {
  return type;
}
