/**
 * A module's variables as read-only parameters `var/<variable id>` (R-CM4), made and removed
 * as the module defines them. A variable is typed from its values: text (S) until its first
 * value, then I for a whole number, F for any number, B for true/false, S for text; an I that
 * takes a fraction becomes F, and one that changes kind (a number, then a text) becomes S for
 * good. A change of type defines the parameter again. Values of variables the module never
 * defined are taken as Companion takes them: the variable is made. A module started again
 * (after its process ended) finds its variables with their last values, which stay until it
 * gives each one of its own; that value types it afresh.
 */
import {
  Access,
  type ConnectionContext,
  checkParameterId,
  type OwnedParameter,
  type Value,
  type ValueType,
  ValueType as Types,
} from '../../sdk/index.ts';

/** Variables a module may define; past it the rest are dropped and the status says so. */
export const MOST_VARIABLES = 20_000;
/** Refused ids remembered, to count each once; past it the count stops growing. */
const MOST_REFUSED = 100_000;

export interface VariableValue {
  readonly id: string;
  readonly value: unknown;
}

interface Variable {
  readonly name: string;
  type: ValueType;
  parameter: OwnedParameter;
  /** Set once the variable changed kind: it stays text. */
  mixed: boolean;
  /** Set while a module started again has not given it a value: its last value stays, and the next sets its type. */
  fresh: boolean;
}

/** `$(…)` in a text, the name inside it. */
const NAMES = /\$\(([^()]+)\)/g;

/** A hub value as Companion writes a variable into text: `$NA` for none. */
const textOf = (value: Value | undefined): string => (value === undefined ? '$NA' : String(value));

/** The type a value asks for; undefined for no value. */
function typeOf(value: unknown): ValueType | undefined {
  if (typeof value === 'boolean') return Types.Boolean;
  if (typeof value === 'number') return Number.isInteger(value) ? Types.Integer : Types.Float;
  if (typeof value === 'string') return Types.String;
  return undefined;
}

export class Variables {
  private readonly variables = new Map<string, Variable>();
  /** Ids of variables refused (over `MOST_VARIABLES`, or no parameter id), counted once each; at most `MOST_REFUSED` are remembered. */
  private readonly refusedIds = new Set<string>();

  constructor(
    private readonly context: ConnectionContext,
    private readonly overLimit: (count: number) => void,
  ) {}

  get size(): number {
    return this.variables.size;
  }

  /** The module's whole list of variables: those not in it go. */
  define(definitions: readonly { readonly id: string; readonly name?: string }[]): void {
    const wanted = new Set(definitions.map(({ id }) => id).filter((id) => typeof id === 'string'));
    // Those that go first, so that the bound counts the list as it is now.
    for (const id of [...this.variables.keys()]) if (!wanted.has(id)) this.forget(id);
    for (const { id, name } of definitions)
      if (typeof id === 'string' && !this.variables.has(id)) this.make(id, name ?? id, Types.String, undefined);
  }

  /** New values; a variable not defined yet is made. */
  set(values: readonly VariableValue[]): void {
    for (const { id, value } of values) {
      if (typeof id !== 'string') continue;
      const variable = this.variables.get(id) ?? this.make(id, id, typeOf(value) ?? Types.String, undefined);
      if (!variable) continue;
      // A module started again defines its variables empty: the values of its last run stay until it has its own.
      if (variable.fresh && (value === '' || value === undefined)) continue;
      const wanted = this.typeFor(variable, value);
      if (wanted !== variable.type) this.retype(id, variable, wanted, value);
      else if (value !== undefined) variable.parameter.report(this.shown(variable, value));
    }
  }

  /**
   * `text` with `$(<connection>:<variable>)` (a module connection's variable, by connection
   * id or, for this one, its `label`) and `$(<connection id>/<parameter id>)` (any parameter)
   * replaced by hub values (R-CM5, R-CM7); `$NA` for none, as Companion shows it. With
   * `isolate: "process"` the connection's process holds its own parameters only: another's
   * read `$NA`.
   */
  substitute(text: string, label: string | undefined): string {
    return text.replace(NAMES, (_, name: string) => {
      const named = this.resolve(name, label);
      if ('address' in named) return textOf(this.hubValue(named.address));
      const variable = this.variables.get(named.variable);
      return variable ? String(variable.parameter.value ?? '') : '$NA';
    });
  }

  /** The addresses of the hub values `text` names other than this connection's variables: what to follow. */
  named(text: string, label: string | undefined): readonly string[] {
    return [...text.matchAll(NAMES)].flatMap(([, name]) => {
      const named = this.resolve(name ?? '', label);
      return 'address' in named ? [named.address] : [];
    });
  }

  /**
   * A hub value; undefined where the hub's parameters are not (`isolate: "process"`: the
   * connection's process refuses any read of them, and they read `$NA`).
   */
  private hubValue(address: string): Value | undefined {
    try {
      return this.context.graph.get(address)?.value;
    } catch {
      return undefined;
    }
  }

  /** What `$(name)` names: a variable of this connection, or a hub address. */
  private resolve(name: string, label: string | undefined): { readonly variable: string } | { readonly address: string } {
    const colon = name.indexOf(':');
    if (colon < 0) return { address: name };
    const connection = name.slice(0, colon);
    const id = name.slice(colon + 1);
    return connection === this.context.id || connection === label ? { variable: id } : { address: `${connection}/var/${id}` };
  }

  /** The module was started again: each variable keeps its value and type until the new run gives it one. */
  restarted(): void {
    for (const variable of this.variables.values()) variable.fresh = true;
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
    return variable.type === Types.String && typeof value !== 'string' ? String(value) : (value as Value);
  }

  private make(id: string, name: string, type: ValueType, value: unknown): Variable | undefined {
    if (this.variables.size >= MOST_VARIABLES || !checkParameterId(`var/${id}`).ok) {
      if (this.refusedIds.size < MOST_REFUSED && !this.refusedIds.has(id)) {
        this.refusedIds.add(id);
        if (this.variables.size >= MOST_VARIABLES) this.overLimit(this.refusedIds.size);
      }
      return undefined;
    }
    const initial = value === undefined ? (type === Types.String ? '' : undefined) : (value as Value);
    const parameter = this.context.define(`var/${id}`, { type, access: Access.ReadOnly, ...(initial === undefined ? {} : { initial }) });
    const variable: Variable = { name, type, parameter, mixed: false, fresh: false };
    this.variables.set(id, variable);
    return variable;
  }

  private retype(id: string, variable: Variable, type: ValueType, value: unknown): void {
    const mixed = variable.mixed;
    this.forget(id);
    const made = this.make(id, variable.name, type, type === Types.String && value !== undefined ? String(value) : value);
    if (made) made.mixed = mixed;
  }

  private forget(id: string): void {
    this.variables.delete(id);
    this.context.remove(`var/${id}`);
  }
}
