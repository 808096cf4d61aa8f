/**
 * A module's variables as read-only parameters `var/<variable id>` (R-CM4), made and removed
 * as the module defines them. A variable is typed from its values: text (S) until its first
 * value, then I for a whole number, F for any number, B for true/false, S for text; an I that
 * takes a fraction becomes F, and one that changes kind (a number, then a text) becomes S for
 * good. A change of type defines the parameter again. Values of variables the module never
 * defined are taken as Companion takes them: the variable is made. A module started again
 * (after its process ended) finds its variables with their last values, which stay until it
 * gives each one of its own; that value types it afresh.
 *
 * Variables are made after the module names them, for at most `MAKING_MS` a turn of the hub's
 * loop, so a module that names 20,000 at once does not hold the loop while they are made; one
 * with a value at the next turn, one without (or with the empty text the base gives each new
 * variable) after `UNTYPED_WAIT_MS`. A module sends its list and then its values: waiting,
 * each is made with its first value's type (made as text and typed again cost twice as
 * much; a list of 20,000 made at once held the hub's loop 100 ms).
 * Until made, a variable's value is read from here. The lists a module sends (its variables,
 * their values) are themselves taken a few milliseconds a turn, in the order they came.
 */
import {
  MOST_LABEL,
  Access,
  type ConnectionContext,
  checkParameterId,
  type OwnedParameter,
  type ParameterMeta,
  type Value,
  type ValueType,
  ValueType as Types,
} from '../../sdk/index.ts';

/** Variables a module may define; past it the rest are dropped and the status says so. */
export const MOST_VARIABLES = 20_000;
/** Refused ids remembered, to count each once; past it the count stops growing. */
const MOST_REFUSED = 100_000;
/**
 * How long one turn of the hub's loop makes variables at most: a count would be no bound,
 * as a parameter costs more with more clients, followers and a slower machine (1,000 at a
 * turn held the loop 50 ms while a WebSocket client was served).
 */
const MAKING_MS = 4;
/** Variables made between looks at the clock. */
const MADE_BETWEEN_LOOKS = 32;
/**
 * How long a variable named without a value waits for one before it is made as text: long
 * enough for the values a module sends after its list to arrive on a loaded machine (a list
 * of 30,000 and their values, 2 MB, took more than 250 ms to cross at a load of 10).
 */
export const UNTYPED_WAIT_MS = 1000;

export interface VariableValue {
  readonly id: string;
  readonly value: unknown;
}

/** A variable named but not made yet: its name, and its last value if it has one. */
interface Waiting {
  readonly name: string;
  value: unknown;
  /** When it was named (performance.now()). */
  readonly since: number;
}

/** What a variable's parameter says of itself (R-CM4, R-PK6): the module's name for it. */
const labelled = (name: string): ParameterMeta => ({ label: String(name).slice(0, MOST_LABEL) });

interface Variable {
  name: string;
  type: ValueType;
  parameter: OwnedParameter;
  /** Set once the variable changed kind: it stays text. */
  mixed: boolean;
  /** Set while a module started again has not given it a value: its last value stays, and the next sets its type. */
  fresh: boolean;
}

/**
 * Whether a value is the variable's own: not none, nor the empty text a module's base gives
 * each variable it defines (which neither types a waiting variable nor replaces the last
 * run's value of one started again).
 */
const typed = (value: unknown): boolean => value !== undefined && value !== '';

/** The type a value asks for; undefined for no value. */
function typeOf(value: unknown): ValueType | undefined {
  if (typeof value === 'boolean') return Types.Boolean;
  if (typeof value === 'number') return Number.isInteger(value) ? Types.Integer : Types.Float;
  // Base 2.x lets a variable hold any JSON: a list or an object is its JSON text.
  if (typeof value === 'string' || (typeof value === 'object' && value !== null)) return Types.String;
  return undefined;
}

export class Variables {
  private readonly variables = new Map<string, Variable>();
  /** Variables to make, in the order named. */
  private readonly waiting = new Map<string, Waiting>();
  /** Lists the module sent not taken yet, in order: each takes some, and says whether it is done (see `inTurn`). */
  private lists: ((started: number) => boolean)[] = [];
  /** The next turn that makes waiting variables: at once (a value waits) or later (none does). */
  private making: { readonly soon: boolean; readonly cancel: () => void } | undefined;
  /** Ids of variables refused (over `MOST_VARIABLES`, or no parameter id), counted once each; at most `MOST_REFUSED` are remembered. */
  private readonly refusedIds = new Set<string>();

