import { merge, Observable, of, Subject, type Subscription } from 'rxjs';
import { checkParameterId, parseAddress } from './address.ts';
import type { CauseTracker } from './cause.ts';
import { fail, HubError, ok, type Result } from './errors.ts';
import type { TextIndex } from './text-index.ts';
import { keepsOrigins } from './origins.ts';
import { wallClockOfTurn } from './scheduler.ts';
import type { Value, ValueType } from './value.ts';
import {
  type Access,
  type Answered,
  createParameter,
  type Delivery,
  type LastChange,
  type OwnedParameter,
  type Parameter,
  type ParameterHooks,
  type ParameterSpec,
  type ProxyParameter,
  type SetResult,
  type WriteTrace,
} from './parameter.ts';

/**
 * The graph as every connection type reads it: lookups, walks and following, and nothing
 * that changes the graph's shape or its hooks (see `Graph.readOnly`).
 */
export type GraphView = Pick<
  Graph,
  'get' | 'lookup' | 'watch' | 'follow' | 'hasConnection' | 'all' | 'byPrefix' | 'added$' | 'removed$' | 'tables$' | 'forgotten$' | 'size'
>;

/** Told what parameter is at a followed address: see `Graph.follow`. */
export type Presence = (parameter: Parameter | undefined) => void;

/** One row of a table: a parameter's id and spec. */
export interface ParameterRow extends ParameterSpec {
  readonly id: string;
}

/**
 * The parameters of one connection as it parsed them (a dummy's lines), defined together
 * by `Graph.defineTable`: the rows, and an index of their ids (`ids[i]` is `rows[i].id`).
 * Ids must have been checked (`checkParameterId`) and be distinct.
 */
export interface ParameterTable {
  readonly rows: readonly ParameterRow[];
  readonly ids: TextIndex;
}

/** A table defined or removed: one event for all its parameters. */
export interface TableChange {
  readonly connectionId: string;
  readonly added: boolean;
  /** Whether the table has, or had, a parameter of this id. */
  has(id: string): boolean;
  /** Its parameters, each made as it is met; of a removed table, those that had been made. */
  parameters(): Iterable<Parameter>;
  /** Its rows as a walk meets them, none made; of a removed table, those that had been made. */
  readings(): Iterable<Reading>;
}

/**
 * A parameter as a walk through the graph meets it (`Graph.readings`): the parameter
 * itself, or a table's row never made, read as the parameter it would be.
 */
export type Reading = Pick<Parameter, 'address' | 'connectionId' | 'id' | 'type' | 'access' | 'value' | 'lastChange'>;

/**
 * How a table's row reads for a walk, when it was never made: its spec's initial value (it
 * has never changed). Short-lived: a walk through a million rows leaves nothing behind.
 */
class UnmadeRow implements Reading {
  readonly address: string;
  readonly type: ValueType;
  readonly access: Access;
  readonly value: Value | undefined;
  readonly lastChange: LastChange | undefined;

  constructor(
    readonly table: Table,
    readonly position: number,
    readonly id: string,
    spec: ParameterSpec,
  ) {
    this.address = `${table.connectionId}/${id}`;
    this.type = spec.type;
    this.access = spec.access;
    this.value = spec.type === 'T' ? undefined : spec.initial;
    this.lastChange = spec.initialBy === undefined || !keepsOrigins ? undefined : { by: spec.initialBy, at: table.definedAt };
  }

  get connectionId(): string {
    return this.table.connectionId;
  }
}

/**
 * A table in the graph. Its parameters are made on first use, so a million of them cost
 * their rows and one slot each until someone uses one: no Map entry, no address string, no
 * parameter object (a Map of a million addresses alone takes most of a second to fill here).
 */
class Table {
  /** Each row's parameter once made; null once removed. */
  readonly made: (OwnedParameter | null | undefined)[];
  /** Rows not removed. */
  live: number;
  /** Set when the whole table is removed: its iterators end. */
  dropped = false;
  /** When it was defined: when a value restored with it was set. */
  readonly definedAt = wallClockOfTurn();

