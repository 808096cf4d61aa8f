/**
 * What an operator feels: a press reaching the device (scenario 14 of `npm run bench`). A
 * take later than a frame (20 ms at 50 Hz) is seen on air.
 *
 * The device is a TCP listener in this process that stamps each line as it arrives; the
 * hub's `tcp-client` connection sends `TAKE $VALUE` when its `take` is written and `CUE
 * $VALUE` for `cue`. Two sources, one at a time:
 *
 * - a key press from a client of Companion Satellite's protocol → the satellite connection's
 *   `desk/deck/key/0/pressed` → a rule (`on: 'change'`) → `router/take` → the wire;
 * - a WebSocket write of `panel/take` → a rule → `router/cue` → the wire.
 *
 * On one hub, and across two (the press and the write on hub B, the device on hub A, through
 * Mosquitto: B's rules write A's parameters, forwarded and signed with the site key); idle,
 * and with 1,000 WebSocket dashboards following 1,000 changes/s of 1,000 other parameters
 * (split 500 and 500 over two hubs, written on A). The floor, in turns with the hubs under the
 * same load: bare relays doing the same hops (`servers/press-relay.ts`: satellite lines and
 * WebSocket writes in, the device's lines out, straight or through Mosquitto). Latency: from
 * the press (or the write) leaving this process to its line arriving here, on one clock.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, type Server as NetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { ScriptedSatellite } from '../spec/connections/satellite/scripted-satellite.ts';
import { canRunBroker, startBroker } from '../spec/helpers/mosquitto.ts';
import { freePort } from '../spec/helpers/ports.ts';
import { nowMs, percentile, sleep } from './lib/clock.ts';
import { startClients } from './lib/clients.ts';
import { ask, forkLoad, type Server, startServer, stopChild } from './lib/processes.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const node = process.execPath;
const PARAMETERS = 1000;

export interface Latencies {
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly count: number;
}

/** One path measured: where, from what, under what load, and its latencies; the floor's beside, under the same load. */
export interface PressRow {
  readonly hops: 'one hub' | 'two hubs';
  readonly source: 'key press' | 'WebSocket write';
  readonly load: 'idle' | '1,000 dashboards';
  readonly hub: Latencies;
  readonly floor: Latencies;
}

/** The device: each line it is sent, stamped as it arrives. */
class Wire {
  private readonly server: NetServer;
  private waiting: { readonly line: string; readonly resolve: (at: number) => void } | undefined;

  constructor() {
    this.server = createServer({ noDelay: true }, (socket) => {
      socket.setEncoding('utf8');
      socket.on('error', () => {});
      let held = '';
      socket.on('data', (chunk: string) => {
        const at = nowMs();
        held += chunk;
        for (let end = held.indexOf('\r\n'); end >= 0; end = held.indexOf('\r\n')) {
          const line = held.slice(0, end);
          held = held.slice(end + 2);
          if (this.waiting?.line !== line) continue;
          const { resolve } = this.waiting;
          this.waiting = undefined;
          resolve(at);
        }
      });
    });
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as { port: number }).port;
  }

  /** When `line` arrives, or undefined after `ms`. */
  expect(line: string, ms: number): Promise<number | undefined> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting = undefined;
        resolve(undefined);
      }, ms);
      this.waiting = {
        line,
        resolve: (at) => {
          clearTimeout(timer);
          resolve(at);
        },
      };
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** Where presses and writes go in: a satellite port and a WebSocket port (a hub's, or the relay's). */
interface Edge {
  readonly satellitePort: number;
  readonly port: number;
  /** The WebSocket path and the parameter a write goes to. */
  readonly path: string;
  readonly writes: string;
}

/** Latencies in ms of presses and of writes. */
interface Samples {
  readonly press: number[];
  readonly write: number[];
}

