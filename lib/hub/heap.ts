/**
 * What the hub's start leaves in V8's young generation, moved to the old one before the hub
 * serves. A dummy of a million parameters leaves its rows there, and the first scavenges
 * after the start — those of the first client's snapshot of them — copied them in pauses of
 * 30–40 ms, every client held meanwhile (issue 46, item 7; `bench/snapshot-gc.ts`). Two
 * minor collections promote every survivor; at the start of a hub of a million parameters
 * they take some 70 ms, while no client is served yet.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Collect = (options: { type: 'minor' }) => void;

let collect: Collect | undefined;

/**
 * V8's collector, without `--expose-gc` on the command line: the flag is set for as long as
 * a new context takes to be made with `gc` in it, so the hub's own global never has one.
 */
function collector(): Collect | undefined {
  if (collect) return collect;
  try {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as Collect;
  } catch {
    collect = undefined;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
  return collect;
}

export function promoteStartGarbage(): void {
  const gc = collector();
  gc?.({ type: 'minor' });
  gc?.({ type: 'minor' });
}
