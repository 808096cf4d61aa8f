/**
 * `npm run bench:isolation`: what a process of its own costs a connection type of a package
 * (R-PK4, R-PK5). A device process sends values at a steady rate (1,000 and 2,000 a second);
 * a type of a package reads them over TCP and reports them as parameters; 1,000 WebSocket
 * clients of the hub receive every change. The same type runs in a process of its own
 * (`isolate: "process"`) and in the hub's (`"none"`), three alternating rounds, the median of each:
 * values each client received a second, and CPU a delivered value (hub and connection
 * process together). Then the resident memory an idle connection in a process of its own
 * adds, over ten of them: in this checkout (each process loads tsx and compiles the
 * sources) and in a studio folder where the packed patchbay is installed (compiled dist/),
 * as a user runs it.
 *
 *   npm run bench:isolation [-- --seconds 5] [--rates 1000,2000] [--idle-only]
 *
 * Printed, and kept in bench/results/<date>-<commit>-isolation.md.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startClients } from './lib/clients.ts';
import { nowMs, sleep } from './lib/clock.ts';
import { cpuSeconds, rssBytes, type Server, startServer, stopChild } from './lib/processes.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const secondsArg = process.argv.indexOf('--seconds');
const seconds = secondsArg > 0 ? Number(process.argv[secondsArg + 1]) : 5;
const CLIENTS = 1000;
const IDLE = 10;

/** The type of the package: reads `p<k> <value>` lines from the device and reports them. */
const typeModule = (face: string) => `import { connect } from 'node:net';
import { defineConnectionType, Type, asWritten } from '${face}';
export default defineConnectionType({
  type: 'bench-device',
  summary: 'Reads values a device reports as fast as it can.',
  settings: Type.Object({ port: Type.Integer({ minimum: 0 }) }),
  parse: asWritten,
  create(context, { port }) {
    let socket;
    return {
      start() {
        const parameters = new Map();
        for (let k = 0; k < 100; k++) parameters.set('p' + k, context.define('p' + k, { type: 'S', access: 'read-only' }));
        if (port === 0) return;
        socket = connect(port, '127.0.0.1');
        let rest = '';
        socket.setEncoding('latin1');
        socket.on('data', (chunk) => {
          const lines = (rest + chunk).split('\\n');
          rest = lines.pop();
          for (const line of lines) {
            const space = line.indexOf(' ');
            parameters.get(line.slice(0, space))?.report(line.slice(space + 1));
          }
        });
        socket.on('error', () => {});
      },
      stop() {
        socket?.destroy();
      },
    };
  },
});
`;

/** A studio folder (new, or `folder`) with the type's package in its node_modules, importing the face as `face`. */
function studioWith(face: string, folder = mkdtempSync(join(tmpdir(), 'patchbay-bench-isolation-'))): string {
  const packageFolder = join(folder, 'node_modules', 'bench-device');
  mkdirSync(packageFolder, { recursive: true });
  writeFileSync(
    join(packageFolder, 'package.json'),
    JSON.stringify({
      name: 'bench-device',
      version: '1.0.0',
      type: 'module',
      patchbay: { apiVersion: 1, types: { 'bench-device': './device.js' } },
    }),
  );
  writeFileSync(join(packageFolder, 'device.js'), typeModule(face));
  return folder;
}
const studio = studioWith(pathToFileURL(join(root, 'lib/sdk/index.ts')).href);

