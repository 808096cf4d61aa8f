/**
 * What a running connection gets from the hub (R-L2): its only door to parameters, time,
 * status and the records it keeps. The same for a type in the hub's process and one in a
 * process of its own.
 */
import type { ConnectionStatus } from '../core/api-shapes.ts';
import type { ErrorCode } from '../core/errors.ts';
import type { GraphView, ParameterTable } from '../core/graph.ts';
import type { Fence } from '../core/lease.ts';
import type { Logger } from '../core/log.ts';
import type { OwnedParameter, ParameterSpec } from '../core/parameter.ts';
import type { Scheduler } from '../core/scheduler.ts';
import type { Json } from '../core/value.ts';

export type { StatusReport } from '../core/api-shapes.ts';
export type { Fence } from '../core/lease.ts';
export type { Logger } from '../core/log.ts';
export type { GraphView } from '../core/graph.ts';

/**
 * The status values of R-L2, by name: `connectionStatuses` of core/api-shapes.ts, the one
 * list that `GET /connections`, `/metrics` and the console share, is where a status is added.
 */
export const Status = {
  Starting: 'starting',
  /** A device connection whose link is not up yet (R-G1). */
  Connecting: 'connecting',
  Ok: 'ok',
  Degraded: 'degraded',
  Failed: 'failed',
  Disabled: 'disabled',
} as const satisfies Readonly<Record<string, ConnectionStatus>>;
export type Status = ConnectionStatus;

/** Records a connection keeps across restarts and reloads, such as a running timer's deadline. */
export interface Records {
  get(key: string): Json | undefined;
  /** `undefined` forgets the record. */
  set(key: string, value: Json | undefined): void;
}

/**
 * What every running connection gets from the hub: its only door to parameters and time.
 * It reads the graph through a view that cannot change it, and writes only its own
 * parameters (`define`, `defineTable`, `remove`, and the parameters these return).
 */
export interface ConnectionContext {
  readonly id: string;
  readonly scheduler: Scheduler;
  readonly log: Logger;
  /**
   * Asked before a command goes to a device (R-B3): in a redundancy group only the active
   * hub, holding its lease, sends any. `DeviceLink` asks it for every write.
   */
  readonly fence: Fence;
  /** The folder of the flow file: relative paths in settings resolve against it. */
  readonly baseDir: string;
  /** Read access to every parameter, for connections that combine others (virtual-core). */
  readonly graph: GraphView;
  /**
   * Defines `<connection id>/<id>`; throws a HubError on a bad or duplicate id. A
   * parameter with `persist` takes the hub's stored value, when it has one, in place of
   * `initial` (R-S3): seeded before anyone can listen, so restoring notifies no one.
   */
  define(id: string, spec: ParameterSpec): OwnedParameter;
  /**
   * Defines the connection's parameters from the table it parsed, as `define` would each,
   * but made on first use: what a connection of a million does. Throws a HubError on a
   * repeated or taken id.
   */
  defineTable(table: ParameterTable): void;
  /** Removes one of this connection's parameters (an in-place update that drops it). */
  remove(id: string): void;
  /**
   * A problem of one part of the connection that its status does not say (R-RS6) — a key
   * whose press was refused, a scene whose recall was not taken whole — listed in
   * `/problems` under `part` until `undefined` ends it or the connection stops. A connection
   * lists at most 100 at once (past them the oldest goes), each message cut to 300 characters.
   */
  problem(part: string, problem: { readonly code: ErrorCode; readonly message: string } | undefined): void;
  /** Kept across restarts when the hub has a state folder; in memory otherwise. */
  readonly records: Records;
  /**
   * A folder for the files a type keeps beside the hub's state (an unpacked archive, a
   * cache), shared by the connections of the type and made by whoever first writes to it:
   * `<state folder>/files/<type>`. Absent when the hub keeps no state.
   */
  readonly filesFolder?: string;
  /**
   * Runs `work` once the hub runs: every connection started, and the code flows and rules
   * listening (at once when that is so already). For what a start must not do before anyone
   * can hear it, such as firing a timer whose deadline passed while the hub was down (R-S5).
   */
  whenRunning(work: () => void): void;
  /**
   * Calls `done` once every write so far is stored as safely as the hub promises (R-S4):
   * a connection that answers clients waits for it before saying a write was taken.
   * Absent when the hub keeps nothing (no state folder, or `persist: false`).
   */
  readonly settled?: (done: () => void) => void;
  /**
   * Reports a passing problem (`degraded`), its end (`ok`), a link not up yet
   * (`connecting`), or that the connection chose not to run here (`disabled`, with the reason).
   */
  setStatus(status: typeof Status.Ok | typeof Status.Connecting | typeof Status.Disabled, reason?: string, code?: ErrorCode): void;
  /**
   * A passing problem (`degraded`), or that the connection cannot run for now and starts
   * again by itself (`failed`: a process it runs, a device's own program, ended and is
   * started again after a wait), always says what it is, with a code clients can read.
   */
  setStatus(status: typeof Status.Degraded | typeof Status.Failed, reason: string, code: ErrorCode): void;
}
