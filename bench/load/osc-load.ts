/**
 * A load process for the OSC scenario, driven over IPC: `receive` binds a UDP port and
 * counts the OSC messages that arrive (decoded with node-osc, as the hub's are); `send`
 * sends string messages `<seq>:<monotonic ms>` at a steady rate, spread round-robin over
 * the addresses, encoded by node-osc. The same process kinds serve the raw baseline
 * (sender → receiver) and the hub path (sender → hub → receiver).
 */
import { createSocket } from 'node:dgram';
import { decode, encode } from 'node-osc';
import { nowMs, sleep } from '../lib/clock.ts';

type Command =
  | { cmd: 'receive' }
  | { cmd: 'count' }
  | { cmd: 'send'; port: number; rate: number; seconds: number; addresses: string[]; startSeq: number };

let received = 0;
let lastArrival = 0;

async function receive() {
  const socket = createSocket('udp4');
  socket.on('message', (packet) => {
    decode(packet);
    received++;
    lastArrival = nowMs();
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  // Room for bursts: what the kernel drops here would count against whichever path sent it.
  socket.setRecvBufferSize(8 * 1024 * 1024);
  return { port: socket.address().port };
}

async function send({ port, rate, seconds, addresses, startSeq }: Extract<Command, { cmd: 'send' }>) {
  const socket = createSocket('udp4');
  socket.connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  let seq = startSeq;
  let sent = 0;
  const started = nowMs();
  const end = started + seconds * 1000;
  while (nowMs() < end) {
    const due = Math.floor(((nowMs() - started) / 1000) * rate) - sent;
    for (let i = 0; i < due; i++) {
      const address = addresses[seq % addresses.length] as string;
      socket.send(encode({ oscType: 'message', address, args: [{ type: 's', value: `${seq}:${nowMs().toFixed(3)}` }] }));
      seq++;
      sent++;
    }
    await sleep(1);
  }
  socket.close();
  return { sent, startedAt: started, seconds: (nowMs() - started) / 1000, nextSeq: seq };
}

process.on('message', async (message: Command) => {
  try {
    if (message.cmd === 'receive') process.send?.({ cmd: 'receive', ...(await receive()) });
    else if (message.cmd === 'count') {
      process.send?.({ cmd: 'count', received, lastArrival });
      received = 0;
    } else process.send?.({ cmd: 'send', ...(await send(message)) });
  } catch (error) {
    process.send?.({ cmd: message.cmd, error: (error as Error).message });
  }
});
process.send?.({ cmd: 'started' });
