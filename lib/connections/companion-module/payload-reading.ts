/**
 * A module's long payload read without holding the hub's loop (R-G4, R-CM8). One message of
 * a module may run to megabytes (30,000 variables are 2.3 MB, a large router's definitions
 * more), and the engine's JSON parser holds the loop for all of it at once (some 20 ms for
 * 2.3 MB on a small machine). So a long payload is parsed in a worker thread, shared by every
 * module connection of the process (`BoundedWorker`: a connection at a time, in turns), which
 * cuts it into texts — each member of the top-level object, an array's entries by the
 * hundred — and the loop parses those a few milliseconds a turn. What comes out is what the
 * parse of the whole text gives. The thread's heap is bounded: a payload too large for it
 * fails alone, with the reason.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { BoundedWorker, siblingModule, type WorkerTurns } from '../../sdk/index.ts';

/** A payload longer than this (characters) is read off the loop; a shorter one parses in well under a millisecond. */
export const LONG_PAYLOAD = 256 * 1024;
/** Entries of an array in one of the texts the thread cuts. */
export const ENTRIES_AT_ONCE = 500;
/** How long one turn of the loop parses at most. */
const PARSING_MS = 4;

/** What the thread makes of a text: its members' texts, the text itself when it is no object, or why it is no JSON. */
export type Split =
  | { readonly members: readonly (readonly [string, string | readonly string[]])[] }
  | { readonly whole: string }
  | { readonly failed: string };

const reading = new BoundedWorker<string, Split>({
  entry: siblingModule(import.meta.url, 'payload-reading-worker'),
  heapMb: 512,
  failed: (why) => ({ failed: `the payload was too much to read (${why})` }),
});

/** One module connection's long payloads, read one at a time. */
export class PayloadReader implements WorkerTurns<string, Split> {
  private waiting: string | undefined;
  private answer: ((split: Split) => void) | undefined;

  get hasWaiting(): boolean {
    return this.waiting !== undefined;
  }

  /** The value of `text` as `parse` gives it (`parse` may be EJSON's); rejects as `parse` would. */
  async read(text: string, parse: (text: string) => unknown): Promise<unknown> {
    const split = await new Promise<Split>((resolve) => {
      this.waiting = text;
      this.answer = resolve;
      reading.wants(this);
    });
    if ('failed' in split) throw new Error(split.failed);
    if ('whole' in split) return parse(split.whole);
    const value: Record<string, unknown> = {};
    let started = performance.now();
    for (const [key, member] of split.members) {
      let parsed: unknown;
      if (typeof member === 'string') parsed = parse(member);
      else {
        const entries: unknown[] = [];
        for (const batch of member) {
          for (const entry of parse(batch) as unknown[]) entries.push(entry);
          if (performance.now() - started > PARSING_MS) {
            await nextTurn();
            started = performance.now();
          }
        }
        parsed = entries;
      }
      // As a parse of the whole makes them: own properties, `__proto__` too.
      Object.defineProperty(value, key, { value: parsed, enumerable: true, writable: true, configurable: true });
    }
    return value;
  }

  /** No more payloads: one being read still ends. */
  stop(): void {
    reading.forget(this);
    if (this.waiting === undefined) return;
    this.waiting = undefined;
    this.done({ failed: 'the connection stopped' });
  }

  take(): string | undefined {
    const text = this.waiting;
    this.waiting = undefined;
    return text;
  }

  done(split: Split): void {
    this.answer?.(split);
    this.answer = undefined;
  }
}
