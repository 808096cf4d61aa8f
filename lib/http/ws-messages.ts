/**
 * Client → server WebSocket messages (R-H3), parsed once at the edge by pure functions: a
 * message is `{"p": "<address>", "v": <any JSON>}` or an array of them (a batch). Each item
 * becomes a write or an error with its code, in message order, so the answers come back in
 * the order the client sent the items.
 */
import { HubError } from '../core/errors.ts';
import type { CodedError } from './respond.ts';

/** One item of a client message: a write to make, or why it is not one. */
export type ClientItem =
  | { readonly ok: true; readonly p: string; readonly v: unknown }
  | { readonly ok: false; readonly p: string | null; readonly error: HubError };

const utf8 = new TextDecoder('utf-8', { fatal: true });
const SHAPE = 'expected {"p":"<address>","v":<value>} or an array of them';

/** The items of one message, as received (text or binary frame). */
export function parseClientMessage(message: ArrayBuffer | Uint8Array): ClientItem[] {
  let data: unknown;
  try {
    data = JSON.parse(utf8.decode(message));
  } catch {
    return [{ ok: false, p: null, error: new HubError('PB_BAD_REQUEST', 'the message is not UTF-8 JSON') }];
  }
  return (Array.isArray(data) ? data : [data]).map(parseItem);
}

function parseItem(item: unknown): ClientItem {
  if (typeof item !== 'object' || item === null || Array.isArray(item))
    return { ok: false, p: null, error: new HubError('PB_BAD_REQUEST', SHAPE) };
  const { p } = item as { p?: unknown };
  if (typeof p !== 'string') return { ok: false, p: null, error: new HubError('PB_BAD_REQUEST', SHAPE) };
  if (!('v' in item)) return { ok: false, p, error: new HubError('PB_BAD_REQUEST', SHAPE) };
  return { ok: true, p, v: (item as { v: unknown }).v };
}

/** The answer to a bad item: `{"p": <address or null>, "error": "<reason>", "code": "PB_…"}`. */
export function errorAnswer(p: string | null, error: CodedError): string {
  return JSON.stringify({ p, error: error.message, code: error.code });
}

/**
 * Server → client, only to clients that opened the socket with `?events=1` (R-U1): the set
 * of parameters changed (a reload, a connection that came or went), or values became unknown
 * (the hub that owns them went away). They fetch
 * `GET /parameters` and `GET /connections` again. Clients without the flag never see it, so
 * a `{p, v}` client is not disturbed by a message it does not know.
 */
export const parametersChanged = JSON.stringify({ event: 'parameters' });
