/**
 * A load process holding many WebSocket clients on raw sockets, driven over IPC by the
 * bench. It parses frames itself (server frames are unmasked and small), reads the
 * timestamp a writer put in each value (`<seq>:<monotonic ms>`) and keeps, per seq, the
 * first and last arrival. Client 0 also keeps the last value of every address, so a run
 * can check it ended with the hub's state.
 */
import { connect, type Socket } from 'node:net';
import { nowMs } from '../lib/clock.ts';

interface Client {
  socket: Socket;
  pending: Buffer | undefined;
  upgraded: boolean;
  received: number;
  state: Map<string, string> | undefined;
}

interface Arrival {
  sent: number;
  first: number;
  last: number;
  count: number;
}

const clients: Client[] = [];
let arrivals = new Map<number, Arrival>();
let received = 0;
/** When the last value arrived (monotonic ms), 0 when none did since the reset. */
let lastArrival = 0;
let excluded = -1;
const valueKey = Buffer.from('"v":"');
const addressKey = Buffer.from('"p":"');

/** One `{p, v}`, or a `?batch=1` array of them: each value counts as one delivery (values hold no braces). */
function onMessage(client: Client, index: number, payload: Buffer): void {
  if (payload[0] !== 0x5b) return onValue(client, index, payload); // not '['
  for (let start = 1; start < payload.length; ) {
    const close = payload.indexOf(0x7d, start); // '}'
    if (close < 0) break;
    onValue(client, index, payload.subarray(start, close + 1));
    start = close + (payload[close + 1] === 0x2c ? 2 : 1);
  }
}

function onValue(client: Client, index: number, payload: Buffer): void {
  client.received++;
  received++;
  const at = payload.indexOf(valueKey);
  if (at < 0) return;
  const start = at + valueKey.length;
  const end = payload.indexOf(34, start); // closing quote
  const value = payload.toString('latin1', start, end);
  if (client.state) {
    const p = payload.indexOf(addressKey) + addressKey.length;
    client.state.set(payload.toString('latin1', p, payload.indexOf(34, p)), value);
  }
  if (index === excluded) return;
  const colon = value.indexOf(':');
  if (colon < 0) return;
  const seq = Number(value.slice(0, colon));
  const second = value.indexOf(':', colon + 1);
  const sent = Number(second < 0 ? value.slice(colon + 1) : value.slice(colon + 1, second));
  const arrival = nowMs();
  lastArrival = arrival;
  const seen = arrivals.get(seq);
  if (seen) {
    seen.last = arrival;
    seen.count++;
  } else {
    arrivals.set(seq, { sent, first: arrival, last: arrival, count: 1 });
  }
}

function frames(client: Client, index: number, chunk: Buffer): void {
  const buffer = client.pending ? Buffer.concat([client.pending, chunk]) : chunk;
  let offset = 0;
  for (;;) {
    if (buffer.length - offset < 2) break;
    const opcode = (buffer[offset] as number) & 0x0f;
    let length = (buffer[offset + 1] as number) & 0x7f;
    let header = 2;
    if (length === 126) {
      if (buffer.length - offset < 4) break;
      length = buffer.readUInt16BE(offset + 2);
      header = 4;
    } else if (length === 127) {
      if (buffer.length - offset < 10) break;
      length = Number(buffer.readBigUInt64BE(offset + 2));
      header = 10;
    }
    if (buffer.length - offset < header + length) break;
    const payload = buffer.subarray(offset + header, offset + header + length);
    if (opcode === 1) onMessage(client, index, payload);
    else if (opcode === 9) pong(client.socket, payload);
    offset += header + length;
  }
  client.pending = offset < buffer.length ? Buffer.from(buffer.subarray(offset)) : undefined;
}

function pong(socket: Socket, payload: Buffer): void {
  const frame = Buffer.alloc(6 + payload.length);
  frame[0] = 0x8a;
  frame[1] = 0x80 | payload.length; // client frames are masked; a zero mask keeps the bytes
  payload.copy(frame, 6);
  socket.write(frame);
}

// Every socket reads into this one buffer (`onread`): no allocation and no stream
// machinery per read. Each read is handled before the next, and partial frames are copied.
const readBuffer = Buffer.alloc(256 * 1024);

function open(port: number, path: string, index: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect({
      port,
      host: '127.0.0.1',
      onread: {
        buffer: readBuffer,
        callback: (size: number, buffer: Uint8Array) => {
          received_(buffer, size);
          return true;
        },
      },
    });
    socket.setNoDelay(true);
    const client: Client = { socket, pending: undefined, upgraded: false, received: 0, state: index === 0 ? new Map() : undefined };
    clients[index] = client;
    socket.on('error', (error) => (client.upgraded ? undefined : reject(error)));
    socket.on('connect', () =>
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
      ),
    );
    function received_(buffer: Uint8Array, size: number): void {
      const chunk = Buffer.from(buffer.buffer, buffer.byteOffset, size);
      if (client.upgraded) return frames(client, index, chunk);
      const all = client.pending ? Buffer.concat([client.pending, chunk]) : chunk;
      const end = all.indexOf('\r\n\r\n');
      if (end < 0) {
        client.pending = Buffer.from(all);
        return;
      }
      if (!all.subarray(0, 12).toString().includes('101')) return reject(new Error(`upgrade refused: ${all.subarray(0, 40).toString()}`));
      client.upgraded = true;
      client.pending = undefined;
      resolve();
      if (all.length > end + 4) frames(client, index, all.subarray(end + 4));
    }
  });
}

type Command =
  | { cmd: 'connect'; port: number; path: string; count: number }
  | { cmd: 'reset' }
  | { cmd: 'report'; expected: number }
  | { cmd: 'pause' | 'resume'; index: number }
  | { cmd: 'state'; index: number }
  | { cmd: 'exclude'; index: number }
  | { cmd: 'close' };

process.on('message', async (message: Command) => {
  const reply = (answer: object) => process.send?.({ cmd: message.cmd, ...answer });
  try {
    switch (message.cmd) {
      case 'connect': {
        const started = nowMs();
        const base = clients.length;
        // A few hundred at a time, as a crowd of dashboards would arrive.
        for (let i = 0; i < message.count; i += 250) {
          await Promise.all(
            Array.from({ length: Math.min(250, message.count - i) }, (_, j) => open(message.port, message.path, base + i + j)),
          );
        }
        return reply({ ms: nowMs() - started, connected: clients.length });
      }
      case 'reset':
        arrivals = new Map();
        received = 0;
        lastArrival = 0;
        for (const client of clients) client.received = 0;
        return reply({});
      case 'report': {
        const firsts: number[] = [];
        const lasts: number[] = [];
        const counts: number[] = [];
        for (const a of arrivals.values()) {
          firsts.push(a.first - a.sent);
          counts.push(a.count);
          if (a.count >= message.expected) lasts.push(a.last - a.sent);
        }
        return reply({ received, lastArrival, firsts, lasts, counts, seqs: arrivals.size, perClient: clients.map((c) => c.received) });
      }
      case 'pause':
        clients[message.index]?.socket.pause();
        return reply({});
      case 'resume':
        clients[message.index]?.socket.resume();
        return reply({});
      case 'state':
        return reply({ state: Object.fromEntries(clients[message.index]?.state ?? []) });
      case 'exclude':
        excluded = message.index;
        return reply({});
      case 'close':
        for (const client of clients) client.socket.destroy();
        clients.length = 0;
        return reply({});
    }
    return undefined;
  } catch (error) {
    return reply({ error: (error as Error).message });
  }
});
process.send?.({ cmd: 'started' });
