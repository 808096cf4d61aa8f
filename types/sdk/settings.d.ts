/**
 * Defaults of connection settings, written once: in the schema, where editors, the flow
 * file's validation and the generated reference read them, and from there filled into the
 * settings a type parses — so a type's `parse` and `create` see every defaulted setting
 * present, typed as such, and never write the default a second time.
 */
import { type Static, type TArray, type TObject, type TOptional, type TProperties, type TSchema } from '@sinclair/typebox';
import type { Checked, Issue } from '../core/issue.ts';
export type { Checked, Issue } from '../core/issue.ts';
declare const defaultOf: unique symbol;
/** A setting a flow file may leave out; once parsed it is there, with its default. */
export type TDefaulted<T extends TSchema> = TOptional<T> & {
    readonly [defaultOf]: T;
};
/** Marks `schema` optional in a flow file, with `value` as what it is when left out. */
export declare function withDefault<T extends TSchema>(schema: T, value: Static<T>): TDefaulted<T>;
/** Settings as a type receives them: defaulted settings present at every depth, the others as the schema says. */
export type Parsed<T extends TSchema> = T extends {
    readonly [defaultOf]: infer U extends TSchema;
} ? Parsed<U> : T extends TObject<infer P> ? ParsedObject<P> : T extends TArray<infer I> ? Parsed<I>[] : Static<T>;
type Defaulted<S> = S extends {
    readonly [defaultOf]: TSchema;
} ? true : false;
type Optional<S> = S extends TOptional<TSchema> ? true : false;
type ParsedObject<P extends TProperties> = {
    [K in keyof P as Optional<P[K]> extends true ? (Defaulted<P[K]> extends true ? K : never) : K]: Parsed<P[K]>;
} & {
    [K in keyof P as Optional<P[K]> extends true ? (Defaulted<P[K]> extends true ? never : K) : never]?: Parsed<P[K]>;
};
/**
 * `settings` with the schema's defaults filled in where they are missing, at every depth
 * (objects and the objects in arrays), as a copy: the flow document stays as written.
 * Parts whose schema holds no default are handed on as they are, so a dummy's million lines
 * are not walked.
 */
export declare function fillDefaults(schema: TSchema, settings: unknown): unknown;
/** For types whose settings need nothing beyond the schema. */
export declare function asWritten<T>(settings: T): Checked<T>;
/** Mistakes found while parsing, or the parsed value when there are none. */
export declare function checked<T>(issues: readonly Issue[], value: T): Checked<T>;