/** The press and the write, `count` of each, one at a time. */
async function sample(edge: Edge, wire: Wire, count: number): Promise<Samples> {
  const cleanups: (() => void)[] = [];
  const deck = await ScriptedSatellite.connect(
    { teardown: (cleanup: () => void) => void cleanups.push(cleanup) } as never,
    edge.satellitePort,
  );
  deck.keepAlive();
  deck.addDevice('deck', 15, 5, 0);
  const client = new WebSocket(`ws://127.0.0.1:${edge.port}${edge.path}`);
  await new Promise((resolve, reject) => client.once('open', resolve).once('error', reject));
  try {
    const press = async (down: boolean, ms: number) => {
      const at = nowMs();
      const arrived = wire.expect(`TAKE ${down}`, ms);
      deck.press('deck', 0, 0, down);
      const when = await arrived;
      return when === undefined ? undefined : when - at;
    };
    let sequence = 0;
    const write = async (ms: number) => {
      const value = ++sequence;
      const at = nowMs();
      const arrived = wire.expect(`CUE ${value}`, ms);
      client.send(JSON.stringify({ p: edge.writes, v: value }));
      const when = await arrived;
      return when === undefined ? undefined : when - at;
    };
    // Until the first of each arrives: the deck's key and the remote parameters are there.
    for (let tries = 0; (await press(true, 1000)) === undefined; tries++) {
      await press(false, 1000);
      if (tries > 30) throw new Error('no press reached the device');
    }
    await press(false, 5000);
    for (let tries = 0; (await write(1000)) === undefined; tries++) if (tries > 30) throw new Error('no write reached the device');
    const latencies: Samples = { press: [], write: [] };
    // As an operator presses: a key held 40–80 ms, the next press 60–120 ms after the release
    // (not in step with any tick of the hub's). The satellite client, as Companion Satellite's,
    // leaves Nagle's algorithm on: a press sent while its previous line is not yet acknowledged
    // waits for the acknowledgement. The hub answers each press at once (`KEY-PRESS OK`), which
    // carries it; the floor's relay answers nothing, so presses stay 40 ms apart or more, as
    // a silent server's kernel may hold its acknowledgement that long.
    for (let n = 0; n < count; n++) {
      const down = await press(true, 5000);
      await sleep(40 + Math.random() * 40);
      const up = await press(false, 5000);
      const written = await write(5000);
      if (down === undefined || up === undefined || written === undefined) throw new Error(`press or write ${n} never reached the device`);
      latencies.press.push(down);
      latencies.write.push(written);
      await sleep(60 + Math.random() * 60);
    }
    return latencies;
  } finally {
    client.close();
    for (const cleanup of cleanups) cleanup();
  }
}

function summary(latencies: number[]): Latencies {
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: Math.max(...latencies), count: latencies.length };
}

/** A flow file of this run. */
function flowFile(name: string, flow: unknown): string {
  const file = join(tmpdir(), `patchbay-bench-press-${process.pid}-${name}.json5`);
  writeFileSync(file, JSON.stringify(flow));
  return file;
}

const startHub = (name: string, flow: string) =>
  startServer(name, node, [join(root, 'bin/patchbay.js'), 'run', flow, '--state', 'none', '--log-format', 'json']);

const benchDummy = { type: 'dummy', parameters: Array.from({ length: PARAMETERS }, (_, i) => `p${i},S,0`) };
const router = (port: number) => ({
  type: 'tcp-client',
  host: '127.0.0.1',
  port,
  parameters: ['take,S', 'cue,I'],
  send: [
    { parameter: 'take', frame: 'TAKE $VALUE\r\n' },
    { parameter: 'cue', frame: 'CUE $VALUE\r\n' },
  ],
});
const edgeConnections = (satellitePort: number) => ({
  desk: { type: 'satellite', port: satellitePort, bindIp: '127.0.0.1' },
  panel: { type: 'dummy', parameters: ['take,I,0'] },
});
const edgeRules = [
  { from: 'desk/deck/key/0/pressed', to: 'router/take', on: 'change' },
  { from: 'panel/take', to: 'router/cue', on: 'change' },
];

/**
 * `count` presses and writes through the hubs and as many through the floor's relays, idle
 * and then under the dashboards' load, in turns a quarter at a time, so both meet the same
 * machine: under that load the two cores are full, and what any chain of processes takes
 * then is the floor of what a hub can. `hubs`: the device's hub first (it takes the load's
 * writes), the edge last.
 */
