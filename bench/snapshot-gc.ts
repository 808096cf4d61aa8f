/**
 * The hub's own share of a snapshot's stall: a WebSocket snapshot of N table rows (default
 * 1,000,000, as a dummy's) from the hub's fan-out (`lib/http/ws/fan-out.ts`) to a socket that
 * takes every message at once, in this process and without a client process on the same
 * cores: the garbage collections it causes (each a pause of every client), their total
 * and longest pause, its time and CPU. Four snapshots in turn; the first also pays for
 * promoting what the table's definition left in the young generation.
 *
 *   node --import tsx bench/snapshot-gc.ts [count] [single]
 *
 * `single`: a client of single messages instead of `?batch=1`. Printed, not asserted.
 */
import { PerformanceObserver } from 'node:perf_hooks';
import { Graph } from '../lib/core/graph.ts';
import { chainedTime } from '../lib/core/scheduler.ts';
import { TextIndex } from '../lib/core/text-index.ts';
import { WsFanOut } from '../lib/http/ws/fan-out.ts';
import { newWsClient, type WsClient, type WsSocket } from '../lib/http/ws/state.ts';
import { sleep } from './lib/clock.ts';

const count = Number(process.argv[2] ?? 1_000_000);
const batch = process.argv[3] !== 'single';
const pauses: number[] = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) pauses.push(entry.duration);
}).observe({ entryTypes: ['gc'] });

const graph = new Graph();
graph.registerConnection('bench');
const ids = Array.from({ length: count }, (_, i) => `p${i}`);
const rows = ids.map((id, i) => ({ id, type: 'S' as const, access: 'read-write' as const, initial: String(i) }));
const defined = graph.defineTable('bench', { rows, ids: new TextIndex(ids) });
if (!defined.ok) throw defined.error;
const never = 1 << 30;
const hub = new WsFanOut(graph, [], () => {}, { lagLimit: never, scanIntervalMs: 50, dropLimit: never, scheduler: chainedTime() });
hub.start();

let bytes = 0;
/** A socket that takes everything: it is subscribed once its snapshot has gone. */
const socket = (data: WsClient, subscribed: () => void): WsSocket => ({
  send: (message) => void (bytes += message.length),
  cork: (work) => work(),
  subscribe: subscribed,
  unsubscribe: () => {},
  getBufferedAmount: () => 0,
  end: () => {},
  getUserData: () => data,
});

console.log(
  `a snapshot of ${count.toLocaleString('en')} values to a ${batch ? '?batch=1' : 'single-message'} client, Node ${process.version}`,
);
console.log('| snapshot | ms | CPU ms | garbage collections | their total ms | longest ms | bytes |');
console.log('|---|---|---|---|---|---|---|');
for (let round = 1; round <= 4; round++) {
  await sleep(200);
  pauses.length = 0;
  bytes = 0;
  const started = performance.now();
  const cpu = process.cpuUsage();
  await new Promise<void>((resolve) => hub.join(socket(newWsClient([], undefined, 'ws', { batch }), resolve)));
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  await sleep(50); // the last collections' entries
  const total = pauses.reduce((sum, pause) => sum + pause, 0);
  console.log(
    `| ${round} | ${ms.toFixed(0)} | ${((used.user + used.system) / 1000).toFixed(0)} | ${pauses.length} | ${total.toFixed(0)} | ${Math.max(0, ...pauses).toFixed(1)} | ${bytes.toLocaleString('en')} |`,
  );
}
hub.stop();
process.exit(0);
