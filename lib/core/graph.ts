import { merge, Observable, of, Subject, type Subscription } from 'rxjs';
import { checkParameterId, parseAddress } from './address.ts';
import { fail, HubError, ok, type Result } from './errors.ts';
import { Followers, type Presence } from './followers.ts';
import { GraphHooks } from './graph-hooks.ts';
import { type ParameterRow, type ParameterTable, type Reading, Table, type TableChange, UnmadeRow } from './tables.ts';
import type { Value } from './value.ts';
import {
  type Answered,
  createParameter,
  type OwnedParameter,
  type Parameter,
  type ParameterSpec,
  type ProxyParameter,
  type SetResult,
} from './parameter.ts';

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
  /** The parameters defined one by one, and the tables (keyed by themselves), in definition order. */
  private readonly entries = new Map<string | Table, OwnedParameter | Table>();
  /** Tables by connection id. */
  private readonly tables = new Map<string, Table>();
  /**
   * Parameters of tables looked up by address so far: found again as fast as the others.
   * Not those made by going through a table: a snapshot makes a million, and growing a Map
   * of a million in one go would hold the hub up for tens of milliseconds.
   */
  private readonly lookedUp = new Map<string, OwnedParameter>();
  private count = 0;
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
    return this.count;
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
    if (this.has(address)) return fail('PB_DUPLICATE_PARAMETER', `${address} is already defined`);
    let parameter: ProxyParameter;
    try {
      parameter = createParameter(connectionId, id, spec, this.hooks.bag, address);
    } catch (error) {
      if (error instanceof HubError) return { ok: false, error };
      throw error;
    }
    this.entries.set(address, parameter);
    this.count++;
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
    if (this.tables.has(connectionId)) return fail('PB_DUPLICATE_PARAMETER', `${connectionId} has its table of parameters already`);
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
    this.entries.set(table, table);
    this.tables.set(connectionId, table);
    this.count += table.live;
    if (this.tableChanges.observed) this.tableChanges.next(table.change(true));
    this.followers.tellTable(table, (address) => this.find(address));
    return ok(undefined);
  }

  /** The parameter at `address`, or undefined. */
  get(address: string): Parameter | undefined {
    return this.find(address);
  }

  /** One lookup for every way in: defined one by one, made from a table, or in a table still. */
  private find(address: string): OwnedParameter | undefined {
    const found = (this.entries.get(address) as OwnedParameter | undefined) ?? this.lookedUp.get(address);
    if (found !== undefined || this.tables.size === 0) return found;
    const row = this.rowOf(address);
    if (!row) return undefined;
    const parameter = row.table.at(row.position);
    this.lookedUp.set(address, parameter);
    return parameter;
  }

  /** Where `address` is in a table, when it is there and not removed. */
  private rowOf(address: string): { table: Table; position: number } | undefined {
    const slash = address.indexOf('/');
    const table = slash < 0 ? undefined : this.tables.get(address.slice(0, slash));
    const position = table ? table.find(address.slice(slash + 1)) : -1;
    return table && position >= 0 ? { table, position } : undefined;
  }

  /** Whether a parameter is at `address`, without making one of a table. */
  private has(address: string): boolean {
    return this.entries.has(address) || this.lookedUp.has(address) || (this.tables.size > 0 && this.rowOf(address) !== undefined);
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
    const found = this.find(address);
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
    const parameter = this.find(address);
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
    let parameter = this.entries.get(address) as OwnedParameter | undefined;
    if (parameter) this.entries.delete(address);
    else {
      const row = this.rowOf(address);
      if (!row) return false;
      parameter = row.table.at(row.position);
      row.table.made[row.position] = null;
      row.table.live--;
      this.lookedUp.delete(address);
    }
    this.count--;
    if (this.removed.observed) this.removed.next(parameter);
    if (this.followers.size > 0) this.followers.tell(address, undefined);
    return true;
  }

  /** Removes every parameter of a connection whose id `keep` does not accept. */
  removeParameters(connectionId: string, keep: (id: string) => boolean = () => false): void {
    const table = this.tables.get(connectionId);
    if (table && !table.source.rows.some((row, position) => table.made[position] !== null && keep(row.id))) this.dropTable(table);
    for (const parameter of this.byPrefix(`${connectionId}/`)) {
      if (!keep(parameter.id)) this.remove(parameter.address);
    }
  }

  /** Removes a whole table at once: its parameters never made are never made. */
  private dropTable(table: Table): void {
    table.dropped = true;
    this.entries.delete(table);
    this.tables.delete(table.connectionId);
    this.count -= table.live;
    const made: OwnedParameter[] = [];
    for (const parameter of table.made) {
      if (!parameter) continue;
      made.push(parameter);
      this.lookedUp.delete(parameter.address);
    }
    if (this.tableChanges.observed) this.tableChanges.next(table.change(false, made));
    this.followers.tellTable(table, (address) => this.find(address));
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
    return this.followers.add(address, present, () => this.find(address));
  }

  /** Every parameter whose address starts with `prefix`, in definition order. */
  byPrefix(prefix: string): Parameter[] {
    const found: Parameter[] = [];
    for (const entry of this.entries.values()) {
      if (!(entry instanceof Table)) {
        if (entry.address.startsWith(prefix)) found.push(entry);
      } else if (entry.overlaps(prefix)) {
        for (const parameter of entry.parameters()) if (parameter.address.startsWith(prefix)) found.push(parameter);
      }
    }
    return found;
  }

  /** How many parameters each connection has, counted without making any. */
  countsByConnection(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const entry of this.entries.values()) {
      const id = entry.connectionId;
      counts.set(id, (counts.get(id) ?? 0) + (entry instanceof Table ? entry.live : 1));
    }
    return counts;
  }

  /** Every parameter, in definition order. */
  all(): Parameter[] {
    return [...this.values()];
  }

  /**
   * Every parameter, in definition order, as a live iterator: one defined while it is used
   * is still met, one removed is not. For going through a large graph in slices.
   */
  *values(): IterableIterator<Parameter> {
    for (const entry of this.entries.values()) {
      if (entry instanceof Table) yield* entry.parameters();
      else yield entry;
    }
  }

  /**
   * Like `values`, but what only reads (a listing, a snapshot) makes no parameter of a
   * table: a row never made is met as its reading. `current` reads it again later.
   */
  *readings(): IterableIterator<Reading> {
    for (const entry of this.entries.values()) {
      if (entry instanceof Table) yield* entry.readings();
      else yield entry;
    }
  }

  /**
   * A reading as it is now, nothing made: a row's parameter once something made it (a write,
   * a lookup), the row itself while it is still unmade, and undefined once it was removed.
   * What lets a list of readings kept for later (a WebSocket filter's rows) stay right.
   */
  current(reading: Reading): Reading | undefined {
    if (reading instanceof UnmadeRow) {
      const { table, position } = reading;
      const made = table.dropped ? null : table.made[position];
      return made === null ? undefined : (made ?? reading);
    }
    const address = reading.address;
    if (this.entries.get(address) === reading || this.lookedUp.get(address) === reading) return reading;
    const row = this.tables.size > 0 ? this.rowOf(address) : undefined;
    return row && row.table.made[row.position] === reading ? reading : undefined;
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
