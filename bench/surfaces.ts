/**
 * `npm run bench:surfaces`: how long tally and key presses take through the hub (R-SU1,
 * R-SU2), beside the same messages without it, in the same run.
 *
 * - Tally: a `tsl-umd` connection sending 100 v5.0 displays over UDP; each change of a
 *   display's text (a sequence number) is timed until tsl-umd-v5, the npm library, has read
 *   it on its UDP receiver. The baseline is the library's own `sendTallyUDP` of the same
 *   display to a second receiver of its own.
 * - Keys: 10 satellites (Stream Decks of 32 keys) on a `satellite` connection; each
 *   `KEY-PRESS` line is timed until its `key/<n>/pressed` parameter changed. The baseline is
 *   a plain TCP server that splits the same lines and reads the same fields.
 *
 * Everything runs in this process (one clock), at `--rate` messages a second (default 200)
 * for `--seconds` (default 5), the two of a pair in turns, three rounds: p50 and p99 of each.
 *
 *   npm run bench:surfaces [-- --rate 200 --seconds 5]
 *
 * Printed, and kept in bench/results/<date>-<commit>-surfaces.md.
 */
import { execFileSync } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect, createServer, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { validateFlow } from '../lib/config/flow-file.ts';
import { Hub } from '../lib/hub/hub.ts';
import { sleep } from './lib/clock.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const argument = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const rate = argument('rate', 200);
const seconds = argument('seconds', 5);
const ROUNDS = 3;
const DISPLAYS = 100;
const DECKS = 10;
const KEYS = 32;

interface TslPeer {
  on(event: 'message', listener: (message: { index: number; display: { text: string } }) => void): void;
  listenUDP(port: number): void;
  sendTallyUDP(ip: string, port: number, tally: object): void;
}
const TSL5 = createRequire(import.meta.url)('tsl-umd-v5') as new () => TslPeer;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

async function freeUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

/** Sends `count` messages at `rate` a second with `send(i)`; resolves once the last could have arrived. */
async function paced(count: number, send: (i: number) => void): Promise<void> {
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    send(i);
  }
  await sleep(300);
}

async function startHub(connections: Record<string, unknown>): Promise<Hub> {
  const flow = validateFlow({ connections }, `${root}bench.json5`);
  if (!flow.ok) throw flow.error;
  const hub = new Hub({ flow: flow.flow });
  await hub.start();
  return hub;
}

async function tally(): Promise<{ hub: number[]; raw: number[] }> {
  const [hubPort, rawPort] = [await freeUdpPort(), await freeUdpPort()];
  const sentAt = new Map<string, number>();
  const latencies = { hub: [] as number[], raw: [] as number[] };
  for (const [port, into] of [
    [hubPort, latencies.hub],
    [rawPort, latencies.raw],
  ] as const) {
    const receiver = new TSL5();
    receiver.on('message', (message) => {
      const at = sentAt.get(message.display.text);
      if (at !== undefined) into.push(performance.now() - at);
    });
    receiver.listenUDP(port);
  }
  const displays = Array.from({ length: DISPLAYS }, (_, i) => `0/${i + 1}`);
  const hub = await startHub({ umds: { type: 'tsl-umd', version: '5.0', mode: 'send', host: '127.0.0.1', port: hubPort, displays } });
  const sender = new TSL5();
  const count = rate * seconds;
  for (let round = 0; round < ROUNDS; round++) {
    await paced(count, (i) => {
      const text = `h${round}-${i}`;
      sentAt.set(text, performance.now());
      hub.graph.get(`umds/0/${(i % DISPLAYS) + 1}/text`)?.set(text);
    });
    await paced(count, (i) => {
      const text = `r${round}-${i}`;
      sentAt.set(text, performance.now());
      sender.sendTallyUDP('127.0.0.1', rawPort, {
        screen: 0,
        index: (i % DISPLAYS) + 1,
        display: { rh_tally: 0, text_tally: 0, lh_tally: 0, brightness: 3, text },
      });
    });
  }
  await hub.stop();
  return latencies;
}

