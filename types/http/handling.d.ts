/**
 * What every request handler needs, beside its answer: the client's address, the body read
 * whole (or refused once too large), and an answer made after an await, corked and guarded,
 * or a fault answered 500 without taking the hub down.
 */
import { type Result } from '../core/errors.ts';
import type { Logger } from '../core/log.ts';
import type { HttpResponse } from './uws.ts';
/**
 * The client's address as text, for "who changed it" (R-O2): an IPv4 client as `127.0.0.1`,
 * also when the hub listens on every address and uWS names it as IPv6.
 */
export declare function clientAddress(res: {
    getRemoteAddressAsText(): ArrayBuffer;
}): string;
/**
 * Collects a body, copying each chunk (uWS reuses its memory), and hands it over once:
 * whole, or as 413 as soon as it grows past `maxBody`. Nothing is handed over once the
 * client has gone.
 */
export declare function readBody(res: HttpResponse, maxBody: number, done: (body: Result<Buffer>) => void): void;
/**
 * Answers a request whose handler faulted: 500 with the stack in the log, so one bad
 * request never takes the hub down. The connection is closed, as its state is unknown.
 */
export declare function answerFault(res: HttpResponse, json: boolean, log: Logger, error: unknown): void;
/** An answer made after the handler returned: corked, and guarded like the handler was. */
export declare function answerLater(res: HttpResponse, json: boolean, log: Logger, answer: () => void): void;
