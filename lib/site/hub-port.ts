/**
 * What the site needs of the hub it runs in (the hub implements it, lib/hub/): its graph and
 * connections to share and to show other hubs' beside them, and its side of a redundancy
 * group. Written here, by the site, so that the site imports nothing of the hub's or of the
 * connection types'; the services the hub grants the types that serve it include these.
 */
import type { Observable } from 'rxjs';
import type { HubError, Result } from '../core/errors.ts';
import type { Graph } from '../core/graph.ts';
import type { Lease } from '../core/lease.ts';
import type { ConnectionInfo } from '../core/api-shapes.ts';
import type { ParameterSpec, ProxyParameter } from '../core/parameter.ts';
import type { Json, Value } from '../core/value.ts';
import type { ConnectionContext } from '../sdk/index.ts';

/** What the site needs of the hub's services. */
export interface SiteHub {
  /** The whole graph, writes and walks that make nothing included: to serve it to clients. */
  readonly graph: Graph;
  /** Every connection of the hub with its current status. */
  connections(): readonly ConnectionInfo[];
  /** Emits after a connection of this hub changed its status, or connections came or went. */
  readonly connectionChanges$: Observable<void>;
  /** Shows a connection another hub runs; fails with PB_CONNECTION_OWNED when the id is taken here. */
  mirror(connectionId: string, owner: string): Result<MirroredConnection>;
  /** Fails a connection of this hub, with the reason: another hub owns its id (R-M5). */
  refuse(connectionId: string, error: HubError): void;
  /** The hub's side of a redundancy group (R-B1–B5): what the mqtt connection of a group drives. */
  readonly redundancy: Redundancy;
}

/** The context of the connection that carries the site. */
export interface SiteContext extends ConnectionContext {
  readonly hub: SiteHub;
}

/** The role of a hub in its redundancy group. */
export type Role = 'active' | 'standby';

/** What the mqtt connection of a redundancy group tells the hub, and asks of it. */
export interface Redundancy {
  /** The group the flow puts the hub in; undefined outside one (then everything else here is idle). */
  readonly group: string | undefined;
  /** The lease the group grants, renews and ends: the `fence` of every connection. */
  readonly lease: Lease;
  /**
   * Takes over: starts the connections only the active hub runs, each parameter from the
   * value `carried` has for its address (the last the active hub published; a device's are
   * read from the device instead, R-G3), then code flows and rules.
   */
  activate(carried: Carried): Promise<void>;
  /** Stands down: rules and code flows stop, then the connections only the active hub runs. */
  standDown(): Promise<void>;
  /** The ids of the connections only the active hub runs. */
  activeOnly(): readonly string[];
  /** Puts the group's control in place (the mqtt connection, while it runs); returns its removal. */
  control(control: GroupControl): () => void;
  /** The group's control, while an mqtt connection of a group runs. */
  readonly current: GroupControl | undefined;
}

/** What a takeover carries over from the active hub that was (R-B2, R-B4). */
export interface Carried {
  /** Its last value of each parameter, by address. */
  readonly values: ReadonlyMap<string, Value>;
  /** Its records (a timer's deadline, a schedule's progress, scenes) of each connection, as [key, record]. */
  readonly records: ReadonlyMap<string, readonly (readonly [string, Json])[]>;
}

/** The group as the rest-api and the console reach it. */
export interface GroupControl {
  role(): Role;
  /** `POST /failover` (R-B5): this standby takes over now; refused on the active hub. */
  failover(): Result<string>;
  /** The active hub's records of a connection changed (or are all there after a takeover): the standbys keep them (R-B4). */
  recordsChanged(connectionId: string, records: readonly (readonly [string, Json])[]): void;
  /** Calls `done` once every value published so far has reached the broker (R-B2): at once when nothing waits. */
  replicated(done: (acknowledged: boolean) => void): void;
  /** Why this hub cannot take its part in the group now (a group on etcd that cannot reach etcd, R-EG4); undefined while it can. */
  unready(): string | undefined;
}

/**
 * A connection another hub runs, shown on this one at the same addresses (R-M5): its
 * parameters mirror the owner's, and writes to them go to the owner (`ParameterSpec.forward`).
 */
export interface MirroredConnection {
  readonly id: string;
  /** Defines `<id>/<parameterId>`; throws a HubError on a bad or duplicate id. */
  define(parameterId: string, spec: ParameterSpec): ProxyParameter;
  remove(parameterId: string): void;
  /** What `GET /connections` shows of it: its owner's report, or why the owner is away. */
  show(info: Omit<ConnectionInfo, 'id'>): void;
  /** Makes one of its parameters' value unknown: its owner went away, or said so (R-M5). */
  forget(parameter: ProxyParameter): void;
  /** Takes it and its parameters off this hub. Idempotent. */
  close(): void;
}
