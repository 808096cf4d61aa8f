/**
 * What the hub and a connection's own process say to each other over Node's IPC channel
 * (R-PK4), structured-clone serialised. The hub holds the real parameters; the process holds
 * the type's instance and a graph of its own parameters, and mirrors every change of them.
 */
import { type TSchema, Type } from '@sinclair/typebox';
import { Value as Schema } from '@sinclair/typebox/value';
import { type ErrorCode, errorTable } from '../../core/errors.ts';
import type { Access } from '../../core/parameter.ts';
import { ParameterMeta } from '../../core/parameter-meta.ts';
import { type Json, type Value, type ValueType, valueTypes } from '../../core/value.ts';
import type { Status } from '../../sdk/context.ts';
import type { StopReason } from '../../sdk/type.ts';

/** A parameter as the process defined it: what the hub defines in its place. */
export interface DefinedSpec {
  readonly type: ValueType;
  readonly access: Access;
  readonly persist: boolean;
  /** Its value when defined (the process's restored or initial value). */
  readonly value: Value | undefined;
  /** What it says of itself (R-PK6), when anything. */
  readonly meta?: ParameterMeta | undefined;
}

/** A change of one of its parameters: its id, its value, and who made it (undefined: the connection itself). */
export type Change = readonly [id: string, value: Value, by: string | undefined];

/** An error across the wall: its code and message, and the type's own code when it carries one (R-PK8). */
export interface WireError {
  readonly code: ErrorCode;
  readonly message: string;
  readonly declared?: string;
}

/** The settings and state a process starts its connection with. */
export interface StartPayload {
  /** The module whose default export is the type, or a built-in type's name. */
  readonly module: string | undefined;
  readonly type: string;
  readonly id: string;
  readonly baseDir: string;
  /** See `ConnectionContext.filesFolder`. */
  readonly filesFolder: string | undefined;
  readonly settings: Readonly<Record<string, unknown>>;
  /** The last values the hub has of its parameters (kept, or from before a restart of the process), by id. */
  readonly values: readonly (readonly [string, Value])[];
  readonly records: readonly (readonly [string, Json])[];
  readonly debug: boolean;
  readonly fence: FenceState;
}

/** What a process reports of itself when pinged: its `details`, as JSON. */
export type Details = Readonly<Record<string, unknown>> | null;

/** What the hub asks of a connection's process: told (`never`), or called and answered. */
export type HubToChild = {
  start: (payload: StartPayload) => never;
  /** A write of one of its parameters: answered with whether it changed, or refused. */
  write: (payload: { readonly id: string; readonly value: Value; readonly origin: string | undefined }) => boolean;
  /** New settings, as the flow file writes them, for the instance's `update` (a reload): taken in place, or not. */
  update: (payload: { readonly settings: Readonly<Record<string, unknown>> }) => boolean;
  running: (payload: null) => never;
  fence: (payload: FenceState) => never;
  ping: (payload: null) => Details;
  stop: (payload: { readonly reason: StopReason }) => never;
};

/** Whether the hub may drive devices (R-B3), as the process's fence answers. */
export interface FenceState {
  readonly holds: boolean;
  readonly epoch: number;
  readonly refusal: string;
}

/** What a connection's process tells and asks the hub. */
export type ChildToHub = {
  started: (payload: null) => never;
  failed: (payload: WireError) => never;
  define: (payload: { readonly id: string; readonly spec: DefinedSpec }) => never;
  /** A table of parameters (`defineTable`), by rows: each row's spec and value. */
  table: (payload: { readonly rows: readonly (DefinedSpec & { readonly id: string })[] }) => never;
  remove: (payload: { readonly id: string }) => never;
  /** One of its parameters says anew what it is (`describe`, R-PK6). */
  describe: (payload: { readonly id: string; readonly meta: ParameterMeta | undefined }) => never;
  /** Changes of its parameters, in the order they were made; answered once the hub has taken them (the process may send more). */
  values: (payload: { readonly changes: readonly Change[] }) => null;
  status: (payload: {
    readonly status: Exclude<Status, 'starting'>;
    readonly reason: string;
    readonly code: ErrorCode | undefined;
  }) => never;
  record: (payload: { readonly key: string; readonly value: Json | undefined }) => never;
  /** A part's problem begins (`ConnectionContext.problem`), or ends: without `code`. */
  problem: (payload: { readonly part: string; readonly code?: ErrorCode; readonly message?: string }) => never;
  /** Answered once the hub's changes of this turn are settled (`ConnectionContext.settled`). */
  settle: (payload: null) => null;
  log: (payload: { readonly line: string }) => never;
  crash: (payload: { readonly reason: string; readonly stack: string | undefined }) => never;
  stopped: (payload: null) => never;
};

/** The longest text a message from a process may carry (a log line, a reason, a stack): past it the message is refused. */
export const MOST_TEXT = 1024 * 1024;
/** How deep a record's JSON may nest. */
const MOST_DEPTH = 64;

