/**
 * Expressions (R-RS2): the one small language of rules over several sources, close to
 * Bitfocus Companion's — `prg == 1 && !$(desk/override)`, `round(level * 100) + ' %'`,
 * `includes([1, 2], prg) ? 'red' : 'off'`. Parsed by jsep (the parser Companion's own
 * expressions stand on), checked once when the flow is read, compiled to plain closures:
 * no loops, no assignment, no member access, nothing reachable but the values it names and
 * the functions below, and every text it makes bounded. A value that is unknown stays
 * unknown through every operator and function; `&&`, `||` and `?:` look only at what they
 * need, so `known && prg == 1` is false while `prg` is unknown.
 */
import jsep, { type Expression as Node } from 'jsep';
import type { Value } from './value.ts';

/** The most characters an expression may have, and the most parts it may be made of. */
export const MOST_EXPRESSION_CHARACTERS = 2000;
const MOST_NODES = 500;
/** The longest text an evaluation may make: past it, it fails. */
export const MOST_TEXT = 65_536;

/** A value in an expression: a parameter's, a list, or unknown. */
type Operand = Value | readonly Operand[] | undefined;

/** A mistake in an expression, at its 1-based column. */
export class ExpressionError extends Error {
  constructor(
    message: string,
    readonly column: number,
  ) {
    super(`column ${column}: ${message}`);
  }
}

/** A checked expression, ready to evaluate. */
export interface Expression {
  /** As written. */
  readonly source: string;
  /** The names it reads (a rule's named sources). */
  readonly names: readonly string[];
  /** The addresses it reads as `$(address)`. */
  readonly addresses: readonly string[];
  /**
   * Its value for `values` (of the names it was compiled with, in their order) and what
   * `readAddress` reads of its `$(…)`; undefined when unknown. Throws past its bounds.
   */
  evaluate(values: readonly (Value | undefined)[], readAddress: (address: string) => Value | undefined): Value | undefined;
}

type Compiled = (scope: Scope) => Operand;
interface Scope {
  readonly values: readonly (Value | undefined)[];
  readonly readAddress: (address: string) => Value | undefined;
}

const isNumber = (value: Operand): value is number => typeof value === 'number';
const num = (value: Operand): number =>
  typeof value === 'number' ? value : typeof value === 'boolean' ? Number(value) : Number(String(value));
const text = (value: Operand): string => {
  const made = Array.isArray(value) ? value.map(text).join(',') : String(value);
  if (made.length > MOST_TEXT) throw new RangeError(`a text of more than ${MOST_TEXT} characters`);
  return made;
};
const truthy = (value: Operand): boolean =>
  Array.isArray(value) ? value.length > 0 : Boolean(value) && value !== '0' && value !== 'false';
/** Equality as a studio means it: `1 == '1'`, `true == 1`; a list equals no single value. */
const equal = (a: Operand, b: Operand): boolean => {
  if (typeof a === typeof b) return a === b;
  if (Array.isArray(a) || Array.isArray(b)) return false;
  if (typeof a === 'boolean' || typeof b === 'boolean') return num(a) === num(b);
  return String(a) === String(b);
};
/** A number a parameter can take: a division by zero, or text that is no number, fails the evaluation (and says so). */
const finite = (n: number): number => {
  if (Number.isFinite(n)) return n;
  throw new RangeError(`it made ${n}, which no parameter takes (a division by zero, or text that is no number?)`);
};

/** The functions an expression may call, by Companion's names where it has one: each gets known arguments only. */
const functions: Readonly<Record<string, { readonly arity: readonly [number, number]; readonly call: (...args: Operand[]) => Operand }>> = {
  round: { arity: [1, 2], call: (v, digits = 0) => finite(Math.round(num(v) * 10 ** num(digits)) / 10 ** num(digits)) },
  floor: { arity: [1, 1], call: (v) => finite(Math.floor(num(v))) },
  ceil: { arity: [1, 1], call: (v) => finite(Math.ceil(num(v))) },
  abs: { arity: [1, 1], call: (v) => finite(Math.abs(num(v))) },
  min: { arity: [1, 64], call: (...vs) => finite(Math.min(...vs.map(num))) },
  max: { arity: [1, 64], call: (...vs) => finite(Math.max(...vs.map(num))) },
  clamp: { arity: [3, 3], call: (v, low, high) => finite(Math.min(Math.max(num(v), num(low)), num(high))) },
  toFixed: { arity: [2, 2], call: (v, digits) => num(v).toFixed(Math.min(Math.max(Math.trunc(num(digits)), 0), 20)) },
  isNumber: { arity: [1, 1], call: (v) => isNumber(v) || (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) },
  number: { arity: [1, 1], call: (v) => finite(num(v)) },
  string: { arity: [1, 1], call: (v) => text(v) },
  bool: { arity: [1, 1], call: (v) => truthy(v) },
  trim: { arity: [1, 1], call: (v) => text(v).trim() },
  strlen: { arity: [1, 1], call: (v) => text(v).length },
  substr: { arity: [2, 3], call: (v, start, end) => text(v).slice(num(start), end === undefined ? undefined : num(end)) },
  concat: { arity: [1, 64], call: (...vs) => text(vs.map(text).join('')) },
  toUpperCase: { arity: [1, 1], call: (v) => text(v).toUpperCase() },
  toLowerCase: { arity: [1, 1], call: (v) => text(v).toLowerCase() },
  replaceAll: { arity: [3, 3], call: (v, find, by) => text(text(v).replaceAll(text(find), text(by))) },
  includes: {
    arity: [2, 2],
    call: (within, what) => (Array.isArray(within) ? within.some((item) => equal(item, what)) : text(within).includes(text(what))),
  },
  indexOf: {
    arity: [2, 2],
    call: (within, what) => (Array.isArray(within) ? within.findIndex((item) => equal(item, what)) : text(within).indexOf(text(what))),
  },
};

