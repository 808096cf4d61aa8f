/**
 * The hooks every parameter of a graph calls (`ParameterHooks`), each set through its own
 * method by its one owner — `keepWith` (the hub's state store), `traceWith` (the hub's debug
 * log) and `followCausesWith` (the rules' loop guard); and listeners any number may add,
 * `onDelivery` (the WebSocket layer, a connection process's mirror) and `onDescribed`.
 * Connections get none of them. The write path through them: docs/reference/write-path.md.
 */
import type { CauseTracker } from './cause.ts';
import type { Delivery, Parameter, ParameterHooks, WriteTrace } from './parameter.ts';

export class GraphHooks {
  /** What the graph's parameters are made with: one object, read at each write. */
  readonly bag: ParameterHooks = { tracker: undefined, trace: undefined };
  private readonly owners = new Map<keyof ParameterHooks, string>();
  private deliveries: readonly Delivery[] = [];
  private describedBy: readonly ((parameter: Parameter) => void)[] = [];

  /**
   * Sets the hook that writes each change of a kept parameter through to the store (R-S4).
   * One owner: a second owner is a mistake of the hub's wiring, and throws.
   */
  keepWith(owner: string, kept: Delivery | undefined): void {
    this.hook('kept', owner, kept);
  }

  /** Sets the hook told of every stored write with its origin (debug tracing, R-O2); see `keepWith` for owners. */
  traceWith(owner: string, trace: WriteTrace | undefined): void {
    this.hook('trace', owner, trace);
  }

  /** Sets the tracker of causes parameters report queued writes to (the loop guard, R-R5); see `keepWith` for owners. */
  followCausesWith(owner: string, tracker: CauseTracker | undefined): void {
    this.hook('tracker', owner, tracker);
  }

  private hook<K extends Exclude<keyof ParameterHooks, 'delivery' | 'described'>>(name: K, owner: string, value: ParameterHooks[K]): void {
    const held = this.owners.get(name);
    if (held !== undefined && held !== owner) throw new Error(`the graph's ${name} hook belongs to ${held}, not ${owner}`);
    if (value === undefined) this.owners.delete(name);
    else this.owners.set(name, owner);
    this.bag[name] = value;
  }

  /**
   * Tells `listener` of every change and fire of every parameter, now defined or later, in
   * delivery order and before each parameter's own listeners: one call per change, where
   * following a million parameters by subscription would cost a subscription each. A
   * parameter removed from the graph is still delivered by whoever holds it and writes it:
   * `get` tells. Returns what stops it.
   */
  onDelivery(listener: Delivery): () => void {
    this.setDeliveries([...this.deliveries, listener]);
    return () => this.setDeliveries(this.deliveries.filter((other) => other !== listener));
  }

  /**
   * Tells `listener` when a parameter says anew what it is (R-PK6): a connection process's
   * mirror, which tells the hub; the WebSocket layer, which tells `?events=1` clients to list
   * again. Returns what stops it.
   */
  onDescribed(listener: (parameter: Parameter) => void): () => void {
    this.describedBy = [...this.describedBy, listener];
    this.bag.described = (parameter) => {
      for (const told of this.describedBy) told(parameter);
    };
    return () => {
      this.describedBy = this.describedBy.filter((other) => other !== listener);
      if (this.describedBy.length === 0) this.bag.described = undefined;
    };
  }

  private setDeliveries(deliveries: readonly Delivery[]): void {
    this.deliveries = deliveries;
    const [only] = deliveries;
    this.bag.delivery =
      deliveries.length <= 1
        ? only
        : (parameter, value) => {
            for (const listener of deliveries) listener(parameter, value);
          };
  }
}
