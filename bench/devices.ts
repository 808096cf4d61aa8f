/**
 * `npm run bench:devices`: each device package against Companion's own module for the same
 * device, on the same simulator, beside the device's client library alone (R-DV3), in one run.
 *
 * Three races, each a device changing one value at a time, and a WebSocket client waiting
 * for each change to arrive:
 *
 * - ATEM: the switcher of spec/helpers/atem-switcher.ts cuts M/E 1's program between inputs
 *   1 and 2 on its panel; watched: `me/1/program` of `patchbay-atem`, the variable
 *   `pgm1_input_id` of Companion's `bmd-atem`;
 * - HyperDeck: `hyperdeck-server-connection` as the deck tells its clip changing between 1
 *   and 2; watched: `transport/clip` of `patchbay-hyperdeck`, `clipId` of `bmd-hyperdeck`;
 * - OBS: OBS Studio itself (spec/helpers/obs-studio.ts: Debian's obs-studio 29 headless in a
 *   network namespace; root only, else the race is skipped), its program scene switched
 *   between two scenes by another WebSocket client, as a person at OBS's window would;
 *   watched: `scene/program` of `patchbay-obs`, the variable `scene_active` of `obs-studio`.
 *
 * The contenders, each in processes of their own: the client library alone with a bare
 * WebSocket server that sends each change it hears (the floor: the library, a process hop, a
 * socket); a hub with the package (its process under the hub's); the same in the hub's own
 * process (`isolate: "none"`: the share of the isolation wire); the same hub with
 * Companion's own build of its module as a `companion-module` connection. Companion's builds
 * are not in this checkout: pass the folder of bitfocus/companion-bundled-modules
 * (`--companion <folder>`), else those rows are skipped.
 *
 * For each: latency from the device's change to the client's message (p50, p99), and the CPU
 * seconds of its processes (the hub and its children) per 1,000 changes.
 *
 *   npm run bench:devices -- [--companion <folder>] [--changes 1000] [--rounds 2] [--race atem|hyperdeck|obs]
 *
 * Printed, and kept in bench/results/<date>-<commit>-devices.md (`-devices-<race>.md` for one race, so
 * races run one by one at a commit keep each its own).
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket, { WebSocketServer } from 'ws';
import { AtemSwitcher } from '../spec/helpers/atem-switcher.ts';
import { canRunObs, startObs, whyNoObs } from '../spec/helpers/obs-studio.ts';
import { studioWith } from '../spec/helpers/outside-package.ts';
import { freePort } from '../spec/helpers/ports.ts';
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
/** One race alone: atem, hyperdeck or obs. */
const only = argument('--race');

// The floors' processes: a client library alone, and a bare WebSocket server that sends what it hears.
if (process.argv[2] === '--serve-raw') {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => server.once('listening', resolve));
  const say = (value: unknown) => {
    const message = JSON.stringify({ p: 'value', v: String(value) });
    for (const client of server.clients) client.send(message);
  };
  const ready = () => console.log(`ready ${(server.address() as { port: number }).port}`);
  const port = Number(process.argv[4]);
  if (process.argv[3] === 'atem') {
    const { Atem } = await import('atem-connection');
    const atem = new Atem({ disableMultithreaded: true });
    atem.on('stateChanged', (state, paths) => {
      if (paths.includes('video.mixEffects.0.programInput')) say(state.video.mixEffects[0]?.programInput);
    });
    atem.on('connected', ready);
    await atem.connect('127.0.0.1', port);
  } else if (process.argv[3] === 'obs') {
    const { OBSWebSocket } = await import('obs-websocket-js');
    const obs = new OBSWebSocket();
    obs.on('CurrentProgramSceneChanged', ({ sceneName }) => say(sceneName));
    await obs.connect(`ws://${process.argv[5]}:${port}`);
    ready();
  } else {
    const { Commands, Hyperdeck } = await import('hyperdeck-connection');
    const deck = new Hyperdeck({ pingPeriod: 0 });
    deck.on('notify.transport', (transport: { clipId?: number | null }) => {
      if (typeof transport.clipId === 'number') say(transport.clipId);
    });
    deck.on('connected', () => {
      void deck.sendCommand(Object.assign(new Commands.NotifySetCommand(), { transport: true })).then(ready);
    });
    deck.connect('127.0.0.1', port);
  }
  process.on('SIGTERM', () => process.exit(0));
  await new Promise(() => {});
}