/** `a + b`: numbers add, anything else joins as text (as in Companion). */
const binary: Readonly<Record<string, (a: Operand, b: Operand) => Operand>> = {
  '+': (a, b) =>
    isNumber(a) && isNumber(b)
      ? finite(a + b)
      : typeof a === 'boolean' && typeof b !== 'string'
        ? finite(num(a) + num(b))
        : text(text(a) + text(b)),
  '-': (a, b) => finite(num(a) - num(b)),
  '*': (a, b) => finite(num(a) * num(b)),
  '/': (a, b) => finite(num(a) / num(b)),
  '%': (a, b) => finite(num(a) % num(b)),
  '==': equal,
  '!=': (a, b) => !equal(a, b),
  '===': equal,
  '!==': (a, b) => !equal(a, b),
  '<': (a, b) => (isNumber(a) || isNumber(b) ? num(a) < num(b) : text(a) < text(b)),
  '>': (a, b) => (isNumber(a) || isNumber(b) ? num(a) > num(b) : text(a) > text(b)),
  '<=': (a, b) => (isNumber(a) || isNumber(b) ? num(a) <= num(b) : text(a) <= text(b)),
  '>=': (a, b) => (isNumber(a) || isNumber(b) ? num(a) >= num(b) : text(a) >= text(b)),
};
const unary: Readonly<Record<string, (a: Operand) => Operand>> = {
  '!': (a) => !truthy(a),
  '-': (a) => finite(-num(a)),
  '+': (a) => finite(num(a)),
};

/** `$(address)` in an expression; jsep reads it as an identifier of the same length (`$0____`), so columns stay true. */
export const EXPRESSION_ADDRESS = /\$\(([^()\s]+)\)/g;
/** `{n}`: the n-th level a rule's pattern matched (rule-patterns.ts), read as `$sN`, of the same length. */
const LEVEL = /\{(\d+)\}/g;

/**
 * Checks `source` and compiles it. `names` are the names it may read (a rule's sources);
 * any other name is a mistake. `levels` are what `{1}`, `{2}` … read (a number when they
 * are one). Throws an `ExpressionError` naming the column.
 */
