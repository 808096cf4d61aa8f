import { merge, Observable, of, Subject, type Subscription } from 'rxjs';
import { AddressIndex } from './address-index.ts';
import { checkParameterId, parseAddress } from './address.ts';
import { fail, HubError, ok, type Result } from './errors.ts';
import { Followers, type Presence } from './followers.ts';
import { GraphHooks } from './graph-hooks.ts';
import { type ParameterRow, type ParameterTable, type Reading, Table, type TableChange } from './tables.ts';
import type { Value } from './value.ts';
import { type Answered, createParameter, type Parameter, type ParameterSpec, type ProxyParameter, type SetResult } from './parameter.ts';

export type { ParameterRow, ParameterTable, Reading, TableChange } from './tables.ts';
export type { Presence } from './followers.ts';

/**
 * The graph as every connection type reads it: lookups, walks and following, and nothing
 * that changes the graph's shape or its hooks (see `readOnlyView`, graph-view.ts).
 */
export type GraphView = Pick<
  Graph,
  | 'get'
  | 'lookup'
  | 'watch'
  | 'follow'
  | 'hasConnection'
  | 'all'
  | 'byPrefix'
  | 'added$'
  | 'removed$'
  | 'tables$'
  | 'everyParameter'
  | 'forgotten$'
  | 'described$'
  | 'size'
>;

/**
 * Every parameter of the hub, keyed by address. Guarantees: an address is defined at most
 * once; `added$` and `removed$` announce every parameter defined or removed one by one,
 * `tables$` every table (see `defineTable`), after it happened, so a late subscriber can
 * list the graph and then follow it without missing a change.
 */
export class Graph {
  /** Where each parameter is. */
  private readonly index = new AddressIndex();
  private readonly connectionIds = new Set<string>();
  private readonly added = new Subject<Parameter>();
  private readonly removed = new Subject<Parameter>();
  private readonly tableChanges = new Subject<TableChange>();
  private readonly forgotten = new Subject<Parameter>();
  /** Who follows the presence of which address (`follow`): told as parameters come and go there. */
  private readonly followers = new Followers();

  readonly added$: Observable<Parameter> = this.added.asObservable();
  readonly removed$: Observable<Parameter> = this.removed.asObservable();
  readonly tables$: Observable<TableChange> = this.tableChanges.asObservable();
  /** Parameters whose value became unknown again: the hub that owns them went away (R-M5). */
  readonly forgotten$: Observable<Parameter> = this.forgotten.asObservable();
  /**
   * The hooks every parameter of the graph calls, each set through its own method by its one
   * owner (graph-hooks.ts): the state store, debug tracing, the loop guard, a connection
   * process's mirror, the WebSocket layer.
   */
  readonly hooks = new GraphHooks();
  /** Parameters that said anew what they are (R-PK6): a router's input renamed changes its routes' choices. */
  readonly described$: Observable<Parameter> = new Observable<Parameter>((subscriber) =>
    this.hooks.onDescribed((parameter) => subscriber.next(parameter)),
  );

  get size(): number {
    return this.index.size;
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
    if (this.index.has(address)) return fail('PB_DUPLICATE_PARAMETER', `${address} is already defined`);
    let parameter: ProxyParameter;
    try {
      parameter = createParameter(connectionId, id, spec, this.hooks.bag, address);
    } catch (error) {
      if (error instanceof HubError) return { ok: false, error };
      throw error;
    }
    this.index.add(parameter);
    if (this.added.observed) this.added.next(parameter);
    if (this.followers.size > 0) this.followers.tell(address, parameter);
    return ok(parameter);
  }

  /**
   * Defines a connection's parameters from the table it parsed, at `<connectionId>/<id>`,
   * as one: each is made on first use (looked up, or met by `values`), with the spec
   * `specOf` gives for its row then; `readings` read rows through it too (again at each
   * walk). One table per connection; fails when the connection has one, or when an id
   * repeats or is defined already.
   */
  defineTable(connectionId: string, source: ParameterTable, specOf: (row: ParameterRow) => ParameterSpec = (row) => row): Result<void> {
    if (this.index.tableOf(connectionId)) return fail('PB_DUPLICATE_PARAMETER', `${connectionId} has its table of parameters already`);
    const [repeated] = source.ids.repeats();
    const taken =
      repeated !== undefined
        ? source.rows[repeated]
        : this.byPrefix(`${connectionId}/`).find((parameter) => source.ids.indexOf(parameter.id) >= 0);
    if (taken) return fail('PB_DUPLICATE_PARAMETER', `${connectionId}/${taken.id} is already defined`);
    const table = new Table(connectionId, source, specOf, (id, spec, address) => {
      try {
        return createParameter(connectionId, id, spec, this.hooks.bag, address);
      } catch {
        // An initial value (or a choice) that does not convert (a parsed table has converted its own): unknown instead.
        const { initial: _unconverted, meta: _unchecked, ...unknown } = spec;
        return createParameter(connectionId, id, unknown, this.hooks.bag, address);
      }
    });
    this.index.addTable(table);
    if (this.tableChanges.observed) this.tableChanges.next(table.change(true));
    this.followers.tellTable(table, (address) => this.index.find(address));
    return ok(undefined);
  }

  /** The parameter at `address`, or undefined. */
  get(address: string): Parameter | undefined {
    return this.index.find(address);
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
    const found = this.index.find(address);
    return found ? ok(found) : nothingAt(this, address);
  }

