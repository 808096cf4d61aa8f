/**
 * The text of WebSocket messages (R-H3), both ways. Client → server: a message is
 * `{"p": "<address>", "v": <any JSON>}` or an array of them (a batch), parsed once at the
 * edge by pure functions; each item becomes a write or an error with its code, in message
 * order, so the answers come back in the order the client sent the items. Server → client:
 * values (`{"p","v"}`, with `by`/`at` for `?origins=1`), events, and what a resumable client
 * is told (its token, `seq` marks, resync); shapes in core/api-shapes.ts.
 */
import { answerOf, HubError } from '../../core/errors.ts';
import type { HubEvent, RefusalMessage, ResumeMessage } from '../../core/api-shapes.ts';
import type { LastChange } from '../../core/parameter.ts';
import { toWire, type Value } from '../../core/value.ts';
import type { CodedError } from '../respond.ts';

/** One item of a client message: a write to make, or why it is not one. */
export type ClientItem =
  | { readonly ok: true; readonly p: string; readonly v: unknown }
  | { readonly ok: false; readonly p: string | null; readonly error: HubError };

const utf8 = new TextDecoder('utf-8', { fatal: true });
const SHAPE = 'expected {"p":"<address>","v":<value>} or an array of them';

/**
 * The most items of one batch. A message of 1 MiB could hold half a million (`[1,1,…]`),
 * each an answer and a write to make: a client would hold the hub for as long as they take,
 * and make it hold their objects meanwhile. A thousand is more than any desk recalls at
 * once, and takes the hub about a millisecond.
 */
export const MAX_BATCH_ITEMS = 1000;

const tooLarge = new HubError(
  'PB_BATCH_TOO_LARGE',
  `a batch holds at most ${MAX_BATCH_ITEMS} items; this one has more, so none of it was written`,
);

/** The items of one message, as received (text or binary frame); a batch over `MAX_BATCH_ITEMS` is one refusal. */
export function parseClientMessage(message: ArrayBuffer | Uint8Array): ClientItem[] {
  const bytes = message instanceof Uint8Array ? message : new Uint8Array(message);
  // Counted before it is parsed: refused, it never becomes an object per item.
  if (hasMoreItems(bytes, MAX_BATCH_ITEMS)) return [{ ok: false, p: null, error: tooLarge }];
  let data: unknown;
  try {
    data = JSON.parse(utf8.decode(bytes));
  } catch {
    return [{ ok: false, p: null, error: new HubError('PB_BAD_REQUEST', 'the message is not UTF-8 JSON') }];
  }
  return (Array.isArray(data) ? data : [data]).map(parseItem);
}

const [SPACE, TAB, LF, CR, QUOTE, BACKSLASH, COMMA] = [0x20, 0x09, 0x0a, 0x0d, 0x22, 0x5c, 0x2c];
const [OPEN_ARRAY, CLOSE_ARRAY, OPEN_OBJECT, CLOSE_OBJECT] = [0x5b, 0x5d, 0x7b, 0x7d];

/**
 * Whether the message is an array of more than `limit` items, read from its bytes without
 * parsing it: the commas outside strings at the array's own depth. (Every byte this looks
 * for is ASCII, which UTF-8 never uses inside a longer character.)
 */
function hasMoreItems(bytes: Uint8Array, limit: number): boolean {
  let at = 0;
  while (at < bytes.length && (bytes[at] === SPACE || bytes[at] === TAB || bytes[at] === LF || bytes[at] === CR)) at++;
  if (bytes[at] !== OPEN_ARRAY) return false;
  let depth = 0;
  let commas = 0;
  for (; at < bytes.length; at++) {
    const byte = bytes[at];
    if (byte === QUOTE) {
      // To the closing quote, over escaped characters.
      for (at++; at < bytes.length && bytes[at] !== QUOTE; at++) if (bytes[at] === BACKSLASH) at++;
    } else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) depth++;
    else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) {
      if (--depth === 0) return false;
    } else if (byte === COMMA && depth === 1 && ++commas >= limit) return true;
  }
  return false;
}

function parseItem(item: unknown): ClientItem {
  if (typeof item !== 'object' || item === null || Array.isArray(item))
    return { ok: false, p: null, error: new HubError('PB_BAD_REQUEST', SHAPE) };
  const { p } = item as { p?: unknown };
  if (typeof p !== 'string') return { ok: false, p: null, error: new HubError('PB_BAD_REQUEST', SHAPE) };
  if (!('v' in item)) return { ok: false, p, error: new HubError('PB_BAD_REQUEST', SHAPE) };
  return { ok: true, p, v: (item as { v: unknown }).v };
}

/** The answer to a bad item: `{"p": <address or null>, "error": "<reason>", "code": "PB_…"}` (or the type's own code, R-PK8). */
export function errorAnswer(p: string | null, error: CodedError): string {
  return JSON.stringify({ p, error: error.message, code: answerOf(error).code } satisfies RefusalMessage);
}

/**
 * Server → client, only to clients that opened the socket with `?events=1` (R-U1): the set
 * of parameters changed (a reload, a connection that came or went), or values became unknown
 * (the hub that owns them went away). They fetch
 * `GET /parameters` and `GET /connections` again. Clients without the flag never see it, so
 * a `{p, v}` client is not disturbed by a message it does not know.
 */
export const parametersChanged = JSON.stringify({ event: 'parameters' } satisfies HubEvent);

/**
 * Server → client, only to `?events=1` clients (R-U1): a connection's status changed,
 * connections came or went, or the flow was reloaded (its rules may have changed alone). They
 * fetch `GET /connections` (and `GET /rules`) again: no polling.
 */
export const connectionsChanged = JSON.stringify({ event: 'connections' } satisfies HubEvent);

/** `{"resume": <token>, "seq": <n>}`: a resumable topic's greeting (R-W3). */
export const greeting = (token: string, seq: number) => JSON.stringify({ resume: token, seq } satisfies ResumeMessage);
/** `{"seq": <n>}`: where a resumable client's snapshot of values stands. */
export const seqMark = (seq: number) => JSON.stringify({ seq } satisfies ResumeMessage);
/** What a resumable client is told before a snapshot that replaces what it had. */
export const resync = JSON.stringify({ event: 'resync' } satisfies HubEvent);

// A value's message is a `ChangeMessage` (core/api-shapes.ts), written by hand rather than by
// JSON.stringify of one: its start is made once per parameter.
/** `{"p":<address>,"v":`: what a parameter's messages begin with. */
export const prefixOf = (address: string) => `{"p":${JSON.stringify(address)},"v":`;
/** `{"p":…,"v":…}`: a value's message, from its parameter's prefix. */
export const messageOf = (prefix: string, value: Value) => `${prefix}${JSON.stringify(toWire(value))}}`;

/** The last time turned into ISO form: the changes of one turn share their time (`wallClockOfTurn`). */
let isoAt = Number.NaN;
let iso = '';
const isoOf = (at: number) => {
  if (at !== isoAt) {
    isoAt = at;
    iso = new Date(at).toISOString();
  }
  return iso;
};

/** `{"p":…,"v":…,"by":…,"at":…}`: a value's message with who changed it and when, as `GET /parameters` lists them (R-O2). */
export const withOrigin = (message: string, last: LastChange | undefined) =>
  last === undefined ? message : `${message.slice(0, -1)},"by":${JSON.stringify(last.by)},"at":"${isoOf(last.at)}"}`;
