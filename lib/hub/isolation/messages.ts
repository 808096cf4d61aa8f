/**
 * What the hub and a connection's own process say to each other over Node's IPC channel
 * (R-PK4), structured-clone serialised. The hub holds the real parameters; the process holds
 * the type's instance and a graph of its own parameters, and mirrors every change of them.
 */
import { Type } from '@sinclair/typebox';
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

export type ToChild =
  | {
      readonly t: 'start';
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
  | { readonly t: 'write'; readonly n: number; readonly id: string; readonly value: Value; readonly origin: string | undefined }
  /** New settings, as the flow file writes them, for the instance's `update` (a reload). */
  | { readonly t: 'update'; readonly n: number; readonly settings: Readonly<Record<string, unknown>> }
  | { readonly t: 'running' }
  | { readonly t: 'fence'; readonly fence: FenceState }
  | { readonly t: 'settled'; readonly n: number }
  /** The hub has handled a `values` message: the process may send another. */
  | { readonly t: 'taken' }
  | { readonly t: 'ping'; readonly n: number }
  | { readonly t: 'stop'; readonly reason: StopReason };

/** Whether the hub may drive devices (R-B3), as the process's fence answers. */
export interface FenceState {
  readonly holds: boolean;
  readonly epoch: number;
  readonly refusal: string;
}

export type FromChild =
  | { readonly t: 'started' }
  | { readonly t: 'failed'; readonly error: WireError }
  | { readonly t: 'define'; readonly id: string; readonly spec: DefinedSpec }
  /** A table of parameters (`defineTable`), by rows: each row's spec and value. */
  | { readonly t: 'table'; readonly rows: readonly (DefinedSpec & { readonly id: string })[] }
  | { readonly t: 'remove'; readonly id: string }
  /** One of its parameters says anew what it is (`describe`, R-PK6). */
  | { readonly t: 'describe'; readonly id: string; readonly meta: ParameterMeta | undefined }
  /** Changes of its parameters, in the order they were made: [id, value, who made it (absent: the connection)]. */
  | { readonly t: 'values'; readonly changes: readonly Change[] }
  | { readonly t: 'status'; readonly status: Status; readonly reason: string; readonly code: ErrorCode | undefined }
  | { readonly t: 'record'; readonly key: string; readonly value: Json | undefined }
  /** A part's problem begins (`ConnectionContext.problem`), or ends: without `code`. */
  | { readonly t: 'problem'; readonly part: string; readonly code?: ErrorCode; readonly message?: string }
  | { readonly t: 'answer'; readonly n: number; readonly changed: boolean; readonly error?: WireError }
  | { readonly t: 'settle'; readonly n: number }
  /** The answer to `update`: taken in place, not (a restart is needed), or failed with the error. */
  | { readonly t: 'updated'; readonly n: number; readonly taken: boolean; readonly error?: WireError }
  | { readonly t: 'pong'; readonly n: number; readonly details: Readonly<Record<string, unknown>> | undefined }
  | { readonly t: 'log'; readonly line: string }
  | { readonly t: 'crash'; readonly reason: string; readonly stack: string | undefined }
  | { readonly t: 'stopped' };

/** The longest text a message from a process may carry (a log line, a reason, a stack): past it the message is refused. */
export const MOST_TEXT = 1024 * 1024;
/** How deep a record's JSON may nest. */
const MOST_DEPTH = 64;

const text = Type.String({ maxLength: MOST_TEXT });
const id = Type.String({ minLength: 1, maxLength: 1024 });
const n = Type.Integer({ minimum: 0 });
const value = Type.Union([Type.String({ maxLength: MOST_TEXT }), Type.Boolean(), Type.Number()]);
const wireError = Type.Object({
  code: Type.String({ maxLength: 64 }),
  message: text,
  declared: Type.Optional(Type.String({ maxLength: 64 })),
});
const spec = {
  type: Type.Union(valueTypes.map((kind) => Type.Literal(kind))),
  access: Type.Union([Type.Literal('read-only'), Type.Literal('write-only'), Type.Literal('read-write')]),
  persist: Type.Boolean(),
  value: Type.Optional(Type.Union([value, Type.Undefined()])),
  meta: Type.Optional(Type.Union([ParameterMeta, Type.Undefined()])),
};
const details = Type.Union([Type.Undefined(), Type.Record(Type.String(), Type.Unknown())]);

/** Every message a process may send, by its `t`. */
const fromChildSchemas = {
  started: Type.Object({ t: Type.Literal('started') }),
  failed: Type.Object({ t: Type.Literal('failed'), error: wireError }),
  define: Type.Object({ t: Type.Literal('define'), id, spec: Type.Object(spec) }),
  table: Type.Object({ t: Type.Literal('table'), rows: Type.Array(Type.Object({ id, ...spec })) }),
  remove: Type.Object({ t: Type.Literal('remove'), id }),
  describe: Type.Object({ t: Type.Literal('describe'), id, meta: Type.Union([ParameterMeta, Type.Undefined()]) }),
  values: Type.Object({
    t: Type.Literal('values'),
    changes: Type.Array(Type.Tuple([id, value, Type.Union([Type.String({ maxLength: 4096 }), Type.Undefined()])])),
  }),
  status: Type.Object({
    t: Type.Literal('status'),
    status: Type.Union(['ok', 'connecting', 'disabled', 'degraded', 'failed'].map((status) => Type.Literal(status))),
    reason: text,
    code: Type.Union([Type.String({ maxLength: 64 }), Type.Undefined()]),
  }),
  record: Type.Object({ t: Type.Literal('record'), key: Type.String({ maxLength: 1024 }), value: Type.Unknown() }),
  problem: Type.Object({
    t: Type.Literal('problem'),
    part: Type.String({ minLength: 1, maxLength: 1024 }),
    code: Type.Optional(Type.String({ maxLength: 64 })),
    message: Type.Optional(text),
  }),
  answer: Type.Object({ t: Type.Literal('answer'), n, changed: Type.Boolean(), error: Type.Optional(wireError) }),
  settle: Type.Object({ t: Type.Literal('settle'), n }),
  updated: Type.Object({ t: Type.Literal('updated'), n, taken: Type.Boolean(), error: Type.Optional(wireError) }),
  pong: Type.Object({ t: Type.Literal('pong'), n, details }),
  log: Type.Object({ t: Type.Literal('log'), line: text }),
  crash: Type.Object({ t: Type.Literal('crash'), reason: text, stack: Type.Union([text, Type.Undefined()]) }),
  stopped: Type.Object({ t: Type.Literal('stopped') }),
} as const;

const isJson = (value: unknown, depth = 0): boolean => {
  if (depth > MOST_DEPTH) return false;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every((item) => isJson(item, depth + 1));
  if (typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.values(value).every((item) => isJson(item, depth + 1));
};

const knownCode = (code: unknown) => code === undefined || Object.hasOwn(errorTable, code as PropertyKey);

/**
 * A message from a process as the hub may use it, or what is wrong with it: the process runs
 * a package's code, which may send anything over its channel (`process.send`).
 */
export function fromChildOf(message: unknown): FromChild | string {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return 'a message that is no object';
  const kind = (message as { t?: unknown }).t;
  if (typeof kind !== 'string' || !Object.hasOwn(fromChildSchemas, kind)) {
    return `a message of no known kind (${typeof kind === 'string' ? JSON.stringify(kind.slice(0, 40)) : typeof kind})`;
  }
  const schema = fromChildSchemas[kind as keyof typeof fromChildSchemas];
  if (!Schema.Check(schema, message)) {
    const error = Schema.Errors(schema, message).First();
    return `a "${kind}" message the hub cannot take (${error ? `${error.path || '/'}: ${error.message}` : 'of another shape'})`;
  }
  const checked = message as FromChild;
  const code = 'error' in checked ? checked.error?.code : checked.t === 'status' || checked.t === 'problem' ? checked.code : undefined;
  if (!knownCode(code)) return `a "${kind}" message with an error code the hub does not know`;
  if (checked.t === 'record' && checked.value !== undefined && !isJson(checked.value)) return 'a record that is not JSON';
  return checked;
}
