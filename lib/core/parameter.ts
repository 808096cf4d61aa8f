import { Observable } from 'rxjs';
import type { Cause, CauseTracker } from './cause.ts';
import { HubError, ok, type Result } from './errors.ts';
import { argumentsOf, inType, type ParameterMeta, refusal } from './parameter-meta.ts';
import { wallClockOfTurn } from './scheduler.ts';
import { type Access, convert, type Value, type ValueType } from './value.ts';

export { Access } from './value.ts';
export type { Choice, ParameterMeta } from './parameter-meta.ts';

export interface ParameterSpec {
  readonly type: ValueType;
  readonly access: Access;
  /** A value the parameter holds from the start (R-P4); converted to `type`. */
  readonly initial?: Value;
  /** Who set `initial`, when it is not the flow file's default: `restore` for a value kept across restarts (R-O2). */
  readonly initialBy?: string;
  /** When `initialBy` set it, in milliseconds since the epoch; now when absent. */
  readonly initialAt?: number;
  /** Receives every accepted write (not reports): how a connection acts on writes. */
  readonly onWrite?: (value: Value, origin: string | undefined) => void;
  /** Replaces the standard conversion for writes, for types whose writes are commands. */
  readonly accept?: (raw: unknown) => Result<Value>;
  /**
   * For a parameter whose writes its owner answers (a device, R-G1; another hub, R-M5): an
   * accepted write is converted and handed here instead of being stored; the value changes
   * only when the owner's answer comes back through `report`. The result says whether the write was taken to
   * be forwarded; `answered`, when the writer gives one, is called once with the owner's
   * answer (or why none came).
   */
  readonly forward?: (value: Value, origin: string | undefined, answered?: Answered) => SetResult;
  /**
   * With `forward`: the parameter is this hub's own — published and shared as any other —
   * though its writes are answered later, by what this hub drives (a device, R-G1; its
   * connection's process; a scene's recall; a flow's `onWrite`). Without it, a parameter
   * with `forward` mirrors one whose value lives on a broker (another hub's, a topic): `mirrored`.
   */
  readonly ownedHere?: boolean;
  /**
   * The hub keeps its value across restarts and reloads (R-S2): each change goes to the
   * graph's `kept` hook (see the state store).
   */
  readonly persist?: boolean;
  /**
   * What it says of itself (R-PK6): label, description, unit, range, step, choices. Writes
   * outside the range or the choices are refused; choices' values are converted to `type`.
   */
  readonly meta?: ParameterMeta | undefined;
}

/** `true` when the write changed the value (or fired a trigger). */
export type SetResult = Result<boolean>;

/** Told the owner's answer to a write of a parameter owned elsewhere. */
export type Answered = (result: SetResult) => void;

/**
 * A typed parameter. Guarantees: it never errors or completes while it exists; a state
 * parameter notifies only on change, in the same order to every listener, even when a
 * listener writes to it while being notified; a trigger notifies on every fire. A write
 * made while the parameter is notifying is delivered with the chain of causes it was made
 * in (`lib/core/cause.ts`), as if it had been delivered at once.
 */
export interface Parameter {
  readonly address: string;
  readonly connectionId: string;
  readonly id: string;
  readonly type: ValueType;
  readonly access: Access;
  /** True when its connection has the hub keep its value across restarts (R-S2), as it does with a state folder. */
  readonly persist: boolean;
  /**
   * True when a write is answered later: it is forwarded to the parameter's owner (a device,
   * another hub, a scene's recall, an http-client request), `set` says only that it went,
   * and `answered` is told the owner's answer; its value follows what the owner reports.
   */
  readonly answersLater: boolean;
  /**
   * True when its value lives on a broker, not here: another hub's parameter (R-M5), or a
   * topic an mqtt connection maps. This hub neither publishes nor shares it.
   */
  readonly mirrored: boolean;
  /** What it says of itself (R-PK6), `undefined` when it says nothing. */
  readonly meta: ParameterMeta | undefined;
  /** The current value, `undefined` while unknown; always `undefined` for a trigger. */
  readonly value: Value | undefined;
  /** The current value on subscribe (when known), then every change or fire. */
  readonly values$: Observable<Value>;
  /** Every change or fire after subscribing. */
  readonly changes$: Observable<Value>;
  /**
   * Who made the last change or fire, and when (R-O2): `http <client address>`, `ws <client
   * address>`, `rule <path>`, `flow <id>`, `connection` (its own connection reported it),
   * `restore`; undefined while it has had none since it was defined.
   */
  readonly lastChange: LastChange | undefined;
  /**
   * Converts and writes `raw` (R-C); refused for read-only parameters. Never throws. A
   * parameter that `answersLater` forwards the write to its owner and calls `answered` with the
   * owner's answer; a local one has answered already and ignores it.
   */
  set(raw: unknown, origin?: string, answered?: Answered): SetResult;
}

