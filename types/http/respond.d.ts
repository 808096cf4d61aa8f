import { type ErrorCode } from '../core/errors.ts';
import type { HttpRequest, HttpResponse } from './uws.ts';
/**
 * A status line for every status an error code answers with, and for 200: typed so that a
 * code added to the error table with a new status does not compile until it has a line.
 * 503 keeps the reason phrase R-H1 gives it.
 */
export declare const statusLines: {
    readonly 200: "200 OK";
    readonly 204: "204 No Content";
    readonly 303: "303 See Other";
    readonly 400: "400 Bad Request";
    readonly 401: "401 Unauthorized";
    readonly 403: "403 Forbidden";
    readonly 404: "404 Not Found";
    readonly 405: "405 Method Not Allowed";
    readonly 409: "409 Conflict";
    readonly 412: "412 Precondition Failed";
    readonly 413: "413 Payload Too Large";
    readonly 415: "415 Unsupported Media Type";
    readonly 422: "422 Unprocessable Content";
    readonly 426: "426 Upgrade Required";
    readonly 428: "428 Precondition Required";
    readonly 500: "500 Internal Server Error";
    readonly 502: "502 Bad Gateway";
    readonly 503: "503 Service Unavailable";
    readonly 504: "504 Gateway Timeout";
    readonly 508: "508 Loop Detected";
};
export declare const TEXT = "text/plain; charset=utf-8";
export declare const JSON_TYPE = "application/json";
/** Where text clients find the code of an error answer (JSON clients get it in the body too). */
export declare const CODE_HEADER = "X-Patchbay-Code";
/** What an error answer needs: a `HubError`, or the same two fields without a stack. */
export interface CodedError {
    readonly code: ErrorCode;
    readonly message: string;
}
export interface ErrorAnswerOptions {
    /** Extra headers, such as `WWW-Authenticate` or `Allow`. */
    readonly headers?: readonly Header[];
    /** Closes the connection after answering: for a body that was never read. */
    readonly close?: boolean;
    /** More fields of the JSON body, beside `ok`, `error` and `code`. */
    readonly extra?: Readonly<Record<string, unknown>>;
    /** A page for a browser instead of the text (give it a policy with `withPolicy`). */
    readonly html?: string;
}
type Header = readonly [name: string, value: string];
/**
 * The `Content-Security-Policy` that keeps a page from being framed: part of every page
 * policy. Other answers say it with `X-Frame-Options: DENY` alone: a third header on every
 * answer cost a tenth of the GET requests a second (bench scenario 1), and every browser
 * honours `X-Frame-Options`.
 */
export declare const FRAME_POLICY = "frame-ancestors 'none'";
/** Gives this answer a `Content-Security-Policy` (which should include `FRAME_POLICY`). */
export declare function withPolicy(res: HttpResponse, policy: string): void;
/** Marks the answer to a HEAD request: it gets the headers of the GET answer and no body. */
export declare function answerHead(res: HttpResponse): void;
export declare const isHead: (res: HttpResponse) => boolean;
/** Ends an answer with its body, or for HEAD with the body's length and no body. */
export declare function finish(res: HttpResponse, body?: string | Buffer, close?: boolean): void;
/**
 * Headers that whatever answer a request gets must carry (CORS headers for an allowed
 * origin), set at the edge before the handler runs; every writer below adds them.
 */
export declare function answerWith(res: HttpResponse, headers: readonly Header[]): void;
/** Counts answers by status for one route (`/metrics`): set on a request at the edge. */
export type Tally = Map<number, number>;
/** Counts this request's answer in `tally` once its status is written. */
export declare function tallyIn(res: HttpResponse, tally: Tally): void;
/** Starts a 200 answer whose body follows in chunks (lib/http/stream.ts). */
export declare function startOk(res: HttpResponse, contentType: string): HttpResponse;
/** Writes a whole 200 response. Call inside `res.cork` when after an await. */
export declare function sendOk(res: HttpResponse, contentType: string, body: string | Buffer, headers?: readonly Header[]): void;
/** An answer without a body: 204, or 303 to `headers`' Location. */
export declare function sendEmpty(res: HttpResponse, status: 204 | 303, headers: readonly Header[]): void;
/**
 * The one way an error is answered: the status comes from the code, the code goes in the
 * `X-Patchbay-Code` header, and the body is the reason as text or, for JSON clients,
 * `{"ok":false,"error","code"}`. There is no way to answer an error without a code.
 */
export declare function sendError(res: HttpResponse, error: CodedError, json: boolean, { headers, close, extra, html }?: ErrorAnswerOptions): void;
/** True when the client asked for JSON answers (R-H1: then the value is sent as JSON). */
export declare function acceptsJson(req: HttpRequest): boolean;
/** A browser navigating: it asks for HTML (scripts' fetches and JSON clients do not). */
export declare function wantsPage(req: HttpRequest): boolean;
/** JSON clients get JSON error answers: they asked for JSON, or sent it. Read before the handler returns. */
export declare function jsonClient(req: HttpRequest): boolean;
export {};