  /** Why nothing is at `address`, in the words of `lookup` without the address: what a waiting rule or watch says. */
  whyMissing(address: string): string {
    const looked = this.lookup(address);
    return looked.ok ? 'it is there now' : looked.error.message.slice(address.length + 2);
  }

  /**
   * Follows whatever parameter is at `address`, now or later: its value on subscribe
   * (`undefined` while it is missing or unknown), then every change; when the parameter
   * is removed it emits `undefined`, and it follows a new one defined at that address.
   */
  watch(address: string): Observable<Value | undefined> {
    return new Observable<Value | undefined>((subscriber) => {
      let values: Subscription | undefined;
      const stop = this.follow(address, (parameter) => {
        values?.unsubscribe();
        values = undefined;
        if (!parameter) return subscriber.next(undefined);
        const values$ = parameter.value === undefined ? merge(of(undefined), parameter.changes$) : parameter.values$;
        values = values$.subscribe((value) => subscriber.next(value));
      });
      return () => {
        stop();
        values?.unsubscribe();
      };
    });
  }

  /**
   * Looks up `address` and writes `raw` to it: the one write path of every client.
   * `answered` is for writes to parameters owned elsewhere (see `Parameter.set`).
   */
  write(address: string, raw: unknown, origin?: string, answered?: Answered): SetResult {
    // Looked up plainly first: every rule hop and client write passes here.
    const parameter = this.index.find(address);
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
    const parameter = this.index.remove(address);
    if (!parameter) return false;
    if (this.removed.observed) this.removed.next(parameter);
    if (this.followers.size > 0) this.followers.tell(address, undefined);
    return true;
  }

  /** Removes every parameter of a connection whose id `keep` does not accept. */
  removeParameters(connectionId: string, keep: (id: string) => boolean = () => false): void {
    const table = this.index.tableOf(connectionId);
    if (table && !table.source.rows.some((row, position) => table.made[position] !== null && keep(row.id))) this.dropTable(table);
    for (const parameter of this.byPrefix(`${connectionId}/`)) {
      if (!keep(parameter.id)) this.remove(parameter.address);
    }
  }

  /** Removes a whole table at once: its parameters never made are never made. */
  private dropTable(table: Table): void {
    const made = this.index.dropTable(table);
    if (this.tableChanges.observed) this.tableChanges.next(table.change(false, made));
    this.followers.tellTable(table, (address) => this.index.find(address));
  }

  /**
   * Calls `present` with the parameter at `address` now (undefined while there is none),
   * and again each time that changes: a parameter defined there (one by one or in a
   * table), removed, or replaced by another. This is how whatever names an address before
   * it exists — a rule, a code flow's watch — waits for it and lets go of it when it goes
   * (R-G2). One Map lookup per define and remove while anyone follows; nothing otherwise.
   * Returns what stops it.
   */
  follow(address: string, present: Presence): () => void {
    return this.followers.add(address, present, () => this.index.find(address));
  }

  /** Every parameter whose address starts with `prefix`, in definition order. */
  byPrefix(prefix: string): Parameter[] {
    return this.index.byPrefix(prefix);
  }

  /** How many parameters each connection has, counted without making any. */
  countsByConnection(): Map<string, number> {
    return this.index.countsByConnection();
  }

  /**
   * Every parameter there now and every one that comes, one by one or in a table, to
   * `present`; every one that goes to `gone`: what a type that serves the whole graph (an
   * Ember+ provider, an MQTT bridge) follows it by. Unsubscribing stops both.
   */
  everyParameter(present: (parameter: Parameter) => void, gone: (parameter: Parameter) => void): Subscription {
    const watching = this.added.subscribe(present);
    watching.add(this.removed.subscribe(gone));
    watching.add(
      this.tableChanges.subscribe((table) => {
        for (const parameter of table.parameters()) (table.added ? present : gone)(parameter);
      }),
    );
    for (const parameter of this.all()) present(parameter);
    return watching;
  }

  /** Every parameter, in definition order. */
  all(): Parameter[] {
    return [...this.values()];
  }

  /**
   * Every parameter, in definition order, as a live iterator: one defined while it is used
   * is still met, one removed is not. For going through a large graph in slices.
   */
  values(): IterableIterator<Parameter> {
    return this.index.values();
  }

  /**
   * Like `values`, but what only reads (a listing, a snapshot) makes no parameter of a
   * table: a row never made is met as its reading. `current` reads it again later.
   */
  readings(): IterableIterator<Reading> {
    return this.index.readings();
  }

  /**
   * A reading as it is now, nothing made: a row's parameter once something made it (a write,
   * a lookup), the row itself while it is still unmade, and undefined once it was removed.
   * What lets a list of readings kept for later (a WebSocket filter's rows) stay right.
   */
  current(reading: Reading): Reading | undefined {
    return this.index.current(reading);
  }
}

/**
 * `Graph.lookup`'s answer for an address the caller found nothing at, without looking
 * again: a bad address, an unknown connection, or a connection without that parameter.
 */
export function nothingAt(graph: Pick<Graph, 'hasConnection'>, address: string): Result<never> {
  const parsed = parseAddress(address);
  if (!parsed.ok) return parsed;
  const { connectionId, parameterId } = parsed.value;
  return graph.hasConnection(connectionId)
    ? fail('PB_UNKNOWN_PARAMETER', `${address}: connection "${connectionId}" has no parameter "${parameterId}"`)
    : fail('PB_UNKNOWN_CONNECTION', `${address}: there is no connection "${connectionId}"`);
}
