import { answerOf, type ErrorCode, type ErrorStatus } from '../core/errors.ts';
import { isJsonType } from './body.ts';
import type { HttpRequest, HttpResponse } from './uws.ts';

/**
 * A status line for every status an error code answers with, and for 200: typed so that a
 * code added to the error table with a new status does not compile until it has a line.
 * 503 keeps the reason phrase R-H1 gives it.
 */
export const statusLines = {
  200: '200 OK',
  204: '204 No Content',
  303: '303 See Other',
  400: '400 Bad Request',
  401: '401 Unauthorized',
  403: '403 Forbidden',
  404: '404 Not Found',
  405: '405 Method Not Allowed',
  409: '409 Conflict',
  412: '412 Precondition Failed',
  413: '413 Payload Too Large',
  415: '415 Unsupported Media Type',
  422: '422 Unprocessable Content',
  426: '426 Upgrade Required',
  423: '423 Locked',
  428: '428 Precondition Required',
  500: '500 Internal Server Error',
  502: '502 Bad Gateway',
  503: '503 Service Unavailable',
  504: '504 Gateway Timeout',
  508: '508 Loop Detected',
} as const satisfies Record<ErrorStatus | 200 | 204 | 303, string>;

export const TEXT = 'text/plain; charset=utf-8';
export const JSON_TYPE = 'application/json';
/** Where text clients find the code of an error answer (JSON clients get it in the body too). */
export const CODE_HEADER = 'X-Patchbay-Code';

/** What an error answer needs: a `HubError`, or the same two fields without a stack. */
export interface CodedError {
  readonly code: ErrorCode;
  readonly message: string;
  /** A connection type's own code (R-PK8): answered in place of `code` when declared. */
  readonly declared?: string | undefined;
}

/** The codes of a refusal for a log line: the type's own, as the client got it, and the hub's (`OBS_OUTPUT, PB_BAD_ANSWER`). */
export const codesOf = (error: CodedError): string => (error.declared ? `${error.declared}, ${error.code}` : error.code);

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
const ANSWER_HEADERS = Symbol('headers for every answer');
const HEAD = Symbol('answers a HEAD request');
const POLICY = Symbol('the Content-Security-Policy of this answer');
type Tagged = HttpResponse & { [ANSWER_HEADERS]?: readonly Header[]; [HEAD]?: boolean; [TALLY]?: Tally; [POLICY]?: string };

/**
 * The `Content-Security-Policy` that keeps a page from being framed: part of every page
 * policy. Other answers say it with `X-Frame-Options: DENY` alone: a third header on every
 * answer cost a tenth of the GET requests a second (bench scenario 1), and every browser
 * honours `X-Frame-Options`.
 */
export const FRAME_POLICY = "frame-ancestors 'none'";

/** Gives this answer a `Content-Security-Policy` (which should include `FRAME_POLICY`). */
export function withPolicy(res: HttpResponse, policy: string): void {
  (res as Tagged)[POLICY] = policy;
}

/** Marks the answer to a HEAD request: it gets the headers of the GET answer and no body. */
export function answerHead(res: HttpResponse): void {
  (res as Tagged)[HEAD] = true;
}

export const isHead = (res: HttpResponse): boolean => (res as Tagged)[HEAD] === true;

/** Ends an answer with its body, or for HEAD with the body's length and no body. */
export function finish(res: HttpResponse, body: string | Buffer = '', close = false): void {
  if (!(res as Tagged)[HEAD]) return void res.end(body, close);
  // This uWS build aborts the process when endWithoutBody is given any argument: the
  // length goes as a header, and a HEAD answer has no unread body to close for.
  res.writeHeader('Content-Length', String(typeof body === 'string' ? Buffer.byteLength(body) : body.length));
  res.endWithoutBody();
}

/**
 * Headers that whatever answer a request gets must carry (CORS headers for an allowed
 * origin), set at the edge before the handler runs; every writer below adds them.
 */
export function answerWith(res: HttpResponse, headers: readonly Header[]): void {
  (res as Tagged)[ANSWER_HEADERS] = headers;
}

