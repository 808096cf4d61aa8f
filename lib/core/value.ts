import { fail, ok, type Result } from './errors.ts';

/** The five value types of R-P2, by their one-letter codes. */
export const ValueType = { String: 'S', Boolean: 'B', Integer: 'I', Float: 'F', Trigger: 'T' } as const;
export type ValueType = (typeof ValueType)[keyof typeof ValueType];

export const valueTypes: readonly ValueType[] = Object.values(ValueType);

/**
 * Who may do what with a parameter, fixed by its connection type (R-P3). Here, beside the
 * value types, rather than with parameters: core/api-shapes.ts names it, and the console's
 * type check reads that file and its imports with no Node types.
 */
export const Access = { ReadOnly: 'read-only', WriteOnly: 'write-only', ReadWrite: 'read-write' } as const;
export type Access = (typeof Access)[keyof typeof Access];

export const typeNames: Readonly<Record<ValueType, string>> = {
  S: 'string',
  B: 'boolean',
  I: 'integer',
  F: 'float',
  T: 'trigger',
};

/**
 * A value as it travels between parameters. A trigger's fire travels as `true`, which
 * converts to every type exactly as the trigger column of the conversion table says.
 */
export type Value = string | boolean | number;

export const FIRE = true;

// Optional sign, digits with an optional fraction (or a bare fraction), optional exponent.
const decimalRe = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
const trueWords = new Set(['true', '1', 'on', 'yes']);
const falseWords = new Set(['false', '0', 'off', 'no']);

function describe(raw: unknown): string {
  if (typeof raw === 'string') return JSON.stringify(raw.length > 64 ? `${raw.slice(0, 64)}…` : raw);
  if (raw === undefined) return 'no value';
  if (typeof raw === 'number' || typeof raw === 'boolean' || raw === null) return String(raw);
  if (Array.isArray(raw)) return 'an array';
  return typeof raw === 'object' ? 'an object' : `a ${typeof raw}`;
}

function rejected(raw: unknown, type: ValueType, why = ''): Result<never> {
  return fail('PB_CONVERSION', `cannot convert ${describe(raw)} to ${typeNames[type]}${why}`);
}

function toInteger(n: number, raw: unknown): Result<Value> {
  if (!Number.isFinite(n)) return rejected(raw, 'I', ': not a finite number');
  const truncated = Math.trunc(n) || 0; // `|| 0` folds -0 into 0
  return Number.isSafeInteger(truncated) ? ok(truncated) : rejected(raw, 'I', ': beyond ±(2^53−1)');
}

function fromString(text: string, type: ValueType): Result<Value> {
  switch (type) {
    case 'S':
      return ok(text);
    case 'I':
    case 'F': {
      const trimmed = text.trim();
      if (!decimalRe.test(trimmed)) return rejected(text, type, ': not a decimal number');
      const n = Number(trimmed);
      if (type === 'I') return toInteger(n, text);
      return Number.isFinite(n) ? ok(n || 0) : rejected(text, type, ': not a finite number');
    }
    case 'B': {
      const word = text.trim().toLowerCase();
      if (trueWords.has(word)) return ok(true);
      if (falseWords.has(word)) return ok(false);
      return rejected(text, type, ': expected true/false, 1/0, on/off or yes/no');
    }
    case 'T':
      return ok(FIRE);
  }
}

function fromNumber(n: number, type: ValueType): Result<Value> {
  if (!Number.isFinite(n)) return rejected(n, type, ': not a finite number');
  switch (type) {
    case 'S':
      return ok(String(n));
    case 'I':
      return toInteger(n, n);
    case 'F':
      return ok(n || 0);
    case 'B':
      return ok(n !== 0);
    case 'T':
      return ok(FIRE);
  }
}

function fromBoolean(b: boolean, type: ValueType): Result<Value> {
  switch (type) {
    case 'S':
      return ok(b ? 'true' : 'false');
    case 'I':
    case 'F':
      return ok(b ? 1 : 0);
    case 'B':
    case 'T':
      return ok(type === 'T' ? FIRE : b);
  }
}

/**
 * The one conversion function of the hub (R-C): REST, WebSocket, rules and flows all call
 * it. Never throws; a rejected value comes back as a PB_CONVERSION failure. `null` fires a
 * trigger and is rejected by every state type; objects, arrays and `undefined` are
 * rejected by all types.
 */
export function convert(raw: unknown, type: ValueType): Result<Value> {
  switch (typeof raw) {
    case 'string':
      return fromString(raw, type);
    case 'number':
      return fromNumber(raw, type);
    case 'boolean':
      return fromBoolean(raw, type);
    default:
      return raw === null && type === 'T' ? ok(FIRE) : rejected(raw, type);
  }
}

/** Data as JSON has it: what the hub stores across restarts. */
export type Json = string | number | boolean | null | readonly Json[] | { readonly [key: string]: Json };

/** The string form of a value, as sent on the wire (R-C3). */
export function toWire(value: Value): string {
  return typeof value === 'string' ? value : String(value);
}