function flowFile(name: string, connections: Record<string, unknown>, folder = studio): string {
  const file = join(folder, `${name}.json5`);
  writeFileSync(
    file,
    JSON.stringify({ plugins: ['bench-device'], connections: { api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' }, ...connections } }),
  );
  return file;
}

const startHub = (file: string, bin = join(root, 'bin/patchbay.js')): Promise<Server> =>
  startServer('patchbay', process.execPath, [bin, 'run', file, '--state', 'none', '--log-format', 'json']);

/** A studio folder with the packed patchbay installed as a user installs it, and its bin. */
function installedStudio(): { folder: string; bin: string } {
  const folder = mkdtempSync(join(tmpdir(), 'patchbay-bench-installed-'));
  const packed = execFileSync('npm', ['pack', '--pack-destination', folder, '--silent'], { cwd: root }).toString().trim().split('\n').pop();
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'studio', private: true }));
  execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(folder, packed as string)], {
    cwd: folder,
    stdio: 'ignore',
  });
  // After the install, which removes from node_modules what package.json does not name.
  studioWith('patchbay-hub/connection', folder);
  return { folder, bin: join(folder, 'node_modules/patchbay-hub/bin/patchbay.js') };
}

async function startDevice(rate: number): Promise<{ port: number; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'bench/servers/value-device.ts'), String(rate)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
    child.once('exit', () => reject(new Error('the device did not start')));
  });
  return { port, child };
}

/** The pids of the connections' own processes, from /connections. */
async function connectionPids(port: number): Promise<number[]> {
  const listed = (await (await fetch(`http://127.0.0.1:${port}/connections`)).json()) as { details?: { process?: { pid?: number } } }[];
  return listed.flatMap((c) => (c.details?.process?.pid ? [c.details.process.pid] : []));
}

async function waitForPids(port: number, count: number): Promise<number[]> {
  for (let tries = 0; tries < 300; tries++) {
    const pids = await connectionPids(port);
    if (pids.length >= count) return pids;
    await sleep(100);
  }
  throw new Error(`${count} connection processes did not start`);
}

interface Round {
  readonly valuesPerSecond: number;
  readonly deliveriesPerSecond: number;
  readonly cpuMicrosPerDelivery: number;
}

async function round(isolate: 'process' | 'none', rate: number): Promise<Round> {
  const device = await startDevice(rate);
  const hub = await startHub(flowFile(`values-${isolate}`, { dev: { type: 'bench-device', port: device.port, isolate } }));
  const clients = await startClients();
  try {
    const pids = isolate === 'process' ? await waitForPids(hub.port, 1) : [];
    const restarted = async () => isolate === 'process' && (await connectionPids(hub.port)).join() !== pids.join();
    await clients.connect(hub.port, '/ws?filter=%5Edev%2F', CLIENTS);
    await sleep(3000); // snapshots, and what the hub fell behind on while 1,000 clients came
    if (await restarted()) {
      const listed = await (await fetch(`http://127.0.0.1:${hub.port}/connections`)).json();
      throw new Error(`the connection's process ended as the clients came: ${JSON.stringify(listed)}`);
    }
    const cpu = () => [hub.pid, ...pids].reduce((sum, pid) => sum + cpuSeconds(pid), 0);
    await clients.reset();
    const cpuBefore = cpu();
    const started = nowMs();
    await sleep(seconds * 1000);
    if (await restarted()) {
      const listed = await (await fetch(`http://127.0.0.1:${hub.port}/connections`)).json();
      throw new Error(`the connection's process ended during the round: ${JSON.stringify(listed)}`);
    }
    const report = await clients.report(1);
    const elapsed = (nowMs() - started) / 1000;
    const cpuUsed = cpu() - cpuBefore;
    const deliveries = report.received;
    return {
      valuesPerSecond: deliveries / CLIENTS / elapsed,
      deliveriesPerSecond: deliveries / elapsed,
      cpuMicrosPerDelivery: (cpuUsed * 1e6) / Math.max(1, deliveries),
    };
  } finally {
    await clients.close().catch(() => {});
    await hub.stop();
    await stopChild(device.child);
  }
}

async function idleCost(folder = studio, bin?: string): Promise<{ isolated: number; inHub: number }> {
  const idle = (isolate: string) =>
    Object.fromEntries(Array.from({ length: IDLE }, (_, i) => [`idle-${i}`, { type: 'bench-device', port: 0, isolate }]));
  const measure = async (isolate: 'process' | 'none') => {
    const hub = await startHub(flowFile(`idle-${isolate}`, idle(isolate), folder), bin);
    try {
      const pids = isolate === 'process' ? await waitForPids(hub.port, IDLE) : [];
      await sleep(2000);
      return [hub.pid, ...pids].reduce((sum, pid) => sum + rssBytes(pid), 0);
    } finally {
      await hub.stop();
    }
  };
  return { isolated: await measure('process'), inHub: await measure('none') };
}