  constructor(
    private readonly context: ConnectionContext,
    private readonly overLimit: (count: number) => void,
  ) {}

  get size(): number {
    return this.variables.size + this.waiting.size;
  }

  /** The module's whole list of variables: those not in it go. */
  define(definitions: readonly { readonly id: string; readonly name?: string }[]): void {
    this.inTurn(
      () => {
        if (this.size > 0) {
          const wanted = new Set(definitions.map(({ id }) => id).filter((id) => typeof id === 'string'));
          // Those that go first, so that the bound counts the list as it is now.
          for (const id of [...this.variables.keys()]) if (!wanted.has(id)) this.forget(id);
          for (const id of [...this.waiting.keys()]) if (!wanted.has(id)) this.waiting.delete(id);
        }
        return definitions;
      },
      ({ id, name }) => {
        if (typeof id !== 'string') return false;
        const variable = this.variables.get(id);
        // Named anew (a module's names follow its config: a router's labels): its label follows.
        if (variable && typeof name === 'string' && name !== variable.name) {
          variable.name = name;
          variable.parameter.describe(labelled(name));
        } else if (!variable && !this.waiting.has(id)) return !this.name(id, name ?? id, undefined);
        return false;
      },
    );
  }

  /** New values; a variable not defined yet is made. `done` is called once they are taken. */
  set(values: readonly VariableValue[], done?: () => void): void {
    this.inTurn(
      () => values,
      ({ id, value }) => {
        if (typeof id !== 'string') return false;
        const variable = this.variables.get(id);
        if (!variable) {
          const waiting = this.waiting.get(id);
          if (!waiting) return !this.name(id, id, value);
          waiting.value = value;
          if (typed(value)) this.makeSoon();
          return false;
        }
        // A module started again defines its variables empty: the values of its last run stay until it has its own.
        if (variable.fresh && !typed(value)) return false;
        const wanted = this.typeFor(variable, value);
        if (wanted !== variable.type) this.retype(id, variable, wanted, value);
        else if (value !== undefined) variable.parameter.report(this.shown(variable, value));
        return false;
      },
      done,
    );
  }

  /**
   * A list the module sent, taken an entry at a time, for `MAKING_MS` a turn of the loop and
   * the rest at the next (a list of 30,000 held the loop 15 ms at once); lists are taken in
   * the order they came, each after the one before. `start` runs first, when its turn comes;
   * `take` says whether it refused an entry for the bound, which the status says at the list's end.
   */
  private inTurn<T>(start: () => readonly T[], take: (entry: T) => boolean, done?: () => void): void {
    let list: readonly T[] | undefined;
    let at = 0;
    let over = false;
    this.lists.push((started) => {
      list ??= start();
      while (at < list.length) {
        if (take(list[at++] as T)) over = true;
        if (at % MADE_BETWEEN_LOOKS === 0 && performance.now() - started > MAKING_MS) return false;
      }
      if (over) this.overLimit(this.refusedIds.size);
      done?.();
      return true;
    });
    if (this.lists.length === 1) this.takeLists();
  }

  /** The lists waiting, in order, for `MAKING_MS`; the rest at the next turn. */
  private takeLists(): void {
    const started = performance.now();
    for (let next = this.lists[0]; next !== undefined; next = this.lists[0]) {
      if (!next(started)) {
        setImmediate(() => this.takeLists());
        return;
      }
      this.lists.shift();
    }
  }

  /** The text of this connection's variable `id` as a module reads it in a text; undefined for none. */
  textOf(id: string): string | undefined {
    const variable = this.variables.get(id);
    if (variable) return String(variable.parameter.value ?? '');
    const waiting = this.waiting.get(id);
    return waiting ? String(waiting.value ?? '') : undefined;
  }

  /** The module was started again: each variable keeps its value and type until the new run gives it one. */
  restarted(): void {
    for (const variable of this.variables.values()) variable.fresh = true;
  }