async function measured(
  hubs: Server[],
  edges: { readonly hub: Edge; readonly floor: Edge },
  wire: Wire,
  count: number,
): Promise<Record<'idle' | '1,000 dashboards', { hub: Samples; floor: Samples }>> {
  const inTurns = async () => {
    const both = { hub: { press: [], write: [] } as Samples, floor: { press: [], write: [] } as Samples };
    for (let part = 0; part < 4; part++)
      for (const side of ['hub', 'floor'] as const) {
        const { press, write } = await sample(edges[side], wire, Math.ceil(count / 4));
        both[side].press.push(...press);
        both[side].write.push(...write);
      }
    return both;
  };
  const idle = await inTurns();
  const sets = await Promise.all(hubs.map(() => startClients()));
  const writer = forkLoad('writer.ts');
  try {
    for (const [k, clients] of sets.entries()) await clients.connect(hubs[k]!.port, '/ws', PARAMETERS / hubs.length);
    await new Promise((resolve) => writer.once('message', resolve));
    // Long enough for every sample of both sides (a press held up to 80 ms, its release, a
    // write, up to 120 ms to the next).
    const seconds = Math.ceil((2 * count * 200) / 1000) + 5;
    const load = ask(writer, {
      cmd: 'write',
      port: hubs[0]!.port,
      rate: 1000,
      seconds,
      parameters: Array.from({ length: PARAMETERS }, (_, i) => `bench/p${i}`),
      connections: 8,
      startSeq: 1,
      padding: 0,
    });
    await sleep(1000);
    const loaded = await inTurns();
    await load;
    return { idle, '1,000 dashboards': loaded };
  } finally {
    await stopChild(writer);
    for (const clients of sets) await clients.close().catch(() => {});
  }
}

export async function measurePressToWire(count: number): Promise<PressRow[] | undefined> {
  if (!canRunBroker) return undefined;
  const wire = new Wire();
  const devicePort = await wire.listen();
  const broker = await startBroker({ queued: 2_000_000 });
  const rows: PressRow[] = [];
  const relay = (...args: string[]) =>
    startServer('press relay', node, ['--import', 'tsx', join(root, 'bench/servers/press-relay.ts'), ...args]);
  const started: Server[] = [];
  try {
    // The floors: one relay in place of one hub; two, through Mosquitto, in place of two.
    const relayEdge = async (...args: string[]): Promise<Edge> => {
      const satellitePort = await freePort();
      const edge = await relay('edge', ...args, String(satellitePort));
      started.push(edge);
      return { satellitePort, port: edge.port, path: '/', writes: 'panel/take' };
    };
    const floorOne = await relayEdge('tcp', String(devicePort));
    started.push(await relay('far', broker.url, String(devicePort)));
    const floorTwo = await relayEdge('mqtt', broker.url);

    // One hub: the satellite, the rules and the device's connection together.
    const satelliteOne = await freePort();
    const one = await startHub(
      'hub',
      flowFile('one', {
        connections: {
          api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' },
          bench: benchDummy,
          router: router(devicePort),
          ...edgeConnections(satelliteOne),
        },
        rules: edgeRules,
      }),
    );
    started.push(one);
    const onOne = await measured(
      [one],
      { hub: { satellitePort: satelliteOne, port: one.port, path: '/ws', writes: 'panel/take' }, floor: floorOne },
      wire,
      count,
    );
    await one.stop();

    // Two hubs: the device on A, the deck and the rules on B.
    const key = { file: join(tmpdir(), `patchbay-bench-press-${process.pid}-site.key`) };
    writeFileSync(key.file, randomBytes(32).toString('hex'));
    const mqttOf = (id: string, share: string[]) => ({ type: 'mqtt', url: broker.url, prefix: 'press', hub: { id, share, key } });
    const a = await startHub(
      'hub A',
      flowFile('a', {
        connections: {
          api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' },
          broker: mqttOf('a', ['bench/#', 'router/#']),
          bench: benchDummy,
          router: router(devicePort),
        },
      }),
    );
    started.push(a);
    const satelliteTwo = await freePort();
    const b = await startHub(
      'hub B',
      flowFile('b', {
        connections: {
          api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' },
          broker: mqttOf('b', []),
          ...edgeConnections(satelliteTwo),
        },
        rules: edgeRules,
      }),
    );
    started.push(b);
    const onTwo = await measured(
      [a, b],
      { hub: { satellitePort: satelliteTwo, port: b.port, path: '/ws', writes: 'panel/take' }, floor: floorTwo },
      wire,
      count,
    );

    for (const [hops, measurements] of [
      ['one hub', onOne],
      ['two hubs', onTwo],
    ] as const)
      for (const load of ['idle', '1,000 dashboards'] as const)
        for (const [source, kind] of [
          ['key press', 'press'],
          ['WebSocket write', 'write'],
        ] as const) {
          const { hub, floor } = measurements[load];
          rows.push({ hops, source, load, hub: summary(hub[kind]), floor: summary(floor[kind]) });
        }
    return rows;
  } finally {
    for (const server of started) await server.stop().catch(() => {});
    await broker.stop();
    await wire.close();
  }
}
