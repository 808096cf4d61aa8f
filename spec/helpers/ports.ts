import { createSocket } from 'node:dgram';
import { createServer } from 'node:net';

/**
 * A port of 127.0.0.1 free now: for a process of the spec's own (a broker), or for a hub that
 * must listen on the same port again after a restart (a port-0 listener's connections would
 * hold the port: uSockets sets SO_REUSEADDR only for a port given).
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** UDP ports of 127.0.0.1 free now: bound to see them free, then released (a group's voters). */
export async function freeUdpPorts(count: number): Promise<number[]> {
  const sockets = await Promise.all(
    Array.from({ length: count }, async () => {
      const socket = createSocket('udp4');
      await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
      return socket;
    }),
  );
  const ports = sockets.map((socket) => socket.address().port);
  for (const socket of sockets) socket.close();
  return ports;
}