  constructor(
    readonly connectionId: string,
    readonly source: ParameterTable,
    private readonly specOf: (row: ParameterRow) => ParameterSpec,
    private readonly make: (id: string, spec: ParameterSpec, address: string) => OwnedParameter,
  ) {
    // Filled, not `new Array(n)`: a large holey array is a dictionary in V8.
    this.made = new Array<undefined>(source.rows.length).fill(undefined);
    this.live = source.rows.length;
  }

  /** The position of the row of `id`, or -1 when there is none or it was removed. */
  find(id: string): number {
    const at = this.source.ids.indexOf(id);
    return at < 0 || this.made[at] === null ? -1 : at;
  }

  /** The parameter of a row not removed, made now if need be. */
  at(position: number): OwnedParameter {
    const made = this.made[position];
    if (made) return made;
    const row = this.source.rows[position] as ParameterRow;
    const spec = this.specOf(row);
    const restored = spec.initialBy === undefined ? spec : { ...spec, initialAt: this.definedAt };
    return (this.made[position] = this.make(row.id, restored, `${this.connectionId}/${row.id}`));
  }

  /** A row as a walk meets it: its parameter when made, else read from its spec; undefined once removed. */
  reading(position: number): Reading | undefined {
    const made = this.made[position];
    if (made !== undefined) return made ?? undefined;
    const row = this.source.rows[position] as ParameterRow;
    return new UnmadeRow(this, position, row.id, this.specOf(row));
  }

  /** Whether the table's addresses and those beginning with `prefix` can meet. */
  overlaps(prefix: string): boolean {
    const own = `${this.connectionId}/`;
    return own.startsWith(prefix) || prefix.startsWith(own);
  }

  /** Its parameters in row order, made as they are met: live (a row removed meanwhile is not met). */
  *parameters(): IterableIterator<OwnedParameter> {
    for (let position = 0; position < this.made.length && !this.dropped; position++) {
      if (this.made[position] !== null) yield this.at(position);
    }
  }

  /** Its rows in order as a walk meets them, nothing made: live, as `parameters`. */
  *readings(): IterableIterator<Reading> {
    for (let position = 0; position < this.made.length && !this.dropped; position++) {
      const reading = this.reading(position);
      if (reading) yield reading;
    }
  }

