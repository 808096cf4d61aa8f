import { defer, filter, merge, type Observable, of, Subject, switchMap } from 'rxjs';
import { checkParameterId, parseAddress } from './address.ts';
import type { Causes, Delivery } from './cause.ts';
import { fail, HubError, ok, type Result } from './errors.ts';
import type { Value } from './value.ts';
import { type Answered, createParameter, type OwnedParameter, type Parameter, type ParameterSpec, type ProxyParameter, type SetResult } from './parameter.ts';

/**
 * Every parameter of the hub, keyed by address. Guarantees: an address is defined at most
 * once; `added$` and `removed$` announce every definition and removal after it happened,
 * so a late subscriber can list the graph and then follow it without missing a change.
 */
export class Graph {
  private readonly parameters = new Map<string, OwnedParameter>();
  private readonly connectionIds = new Set<string>();
  private readonly added = new Subject<Parameter>();
  private readonly removed = new Subject<Parameter>();
  private readonly forgotten = new Subject<Parameter>();

  readonly added$: Observable<Parameter> = this.added.asObservable();
  readonly removed$: Observable<Parameter> = this.removed.asObservable();
  /** Parameters whose value became unknown again: the hub that owns them went away (R-M5). */
  readonly forgotten$: Observable<Parameter> = this.forgotten.asObservable();
  /**
   * The tracker of causes every parameter of the graph reports its queued writes to: set by
   * whoever follows changes by their causes (the rule engine's loop guard), empty otherwise.
   */
  readonly causes: Causes = { tracker: undefined, trace: undefined };

  private deliveries: readonly Delivery[] = [];

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

  private setDeliveries(deliveries: readonly Delivery[]): void {
    this.deliveries = deliveries;
    const [only] = deliveries;
    this.causes.delivery =
      deliveries.length <= 1
        ? only
        : (parameter, value) => {
            for (const listener of deliveries) listener(parameter, value);
          };
  }

  get size(): number {
    return this.parameters.size;
  }

  /**
   * Defines `<connectionId>/<id>` and returns it with owner rights. Ids beginning with `_`
   * need `reserved` (the hub's own parameters). Fails on a bad or taken id, or an initial
   * value that does not convert. (`forget` is for mirrors of another hub's parameters.)
   */
  define(connectionId: string, id: string, spec: ParameterSpec, { reserved = false } = {}): Result<ProxyParameter> {
    const checked = checkParameterId(id, { reserved });
    if (!checked.ok) return checked;
    const address = `${connectionId}/${id}`;
    if (this.parameters.has(address)) return fail('PB_DUPLICATE_PARAMETER', `${address} is already defined`);
    let parameter: ProxyParameter;
    try {
      parameter = createParameter(connectionId, id, spec, this.causes, address);
    } catch (error) {
      if (error instanceof HubError) return { ok: false, error };
      throw error;
    }
    this.parameters.set(address, parameter);
    // Checked first: a start defines parameters by the million, mostly before anyone listens.
    if (this.added.observed) this.added.next(parameter);
    return ok(parameter);
  }

  /** The parameter at `address`, or undefined. */
  get(address: string): Parameter | undefined {
    return this.parameters.get(address);
  }

  /** Makes a connection id known, so lookups can tell an unknown parameter from an unknown connection. */
  registerConnection(connectionId: string): void {
    this.connectionIds.add(connectionId);
  }

  unregisterConnection(connectionId: string): void {
    this.connectionIds.delete(connectionId);
  }

  hasConnection(connectionId: string): boolean {
    return this.connectionIds.has(connectionId);
  }

  /** Like `get`, but says why nothing was found: bad address, unknown connection or parameter. */
  lookup(address: string): Result<Parameter> {
    const found = this.parameters.get(address);
    if (found) return ok(found);
    const parsed = parseAddress(address);
    if (!parsed.ok) return parsed;
    return this.connectionIds.has(parsed.value.connectionId)
      ? fail('PB_UNKNOWN_PARAMETER', `${address}: connection "${parsed.value.connectionId}" has no parameter "${parsed.value.parameterId}"`)
      : fail('PB_UNKNOWN_CONNECTION', `${address}: there is no connection "${parsed.value.connectionId}"`);
  }

  /**
   * Follows whatever parameter is at `address`, now or later: its value on subscribe
   * (`undefined` while it is missing or unknown), then every change; when the parameter
   * is removed it emits `undefined`, and it follows a new one defined at that address.
   */
  watch(address: string): Observable<Value | undefined> {
    const rebind$ = merge(this.added$, this.removed$).pipe(filter((p) => p.address === address));
    return defer(() =>
      merge(of(null), rebind$).pipe(
        switchMap(() => {
          const parameter = this.parameters.get(address);
          if (!parameter) return of(undefined);
          return parameter.value === undefined ? merge(of(undefined), parameter.changes$) : parameter.values$;
        }),
      ),
    );
  }

  /**
   * Looks up `address` and writes `raw` to it: the one write path of every client.
   * `answered` is for writes to parameters owned elsewhere (see `Parameter.set`).
   */
  write(address: string, raw: unknown, origin?: string, answered?: Answered): SetResult {
    // Looked up plainly first: every rule hop and client write passes here.
    const parameter = this.parameters.get(address);
    if (parameter) return parameter.set(raw, origin, answered);
    const missing = this.lookup(address);
    return missing.ok ? missing.value.set(raw, origin, answered) : missing;
  }

  /** Makes a mirrored parameter's value unknown, and says so on `forgotten$`. */
  forget(parameter: ProxyParameter): void {
    parameter.forget();
    if (this.forgotten.observed) this.forgotten.next(parameter);
  }

  /** Removes one parameter; true when it existed. */
  remove(address: string): boolean {
    const parameter = this.parameters.get(address);
    if (!parameter) return false;
    this.parameters.delete(address);
    if (this.removed.observed) this.removed.next(parameter);
    return true;
  }

  /** Removes every parameter of a connection whose id `keep` does not accept. */
  removeParameters(connectionId: string, keep: (id: string) => boolean = () => false): void {
    for (const parameter of this.byPrefix(`${connectionId}/`)) {
      if (!keep(parameter.id)) this.remove(parameter.address);
    }
  }

  /** Every parameter whose address starts with `prefix`, in definition order. */
  byPrefix(prefix: string): Parameter[] {
    return this.all().filter((p) => p.address.startsWith(prefix));
  }

  /** Every parameter, in definition order. */
  all(): Parameter[] {
    return [...this.parameters.values()];
  }

  /**
   * Every parameter, in definition order, as a live iterator: one defined while it is used
   * is still met, one removed is not. For going through a large graph in slices.
   */
  values(): IterableIterator<Parameter> {
    return this.parameters.values();
  }
}
