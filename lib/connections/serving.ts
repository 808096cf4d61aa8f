/**
 * What the hub grants the connection types that serve it to clients or share it with other
 * hubs (rest-api, mqtt), and no other type: the hub's plumbing, kept out of the public face
 * (`patchbay/connection`). A type of a package cannot serve the hub.
 */
import type { TObject } from '@sinclair/typebox';
import type { Observable } from 'rxjs';
import type { HubError, Result } from '../core/errors.ts';
import type { FlowView } from '../core/flow-view.ts';
import type { Graph } from '../core/graph.ts';
import type { Lease } from '../core/lease.ts';
import type { ConnectionMetric, HubCounts } from '../core/counts.ts';
import type { Json, Value } from '../core/value.ts';
import type { ConnectionContext } from '../sdk/context.ts';
import type { Parsed } from '../sdk/settings.ts';
import type { TypeBasics, TypedInstance } from '../sdk/type.ts';
import type { ConnectionInfo, Problem, RuleListing } from '../core/api-shapes.ts';

export { unfenced } from '../core/lease.ts';
import type { ParameterSpec, ProxyParameter } from '../core/parameter.ts';
export type { ProxyParameter } from '../core/parameter.ts';
export type { Graph, Reading } from '../core/graph.ts';
export type { ConnectionInfo } from '../core/api-shapes.ts';
export type { RedundancyDetails } from '../core/api-shapes.ts';
export type { ConnectionMetric, HubCounts } from '../core/counts.ts';

/**
 * What the hub grants the connection types that serve it to clients or share it with other
 * hubs (rest-api, mqtt), and no other: a type declares `servesHub: true` to receive it.
 */
export interface HubServices {
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
  /** The hub's current problems: failed connections and code flows, rules that cannot run. */
  problems(): readonly Problem[];
  /** The enabled rules of the flow, in the order they run. */
  rules(): readonly RuleListing[];
  /** What the hub counted of its own work: rule writes, store commits (R-O1). */
  counts(): HubCounts;
  /** What each connection type reports of its connections, for `/metrics` (see `ConnectionMetric`). */
  connectionMetrics(): readonly TypedConnectionMetric[];
  /** The key that signs browsers' session cookies now (R-H11): kept in the state folder when there is one. */
  signInKey(): Buffer;
  /**
   * Runs `work` once the hub serves (at once when it does): its start is over, every
   * connection started and, unless it is a standby, its code flows and rules run. A client
   * answered before then could hear `OK` for a write whose rules never saw it.
   */
  whenServing(work: () => void): void;
  /** The hub's side of a redundancy group (R-B1–B5): what the mqtt connection of a group drives. */
  readonly redundancy: Redundancy;
  /** The flow file the hub runs, to read and save (R-ED3); undefined for a hub not started from one. */
  flowFile(): FlowView | undefined;
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
}

/** The context of a type that declares `servesHub`. */
export interface ServingContext extends ConnectionContext {
  readonly hub: HubServices;
}

/** A connection type's metric with the type it belongs to. */
export interface TypedConnectionMetric extends ConnectionMetric {
  readonly type: string;
}

/**
 * A type that serves the hub: what every type declares, the redundancy group its settings
 * put the hub in (R-B1), and a factory handed the hub's services.
 */
export interface ServingTypeDefinition<S extends TObject, P = Parsed<S>> extends TypeBasics<S, P> {
  readonly servesHub: true;
  /** The redundancy group its settings put the hub in (R-B1); none when absent. */
  redundancyGroup?(settings: P): string | undefined;
  create(context: ServingContext, settings: P): TypedInstance<P>;
}

/** Declares a type that serves the hub (see `ServingTypeDefinition`). */
export function defineServingType<S extends TObject, P = Parsed<S>>(
  definition: Omit<ServingTypeDefinition<S, P>, 'servesHub'>,
): ServingTypeDefinition<S, P> {
  return { ...definition, servesHub: true };
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
