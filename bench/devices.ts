/**
 * `npm run bench:devices`: a device package against Companion's own module for the same
 * device, on the same simulator, beside the client library alone (R-DV3), in one run.
 *
 * The device is the ATEM switcher of spec/helpers/atem-switcher.ts, in this process; its
 * panel cuts M/E 1's program between inputs 1 and 2, one change at a time, and a WebSocket
 * client waits for each to arrive. Three contenders, each in processes of their own:
 *
 * - `atem-connection alone`: the library in a process with a bare WebSocket server that
 *   sends each program change it hears (the floor: the library, a process hop, a socket);
 * - `patchbay-atem`: a hub with the package (its own process under the hub's), the client
 *   on the hub's `/ws` following `mixer/me/1/program`;
 * - `Companion bmd-atem`: the same hub with Companion's own build of its ATEM module as a
 *   `companion-module` connection, the client following its variable `var/pgm1_input_id`.
 *   Companion's builds are not in this checkout: pass the folder of
 *   bitfocus/companion-bundled-modules (`--companion <folder>`), else this row is skipped.
 *
 * For each: latency from the panel's change to the client's message (p50, p99), and the CPU
 * seconds of its processes (the hub and its children) per 1,000 changes.
 *
 *   npm run bench:devices -- [--companion <folder>] [--changes 1000] [--rounds 2]
 *
 * Printed, and kept in bench/results/<date>-<commit>-devices.md.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket, { WebSocketServer } from 'ws';
import { AtemSwitcher } from '../spec/helpers/atem-switcher.ts';
import { studioWith } from '../spec/helpers/outside-package.ts';
import { nowMs, percentile, sleep } from './lib/clock.ts';
import { cpuSeconds, type Server, startServer } from './lib/processes.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const argument = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const CHANGES = Number(argument('--changes') ?? 1000);
const ROUNDS = Number(argument('--rounds') ?? 2);
const companion = argument('--companion');

// The floor's process: atem-connection alone, and a bare WebSocket server that sends what it hears.
if (process.argv[2] === '--serve-raw') {
  const { Atem } = await import('atem-connection');
  const atem = new Atem({ disableMultithreaded: true });
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => server.once('listening', resolve));
  atem.on('stateChanged', (state, paths) => {
    if (!paths.includes('video.mixEffects.0.programInput')) return;
    const message = JSON.stringify({ p: 'program', v: String(state.video.mixEffects[0]?.programInput) });
    for (const client of server.clients) client.send(message);
  });
  atem.on('connected', () => console.log(`ready ${(server.address() as { port: number }).port}`));
  await atem.connect('127.0.0.1', Number(process.argv[3]));
  process.on('SIGTERM', () => void atem.destroy().then(() => process.exit(0)));
  await new Promise(() => {});
}

const switcher = await AtemSwitcher.start();
switcher.setProgram(0, 1);

interface Contender {
  readonly name: string;
  start(): Promise<{ server: Server; path: string; parameter: string }>;
}

/** A hub process in a studio folder with the atem package installed, on `connections` and a rest-api. */
async function hubWith(connections: Record<string, unknown>): Promise<Server> {
  const studio = await studioWith('atem');
  const flow = { plugins: ['patchbay-atem'], connections: { api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' }, ...connections } };
  writeFileSync(join(studio, 'flow.json5'), JSON.stringify(flow));
  const server = await startServer('hub', process.execPath, [
    join(root, 'bin/patchbay.js'),
    'run',
    join(studio, 'flow.json5'),
    '--state',
    'none',
  ]);
  return server;
}

const contenders: Contender[] = [
  {
    name: 'atem-connection alone',
    start: async () => ({
      server: await startServer('raw', process.execPath, [
        '--import',
        'tsx',
        fileURLToPath(import.meta.url),
        '--serve-raw',
        String(switcher.port),
      ]),
      path: '/',
      parameter: 'program',
    }),
  },
  {
    name: 'patchbay-atem',
    start: async () => ({
      server: await hubWith({ mixer: { type: 'atem', host: '127.0.0.1', port: switcher.port } }),
      path: `/ws?filter=${encodeURIComponent('^mixer/me/1/program$')}`,
      parameter: 'mixer/me/1/program',
    }),
  },
];
const bundled = companion && join(companion, 'bmd-atem');
if (bundled && existsSync(join(bundled, 'companion/manifest.json')))
  contenders.push({
    name: 'Companion bmd-atem',
    start: async () => ({
      server: await hubWith({
        mixer: { type: 'companion-module', module: bundled, config: { host: '127.0.0.1', bonjourHost: `127.0.0.1:${switcher.port}` } },
      }),
      path: `/ws?filter=${encodeURIComponent('^mixer/var/pgm1_input_id$')}`,
      parameter: 'mixer/var/pgm1_input_id',
    }),
  });
else console.log('Companion bmd-atem: skipped (pass --companion <folder of companion-bundled-modules>)');

/** Its process and every process under it, for their CPU seconds. */
function family(pid: number): number[] {
  let children: number[] = [];
  try {
    children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    // ps says nothing, and fails, for a process without children.
  }
  return [pid, ...children.flatMap(family)];
}

/** One round of a contender: its client sees every change; latencies in ms, CPU seconds per 1,000 changes. */
async function round(contender: Contender): Promise<{ latencies: number[]; cpuPerThousand: number }> {
  const { server, path, parameter } = await contender.start();
  try {
    const client = new WebSocket(`ws://127.0.0.1:${server.port}${path}`);
    let seen = '';
    let heard: (() => void) | undefined;
    client.on('message', (data) => {
      const said = JSON.parse(String(data)) as { p?: string; v?: string } | { p?: string; v?: string }[];
      for (const message of Array.isArray(said) ? said : [said])
        if (message.p === parameter && message.v !== undefined) {
          seen = message.v;
          heard?.();
        }
    });
    await new Promise((resolve, reject) => client.once('open', resolve).once('error', reject));
    const until = async (value: string, ms: number) => {
      if (seen === value) return true;
      return new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), ms);
        heard = () => {
          if (seen !== value) return;
          clearTimeout(timer);
          resolve(true);
        };
      });
    };
    // The module and the package read the switcher as they connect: wait for the program they report.
    for (let tries = 0; seen === '' && tries < 100; tries++) await sleep(100);
    await sleep(500);
    const pids = family(server.pid);
    const before = pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
    const latencies: number[] = [];
    for (let n = 0; n < CHANGES; n++) {
      const input = switcher.program(0) === 1 ? 2 : 1;
      const at = nowMs();
      switcher.setProgram(0, input);
      if (!(await until(String(input), 5000))) throw new Error(`${contender.name}: change ${n} to ${input} never arrived (saw ${seen})`);
      latencies.push(nowMs() - at);
    }
    const after = pids.reduce((sum, pid) => sum + (existsSync(`/proc/${pid}`) ? cpuSeconds(pid) : 0), 0);
    client.close();
    return { latencies, cpuPerThousand: ((after - before) * 1000) / CHANGES };
  } finally {
    await server.stop();
  }
}

