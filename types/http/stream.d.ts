import type { Logger } from '../core/log.ts';
import type { HttpResponse } from './uws.ts';
/** Produces the next chunk of a body, or undefined at its end. */
export type Producer = () => string | Buffer | undefined | Promise<string | Buffer | undefined>;
/** How long one slice of a long answer (a streamed body, a WebSocket snapshot) may hold the event loop before others get a turn. */
export declare const SLICE_MS = 2;
/**
 * Sends a 200 answer of `contentType` whose body `next` produces chunk by chunk, so that
 * no large answer holds the event loop or the hub's memory (R-H12): it yields to other
 * clients every few milliseconds, and while the client's buffer is full it waits for it to
 * drain, holding one chunk at most. A client that goes away stops it. Sent chunked; a
 * HEAD request gets the headers only, with `size` as its Content-Length when known.
 */
export declare function stream(res: HttpResponse, contentType: string, next: Producer, log: Logger, done?: () => void, size?: number): void;