export interface LastChange {
  readonly by: string;
  /** Milliseconds since the epoch. */
  readonly at: number;
}

/** The owning connection's view: it may also report values of read-only parameters. */
export interface OwnedParameter extends Parameter {
  /**
   * Converts and stores `raw` regardless of access, without calling `onWrite`. `by` says
   * who made the change when it is not the connection itself (the owner of one that answers later).
   */
  report(raw: unknown, by?: string): SetResult;
  /**
   * Says anew what it is (R-PK6), as a router's input labels change its choices; throws a
   * PB_CONVERSION HubError when a choice's value does not convert to its type.
   */
  describe(meta: ParameterMeta | undefined): void;
}

/** A parameter that mirrors one owned by another hub (R-M5): its value may become unknown again. */
export interface ProxyParameter extends OwnedParameter {
  /** Makes the value unknown, notifying no one: its owner went away. */
  forget(): void;
}

const UNKNOWN = Symbol('unknown');
/** Who is told of a change: a subscriber of `changes$` or `values$`, or the rule engine (`onChange`). */
type Listener = (value: Value) => void;
const NO_LISTENERS: readonly Listener[] = [];
type Slot = Value | typeof UNKNOWN;
const CHANGED: SetResult = ok(true);
const UNCHANGED: SetResult = ok(false);

class TypedParameter implements ProxyParameter {
  readonly address: string;
  private current: Slot = UNKNOWN;
  private changedBy: string | undefined;
  private changedAt = 0;
  /**
   * Who listens, in the order they came. Replaced, never changed in place, so a delivery
   * goes to the listeners there were when it began, whoever comes or goes meanwhile: what
   * a Subject does, without its per-call checks on the hottest path of the hub (each rule
   * hop passes here once).
   */
  private listeners: readonly Listener[] = NO_LISTENERS;
  /**
   * The last value delivered to listeners, which `values$` replays; `current` may be ahead
   * of it while a re-entrant write waits in `queued`. Always unknown for a trigger.
   */
  private delivered: Slot = UNKNOWN;
  private delivering = false;
  private queued: { readonly value: Value; readonly cause: Cause }[] | undefined;
  /** Read-only to all but `describe`, through the `Parameter` it is handed as. */
  meta: ParameterMeta | undefined;

  constructor(
    readonly connectionId: string,
    readonly id: string,
    private readonly spec: ParameterSpec,
    private readonly hooks: ParameterHooks | undefined,
    address: string,
  ) {
    this.address = address;
    this.meta = inType(spec.meta, spec.type, address);
    if (spec.initial !== undefined) {
      // Set, not reported: nobody can listen yet, and a starting value is not a change.
      const initial = convert(spec.initial, spec.type);
      if (!initial.ok) throw new HubError(initial.error.code, `${this.address}: ${initial.error.message}`);
      if (spec.type !== 'T') {
        this.current = initial.value;
        this.delivered = initial.value;
        if (spec.initialBy !== undefined) this.changed(spec.initialBy, spec.initialAt);
      }
    }
  }

  describe(meta: ParameterMeta | undefined): void {
    this.meta = inType(meta, this.spec.type, this.address);
    this.hooks?.described?.(this);
  }

  get lastChange(): LastChange | undefined {
    return this.changedBy === undefined ? undefined : { by: this.changedBy, at: this.changedAt };
  }

  /** Kept as two fields, not an object, so that a change allocates nothing for it. */
  private changed(by: string, at?: number): void {
    this.changedBy = by;
    this.changedAt = at ?? wallClockOfTurn();
  }

  get type(): ValueType {
    return this.spec.type;
  }

