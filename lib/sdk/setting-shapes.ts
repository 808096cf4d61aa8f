/**
 * Settings that many types have, written once: a port, and the type of a parameter a
 * setting declares. A package's type uses them as a built-in one does, so every port reads
 * the same bounds and every type list the same letters.
 */
import { type TInteger, type TLiteral, type TUnion, Type } from '@sinclair/typebox';
import type { ValueType } from '../core/value.ts';

/**
 * A TCP or UDP port: 1–65535 where the hub connects or sends; with `anyFree`, 0 too, which
 * a listener takes as "any free port" (its details and its log say which).
 */
export function portSetting(description: string, { anyFree = false }: { readonly anyFree?: boolean } = {}): TInteger {
  return Type.Integer({ minimum: anyFree ? 0 : 1, maximum: 65_535, description });
}

/** The type of a parameter a setting declares: one of `types` (every type, the trigger included, by default). */
export function valueTypeSetting(description: string): TUnion<TLiteral<ValueType>[]>;
export function valueTypeSetting<const T extends ValueType>(description: string, types: readonly T[]): TUnion<TLiteral<T>[]>;
export function valueTypeSetting(
  description: string,
  types: readonly ValueType[] = ['S', 'B', 'I', 'F', 'T'],
): TUnion<TLiteral<ValueType>[]> {
  return Type.Union(
    types.map((type) => Type.Literal(type)),
    { description },
  );
}