interface Contender {
  readonly name: string;
  start(): Promise<{ server: Server; path: string; parameter: string }>;
}

/** A device, its changes one at a time, and who races to tell a WebSocket client of them. */
interface Race {
  readonly device: string;
  /** Makes the next change on the device; resolves with the value the client should then see. */
  change(): string;
  readonly contenders: Contender[];
  close(): Promise<void>;
}

/** A hub process in a studio folder with the package of `packages/<folder>` installed, on `connections` and a rest-api. */
async function hubWith(folder: string, connections: Record<string, unknown>): Promise<Server> {
  const studio = await studioWith(folder);
  const flow = {
    plugins: [`patchbay-${folder}`],
    connections: { api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' }, ...connections },
  };
  writeFileSync(join(studio, 'flow.json5'), JSON.stringify(flow));
  return startServer('hub', process.execPath, [join(root, 'bin/patchbay.js'), 'run', join(studio, 'flow.json5'), '--state', 'none']);
}

/** The three contenders of a device: its library alone, its package, and Companion's module when its build is at hand. */
function contendersOf(
  device: 'atem' | 'hyperdeck' | 'obs',
  port: number,
  watched: { package: string; module: string; moduleName: string; config: Record<string, unknown>; library?: string; host?: string },
): Contender[] {
  const host = watched.host ?? '127.0.0.1';
  const filter = (address: string) => `/ws?filter=${encodeURIComponent(`^${address}$`)}`;
  const contenders: Contender[] = [
    {
      name: `${watched.library ?? `${device}-connection`} alone`,
      start: async () => ({
        server: await startServer('raw', process.execPath, [
          '--import',
          'tsx',
          fileURLToPath(import.meta.url),
          '--serve-raw',
          device,
          String(port),
          host,
        ]),
        path: '/',
        parameter: 'value',
      }),
    },
    {
      name: `patchbay-${device}`,
      start: async () => ({
        server: await hubWith(device, { device: { type: device, host, port } }),
        path: filter(`device/${watched.package}`),
        parameter: `device/${watched.package}`,
      }),
    },
    // The same package in the hub's own process: what the isolation wire costs, beside it.
    {
      name: `patchbay-${device}, isolate "none"`,
      start: async () => ({
        server: await hubWith(device, { device: { type: device, host, port, isolate: 'none' } }),
        path: filter(`device/${watched.package}`),
        parameter: `device/${watched.package}`,
      }),
    },
  ];
  const bundled = companion && join(companion, watched.moduleName);
  if (bundled && existsSync(join(bundled, 'companion/manifest.json')))
    contenders.push({
      name: `Companion ${watched.moduleName}`,
      start: async () => ({
        server: await hubWith(device, { device: { type: 'companion-module', module: bundled, config: watched.config } }),
        path: filter(`device/var/${watched.module}`),
        parameter: `device/var/${watched.module}`,
      }),
    });
  else console.log(`Companion ${watched.moduleName}: skipped (pass --companion <folder of companion-bundled-modules>)`);
  return contenders;
}

async function atemRace(): Promise<Race> {
  const switcher = await AtemSwitcher.start();
  switcher.setProgram(0, 1);
  return {
    device: 'ATEM: a program cut on the panel',
    change: () => {
      const input = switcher.program(0) === 1 ? 2 : 1;
      switcher.setProgram(0, input);
      return String(input);
    },
    contenders: contendersOf('atem', switcher.port, {
      package: 'me/1/program',
      module: 'pgm1_input_id',
      moduleName: 'bmd-atem',
      config: { host: '127.0.0.1', bonjourHost: `127.0.0.1:${switcher.port}` },
    }),
    close: () => switcher.close(),
  };
}

async function hyperdeckRace(): Promise<Race> {
  const { HyperdeckServer } = createRequire(import.meta.url)('hyperdeck-server-connection') as {
    HyperdeckServer: new (ip: string, port: number) => Record<string, unknown> & { notifyTransport(params: Record<string, string>): void };
  };
  const port = await freePort();
  const deck = new HyperdeckServer('127.0.0.1', port);
  let clip = 1;
  const transport = () => ({
    status: 'play',
    speed: '100',
    'slot id': '1',
    'clip id': String(clip),
    'display timecode': '00:00:00:00',
    timecode: '00:00:00:00',
    'video format': '1080i50',
    loop: 'false',
    'single clip': 'false',
  });
  deck['onDeviceInfo'] = async () => ({ 'protocol version': '1.11', model: 'HyperDeck Studio HD Mini', 'slot count': '1' });
  deck['onSlotInfo'] = async () => ({
    'slot id': '1',
    status: 'mounted',
    'volume name': 'SHOW',
    'recording time': '3600',
    'video format': '1080i50',
  });
  deck['onClipsGet'] = async () => ({ 'clip count': '2', 1: 'Opener 00:00:00:00 00:00:30:00', 2: 'Closer 00:00:30:00 00:00:20:00' });
  deck['onTransportInfo'] = async () => transport();
  // What Companion's module asks as it connects; a command the deck does not answer fails its connect.
  deck['onConfiguration'] = async () => ({
    'video input': 'SDI',
    'audio input': 'embedded',
    'file format': 'QuickTimeProResHQ',
    'audio codec': 'PCM',
    'audio input channels': '2',
  });
  deck['onRemote'] = async () => ({ enabled: 'true', override: 'false' });
  return {
    device: "HyperDeck: the deck's clip changes",
    change: () => {
      clip = clip === 1 ? 2 : 1;
      deck.notifyTransport({ 'clip id': String(clip) });
      return String(clip);
    },
    contenders: contendersOf('hyperdeck', port, {
      package: 'transport/clip',
      module: 'clipId',
      moduleName: 'bmd-hyperdeck',
      config: { host: '127.0.0.1', bonjourHost: `127.0.0.1:${port}` },
    }),
    close: async () => {
      const inner = deck as unknown as { _server: { close(): void }; _sockets: Record<string, { _socket: { destroy(): void } }> };
      for (const held of Object.values(inner._sockets)) held._socket.destroy();
      inner._server.close();
    },
  };
}

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
async function round(race: Race, contender: Contender): Promise<{ latencies: number[]; cpuPerThousand: number }> {
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
    // The module and the package read the device as they connect; a floor says only changes: one to start from.
    for (let tries = 0; seen === '' && tries < 100; tries++) {
      if (tries % 10 === 9) race.change();
      await sleep(100);
    }
    await sleep(500);
    const pids = family(server.pid);
    const before = pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
    const latencies: number[] = [];
    for (let n = 0; n < CHANGES; n++) {
      const at = nowMs();
      const value = race.change();
      if (!(await until(value, 5000))) throw new Error(`${contender.name}: change ${n} to ${value} never arrived (saw ${seen})`);
      latencies.push(nowMs() - at);
    }
    const after = pids.reduce((sum, pid) => sum + (existsSync(`/proc/${pid}`) ? cpuSeconds(pid) : 0), 0);
    client.close();
    return { latencies, cpuPerThousand: ((after - before) * 1000) / CHANGES };
  } finally {
    await server.stop();
  }
}

