/**
 * The API a code flow receives (R-R6). A code flow is a module (JavaScript or TypeScript,
 * ES module or CommonJS) listed in a flow file's `flows`; its default export is called
 * once at start:
 *
 *   import type { CodeFlow } from 'patchbay/flow';
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
import type { Access } from '../core/parameter.ts';
import type { OwnedParameter, Parameter, SetResult } from '../core/parameter.ts';
import type { Scheduler } from '../core/scheduler.ts';
import type { Value, ValueType } from '../core/value.ts';

export type { Observable, OwnedParameter, Parameter, Scheduler, SetResult, Value, ValueType };

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
  /** Defines `<flow id>/<id>`; read-write unless said otherwise. Removed when the flow stops. */
  define(id: string, spec: { type: ValueType; access?: Access; initial?: Value }): OwnedParameter;
}

/** What a flow may hand the hub to own. */
export type FlowOutput = void | Subscription | Observable<unknown> | (() => void) | readonly FlowOutput[];

/** The default export of a code-flow module. */
export type CodeFlow = (hub: FlowApi) => FlowOutput | Promise<FlowOutput>;
