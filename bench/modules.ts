/**
 * `npm run bench:modules`: what hosting a Companion module in the hub costs (R-CM8), beside a
 * bare host measured in the same run. The module is the fixture module on the published
 * `@companion-module/base` 1.14.1; its `set_level` action sends `level <n>` to a UDP device
 * (a peer in this process that answers each datagram with itself), and sets its `level`
 * variable from the answer.
 *
 * - Round trip: a bound action written and its variable back. Through the hub: a WebSocket
 *   client writes `desk/level` and waits for `desk/var/level` to say the value (the hub,
 *   which is the module's host, and the module). Bare: the module under a minimal host in this process
 *   (the hub's own IPC host code, no hub): `executeAction` and its `setVariableValues`; and
 *   that bare host behind a WebSocket server of its own in a process of its own, as the hub
 *   is, so that the client's hop and the processes sharing the cores are in the baseline too
 *   and the difference is the hub's. One at a time, rounds in turns; p50, p99.
 * - Idle memory a module connection adds (the module's process, and what the hub holds more
 *   with five of them than with none), beside the module's own process under the bare host.
 * - Floods, each the hub's longest event-loop stall meanwhile (its own `nodejs_eventloop_lag_max_seconds`,
 *   less the 10 ms its monitor samples at) and the longest a client waits for its /healthz
 *   (polled back to back), beside the same while quiet: the module re-sends 12 times, 50 ms apart, some 600 KB of
 *   action definitions (as one Videohub did); and, apart, it defines 30,000 variables (over
 *   the 20,000 a module may have) in one message of 2.3 MB and gives them values in another.
 *
 *   npm run bench:modules [-- --trips 300] [--rounds 3]
 *
 * Printed, and kept in bench/results/<date>-<commit>-modules.md.
 */
import { execFileSync } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket, { WebSocketServer } from 'ws';
import { readModuleFolder } from '../lib/connections/companion-module/module-folder.ts';
import { ModuleProcess } from '../lib/connections/companion-module/module-process.ts';
import { silentLogger } from '../lib/core/log.ts';
import { realTime } from '../lib/core/scheduler.ts';
import { fixtureModule } from '../spec/helpers/companion.ts';
import { nowMs, percentile, sleep } from './lib/clock.ts';
import { rssBytes, type Server, startServer } from './lib/processes.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const argument = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const TRIPS = argument('--trips', 300);
const ROUNDS = argument('--rounds', 3);
const IDLE = 5;

// The baseline's process: the bare host behind a WebSocket of its own, as the hub is a process of its own.
if (process.argv[2] === '--serve-bare') {
  const host = await bareHost(String(process.argv[3]), { host: '127.0.0.1', port: Number(process.argv[4]), device: true });
  const front = await bareHostServed(host);
  console.log(`ready ${front.port}`);
  process.on('SIGTERM', () => {
    front.close();
    void host.stop().then(() => process.exit(0));
  });
  await new Promise(() => {});
}

const module = await fixtureModule('1.14.1');
/** The device: a UDP peer that answers each `level <n>` with itself, as a device confirms a command. */
const device = createSocket('udp4');
device.on('message', (message, from) => device.send(message, from.port, from.address));
await new Promise<void>((resolve) => device.bind(0, '127.0.0.1', resolve));
const config = { host: '127.0.0.1', port: device.address().port, device: true };

/** The module under a minimal host: register, init, then actions one at a time. */
async function bareHost(module: string, config: Record<string, unknown>) {
  let heard: ((level: number) => void) | undefined;
  const running = await ModuleProcess.start(
    readModuleFolder(module, root),
    'desk',
    {
      calls: {
        setVariableValues: (payload) => {
          for (const { id, value } of (payload as { newValues: { id: string; value: unknown }[] }).newValues)
            if (id === 'level') heard?.(value as number);
        },
      },
      exited: () => {},
    },
    { log: silentLogger, scheduler: realTime },
    512,
  );
  await running.ipc.call(
    'init',
    { label: 'desk', isFirstInit: false, config, secrets: {}, lastUpgradeIndex: 1e6, actions: {}, feedbacks: {} },
    30_000,
  );
  const trip = (level: number) =>
    new Promise<void>((resolve) => {
      heard = (value) => value === level && resolve();
      void running.ipc.call(
        'executeAction',
        {
          action: { id: 'a', controlId: 'bench', actionId: 'set_level', options: { level }, upgradeIndex: null, disabled: false },
          surfaceId: undefined,
        },
        5000,
      );
    });
  return { trip, pid: running.pid as number, stop: () => running.stop() };
}