export function compileExpression(source: string, names: readonly string[], levels: readonly string[] = []): Expression {
  if (source.length > MOST_EXPRESSION_CHARACTERS) throw new ExpressionError(`longer than ${MOST_EXPRESSION_CHARACTERS} characters`, 1);
  const addresses: string[] = [];
  const parsed = source
    .replace(EXPRESSION_ADDRESS, (whole, address: string) => {
      const index = addresses.indexOf(address) < 0 ? addresses.push(address) - 1 : addresses.indexOf(address);
      return `$${index}`.padEnd(whole.length, '_');
    })
    .replace(LEVEL, (_whole, n: string) => `$s${n}`);
  let root: Node;
  try {
    root = jsep(parsed);
  } catch (error) {
    const { index, description } = error as { index?: number; description?: string };
    throw new ExpressionError(description ?? String(error), (index ?? 0) + 1);
  }
  const used = new Set<string>();
  let nodes = 0;
  // jsep keeps no positions in its tree: a mistake points at where its text first appears.
  const columnOf = (node: Node): number => {
    const raw = (node as { raw?: string; name?: string }).raw ?? (node as { name?: string }).name;
    return raw ? Math.max(parsed.indexOf(raw), 0) + 1 : 1;
  };
  const compile = (node: Node): Compiled => {
    if (++nodes > MOST_NODES) throw new ExpressionError(`more than ${MOST_NODES} parts`, 1);
    switch (node.type) {
      case 'Literal': {
        const value = node['value'];
        if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return () => value;
        throw new ExpressionError(`${String(node['raw'])} is no value an expression takes`, columnOf(node));
      }
      case 'Identifier': {
        const name = node['name'] as string;
        const at = /^\$(\d+)_*$/.exec(name);
        if (at) {
          const address = addresses[Number(at[1])] as string;
          return (scope) => scope.readAddress(address);
        }
        const level = /^\$s(\d+)$/.exec(name);
        if (level) {
          const matched = levels[Number(level[1]) - 1];
          if (matched === undefined)
            throw new ExpressionError(
              `{${level[1]}} is no level its sources match (${levels.length ? `{1} to {${levels.length}}` : 'they have no + level'})`,
              columnOf(node),
            );
          const value = matched !== '' && Number.isFinite(Number(matched)) ? Number(matched) : matched;
          return () => value;
        }
        if (!names.includes(name))
          throw new ExpressionError(
            names.length === 0
              ? `"${name}" names nothing here: a parameter is $(<address>)`
              : `"${name}" names no source of this rule (${names.join(', ')}); another parameter is $(<address>)`,
            columnOf(node),
          );
        used.add(name);
        const index = names.indexOf(name);
        return (scope) => scope.values[index];
      }
      case 'ArrayExpression': {
        const items = (node['elements'] as Node[]).map(compile);
        return (scope) => items.map((item) => item(scope));
      }
      case 'UnaryExpression': {
        const operator = node['operator'] as string;
        const apply = unary[operator];
        if (!apply) throw new ExpressionError(`"${operator}" is not an operator of expressions`, columnOf(node));
        const argument = compile(node['argument'] as Node);
        return (scope) => {
          const value = argument(scope);
          return value === undefined ? undefined : apply(value);
        };
      }
      case 'BinaryExpression': {
        const operator = node['operator'] as string;
        const left = compile(node['left'] as Node);
        const right = compile(node['right'] as Node);
        if (operator === '&&' || operator === '||') {
          const stops = operator === '||';
          return (scope) => {
            const first = left(scope);
            if (first !== undefined && truthy(first) === stops) return stops;
            const second = right(scope);
            if (second !== undefined && truthy(second) === stops) return stops;
            return first === undefined || second === undefined ? undefined : !stops;
          };
        }
        const apply = binary[operator];
        if (!apply) throw new ExpressionError(`"${operator}" is not an operator of expressions`, Math.max(parsed.indexOf(operator), 0) + 1);
        return (scope) => {
          const a = left(scope);
          const b = right(scope);
          return a === undefined || b === undefined ? undefined : apply(a, b);
        };
      }
      case 'ConditionalExpression': {
        const test = compile(node['test'] as Node);
        const yes = compile(node['consequent'] as Node);
        const no = compile(node['alternate'] as Node);
        return (scope) => {
          const chosen = test(scope);
          return chosen === undefined ? undefined : truthy(chosen) ? yes(scope) : no(scope);
        };
      }
      case 'CallExpression': {
        const callee = node['callee'] as Node;
        const name = callee.type === 'Identifier' ? (callee['name'] as string) : '';
        const fn = functions[name];
        if (!fn)
          throw new ExpressionError(
            `"${name || 'that'}" is no function of expressions (${Object.keys(functions).join(', ')})`,
            columnOf(callee),
          );
        const args = (node['arguments'] as Node[]).map(compile);
        const [least, most] = fn.arity;
        if (args.length < least || args.length > most)
          throw new ExpressionError(
            `${name} takes ${least === most ? least : `${least} to ${most}`} arguments, not ${args.length}`,
            columnOf(callee),
          );
        return (scope) => {
          const values = args.map((arg) => arg(scope));
          return values.includes(undefined) ? undefined : fn.call(...values);
        };
      }
      case 'MemberExpression': {
        // Where the member is read: just before its name (`prg.length`), or at the object.
        const property = node['property'] as Node;
        const at = node['computed'] ? columnOf(node['object'] as Node) : columnOf(property) - 1;
        throw new ExpressionError(`${describe(node)} is not part of expressions`, Math.max(at, 1));
      }
      default:
        throw new ExpressionError(`${describe(node)} is not part of expressions`, columnOf(node));
    }
  };
  const compiled = compile(root);
  // A rule evaluates with the same values array and reader each time: one scope for them all.
  let scope: Scope = { values: [], readAddress: () => undefined };
  return {
    source,
    names: [...used],
    addresses,
    evaluate(values, readAddress) {
      if (scope.values !== values || scope.readAddress !== readAddress) scope = { values, readAddress };
      const value = compiled(scope);
      if (Array.isArray(value)) throw new TypeError('a list is no value a parameter takes');
      return value as Value | undefined;
    },
  };
}

const describe = (node: Node): string =>
  ({
    Compound: 'more than one expression (a , or ;)',
    MemberExpression: 'reading a member (a.b, a[b])',
    ThisExpression: '"this"',
  })[node.type] ?? `a ${node.type}`;