const rows: string[] = [];
const results = new Map<string, { latencies: number[]; cpu: number[] }>();
for (let r = 0; r < ROUNDS; r++)
  for (const contender of contenders) {
    const { latencies, cpuPerThousand } = await round(contender);
    const result = results.get(contender.name) ?? { latencies: [], cpu: [] };
    result.latencies.push(...latencies);
    result.cpu.push(cpuPerThousand);
    results.set(contender.name, result);
    console.log(
      `${contender.name}, round ${r + 1}: p50 ${percentile(latencies, 50).toFixed(2)} ms, ${cpuPerThousand.toFixed(2)} CPU s / 1,000`,
    );
  }
await switcher.close();

const floor = results.get('atem-connection alone');
const floorP50 = floor ? percentile(floor.latencies, 50) : Number.NaN;
rows.push('| contender | p50 ms | p99 ms | CPU s per 1,000 changes | p50 vs the library alone |', '|---|---|---|---|---|');
for (const [name, { latencies, cpu }] of results) {
  const p50 = percentile(latencies, 50);
  const cpuMedian = [...cpu].sort((a, b) => a - b)[Math.floor(cpu.length / 2)] ?? 0;
  rows.push(
    `| ${name} | ${p50.toFixed(2)} | ${percentile(latencies, 99).toFixed(2)} | ${cpuMedian.toFixed(2)} | ${(floorP50 / p50).toFixed(2)}× |`,
  );
}
const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
const date = new Date().toISOString().slice(0, 10);
const text = [
  `# Devices: ${date} ${commit}`,
  '',
  `ATEM program cuts, ${CHANGES} a round, ${ROUNDS} rounds, one change at a time: the panel's cut to the WebSocket client's message. \`npm run bench:devices -- ${process.argv.slice(2).join(' ')}\``,
  '',
  ...rows,
  '',
].join('\n');
console.log(text);
mkdirSync(join(root, 'bench/results'), { recursive: true });
writeFileSync(join(root, `bench/results/${date}-${commit}-devices.md`), text);
process.exit(0);
