/**
 * What the hub grants the connection types that serve it to clients or share it with other
 * hubs (rest-api, mqtt, osc's OSCQuery), and no other type: the hub's plumbing, kept out of
 * the public face (`patchbay-hub/connection`). A type of a package cannot serve the hub. Such
 * a type runs in the hub's process; on a standby hub only if it says `runsOnStandby`.
 */
import type { TObject } from '@sinclair/typebox';
import type { FlowView } from '../core/flow-view.ts';
import type { StoreView } from '../core/store-view.ts';
import type { ConnectionMetric, HubCounts } from '../core/counts.ts';
import type { ConnectionContext } from '../sdk/context.ts';
import type { SiteHub } from '../site/hub-port.ts';
import type { Parsed } from '../sdk/settings.ts';
import type { TypeBasics, TypedInstance } from '../sdk/type.ts';
import type { Problem, RuleListing } from '../core/api-shapes.ts';

export { unfenced } from '../core/lease.ts';
export type { ProxyParameter } from '../core/parameter.ts';
export type { Carried, GroupControl, MirroredConnection, Redundancy, Role } from '../site/hub-port.ts';
export type { Graph, Reading } from '../core/graph.ts';
export type { ConnectionInfo } from '../core/api-shapes.ts';
export type { RedundancyDetails } from '../core/api-shapes.ts';
export type { ConnectionMetric, HubCounts } from '../core/counts.ts';

/**
 * What the hub grants the connection types that serve it to clients or share it with other
 * hubs, and no other: a type is declared with `defineServingType` to receive it.
 */
export interface HubServices extends SiteHub {
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
  /** The flow file the hub runs, to read and save (R-ED3); undefined for a hub not started from one. */
  flowFile(): FlowView | undefined;
  /** What a studio can add beside the flow file (R-ST2); undefined for a hub not started from one. */
  store(): StoreView | undefined;
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
  /**
   * Runs on every hub of a redundancy group, a standby too: a type that serves clients or
   * carries the group (rest-api, mqtt). Without it, the active hub alone runs it, as any
   * connection (osc serves OSCQuery from the hub's graph, but talks to devices).
   */
  readonly runsOnStandby?: true;
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