const ratesArg = process.argv.indexOf('--rates');
const RATES =
  ratesArg > 0
    ? (process.argv[ratesArg + 1] ?? '')
        .split(',')
        .map(Number)
        .filter((rate) => rate > 0)
    : [1000, 2000];
const rounds = new Map<string, Round[]>();
const measuredRates = process.argv.includes('--idle-only') ? [] : RATES;
for (const rate of measuredRates) {
  for (let i = 0; i < 3; i++) {
    for (const isolate of ['process', 'none'] as const) {
      const result = await round(isolate, rate);
      console.log(
        `  ${rate}/s, round ${i + 1}, isolate ${isolate}: ${result.valuesPerSecond.toFixed(0)} values/s to each of ${CLIENTS} clients, ${result.cpuMicrosPerDelivery.toFixed(2)} µs CPU a delivery`,
      );
      const key = `${rate} ${isolate}`;
      rounds.set(key, [...(rounds.get(key) ?? []), result]);
    }
  }
}
/** The median round of a rate and mode, by values a second: one burst or one stall does not decide. */
const median = (key: string): Round => {
  const sorted = [...(rounds.get(key) ?? [])].sort((a, b) => a.valuesPerSecond - b.valuesPerSecond);
  return sorted[Math.floor(sorted.length / 2)] as Round;
};
const idle = await idleCost();
const installed = installedStudio();
const idleInstalled = await idleCost(installed.folder, installed.bin);
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root }).toString().trim();
const table = `# Isolation: a type of a package in a process of its own (${new Date().toISOString().slice(0, 10)}, ${commit})

A device process sends values at a steady rate; a type of a package reads them over TCP
and reports them to 100 parameters; ${CLIENTS} WebSocket clients receive every change.
The median of three alternating rounds of ${seconds} s (\`npm run bench:isolation\`).

| metric | isolate "process" | isolate "none" (baseline) | ratio | target |
|---|---|---|---|---|
${measuredRates
  .map((rate) => {
    const isolated = median(`${rate} process`);
    const inHub = median(`${rate} none`);
    return `| ${rate.toLocaleString('en')}/s: values/s each client received | ${isolated.valuesPerSecond.toFixed(0)} | ${inHub.valuesPerSecond.toFixed(0)} | ${(isolated.valuesPerSecond / inHub.valuesPerSecond).toFixed(2)}× | ≥ 0.8× |
| ${rate.toLocaleString('en')}/s: CPU µs a delivery (hub + connection process) | ${isolated.cpuMicrosPerDelivery.toFixed(2)} | ${inHub.cpuMicrosPerDelivery.toFixed(2)} | ${(isolated.cpuMicrosPerDelivery / inHub.cpuMicrosPerDelivery).toFixed(2)}× | |\n`;
  })
  .join('')}| resident memory of a hub with ${IDLE} idle connections (checkout), MB | ${mb(idle.isolated)} | ${mb(idle.inHub)} | | |
| resident memory an idle connection in a process of its own adds (checkout: tsx compiles the sources), MB | ${mb((idle.isolated - idle.inHub) / IDLE)} | | | |
| resident memory of a hub with ${IDLE} idle connections (packed patchbay installed), MB | ${mb(idleInstalled.isolated)} | ${mb(idleInstalled.inHub)} | | |
| resident memory an idle connection in a process of its own adds (installed), MB | ${mb((idleInstalled.isolated - idleInstalled.inHub) / IDLE)} | | | |
`;
console.log(`\n${table}`);
const out = join(root, 'bench/results', `${new Date().toISOString().slice(0, 10)}-${commit}-isolation.md`);
writeFileSync(out, table);
console.log(`wrote ${out}`);
