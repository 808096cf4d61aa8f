/**
 * The fields of an update (R-H2), parsed once at the edge by pure functions: from a query
 * string, a form or a JSON body. Each step returns a Result whose error carries the code
 * the answer is sent with, so the uWS glue only collects bytes and answers.
 */
import { type Result } from '../core/errors.ts';
/** What `/update` asks for: an address and a raw value, converted later by the parameter (R-C). */
export interface UpdateFields {
    readonly parameter: string;
    /** A string from a query or a form; any JSON value from a JSON body (`null` fires a trigger). */
    readonly value: unknown;
}
/** The body types `POST /update` accepts. */
export declare const BodyType: {
    readonly Form: "application/x-www-form-urlencoded";
    readonly Json: "application/json";
};
export type BodyType = (typeof BodyType)[keyof typeof BodyType];
/** The media type of a `Content-Type` header, without parameters such as `charset`. */
export declare function mediaTypeOf(contentType: string): string;
/** True when a `Content-Type` header says JSON: a client that sends JSON reads JSON answers. */
export declare function isJsonType(contentType: string): boolean;
/** The body type a `Content-Type` header names; any other type is refused with 415. */
export declare function bodyTypeOf(contentType: string): Result<BodyType>;
/**
 * Refuses a body of `bytes` when it is over `maxBody` (413). Checked against the declared
 * length before reading, and against the bytes received while reading, since a body may
 * come without a length.
 */
export declare function checkSize(bytes: number, maxBody: number): Result<number>;
/** The text of a body; bytes that are not UTF-8 are refused rather than replaced. */
export declare function decodeUtf8(bytes: Uint8Array): Result<string>;
/** The fields of a query string or form; both must be present (a trigger too takes any value). */
export declare function formFields(fields: URLSearchParams): Result<UpdateFields>;
/** The fields of a JSON object `{"parameter": "<address>", "value": <any JSON>}`. */
export declare function jsonFields(text: string): Result<UpdateFields>;
/** A whole `POST /update` body of the given type: decoded, then parsed. */
export declare function bodyFields(type: BodyType, body: Uint8Array): Result<UpdateFields>;
