/**
 * A chatty line-protocol device for the line-frames bench: it listens on a free port on
 * 127.0.0.1, prints the port, and sends each client `<count>` frames `ROUTE <dst> <src>\r\n`
 * then `END\r\n`, as fast as the client reads, then closes.
 *
 *   node --import tsx bench/servers/line-device.ts <count>
 */
import { createServer } from 'node:net';

const count = Number(process.argv[2] ?? 100_000);
const lines: string[] = ['START\r\n'];
for (let i = 0; i < count; i++) lines.push(`ROUTE ${(i % 16) + 1} ${i}\r\n`);
lines.push('END\r\n');
const stream = Buffer.from(lines.join(''));
const CHUNK = 64 * 1024;

const server = createServer({ noDelay: true }, (socket) => {
  socket.on('error', () => {});
  let at = 0;
  const more = () => {
    while (at < stream.length) {
      const chunk = stream.subarray(at, at + CHUNK);
      at += chunk.length;
      if (!socket.write(chunk)) return void socket.once('drain', more);
    }
    socket.end();
  };
  // A moment before the first frame, so that a reader measuring from the START frame is listening.
  setTimeout(more, 300);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(typeof address === 'object' && address ? address.port : 0);
});
process.on('SIGTERM', () => process.exit(0));
