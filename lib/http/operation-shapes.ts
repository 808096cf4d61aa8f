/**
 * The shapes the descriptions of HTTP operations are written in, read by the OpenAPI
 * description (R-DS1) and the HTTP reference.
 */
import { type TSchema, Type } from '@sinclair/typebox';
import { ErrorCodeSchema, Taken } from '../core/api-shapes.ts';
import type { ErrorCode } from '../core/errors.ts';
import { JSON_TYPE, TEXT } from './respond.ts';

export interface OperationDescription {
  readonly summary: string;
  readonly description: string;
  /** The group it is listed under. */
  readonly tag: 'values' | 'hub' | 'flow' | 'files' | 'descriptions';
  readonly query?: Readonly<Record<string, Query>>;
  /** The path's one variable part (`*` or `:name` in the route), when it has one. */
  readonly variable?: { readonly name: string; readonly description: string; readonly schema?: TSchema };
  /** Request bodies by media type. */
  readonly body?: Readonly<Record<string, TSchema>>;
  /** Answers other than errors, by status. */
  readonly answers: Readonly<Record<number, Answer>>;
  /** The error codes it may answer with (besides those of the edge, `EDGE_ERRORS`). */
  readonly errors: readonly ErrorCode[];
  /** Fields some of its error answers carry besides `ok`, `error` and `code` (`/readyz`'s connections, a save's issues). */
  readonly errorFields?: Readonly<Record<string, TSchema>>;
  /** A GET that changes a parameter: a page of another origin may not send it (R-H10). */
  readonly changes?: boolean;
}

export interface Query {
  readonly description: string;
  readonly schema: TSchema;
  readonly required?: boolean;
  /** It may be given more than once (`?filter=a&filter=b`). */
  readonly repeats?: boolean;
}

export interface Answer {
  readonly description: string;
  /** Bodies by media type. */
  readonly content?: Readonly<Record<string, TSchema>>;
  /** Headers it carries, by name: what each says. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** What any request may be answered by the edge and the server before (or instead of) its handler. */
export const EDGE_ERRORS: readonly ErrorCode[] = ['PB_UNAUTHORIZED', 'PB_BAD_HOST', 'PB_STARTING', 'PB_INTERNAL'];

export const JSON5 = 'application/json5';
export const FORM = 'application/x-www-form-urlencoded';

/** An answer with bodies by media type, and the headers it carries. */
export const ok = (
  description: string,
  content: Readonly<Record<string, TSchema>>,
  headers?: Readonly<Record<string, string>>,
): Answer => ({
  description,
  content,
  ...(headers ? { headers } : {}),
});

/** A write taken. */
export const takenAnswer = ok('Taken: `OK`, or `{"ok": true}` for a JSON client.', { [TEXT]: Type.Literal('OK'), [JSON_TYPE]: Taken });

/** The schema of a coded error answer whose code is one of `codes`. */
export const errorAnswerOf = (codes: readonly ErrorCode[], fields: Readonly<Record<string, TSchema>> = {}) =>
  Type.Object({
    ok: Type.Literal(false),
    error: Type.String({ description: 'What went wrong, for a person.' }),
    code: codes.length > 0 ? Type.Unsafe<ErrorCode>({ ...ErrorCodeSchema, enum: [...codes] }) : ErrorCodeSchema,
    ...Object.fromEntries(Object.entries(fields).map(([name, schema]) => [name, Type.Optional(schema)])),
  });