const text = Type.String({ maxLength: MOST_TEXT });
const id = Type.String({ minLength: 1, maxLength: 1024 });
const value = Type.Union([Type.String({ maxLength: MOST_TEXT }), Type.Boolean(), Type.Number()]);
const wireError = Type.Object({
  code: Type.String({ maxLength: 64 }),
  message: text,
  declared: Type.Optional(Type.String({ maxLength: 64 })),
});
/** A refusal as the channel carries it: its reason, and its codes when it has them. */
const refusal = Type.Object({
  message: text,
  code: Type.Optional(Type.String({ maxLength: 64 })),
  declared: Type.Optional(Type.String({ maxLength: 64 })),
});
const spec = {
  type: Type.Union(valueTypes.map((kind) => Type.Literal(kind))),
  access: Type.Union([Type.Literal('read-only'), Type.Literal('write-only'), Type.Literal('read-write')]),
  persist: Type.Boolean(),
  value: Type.Optional(Type.Union([value, Type.Undefined()])),
  meta: Type.Optional(Type.Union([ParameterMeta, Type.Undefined()])),
};

/** Every payload a process may send, by the name it sends it under. */
const fromChildSchemas = {
  started: Type.Null(),
  failed: wireError,
  define: Type.Object({ id, spec: Type.Object(spec) }),
  table: Type.Object({ rows: Type.Array(Type.Object({ id, ...spec })) }),
  remove: Type.Object({ id }),
  describe: Type.Object({ id, meta: Type.Union([ParameterMeta, Type.Undefined()]) }),
  values: Type.Object({
    changes: Type.Array(Type.Tuple([id, value, Type.Union([Type.String({ maxLength: 4096 }), Type.Undefined()])])),
  }),
  status: Type.Object({
    status: Type.Union(['ok', 'connecting', 'disabled', 'degraded', 'failed'].map((status) => Type.Literal(status))),
    reason: text,
    code: Type.Union([Type.String({ maxLength: 64 }), Type.Undefined()]),
  }),
  record: Type.Object({ key: Type.String({ maxLength: 1024 }), value: Type.Unknown() }),
  problem: Type.Object({
    part: Type.String({ minLength: 1, maxLength: 1024 }),
    code: Type.Optional(Type.String({ maxLength: 64 })),
    message: Type.Optional(text),
  }),
  settle: Type.Null(),
  log: Type.Object({ line: text }),
  crash: Type.Object({ reason: text, stack: Type.Union([text, Type.Undefined()]) }),
  stopped: Type.Null(),
} as const satisfies Record<keyof ChildToHub, unknown>;

/** What a process may answer to what the hub asks, by the name asked; a refusal is a `wireError`. */
const answerSchemas: Readonly<Record<string, TSchema>> = {
  write: Type.Boolean(),
  update: Type.Boolean(),
  ping: Type.Union([Type.Null(), Type.Record(Type.String(), Type.Unknown())]),
};

const isJson = (value: unknown, depth = 0): boolean => {
  if (depth > MOST_DEPTH) return false;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every((item) => isJson(item, depth + 1));
  if (typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.values(value).every((item) => isJson(item, depth + 1));
};

const knownCode = (code: unknown) => code === undefined || Object.hasOwn(errorTable, code as PropertyKey);

/** Why `payload` is refused, or undefined: what is wrong with it, checked against its schema. */
function wrongWith(schema: TSchema, payload: unknown): string | undefined {
  if (Schema.Check(schema, payload)) return undefined;
  const error = Schema.Errors(schema, payload).First();
  return error ? `${error.path || '/'}: ${error.message}` : 'of another shape';
}

/**
 * Why a payload from a process is refused, or undefined when the hub may use it: the process
 * runs a package's code, which may send anything over its channel (`process.send`). `name` is
 * what it was sent under, or, for an answer, the name the hub asked.
 */
export function childPayloadCheck(name: string, kind: 'call' | 'answer' | 'refusal', payload: unknown): string | undefined {
  if (kind === 'refusal')
    return wrongWith(refusal, payload) ?? (knownCode((payload as WireError).code) ? undefined : 'an error code the hub does not know');
  if (kind === 'answer')
    return Object.hasOwn(answerSchemas, name) ? wrongWith(answerSchemas[name] as TSchema, payload) : 'no answer was asked';
  if (!Object.hasOwn(fromChildSchemas, name)) return 'of no known kind';
  const wrong = wrongWith(fromChildSchemas[name as keyof typeof fromChildSchemas], payload);
  if (wrong !== undefined) return wrong;
  const { code } = (payload ?? {}) as { code?: unknown };
  if ((name === 'failed' || name === 'status' || name === 'problem') && !knownCode(code)) return 'an error code the hub does not know';
  const { value } = (payload ?? {}) as { value?: unknown };
  if (name === 'record' && value !== undefined && !isJson(value)) return 'a record that is not JSON';
  return undefined;
}
