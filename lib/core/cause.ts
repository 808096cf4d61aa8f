import type { Parameter } from './parameter.ts';
import type { Value } from './value.ts';

/**
 * A lasting token for a chain of causes, made by a `CauseTracker`; opaque to core.
 * `undefined` is a change from outside.
 */
export type Cause = object | undefined;

/**
 * Follows changes by their causes: what made each write happen, synchronously, through
 * parameter notifications (the rule engine's loop guard is one). Deliveries are synchronous,
 * so a tracker sees most causes on the call stack; the one place they leave it is a
 * parameter's queue of re-entrant writes, and for that parameters call these hooks.
 */
export interface CauseTracker {
  /** A token for the chain in effect now, kept with a write that has to wait. */
  capture(): Cause;
  /** Makes a captured chain the one in effect while the waiting write is delivered. */
  resume(cause: Cause): void;
  /** Ends what the last `resume` began, putting back the chain it replaced. */
  end(): void;
}

/**
 * Where the parameters of one graph find the tracker of causes, if any. Guarantee: a
 * parameter that queues a re-entrant write captures the chain in effect with it and
 * delivers it with that chain resumed, so the write counts as caused by its writer exactly
 * as an immediate delivery would.
 */
export interface Causes {
  tracker: CauseTracker | undefined;
  /**
   * Told of every write and report a parameter of the graph stores (before its listeners
   * hear of it), with its origin, while debug logging wants them: one check on the hot
   * path when it does not.
   */
  trace?: WriteTrace | undefined;
  /**
   * Told of every change and fire of every parameter of the graph, in delivery order and
   * before the parameter's own listeners; set through `Graph.onDelivery`.
   */
  delivery?: Delivery | undefined;
  /**
   * Told of every change of a parameter whose `persist` is true (not of its initial value),
   * before its listeners: how the hub writes kept values through to its state store, with
   * no hook per parameter. Set through `Graph.keepWith`.
   */
  kept?: Delivery | undefined;
}

/** A change (or fire) as it is delivered: the parameter, and its new value. */
export type Delivery = (parameter: Parameter, value: Value) => void;

/** One stored write: `origin` is the writer's name (`http`, `ws`, `rule rules[0]`, `flow <id>`), undefined for a report of the owning connection. */
export type WriteTrace = (parameter: Parameter, value: Value, origin: string | undefined, changed: boolean) => void;
