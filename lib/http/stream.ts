import { setImmediate as nextTurn } from 'node:timers/promises';
import { reasonOf } from '../core/errors.ts';
import type { Logger } from '../core/log.ts';
import { isHead, startOk } from './respond.ts';
import type { HttpResponse } from './uws.ts';

/** Produces the next chunk of a body, or undefined at its end. */
export type Producer = () => string | Buffer | undefined | Promise<string | Buffer | undefined>;

/** How long one slice of a long answer (a streamed body, a WebSocket snapshot) may hold the event loop before others get a turn. */
export const SLICE_MS = 2;

/**
 * Sends a 200 answer of `contentType` whose body `next` produces chunk by chunk, so that
 * no large answer holds the event loop or the hub's memory (R-H12): it yields to other
 * clients every few milliseconds, and while the client's buffer is full it waits for it to
 * drain, holding one chunk at most. A client that goes away stops it. Sent chunked; a
 * HEAD request gets the headers only, with `size` as its Content-Length when known.
 */
export function stream(
  res: HttpResponse,
  contentType: string,
  next: Producer,
  log: Logger,
  done: () => void = () => {},
  size?: number,
): void {
  let aborted = false;
  let writable: (() => void) | undefined;
  res.onAborted(() => {
    aborted = true;
    writable?.();
  });
  const drained = () =>
    new Promise<void>((resolve) => {
      writable = resolve;
      res.onWritable(() => {
        writable = undefined;
        resolve();
        return true;
      });
    });
  const run = async () => {
    // The real clock: how long a slice held the event loop, which virtual time cannot measure.
    let started = performance.now();
    if (isHead(res)) {
      return void res.cork(() => {
        startOk(res, contentType);
        if (size !== undefined) res.writeHeader('Content-Length', String(size));
        res.endWithoutBody();
      });
    }
    res.cork(() => startOk(res, contentType));
    for (;;) {
      const chunk = await next();
      if (aborted) return;
      if (chunk === undefined) {
        res.cork(() => res.end());
        return;
      }
      let flowing = true;
      res.cork(() => (flowing = res.write(chunk)));
      if (!flowing) {
        await drained();
        started = performance.now();
      } else if (performance.now() - started > SLICE_MS) {
        await nextTurn();
        started = performance.now();
      }
      if (aborted) return;
    }
  };
  run()
    .catch((error: unknown) => {
      log.warn(`streaming an answer failed: ${reasonOf(error)}`);
      if (!aborted) res.cork(() => res.close());
    })
    .finally(done);
}

/** The text one slice holds at most, besides its last entry. */
const SLICE_TEXT = 256 * 1024;

/**
 * A producer of a JSON list's `items` as text, in slices of about a millisecond (or 256 KiB) of the event
 * loop each: `open`, then each item's `entry` (undefined leaves it out) with commas between,
 * then `close`. `afterOthers`: `open` ends with members of its own, so the first entry takes
 * a comma too. Items are taken as the slices are made, so a long list is never held whole.
 */
export function slices<T>(
  open: string,
  items: Iterator<T>,
  entry: (item: T) => string | undefined,
  close: string,
  afterOthers = false,
): Producer {
  let begun = false;
  let ended = false;
  let comma = afterOthers;
  return () => {
    if (ended) return undefined;
    const parts: string[] = begun ? [] : [open];
    begun = true;
    // The real clock: how long this slice held the event loop, which virtual time cannot measure.
    const started = performance.now();
    // Long entries (a parameter's choices) end a slice by their size too: the clock is read every 64.
    let size = 0;
    for (let count = 1; size < SLICE_TEXT && (count % 64 !== 0 || performance.now() - started < 1); count++) {
      const next = items.next();
      if (next.done) {
        parts.push(close);
        ended = true;
        break;
      }
      const text = entry(next.value);
      if (text === undefined) continue;
      parts.push(comma ? `,${text}` : text);
      size += text.length;
      comma = true;
    }
    return parts.join('');
  };
}
