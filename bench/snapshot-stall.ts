/**
 * A WebSocket snapshot of N values (default 1,000,000) to a new client: the longest stall of
 * the hub's event loop while it is sent (what every other client waits at worst), beside
 * the idle hub's own, how long the whole snapshot took to arrive, and how many garbage
 * collections (each a pause of the whole hub) it caused.
 * The hub runs in this process (so its loop can be watched); the client is the bench's C
 * load client in its own process.
 *
 *   node --import tsx bench/snapshot-stall.ts [count] [path]
 *
 * `path` is the upgrade path (default `/ws?batch=1`; `/ws` sends a message per value).
 * Printed, not asserted.
 */
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { validateFlow } from '../lib/config/flow-file.ts';
import { Hub } from '../lib/hub/hub.ts';
import { startClients } from './lib/clients.ts';
import { nowMs, sleep } from './lib/clock.ts';

export interface SnapshotStall {
  readonly count: number;
  /** The longest event-loop stall of the idle hub over 1.5 s: this machine's noise, garbage collection included. */
  readonly idleMs: number;
  /** The first client of a filter set. */
  readonly first: Stall;
  /** A second client of the same filter set. */
  readonly second: Stall;
}

export interface Stall {
  readonly longestStallMs: number;
  readonly tookMs: number;
  /** Garbage collections while it went (each a pause of every client), and the longest of them. */
  readonly collections: number;
  readonly longestCollectionMs: number;
}

/** The longest event-loop stall while `work` runs, in ms, how long it took, and the garbage collections meanwhile. */
async function stallDuring(work: () => Promise<void>): Promise<Stall> {
  const pauses: number[] = [];
  const collections = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) pauses.push(entry.duration);
  });
  collections.observe({ entryTypes: ['gc'] });
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const started = nowMs();
  await work();
  histogram.disable();
  const tookMs = nowMs() - started;
  await sleep(50); // its last entries
  collections.disconnect();
  return { longestStallMs: histogram.max / 1e6, tookMs, collections: pauses.length, longestCollectionMs: Math.max(0, ...pauses) };
}

export async function measureSnapshotStall(count: number, path = '/ws?batch=1'): Promise<SnapshotStall> {
  const flow = validateFlow(
    {
      connections: {
        api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' },
        bench: { type: 'dummy', parameters: Array.from({ length: count }, (_, i) => `p${i},S,${i}`) },
      },
    },
    `${process.cwd()}/bench.json5`,
  );
  if (!flow.ok) throw flow.error;
  const hub = new Hub({ flow: flow.flow });
  await hub.start();
  const port = Number((hub.connections.find((c) => c.id === 'api')?.info.details as { port?: number } | undefined)?.port);
  const clients = await startClients();
  const joinAndReceive = (total: number) => async () => {
    await clients.connect(port, path, 1);
    const deadline = nowMs() + 120_000;
    while ((await clients.report(0)).received < total && nowMs() < deadline) await sleep(20);
  };
  try {
    const idle = await stallDuring(() => sleep(1500));
    const first = await stallDuring(joinAndReceive(count));
    const second = await stallDuring(joinAndReceive(2 * count));
    return { count, idleMs: idle.longestStallMs, first, second };
  } finally {
    await clients.close().catch(() => {});
    await hub.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const count = Number(process.argv[2] ?? 1_000_000);
  const path = process.argv[3] ?? '/ws?batch=1';
  const { idleMs, first, second } = await measureSnapshotStall(count, path);
  const ms = (n: number) => `${n.toFixed(1)} ms`;
  console.log(`${count.toLocaleString('en')} values to a new client (${path}), Node ${process.version}`);
  const collected = (stall: Stall) => `${stall.collections}, longest ${ms(stall.longestCollectionMs)}`;
  console.log(`| what | longest event-loop stall | until the client had every value | garbage collections meanwhile |`);
  console.log(`|---|---|---|---|`);
  console.log(`| idle hub, 1.5 s (this machine's noise and garbage collection) | ${ms(idleMs)} | | |`);
  console.log(`| first client of its filter set | ${ms(first.longestStallMs)} | ${ms(first.tookMs)} | ${collected(first)} |`);
  console.log(`| second client of the same filter set | ${ms(second.longestStallMs)} | ${ms(second.tookMs)} | ${collected(second)} |`);
  process.exit(0);
}