  change(added: boolean, made: readonly Parameter[] = []): TableChange {
    return {
      connectionId: this.connectionId,
      added,
      has: (id) => this.source.ids.indexOf(id) >= 0,
      parameters: () => (added ? this.parameters() : made),
      readings: () => (added ? this.readings() : made),
    };
  }
}

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
  private readonly followers = new Map<string, Set<Presence>>();

  readonly added$: Observable<Parameter> = this.added.asObservable();
  readonly removed$: Observable<Parameter> = this.removed.asObservable();
  readonly tables$: Observable<TableChange> = this.tableChanges.asObservable();
  /** Parameters whose value became unknown again: the hub that owns them went away (R-M5). */
  readonly forgotten$: Observable<Parameter> = this.forgotten.asObservable();
  /**
   * The graph's hooks, which every parameter of it calls (see `ParameterHooks`): private, each
   * set through its own method by its one owner — `keepWith` (the hub's state store),
   * `traceWith` (the hub's debug log), `followCausesWith` (the rules' loop guard) and
   * `onDelivery` (the WebSocket layer). Connections get none of them.
   */
  private readonly hooks: ParameterHooks = { tracker: undefined, trace: undefined };
  private readonly owners = new Map<keyof ParameterHooks, string>();

  private deliveries: readonly Delivery[] = [];

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

  private hook<K extends Exclude<keyof ParameterHooks, 'delivery'>>(name: K, owner: string, value: ParameterHooks[K]): void {
    const held = this.owners.get(name);
    if (held !== undefined && held !== owner) throw new Error(`the graph's ${name} hook belongs to ${held}, not ${owner}`);
    if (value === undefined) this.owners.delete(name);
    else this.owners.set(name, owner);
    this.hooks[name] = value;
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

  private setDeliveries(deliveries: readonly Delivery[]): void {
    this.deliveries = deliveries;
    const [only] = deliveries;
    this.hooks.delivery =
      deliveries.length <= 1
        ? only
        : (parameter, value) => {
            for (const listener of deliveries) listener(parameter, value);
          };
  }

  get size(): number {
    return this.count;
  }

  /** A view of this graph that can only read it (`GraphView`): what connections get. */
  readOnly(): GraphView {
    const graph = this;
    return {
      get: (address) => graph.get(address),
      lookup: (address) => graph.lookup(address),
      watch: (address) => graph.watch(address),
      follow: (address, present) => graph.follow(address, present),
      hasConnection: (connectionId) => graph.hasConnection(connectionId),
      all: () => graph.all(),
      byPrefix: (prefix) => graph.byPrefix(prefix),
      added$: graph.added$,
      removed$: graph.removed$,
      tables$: graph.tables$,
      forgotten$: graph.forgotten$,
      get size() {
        return graph.size;
      },
    };
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
      parameter = createParameter(connectionId, id, spec, this.hooks, address);
    } catch (error) {
      if (error instanceof HubError) return { ok: false, error };
      throw error;
    }
    this.entries.set(address, parameter);
    this.count++;
    if (this.added.observed) this.added.next(parameter);
    if (this.followers.size > 0) this.tellFollowers(address, parameter);
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
        return createParameter(connectionId, id, spec, this.hooks, address);
      } catch {
        // An initial value that does not convert (a parsed table has converted its own): unknown instead.
        const { initial: _unconverted, ...unknown } = spec;
        return createParameter(connectionId, id, unknown, this.hooks, address);
      }
    });
    this.entries.set(table, table);
    this.tables.set(connectionId, table);
    this.count += table.live;
    if (this.tableChanges.observed) this.tableChanges.next(table.change(true));
    this.tellFollowersOf(table);
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
    if (found) return ok(found);
    const parsed = parseAddress(address);
    if (!parsed.ok) return parsed;
    return this.connectionIds.has(parsed.value.connectionId)
      ? fail('PB_UNKNOWN_PARAMETER', `${address}: connection "${parsed.value.connectionId}" has no parameter "${parsed.value.parameterId}"`)
      : fail('PB_UNKNOWN_CONNECTION', `${address}: there is no connection "${parsed.value.connectionId}"`);
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
    if (this.followers.size > 0) this.tellFollowers(address, undefined);
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
    this.tellFollowersOf(table);
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
    let set = this.followers.get(address);
    if (!set) this.followers.set(address, (set = new Set()));
    const own = set;
    // A listener per call (the same function may follow twice and stop once), told only of a change.
    let last: Parameter | undefined;
    const listener: Presence = (parameter) => {
      if (parameter === last) return;
      last = parameter;
      present(parameter);
    };
    own.add(listener);
    present((last = this.find(address)));
    return () => {
      own.delete(listener);
      if (own.size === 0 && this.followers.get(address) === own) this.followers.delete(address);
    };
  }

  private tellFollowers(address: string, parameter: Parameter | undefined): void {
    const set = this.followers.get(address);
    if (set) for (const present of [...set]) present(parameter);
  }

  /** A table came or went: its followers learn what is at their address now. */
  private tellFollowersOf(table: Table): void {
    if (this.followers.size === 0) return;
    const prefix = `${table.connectionId}/`;
    for (const address of [...this.followers.keys()]) {
      if (address.startsWith(prefix) && table.source.ids.indexOf(address.slice(prefix.length)) >= 0)
        this.tellFollowers(address, this.find(address));
    }
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
