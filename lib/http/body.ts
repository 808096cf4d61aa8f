/**
 * The fields of an update (R-H2), parsed once at the edge by pure functions: from a query
 * string, a form or a JSON body. Each step returns a Result whose error carries the code
 * the answer is sent with, so the uWS glue only collects bytes and answers.
 */
import { fail, ok, type Result } from '../core/errors.ts';

/** What `/update` asks for: an address and a raw value, converted later by the parameter (R-C). */
export interface UpdateFields {
  readonly parameter: string;
  /** A string from a query or a form; any JSON value from a JSON body (`null` fires a trigger). */
  readonly value: unknown;
}

/** The body types `POST /update` accepts. */
export const BodyType = { Form: 'application/x-www-form-urlencoded', Json: 'application/json' } as const;
export type BodyType = (typeof BodyType)[keyof typeof BodyType];

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The media type of a `Content-Type` header, without parameters such as `charset`. */
export function mediaTypeOf(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

/** True when a `Content-Type` header says JSON: a client that sends JSON reads JSON answers. */
export function isJsonType(contentType: string): boolean {
  return mediaTypeOf(contentType) === BodyType.Json;
}

/** The body type a `Content-Type` header names; any other type is refused with 415. */
export function bodyTypeOf(contentType: string): Result<BodyType> {
  const type = mediaTypeOf(contentType);
  if (type === BodyType.Form || type === BodyType.Json) return ok(type);
  return fail('PB_UNSUPPORTED_MEDIA_TYPE', 'send the fields as application/x-www-form-urlencoded or application/json');
}

/**
 * Refuses a body of `bytes` when it is over `maxBody` (413). Checked against the declared
 * length before reading, and against the bytes received while reading, since a body may
 * come without a length.
 */
export function checkSize(bytes: number, maxBody: number): Result<number> {
  return bytes > maxBody ? fail('PB_BODY_TOO_LARGE', `the body is over ${maxBody} bytes`) : ok(bytes);
}

/** The text of a body; bytes that are not UTF-8 are refused rather than replaced. */
export function decodeUtf8(bytes: Uint8Array): Result<string> {
  try {
    return ok(utf8.decode(bytes));
  } catch {
    return fail('PB_BAD_REQUEST', 'the body is not valid UTF-8');
  }
}

/** The fields of a query string or form; both must be present (a trigger too takes any value). */
export function formFields(fields: URLSearchParams): Result<UpdateFields> {
  return updateFields(fields.get('parameter'), fields.has('value'), fields.get('value'));
}

/** The fields of a JSON object `{"parameter": "<address>", "value": <any JSON>}`. */
export function jsonFields(text: string): Result<UpdateFields> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return fail('PB_BAD_REQUEST', 'the body is not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return fail('PB_BAD_REQUEST', 'expected a JSON object {"parameter": "<address>", "value": <value>}');
  }
  const fields = parsed as Record<string, unknown>;
  return updateFields(fields['parameter'], 'value' in fields, fields['value']);
}

/** A whole `POST /update` body of the given type: decoded, then parsed. */
export function bodyFields(type: BodyType, body: Uint8Array): Result<UpdateFields> {
  const text = decodeUtf8(body);
  if (!text.ok) return text;
  return type === BodyType.Json ? jsonFields(text.value) : formFields(new URLSearchParams(text.value));
}

function updateFields(parameter: unknown, hasValue: boolean, value: unknown): Result<UpdateFields> {
  if (typeof parameter !== 'string' || parameter === '') return fail('PB_BAD_REQUEST', 'missing field "parameter"');
  if (!hasValue) return fail('PB_BAD_REQUEST', 'missing field "value"');
  return ok({ parameter, value });
}