  get access(): Access {
    return this.spec.access;
  }

  get persist(): boolean {
    return this.spec.persist === true;
  }

  get answersLater(): boolean {
    return this.spec.forward !== undefined;
  }

  get mirrored(): boolean {
    return this.spec.forward !== undefined && this.spec.ownedHere !== true;
  }

  get value(): Value | undefined {
    return this.current === UNKNOWN ? undefined : this.current;
  }

  get values$(): Observable<Value> {
    if (this.spec.type === 'T') return this.changes$;
    // The value delivered last is replayed after the listener is added, as a BehaviorSubject
    // does, so a write the listener makes on the replay reaches it.
    return new Observable<Value>((subscriber) => {
      const stop = this.onChange((value) => subscriber.next(value));
      if (this.delivered !== UNKNOWN) subscriber.next(this.delivered);
      return stop;
    });
  }

  get changes$(): Observable<Value> {
    return new Observable<Value>((subscriber) => this.onChange((value) => subscriber.next(value)));
  }

  /**
   * `next` called with every change or fire, with no subscriber between: the rule engine
   * follows its sources so (each rule hop passes here). Stopped, it hears nothing more, not
   * even the rest of a delivery under way. `next` must not throw.
   */
  onChange(next: Listener): () => void {
    let following = true;
    const listener: Listener = (value) => {
      if (following) next(value);
    };
    this.listeners = [...this.listeners, listener];
    return () => {
      following = false;
      this.listeners = this.listeners.filter((other) => other !== listener);
    };
  }

  set(raw: unknown, origin?: string, answered?: Answered): SetResult {
    if (this.spec.access === 'read-only') {
      return { ok: false, error: new HubError('PB_READ_ONLY', `${this.address} is read-only`) };
    }
    // A command's arguments written as the object itself (a JSON body, a WebSocket message):
    // its JSON text, checked as any other write of it (R-PK8).
    const command = this.meta?.arguments !== undefined && typeof raw === 'object' && raw !== null && !Array.isArray(raw);
    const written = command ? JSON.stringify(raw) : raw;
    const converted = this.spec.accept ? this.spec.accept(written) : convert(written, this.spec.type);
    if (!converted.ok) return this.named(converted.error);
    let value = converted.value;
    if (this.meta !== undefined && this.spec.type !== 'T') {
      const refused = refusal(this.meta, value);
      if (refused !== undefined) return { ok: false, error: new HubError('PB_CONVERSION', `${this.address}: ${refused}`) };
      if (this.meta.arguments !== undefined) {
        const command = argumentsOf(this.meta.arguments, value);
        if (!command.ok) return { ok: false, error: new HubError('PB_CONVERSION', `${this.address}: ${command.why}`) };
        value = command.text;
      }
    }
    if (this.spec.forward) return this.spec.forward(value, origin, answered);
    const changed = this.store(value, origin ?? 'a client');
    this.spec.onWrite?.(value, origin);
    return changed;
  }

  report(raw: unknown, by = 'connection'): SetResult {
    const converted = convert(raw, this.spec.type);
    return converted.ok ? this.store(converted.value, by) : this.named(converted.error);
  }

  forget(): void {
    this.current = UNKNOWN;
    this.delivered = UNKNOWN;
  }

  private store(value: Value, origin: string): SetResult {
    const trace = this.hooks?.trace;
    if (this.spec.type !== 'T') {
      if (this.current === value) {
        if (trace) trace(this, value, origin, false);
        return UNCHANGED;
      }
      this.current = value;
      if (this.spec.persist === true) this.hooks?.kept?.(this, value);
    }
    this.changed(origin);
    if (trace) trace(this, value, origin, true);
    this.deliver(value);
    return CHANGED;
  }

  private deliver(value: Value): void {
    if (this.delivering) {
      // The write waits for the delivery in progress, so it leaves its writer's call stack;
      // its cause goes with it, or whoever follows causes would see a fresh change.
      (this.queued ??= []).push({ value, cause: this.hooks?.tracker?.capture() });
      return;
    }
    this.delivering = true;
    try {
      this.emit(value);
      if (this.queued?.length) this.drain(this.queued);
    } finally {
      this.delivering = false;
    }
  }