async function keys(): Promise<{ hub: number[]; raw: number[] }> {
  const latencies = { hub: [] as number[], raw: [] as number[] };
  const hub = await startHub({ desk: { type: 'satellite', port: 0, bindIp: '127.0.0.1', maxDevices: DECKS, maxClients: DECKS } });
  const port = hub.connections.find((c) => c.id === 'desk')?.info.details?.['port'] as number;
  const pressedAt = new Map<string, number>();
  const decks: Socket[] = [];
  for (let d = 0; d < DECKS; d++) {
    const deck = connect(port, '127.0.0.1');
    deck.setNoDelay(true);
    // A satellite answers the hub's pings, or it is dropped as silent.
    deck.on('data', (chunk: Buffer) => {
      if (chunk.includes('PING patchbay')) deck.write('PONG patchbay\n');
    });
    await new Promise((resolve) => deck.once('connect', resolve));
    deck.write(`ADD-DEVICE DEVICEID="deck${d}" KEYS_TOTAL=${KEYS} KEYS_PER_ROW=8 BITMAPS=72 COLORS="hex" TEXT=1 \n`);
    decks.push(deck);
  }
  while (hub.graph.get(`desk/deck${DECKS - 1}/key/${KEYS - 1}/pressed`) === undefined) await sleep(20);
  for (let d = 0; d < DECKS; d++)
    for (let k = 0; k < KEYS; k++)
      hub.graph.get(`desk/deck${d}/key/${k}/pressed`)?.values$.subscribe(() => {
        const at = pressedAt.get(`${d}/${k}`);
        if (at !== undefined) latencies.hub.push(performance.now() - at);
        pressedAt.delete(`${d}/${k}`);
      });

  // The baseline: the same lines to a plain TCP server that reads the fields a press has.
  let rawReceived: ((deck: number, key: number) => void) | undefined;
  const raw = createServer((socket) => {
    socket.setNoDelay(true);
    let rest = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        const match = /DEVICEID="deck(\d+)" KEY=(\d+) PRESSED=(\d)/.exec(line);
        if (match) rawReceived?.(Number(match[1]), Number(match[2]));
      }
    });
  });
  await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
  const rawDecks: Socket[] = [];
  for (let d = 0; d < DECKS; d++) {
    const deck = connect((raw.address() as { port: number }).port, '127.0.0.1');
    deck.setNoDelay(true);
    await new Promise((resolve) => deck.once('connect', resolve));
    rawDecks.push(deck);
  }
  rawReceived = (d, k) => {
    const at = pressedAt.get(`r${d}/${k}`);
    if (at !== undefined) latencies.raw.push(performance.now() - at);
    pressedAt.delete(`r${d}/${k}`);
  };

  const count = rate * seconds;
  /** Each press the opposite of the key's last, so that every one changes its parameter. */
  const down = new Map<string, boolean>();
  const press = (sockets: Socket[], prefix: string) => (i: number) => {
    const d = i % DECKS;
    const k = Math.floor(i / DECKS) % KEYS;
    const name = `${prefix}${d}/${k}`;
    const pressed = !(down.get(name) ?? false);
    down.set(name, pressed);
    pressedAt.set(name, performance.now());
    (sockets[d] as Socket).write(`KEY-PRESS DEVICEID="deck${d}" KEY=${k} PRESSED=${pressed ? 1 : 0} \n`);
  };
  for (let round = 0; round < ROUNDS; round++) {
    await paced(count, press(decks, ''));
    await paced(count, press(rawDecks, 'r'));
  }
  for (const socket of [...decks, ...rawDecks]) socket.destroy();
  raw.close();
  await hub.stop();
  return latencies;
}

const row = (what: string, { hub, raw }: { hub: number[]; raw: number[] }) => {
  const [h50, h99, r50, r99] = [percentile(hub, 50), percentile(hub, 99), percentile(raw, 50), percentile(raw, 99)];
  return `| ${what} | ${hub.length.toLocaleString('en')} / ${raw.length.toLocaleString('en')} | ${h50.toFixed(2)} / ${h99.toFixed(2)} | ${r50.toFixed(2)} / ${r99.toFixed(2)} | ${(h99 / r99).toFixed(2)}× |`;
};

const tallyResult = await tally();
const keysResult = await keys();
const commit = existsSync(`${root}.git`)
  ? execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root }).toString().trim()
  : 'unknown';
const table = [
  `# Tally and key presses through the hub (${commit}, Node ${process.version})`,
  '',
  `${rate} messages a second for ${seconds} s, ${ROUNDS} rounds in turns; latency in ms from the change (or the press written on the socket) to its receipt, in this one process.`,
  '',
  '| path | measured (hub / baseline) | hub p50 / p99 | baseline p50 / p99 | p99 ratio |',
  '|---|---|---|---|---|',
  row(
    `tally: a parameter → tsl-umd (${DISPLAYS} v5.0 displays, UDP) → tsl-umd-v5's receiver; baseline tsl-umd-v5's sendTallyUDP`,
    tallyResult,
  ),
  row(`keys: KEY-PRESS from ${DECKS} satellites × ${KEYS} keys → key/<n>/pressed; baseline a plain TCP line server`, keysResult),
  '',
].join('\n');
console.log(table);
const date = new Date().toISOString().slice(0, 10);
const file = `${root}bench/results/${date}-${commit}-surfaces.md`;
writeFileSync(file, existsSync(file) ? `${readFileSync(file, 'utf8').trimEnd()}\n\n${table}` : table);
console.log(`wrote ${file.slice(root.length)}`);
process.exit(0);