  /**
   * The module answered `init`: the variables it gave values meanwhile are made now, so
   * they are there when the connection says it is ok (a module's own are a few hundred).
   */
  settle(): void {
    this.makeWaiting(Number.POSITIVE_INFINITY);
  }

  /** The connection stopped: nothing more is made. */
  stop(): void {
    this.making?.cancel();
    this.making = undefined;
    this.waiting.clear();
    this.lists = [];
  }

  /** A variable to make at the next turn; false if that passes the bound. */
  private name(id: string, name: string, value: unknown): boolean {
    if (this.size >= MOST_VARIABLES) {
      this.refuse(id);
      return false;
    }
    this.waiting.set(id, { name, value, since: performance.now() });
    if (typed(value)) this.makeSoon();
    else this.making ??= this.makeLater();
    return true;
  }

  /** A variable past the bound, or whose id is no parameter id: counted once. */
  private refuse(id: string): void {
    if (this.refusedIds.size < MOST_REFUSED) this.refusedIds.add(id);
  }

  private makeSoon(): void {
    if (this.making?.soon) return;
    this.making?.cancel();
    const soon = setImmediate(() => this.makeWaiting());
    this.making = { soon: true, cancel: () => clearImmediate(soon) };
  }

  private makeLater(): { readonly soon: boolean; readonly cancel: () => void } {
    const later = setTimeout(() => this.makeWaiting(), UNTYPED_WAIT_MS);
    return { soon: false, cancel: () => clearTimeout(later) };
  }

  /**
   * The waiting variables for `budgetMs`, each typed by its value, and those without one that
   * waited `UNTYPED_WAIT_MS` as text; the rest at the next turn, or later.
   */
  private makeWaiting(budgetMs = MAKING_MS): void {
    this.making?.cancel();
    this.making = undefined;
    const now = performance.now();
    let made = 0;
    let untyped = false;
    for (const [id, { name, value, since }] of this.waiting) {
      if (!typed(value) && now - since < UNTYPED_WAIT_MS) {
        untyped = true;
        continue;
      }
      if (++made % MADE_BETWEEN_LOOKS === 0 && performance.now() - now > budgetMs) return this.makeSoon();
      this.waiting.delete(id);
      if (!checkParameterId(`var/${id}`).ok) {
        this.refuse(id);
        continue;
      }
      const type = typeOf(value);
      this.make(id, name, type ?? Types.String, type !== undefined || value === undefined ? value : String(value));
    }
    if (untyped) this.making = this.makeLater();
  }

  private typeFor(variable: Variable, value: unknown): ValueType {
    const asked = typeOf(value);
    if (variable.fresh && asked !== undefined) {
      variable.fresh = false;
      variable.mixed = false;
      return asked;
    }
    if (variable.mixed || asked === undefined) return variable.type;
    // Text until the first value: the first value sets the type.
    if (variable.type === Types.String && variable.parameter.value === '') return asked;
    if (asked === variable.type) return variable.type;
    if (variable.type === Types.Integer && asked === Types.Float) return Types.Float;
    if (variable.type === Types.Float && asked === Types.Integer) return Types.Float;
    variable.mixed = true;
    return Types.String;
  }

  private shown(variable: Variable, value: unknown): Value {
    if (variable.type !== Types.String || typeof value === 'string') return value as Value;
    return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
  }

  private make(id: string, name: string, type: ValueType, value: unknown): Variable {
    const initial =
      value === undefined ? (type === Types.String ? '' : undefined) : typeof value === 'object' ? JSON.stringify(value) : (value as Value);
    const parameter = this.context.define(`var/${id}`, {
      type,
      access: Access.ReadOnly,
      meta: labelled(name),
      ...(initial === undefined ? {} : { initial }),
    });
    const variable: Variable = { name, type, parameter, mixed: false, fresh: false };
    this.variables.set(id, variable);
    return variable;
  }

  private retype(id: string, variable: Variable, type: ValueType, value: unknown): void {
    const mixed = variable.mixed;
    this.forget(id);
    const made = this.make(id, variable.name, type, type === Types.String && value !== undefined ? String(value) : value);
    made.mixed = mixed;
  }

  private forget(id: string): void {
    this.variables.delete(id);
    this.context.remove(`var/${id}`);
  }
}
