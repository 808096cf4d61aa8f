/**
 * A load process writing `GET /update` at a steady rate over keep-alive sockets, driven
 * over IPC. Each value is `<seq>:<monotonic ms>[:<padding>]` so clients can measure delivery latency;
 * writes spread round-robin over the parameters.
 */
import { connect, type Socket } from 'node:net';
import { nowMs, sleep } from '../lib/clock.ts';

type Command = {
  cmd: 'write';
  port: number;
  rate: number;
  seconds: number;
  parameters: string[];
  connections: number;
  startSeq: number;
  padding?: number;
};

async function write({ port, rate, seconds, parameters, connections, startSeq, padding = 0 }: Extract<Command, { cmd: 'write' }>) {
  const tail = padding > 0 ? `:${'x'.repeat(padding)}` : '';
  const sockets: Socket[] = [];
  let answered = 0;
  let failed = 0;
  for (let i = 0; i < connections; i++) {
    const socket = connect(port, '127.0.0.1');
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      for (let at = chunk.indexOf('HTTP/1.1 '); at >= 0; at = chunk.indexOf('HTTP/1.1 ', at + 9)) {
        if (chunk[at + 9] === 50)
          answered++; // "2xx"
        else failed++;
      }
    });
    await new Promise((resolve) => socket.once('connect', resolve));
    sockets.push(socket);
  }
  let seq = startSeq;
  let sent = 0;
  const started = nowMs();
  const end = started + seconds * 1000;
  while (nowMs() < end) {
    const due = Math.floor(((nowMs() - started) / 1000) * rate) - sent;
    for (let i = 0; i < due; i++) {
      const parameter = parameters[seq % parameters.length];
      sockets[seq % sockets.length]!.write(
        `GET /update?parameter=${parameter}&value=${seq}:${nowMs().toFixed(3)}${tail} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
      );
      seq++;
      sent++;
    }
    await sleep(1);
  }
  const deadline = nowMs() + 5000;
  while (answered + failed < sent && nowMs() < deadline) await sleep(10);
  for (const socket of sockets) socket.destroy();
  return { sent, answered, failed, startedAt: started, seconds: (nowMs() - started) / 1000, nextSeq: seq };
}

process.on('message', async (message: Command) => {
  try {
    process.send?.({ cmd: message.cmd, ...(await write(message)) });
  } catch (error) {
    process.send?.({ cmd: message.cmd, error: (error as Error).message });
  }
});
process.send?.({ cmd: 'started' });
