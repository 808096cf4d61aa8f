import { Observable } from 'rxjs';
import type { CauseTracker } from './cause.ts';
import { type Result } from './errors.ts';
import { type Presence } from './followers.ts';
import { type ParameterRow, type ParameterTable, type Reading, type TableChange } from './tables.ts';
import type { Value } from './value.ts';
import { type Answered, type Delivery, type Parameter, type ParameterSpec, type ProxyParameter, type SetResult, type WriteTrace } from './parameter.ts';
export type { ParameterRow, ParameterTable, Reading, TableChange } from './tables.ts';
export type { Presence } from './followers.ts';
/**
 * The graph as every connection type reads it: lookups, walks and following, and nothing
 * that changes the graph's shape or its hooks (see `Graph.readOnly`).
 */
export type GraphView = Pick<Graph, 'get' | 'lookup' | 'watch' | 'follow' | 'hasConnection' | 'all' | 'byPrefix' | 'added$' | 'removed$' | 'tables$' | 'forgotten$' | 'size'>;
/**
 * Every parameter of the hub, keyed by address. Guarantees: an address is defined at most
 * once; `added$` and `removed$` announce every parameter defined or removed one by one,
 * `tables$` every table (see `defineTable`), after it happened, so a late subscriber can
 * list the graph and then follow it without missing a change.
 */
export declare class Graph {
    /** The parameters defined one by one, and the tables (keyed by themselves), in definition order. */
    private readonly entries;
    /** Tables by connection id. */
    private readonly tables;
    /**
     * Parameters of tables looked up by address so far: found again as fast as the others.
     * Not those made by going through a table: a snapshot makes a million, and growing a Map
     * of a million in one go would hold the hub up for tens of milliseconds.
     */
    private readonly lookedUp;
    private count;
    private readonly connectionIds;
    private readonly added;
    private readonly removed;
    private readonly tableChanges;
    private readonly forgotten;
    /** Who follows the presence of which address (`follow`): told as parameters come and go there. */
    private readonly followers;
    readonly added$: Observable<Parameter>;
    readonly removed$: Observable<Parameter>;
    readonly tables$: Observable<TableChange>;
    /** Parameters whose value became unknown again: the hub that owns them went away (R-M5). */
    readonly forgotten$: Observable<Parameter>;
    /** The hooks every parameter of the graph calls, each set by its one owner (graph-hooks.ts). */
    private readonly hooks;
    /** See `GraphHooks.keepWith`: the hub's state store. */
    keepWith(owner: string, kept: Delivery | undefined): void;
    /** See `GraphHooks.traceWith`: the hub's debug log. */
    traceWith(owner: string, trace: WriteTrace | undefined): void;
    /** See `GraphHooks.followCausesWith`: the rules' loop guard. */
    followCausesWith(owner: string, tracker: CauseTracker | undefined): void;
    /** See `GraphHooks.onDelivery`: the WebSocket layer. Returns what stops it. */
    onDelivery(listener: Delivery): () => void;
    get size(): number;
    /** A view of this graph that can only read it (`GraphView`): what connections get. */
    readOnly(): GraphView;
    /**
     * Defines `<connectionId>/<id>` and returns it with owner rights. Ids beginning with `_`
     * need `reserved` (the hub's own parameters). Fails on a bad or taken id, or an initial
     * value that does not convert. (`forget` is for mirrors of another hub's parameters.)
     */
    define(connectionId: string, id: string, spec: ParameterSpec, { reserved }?: {
        reserved?: boolean | undefined;
    }): Result<ProxyParameter>;
    /**
     * Defines a connection's parameters from the table it parsed, at `<connectionId>/<id>`,
     * as one: each is made on first use (looked up, or met by `values`), with the spec
     * `specOf` gives for its row then; `readings` read rows through it too (again at each
     * walk). One table per connection; fails when the connection has one, or when an id
     * repeats or is defined already.
     */
    defineTable(connectionId: string, source: ParameterTable, specOf?: (row: ParameterRow) => ParameterSpec): Result<void>;
    /** The parameter at `address`, or undefined. */
    get(address: string): Parameter | undefined;
    /** One lookup for every way in: defined one by one, made from a table, or in a table still. */
    private find;
    /** Where `address` is in a table, when it is there and not removed. */
    private rowOf;
    /** Whether a parameter is at `address`, without making one of a table. */
    private has;
    /** Makes a connection id known, so lookups can tell an unknown parameter from an unknown connection. */
    registerConnection(connectionId: string): void;
    unregisterConnection(connectionId: string): void;
    hasConnection(connectionId: string): boolean;
    /** Like `get`, but says why nothing was found: bad address, unknown connection or parameter. */
    lookup(address: string): Result<Parameter>;
    /** Why nothing is at `address`, in the words of `lookup` without the address: what a waiting rule or watch says. */
    whyMissing(address: string): string;
    /**
     * Follows whatever parameter is at `address`, now or later: its value on subscribe
     * (`undefined` while it is missing or unknown), then every change; when the parameter
     * is removed it emits `undefined`, and it follows a new one defined at that address.
     */
    watch(address: string): Observable<Value | undefined>;
    /**
     * Looks up `address` and writes `raw` to it: the one write path of every client.
     * `answered` is for writes to parameters owned elsewhere (see `Parameter.set`).
     */
    write(address: string, raw: unknown, origin?: string, answered?: Answered): SetResult;
    /** Makes a mirrored parameter's value unknown, and says so on `forgotten$`. */
    forget(parameter: ProxyParameter): void;
    /** Removes one parameter; true when it existed. */
    remove(address: string): boolean;
    /** Removes every parameter of a connection whose id `keep` does not accept. */
    removeParameters(connectionId: string, keep?: (id: string) => boolean): void;
    /** Removes a whole table at once: its parameters never made are never made. */
    private dropTable;
    /**
     * Calls `present` with the parameter at `address` now (undefined while there is none),
     * and again each time that changes: a parameter defined there (one by one or in a
     * table), removed, or replaced by another. This is how whatever names an address before
     * it exists — a rule, a code flow's watch — waits for it and lets go of it when it goes
     * (R-G2). One Map lookup per define and remove while anyone follows; nothing otherwise.
     * Returns what stops it.
     */
    follow(address: string, present: Presence): () => void;
    /** Every parameter whose address starts with `prefix`, in definition order. */
    byPrefix(prefix: string): Parameter[];
    /** How many parameters each connection has, counted without making any. */
    countsByConnection(): Map<string, number>;
    /** Every parameter, in definition order. */
    all(): Parameter[];
    /**
     * Every parameter, in definition order, as a live iterator: one defined while it is used
     * is still met, one removed is not. For going through a large graph in slices.
     */
    values(): IterableIterator<Parameter>;
    /**
     * Like `values`, but what only reads (a listing, a snapshot) makes no parameter of a
     * table: a row never made is met as its reading. `current` reads it again later.
     */
    readings(): IterableIterator<Reading>;
    /**
     * A reading as it is now, nothing made: a row's parameter once something made it (a write,
     * a lookup), the row itself while it is still unmade, and undefined once it was removed.
     * What lets a list of readings kept for later (a WebSocket filter's rows) stay right.
     */
    current(reading: Reading): Reading | undefined;
}
