/**
 * What every request handler needs, beside its answer: the client's address, the body read
 * whole (or refused once too large), and an answer made after an await, corked and guarded,
 * or a fault answered 500 without taking the hub down.
 */
import { ok, reasonOf, type Result } from '../core/errors.ts';
import type { Logger } from '../core/log.ts';
import { checkSize } from './body.ts';
import { type CodedError, sendError } from './respond.ts';
import type { HttpResponse } from './uws.ts';

const MAPPED_IPV4 = '0000:0000:0000:0000:0000:ffff:';
const INTERNAL: CodedError = { code: 'PB_INTERNAL', message: 'internal error; see the hub log' };

/**
 * The client's address as text, for "who changed it" (R-O2): an IPv4 client as `127.0.0.1`,
 * also when the hub listens on every address and uWS names it as IPv6.
 */
export function clientAddress(res: { getRemoteAddressAsText(): ArrayBuffer }): string {
  const text = Buffer.from(res.getRemoteAddressAsText()).toString();
  if (!text.startsWith(MAPPED_IPV4)) return text;
  const high = Number.parseInt(text.slice(30, 34), 16);
  const low = Number.parseInt(text.slice(35, 39), 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/**
 * Collects a body, copying each chunk (uWS reuses its memory), and hands it over once:
 * whole, or as 413 as soon as it grows past `maxBody`. Nothing is handed over once the
 * client has gone.
 */
export function readBody(res: HttpResponse, maxBody: number, done: (body: Result<Buffer>) => void): void {
  let finished = false;
  res.onAborted(() => (finished = true));
  const chunks: Buffer[] = [];
  let size = 0;
  res.onData((chunk, isLast) => {
    if (finished) return;
    size += chunk.byteLength;
    const checked = checkSize(size, maxBody);
    if (!checked.ok) {
      finished = true;
      return done(checked);
    }
    chunks.push(Buffer.from(new Uint8Array(chunk)));
    if (isLast) {
      finished = true;
      done(ok(Buffer.concat(chunks)));
    }
  });
}

/**
 * Answers a request whose handler faulted: 500 with the stack in the log, so one bad
 * request never takes the hub down. The connection is closed, as its state is unknown.
 */
export function answerFault(res: HttpResponse, json: boolean, log: Logger, error: unknown): void {
  log.error(`request failed: ${reasonOf(error, { stack: true })}`);
  try {
    sendError(res, INTERNAL, json, { close: true });
  } catch {
    // The response was already answered or aborted.
  }
}

/** An answer made after the handler returned: corked, and guarded like the handler was. */
export function answerLater(res: HttpResponse, json: boolean, log: Logger, answer: () => void): void {
  res.cork(() => {
    try {
      answer();
    } catch (error) {
      answerFault(res, json, log, error);
    }
  });
}