/** Counts answers by status for one route (`/metrics`): set on a request at the edge. */
export type Tally = Map<number, number>;
const TALLY = Symbol('the route tally of this answer');

/** Counts this request's answer in `tally` once its status is written. */
export function tallyIn(res: HttpResponse, tally: Tally): void {
  (res as Tagged)[TALLY] = tally;
}

type Answered = keyof typeof statusLines;

/** R-H1: an unknown value answers 503 with this reason phrase; other 503s are Service Unavailable. */
const STATE_UNKNOWN = '503 State Unknown';

function writeStatus(res: HttpResponse, status: Answered, line: string = statusLines[status]): HttpResponse {
  const tally = (res as Tagged)[TALLY];
  if (tally) tally.set(status, (tally.get(status) ?? 0) + 1);
  res.writeStatus(line);
  // On every answer, errors and files included: no type is sniffed from a body, no page is framed.
  // Only pages that set one get a Content-Security-Policy (see FRAME_POLICY).
  res.writeHeader('X-Content-Type-Options', 'nosniff');
  res.writeHeader('X-Frame-Options', 'DENY');
  const policy = (res as Tagged)[POLICY];
  if (policy) res.writeHeader('Content-Security-Policy', policy);
  const extra = (res as Tagged)[ANSWER_HEADERS];
  if (extra) for (const [name, value] of extra) res.writeHeader(name, value);
  return res;
}

/** Starts a 200 answer whose body follows in chunks (lib/http/stream.ts). */
export function startOk(res: HttpResponse, contentType: string): HttpResponse {
  return writeStatus(res, 200).writeHeader('Content-Type', contentType);
}

/** Writes a whole 200 response. Call inside `res.cork` when after an await. */
export function sendOk(res: HttpResponse, contentType: string, body: string | Buffer, headers: readonly Header[] = []): void {
  writeStatus(res, 200).writeHeader('Content-Type', contentType);
  for (const [name, value] of headers) res.writeHeader(name, value);
  finish(res, body);
}

/** An answer without a body: 204, or 303 to `headers`' Location. */
export function sendEmpty(res: HttpResponse, status: 204 | 303, headers: readonly Header[]): void {
  writeStatus(res, status);
  for (const [name, value] of headers) res.writeHeader(name, value);
  res.end();
}

/**
 * The one way an error is answered: the status comes from the code, the code goes in the
 * `X-Patchbay-Code` header, and the body is the reason as text or, for JSON clients,
 * `{"ok":false,"error","code"}`. There is no way to answer an error without a code.
 */
export function sendError(
  res: HttpResponse,
  error: CodedError,
  json: boolean,
  { headers = [], close = false, extra, html }: ErrorAnswerOptions = {},
): void {
  const { status, code } = answerOf(error);
  writeStatus(res, status, error.code === 'PB_STATE_UNKNOWN' ? STATE_UNKNOWN : statusLines[status]).writeHeader(CODE_HEADER, code);
  for (const [name, value] of headers) res.writeHeader(name, value);
  if (html !== undefined && !json) {
    res.writeHeader('Content-Type', 'text/html; charset=utf-8');
    res.writeHeader('Cache-Control', 'no-store');
    return finish(res, html, close);
  }
  res.writeHeader('Content-Type', json ? JSON_TYPE : TEXT);
  finish(res, json ? JSON.stringify({ ok: false, error: error.message, code, ...extra }) : error.message, close);
}

/** True when the client asked for JSON answers (R-H1: then the value is sent as JSON). */
export function acceptsJson(req: HttpRequest): boolean {
  return req.getHeader('accept').includes(JSON_TYPE);
}

/** A browser navigating: it asks for HTML (scripts' fetches and JSON clients do not). */
export function wantsPage(req: HttpRequest): boolean {
  return req.getHeader('accept').includes('text/html');
}

/** JSON clients get JSON error answers: they asked for JSON, or sent it. Read before the handler returns. */
export function jsonClient(req: HttpRequest): boolean {
  return acceptsJson(req) || isJsonType(req.getHeader('content-type'));
}
