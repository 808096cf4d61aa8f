import { createHash } from 'node:crypto';
import type { TObject } from '@sinclair/typebox';
import type { Observable } from 'rxjs';
import { Value as SchemaValue } from '@sinclair/typebox/value';
import type { DeclaredCode, ErrorCode, HubError } from '../core/errors.ts';
import type { Checked, Issue } from '../core/issue.ts';
import type { ConnectionMetric } from '../core/counts.ts';
import type { Json } from '../core/value.ts';
import type { ConnectionContext } from '../sdk/context.ts';
import { fillDefaults, type Parsed } from '../sdk/settings.ts';
import type {
  Claim,
  DeclaredParameter,
  DefinedConnectionType,
  Discovery,
  Link,
  ParameterDoc,
  ParseContext,
  SettingSchema,
  SettingWrite,
  StopReason,
  TypedInstance,
} from '../sdk/type.ts';
import type { ServingContext, ServingTypeDefinition } from './serving.ts';

export { Status, type StatusReport } from '../sdk/context.ts';
// What `GET /connections`, `/problems` and `/rules` answer: the shapes of the public API, kept in core.
export type { ConnectionInfo, Problem, RuleListing } from '../core/api-shapes.ts';
export type { Claim, DeclaredParameter, Discovery, Link, ParseContext, SettingWrite, StopReason } from '../sdk/type.ts';

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
  /** Where it runs (R-PK4): a process of its own, or the hub's; undefined for its type's default. */
  readonly isolate?: 'process' | 'none';
  /** With a process of its own: its heap limit in MB. */
  readonly maxMemoryMb?: number;
  /** With a process of its own: how long it may leave the hub's pings unanswered, in ms. */
  readonly hangMs?: number;
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
  /** The package its type comes from (R-PK1); absent for a built-in type. */
  readonly origin?: TypeOrigin;
  /** Its own settings as the flow file writes them: what a process of its own parses again (R-PK4). */
  readonly written: Readonly<Record<string, unknown>>;
  /** A digest of the settings as written (`fingerprintOf`): equal fingerprints run identically. */
  readonly fingerprint: string;
  /** Its parameters that follow others in the same turn, for the flow file's cycle check. */
  readonly links: readonly Link[];
  /** What it holds exclusively while it runs, for the flow file's check that no two connections hold one thing. */
  readonly claims: readonly Claim[];
  /** What it writes by itself as its settings say (see `SettingWrite`); none when absent. */
  readonly writes?: readonly SettingWrite[];
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
  /** Schemas of its settings finer than its type's, as the type knows them now (see `settingsOf`). */
  readonly settingsOf?: () => Readonly<Record<string, SettingSchema>> | undefined;
  /**
   * Its parameter of this id as the settings define it, known without running (see
   * `DeclaredParameter`); undefined for an id it does not define. Undefined itself for a
   * type that keeps no values.
   */
  readonly declared: ((id: string) => DeclaredParameter | undefined) | undefined;
  /**
   * True for the types that serve the hub (rest-api, mqtt, osc's OSCQuery): they are handed
   * the hub's services and run in its process, never a process of their own.
   */
  readonly servesHub: boolean;
  /**
   * True for what every hub of a redundancy group runs, a standby too (rest-api: its clients;
   * mqtt: the group itself); every other connection runs on the active hub alone.
   */
  readonly runsOnStandby: boolean;
  /** The redundancy group it puts the hub in (R-B1), for an mqtt connection with `hub.group`. */
  readonly redundancyGroup: string | undefined;
  /** Why the package of its type was refused (R-PK3): it fails at start with this, and nothing of the package runs. */
  readonly refused?: HubError;
  /** Every type is handed the hub's services here; only those that declare `servesHub` keep them. */
  create(context: ServingContext): ConnectionInstance;
}

/**
 * What the hub keeps across restarts (R-S3–R-S5), as the runner needs it. Without a state
 * folder there is none. Records are small JSON data a connection keeps for itself.
 */