  /** Delivers the writes queued meanwhile, in order, each with the chain of causes it was made in. */
  private drain(queued: { readonly value: Value; readonly cause: Cause }[]): void {
    for (let next = queued.shift(); next !== undefined; next = queued.shift()) {
      const tracker = this.hooks?.tracker;
      tracker?.resume(next.cause);
      try {
        this.emit(next.value);
      } finally {
        tracker?.end();
      }
    }
  }

  private emit(value: Value): void {
    if (this.spec.type !== 'T') this.delivered = value;
    this.hooks?.delivery?.(this, value);
    const listeners = this.listeners;
    for (let i = 0; i < listeners.length; i++) listeners[i]!(value);
  }

  private named(error: HubError): SetResult {
    return { ok: false, error: new HubError(error.code, `${this.address}: ${error.message}`) };
  }
}

/**
 * Creates a parameter; throws a PB_CONVERSION HubError when `initial` does not convert.
 * `hooks` are its graph's (see `ParameterHooks`); `address` is
 * given when the caller has made it already (one string per parameter, not two).
 */
export function createParameter(
  connectionId: string,
  id: string,
  spec: ParameterSpec,
  hooks?: ParameterHooks,
  address = `${connectionId}/${id}`,
): ProxyParameter {
  return new TypedParameter(connectionId, id, spec, hooks, address);
}

/**
 * The hooks every parameter of one graph calls as a value goes through it: the way past
 * `set` a write reaches the state store, the WebSocket clients, debug tracing and the loop
 * guard without a hook per parameter (docs/reference/write-path.md). Private to the graph,
 * each set through a method of `Graph` by its one owner, named at each hook below.
 * Guarantee: a parameter that queues a re-entrant write captures the chain of causes in effect
 * with it and delivers it with that chain resumed, so the write counts as caused by its writer
 * exactly as an immediate delivery would.
 */
export interface ParameterHooks {
  /** The chain of causes in effect (the rules' loop guard, R-R5): set by hub/logic.ts with `Graph.hooks.followCausesWith`. */
  tracker: CauseTracker | undefined;
  /**
   * Told of every write and report a parameter stores (before its listeners hear of it), with
   * its origin, while debug logging wants them (R-O2): one check on the hot path when it does
   * not. Set by hub/trace-writes.ts with `Graph.hooks.traceWith`.
   */
  trace?: WriteTrace | undefined;
  /**
   * Told of every change and fire of every parameter, in delivery order and before the
   * parameter's own listeners: the WebSocket layer's fan-out (http/ws/fan-out.ts) and a connection
   * process's mirror (hub/isolation/child.ts), through `Graph.hooks.onDelivery`.
   */
  delivery?: Delivery | undefined;
  /**
   * Told of every change of a parameter whose `persist` is true (not of its initial value),
   * before its listeners: how the hub writes kept values through to its state store (R-S1).
   * Set by `Hub` (hub/hub.ts) with `Graph.hooks.keepWith`.
   */
  kept?: Delivery | undefined;
  /**
   * Told when a parameter says anew what it is (`describe`, R-PK6), not when it is defined:
   * how a connection process tells the hub, and the WebSocket layer its `?events=1` clients.
   * Set through `Graph.hooks.onDescribed` (hub/isolation/child.ts, http/ws/route.ts).
   */
  described?: ((parameter: Parameter) => void) | undefined;
}

/** A change (or fire) as it is delivered: the parameter, and its new value. */
export type Delivery = (parameter: Parameter, value: Value) => void;

/** One stored write: `origin` is the writer's name (`http`, `ws`, `rule rules[0]`, `flow <id>`), undefined for a report of the owning connection. */
export type WriteTrace = (parameter: Parameter, value: Value, origin: string | undefined, changed: boolean) => void;

/**
 * Calls `next` with every change or fire of `parameter` until the returned function is
 * called. The graph's own parameters call it straight, without the subscriber `changes$`
 * puts between, which costs each rule hop about a tenth (`npm run bench:rules`); any other
 * parameter (a view of one) is subscribed to. `next` must not throw.
 */
export function onChange(parameter: Parameter, next: (value: Value) => void): () => void {
  if (parameter instanceof TypedParameter) return parameter.onChange(next);
  const subscription = parameter.changes$.subscribe(next);
  return () => subscription.unsubscribe();
}
