import { createHash } from 'node:crypto';
import type { TObject } from '@sinclair/typebox';
import type { Observable } from 'rxjs';
import { Value as SchemaValue } from '@sinclair/typebox/value';
import { fillDefaults, type Parsed } from './defaults.ts';
import type { ErrorCode, HubError, Result } from '../core/errors.ts';
import type { Graph, GraphView, ParameterTable } from '../core/graph.ts';
import type { Checked, Issue } from '../core/issue.ts';
import type { Fence, Lease } from '../core/lease.ts';
import type { Logger } from '../core/log.ts';
import type { OwnedParameter, ParameterSpec, ProxyParameter } from '../core/parameter.ts';
import type { Scheduler } from '../core/scheduler.ts';
import type { ConnectionMetric, HubCounts } from '../core/counts.ts';
import type { Json, Value, ValueType } from '../core/value.ts';

/** The status values of R-L2. */
export const Status = {
  Starting: 'starting',
  /** A device connection whose link is not up yet (R-G1). */
  Connecting: 'connecting',
  Ok: 'ok',
  Degraded: 'degraded',
  Failed: 'failed',
  Disabled: 'disabled',
} as const;
export type Status = (typeof Status)[keyof typeof Status];

export interface StatusReport {
  readonly status: Status;
  /** Why the connection is degraded, failed or disabled; empty otherwise. */
  readonly reason: string;
  /** The stable code of a failure, when it has one. */
  readonly code?: ErrorCode;
}

/** A connection as dashboards and tools see it (`GET /connections`). */
export interface ConnectionInfo extends StatusReport {
  readonly id: string;
  readonly type: string;
  readonly description: string;
  readonly location: string;
  readonly group: string;
  /** The hub that runs it, for a connection shown from another hub (R-M5); absent for this hub's own. */
  readonly owner?: string;
  /** Facts the connection reports about itself while running, such as the port it listens on. */
  readonly details?: Readonly<Record<string, unknown>>;
}

/** Something that keeps a connection, a code flow or a rule from working as written. */
export interface Problem {
  readonly source: 'connection' | 'code-flow' | 'rule' | 'state';
  /** The connection id, the code flow's id, the rule's path and description, or the state folder. */
  readonly id: string;
  readonly code: ErrorCode;
  readonly message: string;
}

/** A running rule as `GET /rules` lists it: where it stands, what it connects, its steps. */
export interface RuleListing {
  /** `rules[1].rules[0]`: where the rule stands in the flow file. */
  readonly path: string;
  /** The names of the folders it stands in, outermost first (R-R2): `["studio A", "mics"]`; empty at the top. */
  readonly folders: readonly string[];
  /** Its path, and its description when it has one: how problems name it. */
  readonly name: string;
  readonly source: string;
  readonly destinations: readonly string[];
  /** Its pipe as written: `[{ scale: [0, 1, 0, 100] }, …]`. */
  readonly pipe: readonly Readonly<Record<string, unknown>>[];
  /** Where it stands (R-G2): running, waiting for a parameter it names, failed, or idle (a disabled connection). */
  readonly status: 'running' | 'waiting' | 'failed' | 'idle';
  /** Why it is waiting or failed: PB_WAITING, or the code of what keeps it from running. */
  readonly code?: ErrorCode;
  readonly reason?: string;
}

/** The settings every connection has (R-L1), with defaults applied. */
export interface CommonSettings {
  readonly enabled: boolean;
  readonly description: string;
  readonly location: string;
  readonly group: string;
  readonly debug: boolean;
  readonly statusParameters: boolean;
  /** Whether the hub keeps the values of its persistent parameters (R-S2). */
  readonly persist: boolean;
}

/** One connection of a flow file, its settings parsed and bound to its type. */
export interface ConnectionConfig {
  readonly id: string;
  readonly common: CommonSettings;
  readonly plan: ConnectionPlan;
}

/**
 * A connection type with parsed settings bound in, ready to create instances. It hides
 * the settings' type, so the registry and the runner handle every type alike.
 */