export interface KeptState {
  /** The state folder. */
  readonly folder: string;
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

/** The package a type came from (R-PK1), as `/connections` shows it beside the type. */
export interface TypeOrigin {
  readonly package: string;
  readonly version: string;
  /**
   * The module that exports the type, absolute: what a process of its own loads (R-PK4).
   * Absent for a type of a refused package (R-PK3): nothing of it is loaded.
   */
  readonly module: string | undefined;
  /** Its package.json and module as loaded (`installedStamp`): a process start that finds them changed on disk does not run them (R-PK9). */
  readonly stamp?: string;
  /** The package's folder. */
  readonly folder?: string;
}

/** A connection type as the registry and the flow file see it. */
export interface ConnectionType {
  readonly type: string;
  readonly summary: string;
  readonly settings: TObject;
  readonly metrics: readonly ConnectionMetric[];
  /** The parameters it makes, for its reference page. */
  readonly parameters?: readonly ParameterDoc[];
  /** Codes of its own for its refusals (R-PK8), by code. */
  readonly errors?: Readonly<Record<string, DeclaredCode>>;
  /** Where a type of a package comes from; absent for a built-in type. */
  readonly origin?: TypeOrigin;
  /** True for the types that serve the hub (rest-api, mqtt, osc): they run in its process, always. */
  readonly servesHub: boolean;
  /**
   * Why the package that declares this type was refused (R-PK3): the flow file checks none of
   * its settings, and its connections fail at start with this error while the others run.
   */
  readonly refused?: HubError;
  /** Parses a connection's own settings once: its plan, or every mistake with its path. */
  prepare(settings: Readonly<Record<string, unknown>>, connection: ParseContext): Checked<ConnectionPlan>;
  /** How a module archive added from the console is checked, on the built-in type that runs Companion modules (see `ModuleArchives`). */
  readonly moduleArchives?: ModuleArchives;
}

/**
 * What the built-in type that runs Companion modules declares of an archive added from the
 * console to the flow's `modules` folder (R-ST2), so that the store (lib/store/) keeps only
 * what a start of the type would take, without reaching into the type's folder. The type
 * writes it beside its definition, and the list of types puts it on the type; a package's
 * type cannot declare it (`connectionTypeOf` leaves it out).
 */
export interface ModuleArchives {
  /** Refuses the archive at `path` (named `shown`) at its first unsafe entry, as a start does, with a HubError; nothing is written. */
  check(path: string, shown: string): Promise<void>;
  /** Whether the hub runs a module of the runtime API and base version its manifest names (`runtime.api`, `runtime.apiVersion`). */
  speaks(api: string, apiVersion: string): boolean;
  /** What the hub speaks, in words, for a refusal. */
  readonly spoken: string;
}

/**
 * Plans with their parsed settings and the definition that parsed them: how `update` gets
 * typed settings from an erased plan, and tells a plan of another type (which needs a
 * restart). By definition, not by `ConnectionType`: a reload reads a package's types again,
 * each time a new `ConnectionType` of the one definition its module exports.
 */
const parsedSettings = new WeakMap<ConnectionPlan, { readonly definition: object; readonly settings: unknown }>();

/**
 * A connection type as the registry and the flow file use it, from its author's definition
 * (`patchbay-hub/connection`'s `defineConnectionType`, or a type that serves the hub). Settings
 * are parsed once, when the flow file is read; the instance receives them typed, and an
 * update receives the next parsed settings.
 */
export function connectionTypeOf<S extends TObject, P>(
  definition: DefinedConnectionType<S, P> | ServingTypeDefinition<S, P>,
  origin?: TypeOrigin,
): ConnectionType {
  return {
    type: definition.type,
    summary: definition.summary,
    settings: definition.settings,
    metrics: definition.metrics ?? [],
    ...(origin ? { origin } : {}),
    servesHub: 'servesHub' in definition,
    prepare(settings, connection) {
      if (!SchemaValue.Check(definition.settings, settings)) {
        return { ok: false, issues: [{ path: [], message: `settings do not match the ${definition.type} schema` }] };
      }
      const parsed = definition.parse(fillDefaults(definition.settings, settings) as Parsed<S>, connection);
      if (!parsed.ok) return parsed;
      const serving = 'servesHub' in definition ? definition : undefined;
      let fingerprint: string | undefined;
      let declared: ((id: string) => DeclaredParameter | undefined) | undefined;
      const plan: ConnectionPlan = {
        type: definition.type,
        ...(origin ? { origin } : {}),
        written: settings,
        // Made when a reload compares plans, not at every start: a dummy's million lines take a while to digest.
        get fingerprint() {
          return (fingerprint ??= fingerprintOf(settings));
        },
        links: definition.links?.(parsed.value) ?? [],
        claims: definition.claims?.(parsed.value) ?? [],
        writes: definition.writes?.(parsed.value) ?? [],
        pathsAsWritten: definition.pathsAsWritten?.(parsed.value) ?? [],
        discovers: { parameters: false, connections: false, ...definition.discovers?.(parsed.value) },
        servesHub: serving !== undefined,
        runsOnStandby: serving?.runsOnStandby === true,
        redundancyGroup: serving?.redundancyGroup?.(parsed.value),
        diagnostics: definition.diagnose?.(parsed.value, connection) ?? [],
        warnings: definition.warn?.(parsed.value, connection) ?? [],
        ...(definition.settingsOf ? { settingsOf: () => definition.settingsOf?.(parsed.value, connection) } : {}),
        // Made when first asked (by the state command), not at every start.
        declared: definition.declared ? (id) => (declared ??= definition.declared?.(parsed.value) ?? (() => undefined))(id) : undefined,
        create(context) {
          const instance: TypedInstance<P> = serving
            ? serving.create(context, parsed.value)
            : (definition as DefinedConnectionType<S, P>).create(withoutHub(context), parsed.value);
          const update = instance.update?.bind(instance);
          return {
            start: () => instance.start(),
            stop: (reason) => instance.stop(reason),
            ...(instance.details ? { details: instance.details.bind(instance) } : {}),
            ...(update
              ? {
                  update(next: ConnectionPlan) {
                    const parsed = parsedSettings.get(next);
                    return parsed?.definition === definition ? update(parsed.settings as P) : false;
                  },
                }
              : {}),
          };
        },
      };
      parsedSettings.set(plan, { definition, settings: parsed.value });
      return { ok: true, value: plan };
    },
  };
}

/** A serving context as a type that does not serve the hub gets it: the hub's services left out. */
function withoutHub({ hub: _notGranted, ...context }: ServingContext): ConnectionContext {
  return context;
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
