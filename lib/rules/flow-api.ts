/**
 * The API a code flow receives (R-R6). A code flow is a module (JavaScript or TypeScript,
 * ES module or CommonJS) listed in a flow file's `flows`; its default export is called
 * once at start:
 *
 *   import type { CodeFlow } from 'patchbay-hub/flow';
 *   const flow: CodeFlow = (hub) => hub.watch('studio/level').pipe(…);
 *   export default flow;
 *
 * Whatever it returns — Observables, Subscriptions, teardown functions, or a list of
 * them — the hub owns: it subscribes returned Observables, and at a reload or shutdown it
 * stops them all before any connection stops. A flow that throws (also from its timers
 * and promises), or whose Observable errors, is reported with its file and stopped; the
 * others keep running.
 */
import type { Observable, Subscription } from 'rxjs';
import type { ErrorCode } from '../core/errors.ts';
import type { Access, ParameterMeta } from '../core/parameter.ts';
import type { OwnedParameter, Parameter, SetResult } from '../core/parameter.ts';
import type { Scheduler } from '../core/scheduler.ts';
import type { Value, ValueType } from '../core/value.ts';

export type { ErrorCode, Observable, OwnedParameter, Parameter, Scheduler, SetResult, Value, ValueType };

/**
 * The hub's log as a flow sees it: one method per level, each taking a message (and,
 * pino-style, values for its `%s` placeholders). Declared here rather than as pino's
 * type, so a TypeScript flow type-checks without pino's or Node's type packages.
 */
export interface FlowLog {
  fatal(message: string, ...values: unknown[]): void;
  error(message: string, ...values: unknown[]): void;
  warn(message: string, ...values: unknown[]): void;
  info(message: string, ...values: unknown[]): void;
  debug(message: string, ...values: unknown[]): void;
  trace(message: string, ...values: unknown[]): void;
}

/**
 * How a flow answers a write of a parameter it defined: nothing or `{ ok: true }` takes
 * it; `{ ok: false, error: { code, message } }` refuses it with a code of the hub's table
 * (docs/reference/errors.md) — the result `writeConfirmed` resolves with is either.
 */
export type WriteAnswer =
  | undefined
  | { readonly ok: true }
  | { readonly ok: false; readonly error: { readonly code: ErrorCode; readonly message: string } };

/**
 * Answers a write of a parameter the flow defined, with the value converted to its type and
 * who wrote it (`http <address>`, `ws <address>`, `rule <path>`…). The writer waits for a
 * promise; the value is stored, with the writer as who changed it, once the write is taken.
 */
export type WriteHandler = (value: Value, origin: string | undefined) => WriteAnswer | void | PromiseLike<WriteAnswer | void>;

export interface FlowApi {
  /**
   * The hub's own RxJS, for flows kept outside the hub's folder where `import … from
   * 'rxjs'` would not resolve: `const { map, filter } = hub.rx`.
   */
  readonly rx: typeof import('rxjs');
  /** The flow's own namespace: parameters it defines live at `<id>/<parameter id>`. */
  readonly id: string;
  /** The hub's clock: use it for every timed operator (`debounceTime(ms, hub.scheduler)`). */
  readonly scheduler: Scheduler;
  /** Log lines name the flow. */
  readonly log: FlowLog;
  /** The parameter at an address now, if any. */
  parameter(address: string): Parameter | undefined;
  /** Its current value; `undefined` while unknown or missing. */
  value(address: string): Value | undefined;
  /**
   * The value at an address on subscribe (`undefined` while unknown or missing), then
   * every change; it follows a parameter that appears, goes or is replaced later.
   */
  watch(address: string): Observable<Value | undefined>;
  /** Converts and writes, as a client would (R-C); the result says why a write failed. */
  write(address: string, value: unknown): SetResult;
  /**
   * Writes as `write` does, and resolves with the answer a client would hear: at once for
   * a value the hub holds; for a device's parameter once the device confirmed, refused or
   * did not confirm in time (R-G1); for another hub's, once that hub answered. Never rejects.
   */
  writeConfirmed(address: string, value: unknown): Promise<SetResult>;
  /**
   * Defines `<flow id>/<id>`; read-write unless said otherwise. Removed when the flow stops.
   * With `onWrite`, every write of it is answered by the handler (a refusal, or what a device
   * answered through `writeConfirmed`) and stored only once taken. `meta` is what it says
   * of itself (R-PK6): label, unit, range, choices; writes outside them are refused.
   */
  define(
    id: string,
    spec: { type: ValueType; access?: Access; initial?: Value; onWrite?: WriteHandler; meta?: ParameterMeta },
  ): OwnedParameter;
}

/** What a flow may hand the hub to own. */
export type FlowOutput = void | Subscription | Observable<unknown> | (() => void) | readonly FlowOutput[];

/** The default export of a code-flow module. */
export type CodeFlow = (hub: FlowApi) => FlowOutput | Promise<FlowOutput>;
