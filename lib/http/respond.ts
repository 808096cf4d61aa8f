import { type ErrorCode, type HubError, statusOf } from '../core/errors.ts';
import type { HttpResponse } from './uws.ts';

export const statusLines = {
  200: '200 OK',
  400: '400 Bad Request',
  401: '401 Unauthorized',
  403: '403 Forbidden',
  404: '404 Not Found',
  405: '405 Method Not Allowed',
  409: '409 Conflict',
  413: '413 Payload Too Large',
  415: '415 Unsupported Media Type',
  426: '426 Upgrade Required',
  500: '500 Internal Server Error',
  503: '503 State Unknown',
} as const;
export type HttpStatus = keyof typeof statusLines;

export const TEXT = 'text/plain; charset=utf-8';
export const JSON_TYPE = 'application/json';

/** Writes a whole response. Call inside `res.cork` when after an await. */
export function send(res: HttpResponse, status: HttpStatus, contentType: string, body: string | Buffer, closeConnection = false): void {
  res.writeStatus(statusLines[status]).writeHeader('Content-Type', contentType).end(body, closeConnection);
}

/** An error answer: plain text, or `{"ok":false,…}` for JSON clients. */
export function sendError(res: HttpResponse, status: HttpStatus, reason: string, json: boolean, code?: ErrorCode, closeConnection = false): void {
  if (json) send(res, status, JSON_TYPE, JSON.stringify({ ok: false, error: reason, ...(code ? { code } : {}) }), closeConnection);
  else send(res, status, TEXT, reason, closeConnection);
}

export function sendHubError(res: HttpResponse, error: HubError, json: boolean): void {
  sendError(res, statusOf(error.code), error.message, json, error.code);
}

/** What an error answer needs: a `HubError`, or the same two fields without a stack. */
export interface CodedError {
  readonly code: ErrorCode;
  readonly message: string;
}