function flowFile(connections: Record<string, unknown>): string {
  const file = join(mkdtempSync(join(tmpdir(), 'patchbay-bench-modules-')), 'flow.json5');
  writeFileSync(file, JSON.stringify({ connections: { api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' }, ...connections } }));
  return file;
}

const desk = (extra: Record<string, unknown> = {}) => ({
  type: 'companion-module',
  module,
  config,
  actions: {
    level: { action: 'set_level', options: { level: '$(value)' } },
    definitions: { action: 'flood', options: { variables: 0 } },
    variables: { action: 'flood', options: { rounds: 0, variables: 30_000 } },
  },
  timeout: 10_000,
  ...extra,
});

const startHub = (file: string): Promise<Server> =>
  startServer('patchbay', process.execPath, [join(root, 'bin/patchbay.js'), 'run', file, '--state', 'none', '--log-format', 'json']);

interface Listed {
  readonly id: string;
  readonly status: string;
  readonly details?: { readonly pid?: number };
}

async function whenOk(port: number, ids: readonly string[]): Promise<readonly Listed[]> {
  for (let tries = 0; tries < 600; tries++) {
    const listed = (await (await fetch(`http://127.0.0.1:${port}/connections`)).json()) as Listed[];
    const wanted = listed.filter((connection) => ids.includes(connection.id));
    if (wanted.length === ids.length && wanted.every((c) => c.status === 'ok' && c.details?.pid)) return wanted;
    await sleep(100);
  }
  throw new Error(`${ids.join(', ')} did not start`);
}

/**
 * The bare host behind a WebSocket server of its own, as a client reaches a host (a surface,
 * a panel): `{p, v}` in, the variable out — the baseline that holds everything but the hub.
 */
async function bareHostServed(host: Awaited<ReturnType<typeof bareHost>>) {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => server.once('listening', resolve));
  server.on('connection', (socket) =>
    socket.on('message', (data) => {
      const { v } = JSON.parse(data.toString()) as { v: number };
      void host.trip(v).then(() => socket.send(JSON.stringify({ p: 'desk/var/level', v })));
    }),
  );
  const port = (server.address() as { port: number }).port;
  return { port, close: () => server.close() };
}

/** A WebSocket client that writes the level and waits for the variable to say it: of the hub, or of the served bare host. */
async function hubClient(port: number) {
  const socket = new WebSocket(`ws://127.0.0.1:${port}/ws?filter=${encodeURIComponent('^desk/var/level$')}`);
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  let heard: ((value: string) => void) | undefined;
  socket.on('message', (data) => {
    for (const item of [JSON.parse(data.toString())].flat() as { p?: string; v?: unknown }[])
      if (item.p === 'desk/var/level') heard?.(String(item.v));
  });
  const trip = (level: number) =>
    new Promise<void>((resolve) => {
      heard = (value) => value === String(level) && resolve();
      socket.send(JSON.stringify({ p: 'desk/level', v: level }));
    });
  return { trip, close: () => socket.close() };
}

async function times(trip: (level: number) => Promise<void>, offset: number): Promise<number[]> {
  const measured: number[] = [];
  for (let n = 0; n < TRIPS; n++) {
    // Levels 0–100 only: the action's field; each differs from the last, so the variable changes.
    const level = (offset + n) % 100;
    const started = nowMs();
    await trip(level === 0 ? 100 : level);
    measured.push(nowMs() - started);
  }
  return measured;
}

async function roundTrips(): Promise<{ hub: number[]; bare: number[]; served: number[] }> {
  const hub: number[] = [];
  const bare: number[] = [];
  const served: number[] = [];
  const server = await startHub(flowFile({ desk: desk() }));
  try {
    await whenOk(server.port, ['desk']);
    const client = await hubClient(server.port);
    const host = await bareHost(module, config);
    const front = await startServer('bare host', process.execPath, [
      '--import',
      'tsx',
      fileURLToPath(import.meta.url),
      '--serve-bare',
      module,
      String(config.port),
    ]);
    const servedClient = await hubClient(front.port);
    await times(client.trip, 1); // warm all three
    await times(host.trip, 1);
    await times(servedClient.trip, 1);
    for (let round = 0; round < ROUNDS; round++) {
      bare.push(...(await times(host.trip, round * 7 + 3)));
      served.push(...(await times(servedClient.trip, round * 7 + 4)));
      hub.push(...(await times(client.trip, round * 7 + 5)));
    }
    client.close();
    servedClient.close();
    await front.stop();
    await host.stop();
  } finally {
    await server.stop();
  }
  return { hub, bare, served };
}

async function idleMemory(): Promise<{ perConnection: number; bareModule: number }> {
  const bare = await startHub(flowFile({}));
  let hubAlone: number;
  try {
    await whenOk(bare.port, []);
    await sleep(2000);
    hubAlone = rssBytes(bare.pid);
  } finally {
    await bare.stop();
  }
  const ids = Array.from({ length: IDLE }, (_, n) => `desk-${n}`);
  const server = await startHub(flowFile(Object.fromEntries(ids.map((id) => [id, desk()]))));
  try {
    const listed = await whenOk(server.port, ids);
    await sleep(2000);
    const modules = listed.reduce((sum, c) => sum + rssBytes(c.details?.pid as number), 0);
    const total = modules + Math.max(0, rssBytes(server.pid) - hubAlone);
    const host = await bareHost(module, config);
    await sleep(2000);
    const bareModule = rssBytes(host.pid);
    await host.stop();
    return { perConnection: total / IDLE, bareModule };
  } finally {
    await server.stop();
  }
}

/** Polls /healthz back to back for `ms`; the longest answer. */
async function longestHealthz(port: number, ms: number): Promise<number> {
  let longest = 0;
  const end = nowMs() + ms;
  while (nowMs() < end) {
    const started = nowMs();
    await fetch(`http://127.0.0.1:${port}/healthz`).then((answer) => answer.arrayBuffer());
    longest = Math.max(longest, nowMs() - started);
  }
  return longest;
}

/** A quiet time, or a flood, as the hub and a client see it. */
interface Stalls {
  /** The longest a client waited for /healthz, polled back to back (ms). */
  readonly healthz: number;
  /** The hub's own longest event-loop delay, less the 10 ms its monitor samples at (ms). */
  readonly loop: number;
}

interface Flooded {
  readonly before: Stalls;
  readonly definitions: Stalls;
  readonly variables: Stalls;
  readonly status: string;
}

/** The hub's longest event-loop delay since the last scrape of /metrics (which starts it again), less the sampling interval. */
async function longestDelay(port: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const max = Number(/^nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(text)?.[1] ?? Number.NaN);
  return Math.max(0, max * 1000 - 10);
}

async function flood(): Promise<Flooded> {
  const server = await startHub(flowFile({ desk: desk() }));
  const during = async (parameter?: string): Promise<Stalls> => {
    await longestDelay(server.port);
    const written = parameter ? fetch(`http://127.0.0.1:${server.port}/update?parameter=desk/${parameter}&value=true`) : undefined;
    const healthz = await longestHealthz(server.port, 3000);
    await written;
    return { healthz, loop: await longestDelay(server.port) };
  };
  try {
    await whenOk(server.port, ['desk']);
    const before = await during();
    const definitions = await during('definitions');
    const variables = await during('variables');
    const listed = (await (await fetch(`http://127.0.0.1:${server.port}/connections`)).json()) as (Listed & { reason?: string })[];
    const shown = listed.find((c) => c.id === 'desk');
    return { before, definitions, variables, status: `${shown?.status}: ${shown?.reason ?? ''}` };
  } finally {
    await server.stop();
  }
}

const trips = await roundTrips();
const memory = await idleMemory();
const flooded = await flood();
const ms = (values: readonly number[], p: number) => percentile(values, p).toFixed(2);
const stalls = (of: (stalls: Stalls) => number) =>
  [flooded.before, flooded.definitions, flooded.variables].map((f) => of(f).toFixed(1)).join(' / ');
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
const commit = existsSync(`${root}.git`)
  ? execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root }).toString().trim()
  : 'unknown';
const table = [
  `# Companion modules in the hub (${commit}, Node ${process.version})`,
  '',
  `The fixture module on @companion-module/base 1.14.1, its device a UDP peer that answers each command. ${ROUNDS} rounds of ${TRIPS} round trips (write → device → variable back) in turns, one at a time.`,
  '',
  '| measure | through the hub | bare host | ratio |',
  '|---|---|---|---|',
  `| action → variable back, p50 (ms) | ${ms(trips.hub, 50)} | ${ms(trips.bare, 50)} | ${(percentile(trips.hub, 50) / percentile(trips.bare, 50)).toFixed(2)}× |`,
  `| action → variable back, p99 (ms) | ${ms(trips.hub, 99)} | ${ms(trips.bare, 99)} | ${(percentile(trips.hub, 99) / percentile(trips.bare, 99)).toFixed(2)}× |`,
  `| the same, the bare host behind a WebSocket of its own in a process of its own, p50 (ms) | ${ms(trips.hub, 50)} | ${ms(trips.served, 50)} | ${(percentile(trips.hub, 50) / percentile(trips.served, 50)).toFixed(2)}× |`,
  `| the same, p99 (ms) | ${ms(trips.hub, 99)} | ${ms(trips.served, 99)} | ${(percentile(trips.hub, 99) / percentile(trips.served, 99)).toFixed(2)}× |`,
  `| idle memory a module connection (MB, resident) | ${mb(memory.perConnection)} (the module's process and the hub's share, over ${IDLE}) | ${mb(memory.bareModule)} (the module's process) | ${(memory.perConnection / memory.bareModule).toFixed(2)}× |`,
  `| longest event-loop stall of the hub (ms): quiet / 12 × 600 KB of definitions / 30,000 variables in one message of 2.3 MB | ${stalls((f) => f.loop)} | — | — |`,
  `| longest /healthz answer (ms), the same three | ${stalls((f) => f.healthz)} | — | — |`,
  '',
  `The connection after the flood: ${flooded.status}`,
  '',
].join('\n');
console.log(table);
const date = new Date().toISOString().slice(0, 10);
const file = `${root}bench/results/${date}-${commit}-modules.md`;
writeFileSync(file, existsSync(file) ? `${readFileSync(file, 'utf8').trimEnd()}\n\n${table}` : table);
console.log(`wrote ${file.slice(root.length)}`);
process.exit(0);