/** A race's table: each contender's rounds together, against its library alone. */
async function run(race: Race): Promise<string[]> {
  const results = new Map<string, { latencies: number[]; cpu: number[] }>();
  for (let r = 0; r < ROUNDS; r++)
    for (const contender of race.contenders) {
      const { latencies, cpuPerThousand } = await round(race, contender);
      const result = results.get(contender.name) ?? { latencies: [], cpu: [] };
      result.latencies.push(...latencies);
      result.cpu.push(cpuPerThousand);
      results.set(contender.name, result);
      console.log(
        `${contender.name}, round ${r + 1}: p50 ${percentile(latencies, 50).toFixed(2)} ms, ${cpuPerThousand.toFixed(2)} CPU s / 1,000`,
      );
    }
  await race.close();
  const floor = [...results.values()][0];
  const floorP50 = floor ? percentile(floor.latencies, 50) : Number.NaN;
  const rows = [
    `## ${race.device}`,
    '',
    '| contender | p50 ms | p99 ms | CPU s per 1,000 changes | p50 vs the library alone |',
    '|---|---|---|---|---|',
  ];
  for (const [name, { latencies, cpu }] of results) {
    const p50 = percentile(latencies, 50);
    const cpuMedian = [...cpu].sort((a, b) => a - b)[Math.floor(cpu.length / 2)] ?? 0;
    rows.push(
      `| ${name} | ${p50.toFixed(2)} | ${percentile(latencies, 99).toFixed(2)} | ${cpuMedian.toFixed(2)} | ${(floorP50 / p50).toFixed(2)}× |`,
    );
  }
  return [...rows, ''];
}

