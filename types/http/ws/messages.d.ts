/**
 * The text of WebSocket messages (R-H3), both ways. Client → server: a message is
 * `{"p": "<address>", "v": <any JSON>}` or an array of them (a batch), parsed once at the
 * edge by pure functions; each item becomes a write or an error with its code, in message
 * order, so the answers come back in the order the client sent the items. Server → client:
 * values (`{"p","v"}`, with `by`/`at` for `?origins=1`), events, and what a resumable client
 * is told (its token, `seq` marks, resync); shapes in core/api-shapes.ts.
 */
import { HubError } from '../../core/errors.ts';
import type { LastChange } from '../../core/parameter.ts';
import { type Value } from '../../core/value.ts';
import type { CodedError } from '../respond.ts';
/** One item of a client message: a write to make, or why it is not one. */
export type ClientItem = {
    readonly ok: true;
    readonly p: string;
    readonly v: unknown;
} | {
    readonly ok: false;
    readonly p: string | null;
    readonly error: HubError;
};
/**
 * The most items of one batch. A message of 1 MiB could hold half a million (`[1,1,…]`),
 * each an answer and a write to make: a client would hold the hub for as long as they take,
 * and make it hold their objects meanwhile. A thousand is more than any desk recalls at
 * once, and takes the hub about a millisecond.
 */
export declare const MAX_BATCH_ITEMS = 1000;
/** The items of one message, as received (text or binary frame); a batch over `MAX_BATCH_ITEMS` is one refusal. */
export declare function parseClientMessage(message: ArrayBuffer | Uint8Array): ClientItem[];
/** The answer to a bad item: `{"p": <address or null>, "error": "<reason>", "code": "PB_…"}`. */
export declare function errorAnswer(p: string | null, error: CodedError): string;
/**
 * Server → client, only to clients that opened the socket with `?events=1` (R-U1): the set
 * of parameters changed (a reload, a connection that came or went), or values became unknown
 * (the hub that owns them went away). They fetch
 * `GET /parameters` and `GET /connections` again. Clients without the flag never see it, so
 * a `{p, v}` client is not disturbed by a message it does not know.
 */
export declare const parametersChanged: string;
/**
 * Server → client, only to `?events=1` clients (R-U1): a connection's status changed, or
 * connections came or went. They fetch `GET /connections` again: no polling.
 */
export declare const connectionsChanged: string;
/** `{"resume": <token>, "seq": <n>}`: a resumable topic's greeting (R-W3). */
export declare const greeting: (token: string, seq: number) => string;
/** `{"seq": <n>}`: where a resumable client's snapshot of values stands. */
export declare const seqMark: (seq: number) => string;
/** What a resumable client is told before a snapshot that replaces what it had. */
export declare const resync: string;
/** `{"p":<address>,"v":`: what a parameter's messages begin with. */
export declare const prefixOf: (address: string) => string;
/** `{"p":…,"v":…}`: a value's message, from its parameter's prefix. */
export declare const messageOf: (prefix: string, value: Value) => string;
/** `{"p":…,"v":…,"by":…,"at":…}`: a value's message with who changed it and when, as `GET /parameters` lists them (R-O2). */
export declare const withOrigin: (message: string, last: LastChange | undefined) => string;
