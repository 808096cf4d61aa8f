import { Type } from '@sinclair/typebox';
import { compileRegex, type Pattern } from '../../core/regex.ts';
import { convert, toWire, type Value } from '../../core/value.ts';
import { defineStep, type Scalar } from '../signal.ts';

type Condition =
  | { eq: Scalar }
  | { ne: Scalar }
  | { gt: number }
  | { gte: number }
  | { lt: number }
  | { lte: number }
  | { matches: string }
  | { in: Scalar[] };

const scalar = Type.Union([Type.String(), Type.Number(), Type.Boolean()]);

/** Compares like with like: numbers numerically, booleans as booleans, text as its string form. */
export function same(value: Value | null, wanted: Scalar): boolean {
  if (value === null) return false;
  if (typeof wanted === 'number' || typeof wanted === 'boolean') {
    const converted = convert(value, typeof wanted === 'number' ? 'F' : 'B');
    return converted.ok && converted.value === wanted;
  }
  return toWire(value) === wanted;
}

function number(value: Value | null): number | undefined {
  if (value === null) return undefined;
  const converted = convert(value, 'F');
  return converted.ok ? (converted.value as number) : undefined;
}

function test(condition: Condition, value: Value | null, pattern: Pattern | undefined): boolean {
  const n = number(value);
  if ('eq' in condition) return same(value, condition.eq);
  if ('ne' in condition) return !same(value, condition.ne);
  if ('gt' in condition) return n !== undefined && n > condition.gt;
  if ('gte' in condition) return n !== undefined && n >= condition.gte;
  if ('lt' in condition) return n !== undefined && n < condition.lt;
  if ('lte' in condition) return n !== undefined && n <= condition.lte;
  if ('in' in condition) return condition.in.some((wanted) => same(value, wanted));
  return value !== null && (pattern?.test(toWire(value)) ?? false);
}

/** `{ filter: { eq | ne | gt | gte | lt | lte: x } }`, `{ filter: { matches: "regex" } }`, `{ filter: { in: [..] } }` */
export const filterStep = defineStep<Condition>({
  name: 'filter',
  summary: 'passes only values that satisfy the condition',
  schema: Type.Object(
    {
      eq: Type.Optional(scalar),
      ne: Type.Optional(scalar),
      gt: Type.Optional(Type.Number()),
      gte: Type.Optional(Type.Number()),
      lt: Type.Optional(Type.Number()),
      lte: Type.Optional(Type.Number()),
      matches: Type.Optional(Type.String()),
      in: Type.Optional(Type.Array(scalar)),
    },
    { minProperties: 1, maxProperties: 1, additionalProperties: false, expected: 'one condition: eq, ne, gt, gte, lt, lte, matches or in' },
  ),
  check(condition) {
    const compiled = 'matches' in condition ? compileRegex(condition.matches) : undefined;
    return compiled?.ok === false ? { path: ['matches'], message: compiled.error.message } : undefined;
  },
  each(condition) {
    const compiled = 'matches' in condition ? compileRegex(condition.matches) : undefined;
    const pattern = compiled?.ok ? compiled.value : undefined;
    return (signal) => (test(condition, signal.value, pattern) ? signal : undefined);
  },
});
