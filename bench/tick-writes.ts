/**
 * What a rate-limited tick costs uWS: every 100 ms, 100 single WebSocket messages to each
 * of N clients (default 1,000), handed over three ways, and the server's CPU per
 * client-second of each: uWS `publish` to a topic they all subscribe to (which writes a
 * socket at most 32 queued messages at a time), a corked run of sends per client with the
 * messages as strings, and the same with each message encoded once into a Buffer (what the
 * hub does for a tick of more than 32, `lib/http/ws/fan-out.ts`). Plain uWS, no hub: the floor
 * under scenario 8's `maxHz` rows. The clients are the bench's C load client.
 *
 *   node --import tsx bench/tick-writes.ts [clients]
 *
 * Two rounds, the ways in turns. Printed, not asserted.
 */
import { pathToFileURL } from 'node:url';
import { type ListenSocket, uws, type WebSocket } from '../lib/http/uws.ts';
import { startClients } from './lib/clients.ts';
import { sleep } from './lib/clock.ts';

const TICKS = 30;
const TICK_MS = 100;
const MESSAGES = 100;

export async function measureTickWrites(count: number): Promise<Record<string, number[]>> {
  const sockets = new Set<WebSocket<unknown>>();
  const app = uws.App();
  app.ws('/ws', {
    maxBackpressure: 32 * 1024 * 1024,
    idleTimeout: 120,
    open(ws) {
      ws.subscribe('tick');
      sockets.add(ws);
    },
    close(ws) {
      sockets.delete(ws);
    },
  });
  const listening = await new Promise<ListenSocket>((resolve, reject) =>
    app.listen('127.0.0.1', 0, (token) => (token ? resolve(token) : reject(new Error('cannot listen')))),
  );
  const clients = await startClients();
  try {
    await clients.connect(uws.us_socket_local_port(listening), '/ws', count);
    let seq = 0;
    const messages = () => Array.from({ length: MESSAGES }, (_, i) => `{"p":"bench/p${i}","v":"${++seq}:${performance.now().toFixed(1)}"}`);
    const ways: Record<string, () => void> = {
      'publish to a topic': () => {
        for (const message of messages()) app.publish('tick', message);
      },
      'corked sends per client, strings': () => {
        const tick = messages();
        for (const ws of sockets) ws.cork(() => tick.forEach((message) => ws.send(message)));
      },
      'corked sends per client, Buffers': () => {
        const tick = messages().map((message) => Buffer.from(message));
        for (const ws of sockets) ws.cork(() => tick.forEach((message) => ws.send(message)));
      },
    };
    const results: Record<string, number[]> = {};
    for (let round = 0; round < 2; round++) {
      for (const [name, way] of Object.entries(ways)) {
        const before = process.cpuUsage();
        const started = performance.now();
        for (let tick = 0; tick < TICKS; tick++) {
          way();
          await sleep(TICK_MS);
        }
        const used = process.cpuUsage(before);
        const seconds = (performance.now() - started) / 1000;
        (results[name] ??= []).push((used.user + used.system) / seconds / count);
      }
    }
    return results;
  } finally {
    await clients.close();
    uws.us_listen_socket_close(listening);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const count = Number(process.argv[2] ?? 1000);
  const results = await measureTickWrites(count);
  console.log(`${MESSAGES} messages every ${TICK_MS} ms to ${count.toLocaleString('en')} clients, Node ${process.version}`);
  console.log('| way | server CPU µs per client-second (two rounds) |');
  console.log('|---|---|');
  for (const [name, values] of Object.entries(results)) console.log(`| ${name} | ${values.map((v) => v.toFixed(1)).join(', ')} |`);
  process.exit(0);
}
