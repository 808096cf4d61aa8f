/**
 * One write a turn to the broker. MQTT.js writes a packet as its pieces (mqtt-packet writes
 * the header, the topic's length, the topic, and each user property's name and value
 * apart): a shared value, with the site key's three properties, is some thirty
 * `Writable.write` calls, and the stream's bookkeeping for each cost more than the packet's
 * encoding (a profile of hub sharing at 20,000 values a second: a third of the publishing
 * hub's time). What a turn writes is gathered here and goes out as one buffer when the turn
 * ends; acknowledgements of a read's messages go with it.
 */
import type { Writable } from 'node:stream';
import { afterTurn } from '../sdk/index.ts';

/** Each gathering stream's flush: writes what it gathered so far. */
const gathering = new WeakMap<Writable, () => void>();

/**
 * Writes what `stream` gathered so far at once: for a part that publishes as the turn ends
 * (its own `afterTurn`), whose bytes would otherwise wait for the next turn's end.
 */
export function writeGatheredNow(stream: Writable): void {
  gathering.get(stream)?.();
}

/** Makes `stream` gather its writes until the end of the turn; once per stream. */
export function writeOncePerTurn(stream: Writable): void {
  if (gathering.has(stream)) return;
  const write = stream.write.bind(stream) as (chunk: unknown, callback?: (error?: Error | null) => void) => boolean;
  let pieces: Buffer[] = [];
  let flushing = false;
  const flush = () => {
    flushing = false;
    if (pieces.length === 0) return;
    const all = pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces);
    pieces = [];
    if (!stream.destroyed) write(all);
  };
  gathering.set(stream, flush);
  stream.write = ((chunk: unknown, encoding?: unknown, callback?: unknown) => {
    const done = typeof encoding === 'function' ? encoding : callback;
    const piece =
      typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : chunk;
    // A write that wants to know when it went out goes now, after what came before it.
    if (typeof done === 'function' || !Buffer.isBuffer(piece)) {
      if (pieces.length > 0) flush();
      return write(piece, done as (error?: Error | null) => void);
    }
    pieces.push(piece);
    if (!flushing) {
      flushing = true;
      afterTurn(flush);
    }
    // MQTT.js waits for `drain` when this is false: the socket's own state, from the turns before.
    return !stream.writableNeedDrain;
  }) as typeof stream.write;
}