export interface ConnectionPlan {
  readonly type: string;
  /** A digest of the settings as written (`fingerprintOf`): equal fingerprints run identically. */
  readonly fingerprint: string;
  /** Its parameters that follow others in the same turn, for the flow file's cycle check. */
  readonly links: readonly Link[];
  /** What it holds exclusively while it runs, for the flow file's check that no two connections hold one thing. */
  readonly claims: readonly Claim[];
  /**
   * Paths it opens as its settings write them (a serial port), which served messages show as
   * written rather than relative to the flow file folder (see `relativePaths`).
   */
  readonly pathsAsWritten: readonly string[];
  /** What it finds only while running (see `Discovery`). */
  readonly discovers: Discovery;
  /** Mistakes that keep this connection alone from starting (see `diagnose`). */
  readonly diagnostics: readonly Issue[];
  /** What runs but likely wants attention (see `warn`). */
  readonly warnings: readonly Issue[];
  /**
   * Its parameter of this id as the settings define it, known without running (see
   * `DeclaredParameter`); undefined for an id it does not define. Undefined itself for a
   * type that keeps no values.
   */
  readonly declared: ((id: string) => DeclaredParameter | undefined) | undefined;
  /** True for the types that serve the hub (rest-api, mqtt): every hub of a redundancy group runs these; the rest only the active one. */
  readonly servesHub: boolean;
  /** The redundancy group it puts the hub in (R-B1), for an mqtt connection with `hub.group`. */
  readonly redundancyGroup: string | undefined;
  /** Every type is handed the hub's services here; only those that declare `servesHub` keep them. */
  create(context: ServingContext): ConnectionInstance;
}

/**
 * A parameter as a connection's settings define it, before it runs: its type and whether
 * the hub keeps its value (R-S2). What `patchbay state import` checks addresses against.
 */
export interface DeclaredParameter {
  readonly type: ValueType;
  readonly persist: boolean;
}

/**
 * A parameter of a connection that changes in the same turn as the parameters it reads
 * (a logic function). A cycle of links, across connections too, would never settle: the
 * flow file refuses it (R-V3).
 */
export interface Link {
  /** The parameter id that follows. */
  readonly output: string;
  /** The addresses it reads. */
  readonly inputs: readonly string[];
  /** Where the inputs are written in the connection's settings, for the message. */
  readonly path: readonly (string | number)[];
}

/**
 * What a connection finds only while it runs (R-G2), so that nothing can check addresses of
 * it before: `parameters` of its own (a device's tree, addresses first heard), or whole
 * `connections` that other hubs run. Rules and code flows may name them; they wait until
 * they appear.
 */
export interface Discovery {
  readonly parameters: boolean;
  readonly connections: boolean;
}

/**
 * Something a running connection holds for itself alone, such as a listening port: two
 * connections of one file that claim the same would fail at start, so the file refuses it.
 */
export interface Claim {
  /** What is held, in words: `TCP port 17011`. */
  readonly what: string;
  /** Where: claims of one `what` collide when their `on` is equal or either is "" (everywhere). */
  readonly on: string;
  /** The setting that makes the claim, for the message. */
  readonly path: readonly (string | number)[];
}

/** What a connection type's parser knows of the connection: its id, and where relative paths start. */
export interface ParseContext {
  readonly id: string;
  /** The folder of the flow file. */
  readonly baseDir: string;
}

/**
 * What the hub keeps across restarts (R-S3–R-S5), as the runner needs it. Without a state
 * folder there is none. Records are small JSON data a connection keeps for itself.
 */
