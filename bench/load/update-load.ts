/**
 * A load process of a few keep-alive clients writing `GET /update` as fast as they are
 * answered, driven over IPC: each client sends its next write when the last one is answered
 * (one in flight per connection), until `count` writes were sent or `seconds` passed. Each
 * write is a new value, so each is a change. It answers with the writes per second, the
 * latency of each write from its send to its answer (percentiles, in ms) and its own CPU, so
 * that the bench can tell whether the client was the bottleneck.
 */
import { connect, type Socket } from 'node:net';
import { nowMs, percentile } from '../lib/clock.ts';

interface Command {
  cmd: 'write';
  port: number;
  parameter: string;
  connections: number;
  count: number;
  seconds: number;
  startSeq: number;
}

/** Calls `answered(status)` for each whole HTTP response read from the socket (uWS always sends Content-Length). */
function readResponses(socket: Socket, answered: (status: number) => void): void {
  let carry = '';
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => {
    carry += chunk;
    for (;;) {
      const head = carry.indexOf('\r\n\r\n');
      if (head < 0) return;
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(carry.slice(0, head))?.[1] ?? 0);
      if (carry.length < head + 4 + length) return;
      answered(Number(carry.slice(9, 12)));
      carry = carry.slice(head + 4 + length);
    }
  });
}

async function write({ port, parameter, connections, count, seconds, startSeq }: Command) {
  const latencies = new Float64Array(count);
  let sent = 0;
  let answered = 0;
  let failed = 0;
  let seq = startSeq;
  const cpu = process.cpuUsage();
  const started = nowMs();
  const deadline = started + seconds * 1000;
  let finished = started;
  await Promise.all(
    Array.from(
      { length: connections },
      () =>
        new Promise<void>((resolve, reject) => {
          const socket = connect(port, '127.0.0.1');
          socket.setNoDelay(true);
          let sentAt = 0;
          let index = -1;
          const next = () => {
            if (sent >= count || nowMs() >= deadline) {
              socket.destroy();
              return resolve();
            }
            index = sent++;
            sentAt = nowMs();
            socket.write(`GET /update?parameter=${parameter}&value=${seq++} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
          };
          readResponses(socket, (status) => {
            const now = nowMs();
            latencies[index] = now - sentAt;
            finished = Math.max(finished, now);
            if (status >= 200 && status < 300) answered++;
            else failed++;
            next();
          });
          socket.once('connect', next);
          socket.once('error', reject);
        }),
    ),
  );
  const used = process.cpuUsage(cpu);
  const measured = Array.from(latencies.subarray(0, answered + failed));
  const elapsed = (finished - started) / 1000;
  return {
    sent,
    answered,
    failed,
    seconds: elapsed,
    perSecond: (answered + failed) / elapsed,
    p50: percentile(measured, 50),
    p90: percentile(measured, 90),
    p99: percentile(measured, 99),
    max: measured.reduce((a, b) => Math.max(a, b), 0),
    clientCores: (used.user + used.system) / 1e6 / elapsed,
    nextSeq: seq,
  };
}

process.on('message', async (message: Command) => {
  try {
    process.send?.({ cmd: message.cmd, ...(await write(message)) });
  } catch (error) {
    process.send?.({ cmd: message.cmd, error: (error as Error).message });
  }
});
process.send?.({ cmd: 'started' });
