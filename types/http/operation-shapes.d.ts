/**
 * The shapes the descriptions of HTTP operations are written in (`operations.ts`,
 * `flow-operations.ts`), read by the OpenAPI description (`openapi.ts`, R-DS1) and the HTTP
 * reference (`http-reference.ts`).
 */
import { type TSchema } from '@sinclair/typebox';
import type { ErrorCode } from '../core/errors.ts';
export interface OperationDescription {
    readonly summary: string;
    readonly description: string;
    /** The group it is listed under. */
    readonly tag: 'values' | 'hub' | 'flow' | 'files' | 'descriptions';
    readonly query?: Readonly<Record<string, Query>>;
    /** The path's one variable part (`*` or `:name` in the route), when it has one. */
    readonly variable?: {
        readonly name: string;
        readonly description: string;
        readonly schema?: TSchema;
    };
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
export declare const EDGE_ERRORS: readonly ErrorCode[];
export declare const TEXT = "text/plain; charset=utf-8";
export declare const JSON_TYPE = "application/json";
export declare const JSON5 = "application/json5";
export declare const FORM = "application/x-www-form-urlencoded";
/** Operations by route path and method. */
export type Operations = Readonly<Record<string, Readonly<Partial<Record<'get' | 'post' | 'put', OperationDescription>>>>>;
/** An answer with bodies by media type, and the headers it carries. */
export declare const ok: (description: string, content: Readonly<Record<string, TSchema>>, headers?: Readonly<Record<string, string>>) => Answer;
/** A write taken. */
export declare const takenAnswer: Answer;
/** The schema of a coded error answer whose code is one of `codes`. */
export declare const errorAnswerOf: (codes: readonly ErrorCode[], fields?: Readonly<Record<string, TSchema>>) => import("@sinclair/typebox").TObject<{
    ok: import("@sinclair/typebox").TLiteral<false>;
    error: import("@sinclair/typebox").TString;
    code: import("@sinclair/typebox").TUnsafe<"PB_BAD_ADDRESS" | "PB_RESERVED_ID" | "PB_UNKNOWN_CONNECTION" | "PB_UNKNOWN_PARAMETER" | "PB_DUPLICATE_PARAMETER" | "PB_READ_ONLY" | "PB_WRITE_ONLY" | "PB_CONVERSION" | "PB_STATE_UNKNOWN" | "PB_BAD_REQUEST" | "PB_BAD_FILTER" | "PB_UNAUTHORIZED" | "PB_FORBIDDEN" | "PB_NOT_READY" | "PB_CROSS_ORIGIN" | "PB_BAD_HOST" | "PB_NOT_FOUND" | "PB_METHOD_NOT_ALLOWED" | "PB_UPGRADE_REQUIRED" | "PB_BODY_TOO_LARGE" | "PB_BATCH_TOO_LARGE" | "PB_UNSUPPORTED_MEDIA_TYPE" | "PB_INTERNAL" | "PB_BAD_KEY" | "PB_FLOW_FILE_READ" | "PB_FLOW_FILE_INVALID" | "PB_FLOW_INVALID" | "PB_FLOW_CHANGED" | "PB_RESUME_REFUSED" | "PB_IF_MATCH_REQUIRED" | "PB_FLOW_READ_ONLY" | "PB_CREDENTIALS_REQUIRED" | "PB_FLOW_PROTECTED" | "PB_PORT_UNAVAILABLE" | "PB_STARTING" | "PB_TLS" | "PB_DOCUMENT_ROOT" | "PB_BAD_TEMPLATE" | "PB_NO_DISPLAY" | "PB_CODE_FLOW" | "PB_FEEDBACK_LOOP" | "PB_RULE_FAILED" | "PB_FILE_WRITE" | "PB_STATE_UNAVAILABLE" | "PB_STATE_LOCKED" | "PB_BROKER_UNAVAILABLE" | "PB_OWNER_UNAVAILABLE" | "PB_NOT_ACTIVE" | "PB_ALREADY_ACTIVE" | "PB_CONNECTION_OWNED" | "PB_WAITING" | "PB_DEVICE_UNAVAILABLE" | "PB_DEVICE_TIMEOUT" | "PB_BAD_ANSWER" | "PB_SCENE_EMPTY" | "PB_OVER_LIMIT" | "PB_PLUGIN_INCOMPATIBLE" | "PB_PLUGIN_LOAD" | "PB_TYPE_TAKEN" | "PB_PROCESS_ENDED" | "PB_START_FAILED">;
}>;
