/**
 * A connection type as its author writes it (R-PK2): the schema of its own settings, a
 * parser for what the schema cannot express, what the flow file can check before it runs,
 * and a factory for running connections. The hub adds the settings every connection has.
 */
import type { TObject } from '@sinclair/typebox';
import type { ConnectionMetric } from '../core/counts.ts';
import type { DeclaredCode } from '../core/errors.ts';
import type { Checked, Issue } from '../core/issue.ts';
import type { Access, ValueType } from '../core/value.ts';
import type { ConnectionContext } from './context.ts';
import type { Parsed } from './settings.ts';

export type { ConnectionMetric } from '../core/counts.ts';

/**
 * The version of this contract. A package declares the one it was written against
 * (`"patchbay": { "apiVersion": 1 }`); a hub refuses a package whose version it does not
 * speak (R-PK3). It grows only when a type written for the last one would break.
 */
export const apiVersion = 1;

/** What a connection type's parser knows of the connection: its id, and where relative paths start. */
export interface ParseContext {
  readonly id: string;
  /** The folder of the flow file. */
  readonly baseDir: string;
  /**
   * The type's files folder (`ConnectionContext.filesFolder`) of the state folder a hub of
   * the flow keeps, when the command reading it knows one: what the type's connections kept
   * there as they ran may inform `diagnose` and `warn`. It may not exist yet.
   */
  readonly filesFolder?: string;
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

/**
 * A parameter a connection writes by itself as its settings say — what a key's press writes
 * — so that a rule that holds that parameter is seen to share it (R-RS4).
 */
export interface SettingWrite {
  /** The address it writes (`router/output/1`). */
  readonly address: string;
  /** The setting that makes the write, for the message. */
  readonly path: readonly (string | number)[];
}

/**
 * Why a connection stops: `restart` when a reload replaces it with other settings (it
 * starts again at once, so clients may come back), `stop` otherwise (the hub stops, a
 * reload removes it, it failed).
 */
export type StopReason = 'stop' | 'restart';

/** A running connection of one type. `stop` is idempotent and must release everything `start` took. */
export interface TypedInstance<P> {
  start(): void | Promise<void>;
  stop(reason?: StopReason): void | Promise<void>;
  /**
   * Moves the running connection to new settings of its own type without a restart, so
   * parameters that still exist keep their values and clients stay connected. Resolves
   * false when these settings need a restart. Throwing fails the connection, as a start would.
   */
  update?(settings: P): boolean | Promise<boolean>;
  /** Facts worth showing while running (listening port, file name…); `/metrics` reads its counts from here. */
  details?(): Readonly<Record<string, unknown>>;
}

/** A JSON Schema of one setting, as `settingsOf` gives it. */
export type SettingSchema = Readonly<Record<string, unknown>>;

/** What every connection type declares, whatever it is handed when it runs. */
export interface TypeBasics<S extends TObject, P> {
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
  /** What it writes by itself as its settings say (see `SettingWrite`). */
  writes?(settings: P): readonly SettingWrite[];
  /** Paths it opens as written, not resolved against the flow file folder (a serial port). */
  pathsAsWritten?(settings: P): readonly string[];
  /** What it finds only while running (see `Discovery`); nothing when absent. */
  discovers?(settings: P): Partial<Discovery>;
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
  /**
   * JSON Schemas of some of its settings for this connection alone, by setting, finer than
   * the type's (a Companion module's `config` as the module declared its fields when it last
   * ran here): the console's forms and `GET /flow/schema` show them. Asked each time they are
   * shown, so what the type learns while running shows without a reload; undefined for none.
   */
  settingsOf?(settings: P, connection: ParseContext): Readonly<Record<string, SettingSchema>> | undefined;
  /** What `/metrics` shows of each of its connections (see `ConnectionMetric`). */
  readonly metrics?: readonly ConnectionMetric[];
  /**
   * Codes of its own that its refusals of writes carry (R-PK8), each `<TYPE>_<NAME>` (the
   * type name in capitals, `-` as `_`) with the status it answers with and what it means:
   * `{ VIDEOHUB_LOCKED: { status: 409, text: 'The output is locked by another panel …' } }`.
   * A refusal carries one as `new HubError('PB_BAD_ANSWER', message, { declared: 'VIDEOHUB_LOCKED' })`:
   * clients get the type's code and status, the hub's log and metrics the hub's code. The
   * type's reference page lists them.
   */
  readonly errors?: Readonly<Record<string, DeclaredCode>>;
  /**
   * The parameters it makes, for its reference page (`patchbay reference`, R-PK6): ids as
   * patterns where they repeat (`slot/<n>/status`). Documentation only: what it defines
   * when it runs is what it has.
   */
  readonly parameters?: readonly ParameterDoc[];
  /**
   * A type whose parameters the hub keeps says which, from its settings alone: a kept
   * parameter of `id`, or one it defines but does not keep. Absent: the type keeps no values.
   */
  declared?(settings: P): (id: string) => DeclaredParameter | undefined;
}

/** A parameter a type makes, as its reference page lists it. */
export interface ParameterDoc {
  readonly id: string;
  readonly type: ValueType;
  readonly access: Access;
  /** What it is, for a person: its values, what a write does. */
  readonly description: string;
  readonly unit?: string;
}

/** A connection type as its author writes it. */
export interface ConnectionTypeDefinition<S extends TObject, P = Parsed<S>> extends TypeBasics<S, P> {
  create(context: ConnectionContext, settings: P): TypedInstance<P>;
}

/** A connection type as `defineConnectionType` returns it: what a package's module exports (as `default`). */
export interface DefinedConnectionType<S extends TObject = TObject, P = unknown> extends ConnectionTypeDefinition<S, P> {
  /** The contract it was written against. */
  readonly apiVersion: number;
}

/**
 * Declares a connection type. Settings are parsed once, when the flow file is read; the
 * instance receives them typed, and an update receives the next parsed settings.
 */
export function defineConnectionType<S extends TObject, P = Parsed<S>>(
  definition: ConnectionTypeDefinition<S, P>,
): DefinedConnectionType<S, P> {
  return Object.freeze({ ...definition, apiVersion });
}