export interface KeptState {
  value(address: string): Json | undefined;
  /** Every stored value of a connection's parameters, by address: `value` for many at once. */
  valuesOf(connectionId: string): ReadonlyMap<string, Json>;
  /** Stores a kept parameter's value; committed with the other writes of this turn. */
  setValue(address: string, value: Json): void;
  record(connectionId: string, key: string): Json | undefined;
  setRecord(connectionId: string, key: string, value: Json | undefined): void;
  /** Every record of a connection, as [key, record]. */
  recordsOf(connectionId: string): [string, Json][];
  /** Forgets every value and record of a connection. */
  reset(connectionId: string): Promise<number>;
  /** Resolves once every write so far is as safe as the hub's durability promises. */
  settled(): Promise<void>;
  /** `settled` as a callback, without a promise per caller: for answers on hot paths. */
  whenSettled(done: () => void): void;
  /** Whether values are being saved; while not, connections that keep values show `degraded`. */
  readonly health$: Observable<{ readonly ok: true } | { readonly ok: false; readonly reason: string; readonly code?: ErrorCode }>;
}

/** Records a connection keeps across restarts and reloads, such as a running timer's deadline. */
export interface Records {
  get(key: string): Json | undefined;
  /** `undefined` forgets the record. */
  set(key: string, value: Json | undefined): void;
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

/**
 * What every running connection gets from the hub: its only door to parameters and time.
 * It reads the graph through a view that cannot change it, and writes only its own
 * parameters (`define`, `defineTable`, `remove`, and the parameters these return).
 */
export interface ConnectionContext {
  readonly id: string;
  readonly scheduler: Scheduler;
  readonly log: Logger;
  /**
   * Asked before a command goes to a device (R-B3): in a redundancy group only the active
   * hub, holding its lease, sends any. `DeviceLink` asks it for every write.
   */
  readonly fence: Fence;
  /** The folder of the flow file: relative paths in settings resolve against it. */
  readonly baseDir: string;
  /** Read access to every parameter, for connections that combine others (virtual-core). */
  readonly graph: GraphView;
  /**
   * Defines `<connection id>/<id>`; throws a HubError on a bad or duplicate id. A
   * parameter with `persist` takes the hub's stored value, when it has one, in place of
   * `initial` (R-S3): seeded before anyone can listen, so restoring notifies no one.
   */
  define(id: string, spec: ParameterSpec): OwnedParameter;
  /**
   * Defines the connection's parameters from the table it parsed, as `define` would each,
   * but made on first use (`Graph.defineTable`): what a connection of a million does.
   * Throws a HubError on a repeated or taken id.
   */
  defineTable(table: ParameterTable): void;
  /** Removes one of this connection's parameters (an in-place update that drops it). */
  remove(id: string): void;
  /** Kept across restarts when the hub has a state folder; in memory otherwise. */
  readonly records: Records;
  /**
   * Runs `work` once the hub runs: every connection started, and the code flows and rules
   * listening (at once when that is so already). For what a start must not do before anyone
   * can hear it, such as firing a timer whose deadline passed while the hub was down (R-S5).
   */
  whenRunning(work: () => void): void;
  /**
   * Calls `done` once every write so far is stored as safely as the hub promises (R-S4):
   * a connection that answers clients waits for it before saying a write was taken.
   * Absent when the hub keeps nothing (no state folder, or `persist: false`).
   */
  readonly settled?: (done: () => void) => void;
  /**
   * Reports a passing problem (`degraded`), its end (`ok`), a link not up yet
   * (`connecting`), or that the connection chose not to run here (`disabled`, with the reason).
   */
  setStatus(status: typeof Status.Ok | typeof Status.Connecting | typeof Status.Disabled, reason?: string, code?: ErrorCode): void;
  /** A passing problem always says what it is, with a code clients can read. */
  setStatus(status: typeof Status.Degraded, reason: string, code: ErrorCode): void;
}

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
  readonly connectionMetrics: readonly TypedConnectionMetric[];
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
 * Why a connection stops: `restart` when a reload replaces it with other settings (it
 * starts again at once, so clients may come back), `stop` otherwise (the hub stops, a
 * reload removes it, it failed).
 */
export type StopReason = 'stop' | 'restart';

/** A started connection. `stop` is idempotent and must release everything `start` took. */
export interface ConnectionInstance {
  start(): void | Promise<void>;
  stop(reason?: StopReason): void | Promise<void>;
  /**
   * Moves the running connection to new settings of its own type without a restart, so
   * parameters that still exist keep their values and clients stay connected. Resolves
   * false when these settings need a restart. Throwing fails the connection, as a start would.
   */
  update?(plan: ConnectionPlan): boolean | Promise<boolean>;
  /** Facts worth showing while running (listening port, file name…). */
  details?(): Readonly<Record<string, unknown>>;
}

/** A running connection of one type, which sees its own settings typed. */
export interface TypedInstance<P> {
  start(): void | Promise<void>;
  stop(reason?: StopReason): void | Promise<void>;
  /** See `ConnectionInstance.update`; receives the parsed settings. */
  update?(settings: P): boolean | Promise<boolean>;
  details?(): Readonly<Record<string, unknown>>;
}

/**
 * One connection type as written: the schema of its own settings (the common ones are
 * added by the hub), a parser for what the schema cannot express, and a factory that
 * receives the parsed settings. Without `parse`, the settings are used as written.
 */
interface TypeBasics<S extends TObject, P> {
  readonly type: string;
  /** One line for people: the flow-file schema's description of the type. */
  readonly summary: string;
  readonly settings: S;
  /** Parses settings the schema accepted, with its defaults filled in; mistakes carry paths relative to the connection. */
  parse(settings: Parsed<S>, connection: ParseContext): Checked<P>;
  /** Its parameters that follow others in the same turn (see `Link`). */
  links?(settings: P): readonly Link[];
  /** What it holds alone while running (see `Claim`). */
  claims?(settings: P): readonly Claim[];
  /** Paths it opens as written, not resolved against the flow file folder (see `ConnectionPlan.pathsAsWritten`). */
  pathsAsWritten?(settings: P): readonly string[];
  /** What it finds only while running (see `Discovery`); nothing when absent. */
  discovers?(settings: P): Partial<Discovery>;
  /** The redundancy group its settings put the hub in (R-B1); none when absent. */
  redundancyGroup?(settings: P): string | undefined;
  /**
   * Mistakes that keep this connection alone from starting, paths relative to it: `validate`
   * lists them with the file's other mistakes; `run` starts the hub, and the connection fails
   * at start with the same reason while the others run (R-X2). It may look at the machine
   * (a folder that must exist), its start checks again.
   */
  diagnose?(settings: P, connection: ParseContext): readonly Issue[];
  /**
   * What runs, but likely not as the author meant (a folder not there yet), paths relative to
   * the connection: `validate` lists them and still accepts the file; `run` logs them.
   */
  warn?(settings: P, connection: ParseContext): readonly Issue[];
  /** What `/metrics` shows of each of its connections (see `ConnectionMetric`). */
  readonly metrics?: readonly ConnectionMetric[];
  /**
   * A type whose parameters the hub keeps says which, from its settings alone (see
   * `ConnectionPlan.declared`): a kept parameter of `id`, or one it defines but does not
   * keep. Absent: the type keeps no values.
   */
  declared?(settings: P): (id: string) => DeclaredParameter | undefined;
}

export type ConnectionTypeDefinition<S extends TObject, P> = TypeBasics<S, P> &
  (
    | { readonly servesHub?: false; create(context: ConnectionContext, settings: P): TypedInstance<P> }
    | { readonly servesHub: true; create(context: ServingContext, settings: P): TypedInstance<P> }
  );

/** A connection type as the registry and the flow file see it. */
export interface ConnectionType {
  readonly type: string;
  readonly summary: string;
  readonly settings: TObject;
  readonly metrics: readonly ConnectionMetric[];
  /** Parses a connection's own settings once: its plan, or every mistake with its path. */
  prepare(settings: Readonly<Record<string, unknown>>, connection: ParseContext): Checked<ConnectionPlan>;
}

/**
 * Declares a connection type. Settings are parsed once, when the flow file is read; the
 * instance receives them typed, and an update receives the next parsed settings.
 */
export function defineConnectionType<S extends TObject, P = Parsed<S>>(definition: ConnectionTypeDefinition<S, P>): ConnectionType {
  // Plans of this type, with their parsed settings: how `update` gets typed settings from
  // an erased plan, and tells a plan of another type (which needs a restart).
  const parsedSettings = new WeakMap<ConnectionPlan, P>();
  return {
    type: definition.type,
    summary: definition.summary,
    settings: definition.settings,
    metrics: definition.metrics ?? [],
    prepare(settings, connection) {
      if (!SchemaValue.Check(definition.settings, settings)) {
        return { ok: false, issues: [{ path: [], message: `settings do not match the ${definition.type} schema` }] };
      }
      const parsed = definition.parse(fillDefaults(definition.settings, settings) as Parsed<S>, connection);
      if (!parsed.ok) return parsed;
      let fingerprint: string | undefined;
      let declared: ((id: string) => DeclaredParameter | undefined) | undefined;
      const plan: ConnectionPlan = {
        type: definition.type,
        // Made when a reload compares plans, not at every start: a dummy's million lines take a while to digest.
        get fingerprint() {
          return (fingerprint ??= fingerprintOf(settings));
        },
        links: definition.links?.(parsed.value) ?? [],
        claims: definition.claims?.(parsed.value) ?? [],
        pathsAsWritten: definition.pathsAsWritten?.(parsed.value) ?? [],
        discovers: { parameters: false, connections: false, ...definition.discovers?.(parsed.value) },
        servesHub: definition.servesHub === true,
        redundancyGroup: definition.redundancyGroup?.(parsed.value),
        diagnostics: definition.diagnose?.(parsed.value, connection) ?? [],
        warnings: definition.warn?.(parsed.value, connection) ?? [],
        // Made when first asked (by the state command), not at every start.
        declared: definition.declared ? (id) => (declared ??= definition.declared?.(parsed.value) ?? (() => undefined))(id) : undefined,
        create(context) {
          const instance = definition.servesHub
            ? definition.create(context, parsed.value)
            : definition.create(withoutHub(context), parsed.value);
          const update = instance.update?.bind(instance);
          return {
            start: () => instance.start(),
            stop: (reason) => instance.stop(reason),
            ...(instance.details ? { details: instance.details.bind(instance) } : {}),
            ...(update
              ? {
                  update(next: ConnectionPlan) {
                    const settings = parsedSettings.get(next);
                    return settings === undefined ? false : update(settings);
                  },
                }
              : {}),
          };
        },
      };
      parsedSettings.set(plan, parsed.value);
      return { ok: true, value: plan };
    },
  };
}

/** A serving context as a type that does not serve the hub gets it: the hub's services left out. */
function withoutHub({ hub: _notGranted, ...context }: ServingContext): ConnectionContext {
  return context;
}

/** For types whose settings need nothing beyond the schema. */
export function asWritten<T>(settings: T): Checked<T> {
  return { ok: true, value: settings };
}

/** Mistakes found while parsing, or the parsed value when there are none. */
export function checked<T>(issues: readonly Issue[], value: T): Checked<T> {
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value };
}

/**
 * A digest of settings as canonical JSON: equal for settings that run identically. A digest
 * rather than the text, which a connection of a million parameters would keep twice.
 */
export function fingerprintOf(settings: unknown): string {
  return createHash('sha256').update(canonicalJson(settings)).digest('base64');
}

/** JSON with object keys sorted, so reordered keys in a flow file compare equal. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortedKeys(value));
}

/**
 * `value` with the keys of every object in it sorted. Arrays of plain values go through as
 * they are, for JSON.stringify to write at native speed (a dummy's million lines).
 */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.some((item) => item !== null && typeof item === 'object') ? value.map(sortedKeys) : value;
  if (value === null || typeof value !== 'object') return value;
  const object = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(object)
      .sort()
      .map((key) => [key, sortedKeys(object[key])]),
  );
}
