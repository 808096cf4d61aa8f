/**
 * Defaults of connection settings, written once: in the schema, where editors, the flow
 * file's validation and the generated reference read them, and from there filled into the
 * settings a type parses — so a type's `parse` and `create` see every defaulted setting
 * present, typed as such, and never write the default a second time.
 */
import { type Static, type TArray, type TObject, type TOptional, type TProperties, type TSchema, Type } from '@sinclair/typebox';
import type { Checked, Issue } from '../core/issue.ts';

export type { Checked, Issue } from '../core/issue.ts';

declare const defaultOf: unique symbol;

/** A setting a flow file may leave out; once parsed it is there, with its default. */
export type TDefaulted<T extends TSchema> = TOptional<T> & { readonly [defaultOf]: T };

/** Marks `schema` optional in a flow file, with `value` as what it is when left out. */
export function withDefault<T extends TSchema>(schema: T, value: Static<T>): TDefaulted<T> {
  return Type.Optional({ ...schema, default: value }) as unknown as TDefaulted<T>;
}

/**
 * Marks a setting as one that matters only when sibling settings have one of the given
 * values (`{ mode: ['send'] }`): the console's form shows it only then, or when it is
 * written anyway. Not a check: a flow that writes it otherwise is taken as it is.
 */
export function appliesWhen<T extends TSchema>(conditions: Readonly<Record<string, readonly (string | number | boolean)[]>>, schema: T): T {
  return { ...schema, appliesWhen: conditions };
}

/** Settings as a type receives them: defaulted settings present at every depth, the others as the schema says. */
export type Parsed<T extends TSchema> = T extends { readonly [defaultOf]: infer U extends TSchema }
  ? Parsed<U>
  : T extends TObject<infer P>
    ? ParsedObject<P>
    : T extends TArray<infer I>
      ? Parsed<I>[]
      : Static<T>;

type Defaulted<S> = S extends { readonly [defaultOf]: TSchema } ? true : false;
type Optional<S> = S extends TOptional<TSchema> ? true : false;

type ParsedObject<P extends TProperties> = {
  [K in keyof P as Optional<P[K]> extends true ? (Defaulted<P[K]> extends true ? K : never) : K]: Parsed<P[K]>;
} & {
  [K in keyof P as Optional<P[K]> extends true ? (Defaulted<P[K]> extends true ? never : K) : never]?: Parsed<P[K]>;
};

interface Node {
  readonly default?: unknown;
  readonly properties?: Readonly<Record<string, Node>>;
  readonly items?: Node;
}

/**
 * `settings` with the schema's defaults filled in where they are missing, at every depth
 * (objects and the objects in arrays), as a copy: the flow document stays as written.
 * Parts whose schema holds no default are handed on as they are, so a dummy's million lines
 * are not walked.
 */
export function fillDefaults(schema: TSchema, settings: unknown): unknown {
  const node = schema as Node;
  // A default object is filled in turn: `{}` stands for its members' own defaults.
  if (settings === undefined) return node.default === undefined ? undefined : fillDefaults(schema, structuredClone(node.default));
  if (!holdsDefaults(node)) return settings;
  if (Array.isArray(settings)) return node.items ? settings.map((item) => fillDefaults(node.items as TSchema, item)) : settings;
  if (node.properties && typeof settings === 'object' && settings !== null) {
    const filled: Record<string, unknown> = { ...(settings as Record<string, unknown>) };
    for (const [key, property] of Object.entries(node.properties)) {
      const value = fillDefaults(property as TSchema, filled[key]);
      if (value !== undefined) filled[key] = value;
    }
    return filled;
  }
  return settings;
}

/** Whether a default stands anywhere below this node (its own is for its parent to fill). */
const holdsDefaults = (node: Node): boolean =>
  Object.values(node.properties ?? {}).some((property) => property.default !== undefined || holdsDefaults(property)) ||
  (node.items !== undefined && (node.items.default !== undefined || holdsDefaults(node.items)));

/** For types whose settings need nothing beyond the schema. */
export function asWritten<T>(settings: T): Checked<T> {
  return { ok: true, value: settings };
}

/** Mistakes found while parsing, or the parsed value when there are none. */
export function checked<T>(issues: readonly Issue[], value: T): Checked<T> {
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value };
}