/** OBS itself, in a namespace of its own; its program scene switched between two scenes by another client. */
async function obsRace(): Promise<Race | undefined> {
  if (!canRunObs) {
    console.log(`OBS: skipped${whyNoObs}`);
    return undefined;
  }
  const quits: (() => unknown)[] = [];
  // 60 frames a second: OBS takes a scene change at its next frame, which is most of what is measured.
  const obs = await startObs({ teardown: (quit) => void quits.push(quit) }, { fps: 60 });
  for (const sceneName of ['A', 'B']) await obs.operator.call('CreateScene', { sceneName });
  await obs.operator.call('SetCurrentProgramScene', { sceneName: 'A' });
  // A cut, not OBS's default 300 ms fade: the race is of the news, not of the transition.
  await obs.operator.call('SetCurrentSceneTransition', { transitionName: 'Cut' });
  let scene = 'A';
  return {
    device: 'OBS: the program scene switched by another client',
    change: () => {
      scene = scene === 'A' ? 'B' : 'A';
      void obs.operator.call('SetCurrentProgramScene', { sceneName: scene });
      return scene;
    },
    contenders: contendersOf('obs', obs.port, {
      package: 'scene/program',
      module: 'scene_active',
      moduleName: 'obs-studio',
      config: { host: obs.host, port: String(obs.port), pass: '' },
      library: 'obs-websocket-js',
      host: obs.host,
    }),
    close: async () => {
      for (const quit of quits.reverse()) await quit();
    },
  };
}

// One after another, each device started when its race begins (OBS renders while it runs).
const races: Record<string, () => Promise<Race | undefined>> = { atem: atemRace, hyperdeck: hyperdeckRace, obs: obsRace };
const tables: string[] = [];
for (const [name, race] of Object.entries(races)) {
  if (only && only !== name) continue;
  const started = await race();
  if (started) tables.push(...(await run(started)));
}
const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
const date = new Date().toISOString().slice(0, 10);
const text = [
  `# Devices: ${date} ${commit}`,
  '',
  `${CHANGES} changes a round, ${ROUNDS} rounds, one change at a time: the device's change to the WebSocket client's message. \`npm run bench:devices -- ${process.argv.slice(2).join(' ')}\``,
  '',
  ...tables,
].join('\n');
console.log(text);
mkdirSync(join(root, 'bench/results'), { recursive: true });
writeFileSync(join(root, `bench/results/${date}-${commit}-devices${only ? `-${only}` : ''}.md`), text);
process.exit(0);
