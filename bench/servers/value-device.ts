/**
 * A device that reports values at a steady rate, for the isolation bench: it listens on a
 * free port on 127.0.0.1, prints the port, and sends each client lines `p<k> <seq>:<ms>\n`
 * (k from 0 to 99 in turn; ms on the monotonic clock every process shares), `<rate>` a
 * second in ticks of 10 ms, until it goes. A device with no bound would measure how a hub
 * drowns, not what it costs.
 *
 *   node --import tsx bench/servers/value-device.ts <rate>
 */
import { createServer } from 'node:net';
import { nowMs } from '../lib/clock.ts';

const PARAMETERS = 100;
const rate = Number(process.argv[2] ?? 5000);
const TICK_MS = 10;

let seq = 0;
const server = createServer({ noDelay: true }, (socket) => {
  socket.on('error', () => {});
  const started = nowMs();
  let sent = 0;
  const tick = setInterval(() => {
    if (socket.destroyed) return void clearInterval(tick);
    const due = Math.floor(((nowMs() - started) / 1000) * rate) - sent;
    let chunk = '';
    const ms = nowMs();
    for (let i = 0; i < due; i++, seq++) chunk += `p${seq % PARAMETERS} ${seq}:${ms}\n`;
    sent += due;
    if (chunk) socket.write(chunk);
  }, TICK_MS);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
});
