/**
 * What a scene recall costs the hub (R-Y1): a recall of N members (default 1,000) reaching
 * N WebSocket clients in one event-loop turn, beside N single writes of the same parameters,
 * each in its own turn (as N separate messages from a client would come), in the same run.
 * Both deliver N × clients values; the figure is the hub's CPU time until every client had
 * every value, and the wall time. The hub runs in this process (its CPU is this process's);
 * the clients are the bench's C load client in its own process.
 *
 *   node --import tsx bench/scene-recall.ts [members] [clients] [path]
 *
 * `path` is the upgrade path (default `/ws?batch=1`, what the console and dashboards that
 * batch use; `/ws` sends a message per value). Two rounds, the ways in turns; the best of
 * each is compared. Printed, not asserted.
 */
import { pathToFileURL } from 'node:url';
import { validateFlow } from '../lib/config/flow-file.ts';
import { Hub } from '../lib/hub/hub.ts';
import { startClients, type LoadClients } from './lib/clients.ts';
import { nowMs, sleep } from './lib/clock.ts';

const ROUNDS = 2;

export interface SceneRecallResult {
  readonly members: number;
  readonly clients: number;
  readonly path: string;
  /** Per way, per round: the hub's CPU ms and the wall ms until every client had every value. */
  readonly rounds: Record<'recall' | 'single writes', { cpuMs: number; wallMs: number }[]>;
}

/** Resolves once the clients received `total` values, or after 60 s; the hub's CPU and wall time since `started`. */
async function untilDelivered(clients: LoadClients, total: number, cpu: NodeJS.CpuUsage, started: number) {
  const deadline = nowMs() + 60_000;
  let received = 0;
  while ((received = (await clients.report(0)).received) < total && nowMs() < deadline) await sleep(5);
  if (received < total) throw new Error(`only ${received} of ${total} values arrived`);
  const used = process.cpuUsage(cpu);
  return { cpuMs: (used.user + used.system) / 1000, wallMs: nowMs() - started };
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function measureSceneRecall(members: number, count: number, path = '/ws?batch=1'): Promise<SceneRecallResult> {
  const flow = validateFlow(
    {
      connections: {
        api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' },
        bench: { type: 'dummy', parameters: Array.from({ length: members }, (_, i) => `p${i},S,0:0`) },
        show: { type: 'scenes', maxMembers: members, scenes: [{ id: 'all', members: ['bench/#'] }] },
      },
    },
    `${process.cwd()}/bench.json5`,
  );
  if (!flow.ok) throw flow.error;
  const hub = new Hub({ flow: flow.flow });
  await hub.start();
  const port = Number((hub.connections.find((c) => c.id === 'api')?.info.details as { port?: number } | undefined)?.port);
  const parameters = Array.from({ length: members }, (_, i) => hub.graph.get(`bench/p${i}`));
  const recall = hub.graph.get('show/all/recall');
  const store = hub.graph.get('show/all/store');
  if (!recall || !store || parameters.some((p) => !p)) throw new Error('the bench flow did not make its parameters');
  let seq = 0;
  // Every value is new (`<seq>:<ms>`, which the load client reads), so every write changes its parameter.
  const writeAll = () => {
    for (const p of parameters) p?.set(`${++seq}:${nowMs().toFixed(3)}`);
  };
  const clients = await startClients();
  const rounds: SceneRecallResult['rounds'] = { recall: [], 'single writes': [] };
  const total = members * count;
  try {
    await clients.connect(port, path, count);
    await sleep(300); // snapshots delivered
    for (let round = 0; round < ROUNDS; round++) {
      // A recall: store the values, move every parameter away (one turn, not measured), recall.
      writeAll();
      store.set(true);
      writeAll();
      await untilDelivered(clients, 0, process.cpuUsage(), nowMs());
      await sleep(300);
      await clients.reset();
      let cpu = process.cpuUsage();
      let started = nowMs();
      recall.set(true);
      rounds.recall.push(await untilDelivered(clients, total, cpu, started));
      await sleep(300);
      await clients.reset();

      // N single writes, each in its own turn.
      cpu = process.cpuUsage();
      started = nowMs();
      for (const p of parameters) {
        p?.set(`${++seq}:${nowMs().toFixed(3)}`);
        await nextTurn();
      }
      rounds['single writes'].push(await untilDelivered(clients, total, cpu, started));
      await sleep(300);
      await clients.reset();
    }
    return { members, clients: count, path, rounds };
  } finally {
    await clients.close().catch(() => {});
    await hub.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const members = Number(process.argv[2] ?? 1000);
  const count = Number(process.argv[3] ?? 1000);
  const path = process.argv[4] ?? '/ws?batch=1';
  const { rounds } = await measureSceneRecall(members, count, path);
  const best = (way: keyof typeof rounds) => Math.min(...rounds[way].map((r) => r.cpuMs));
  const ms = (n: number) => `${n.toFixed(1)} ms`;
  console.log(
    `a recall of ${members.toLocaleString('en')} members vs ${members.toLocaleString('en')} single writes, to ${count.toLocaleString('en')} clients (${path}), Node ${process.version}`,
  );
  console.log('| way | hub CPU until every client had every value (rounds) | wall time (rounds) |');
  console.log('|---|---|---|');
  for (const [way, list] of Object.entries(rounds))
    console.log(`| ${way} | ${list.map((r) => ms(r.cpuMs)).join(', ')} | ${list.map((r) => ms(r.wallMs)).join(', ')} |`);
  console.log(`recall / single writes, best CPU of each: ${(best('recall') / best('single writes')).toFixed(3)}× (target ≤ 0.5×)`);
  process.exit(0);
}
