/**
 * The thread `payload-reading.ts` hands a module's long payloads to: the text in, and out the
 * same value cut into texts the hub's loop parses a little at a time — each member of the
 * top-level object as its own text, an array's entries in batches. Nothing is kept between
 * payloads.
 */
import { parentPort } from 'node:worker_threads';
import { ENTRIES_AT_ONCE, type Split } from './payload-reading.ts';

function split(text: string): Split {
  const value: unknown = JSON.parse(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { whole: text };
  return {
    members: Object.entries(value).map(([key, member]): [string, string | string[]] => {
      if (!Array.isArray(member)) return [key, JSON.stringify(member)];
      const batches: string[] = [];
      for (let at = 0; at < member.length; at += ENTRIES_AT_ONCE) batches.push(JSON.stringify(member.slice(at, at + ENTRIES_AT_ONCE)));
      return [key, batches];
    }),
  };
}

parentPort?.on('message', (text: string) => {
  let result: Split;
  try {
    result = split(text);
  } catch (error) {
    result = { failed: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(result);
});
