import { createSocket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * Where free ports are looked for: below the range the kernel takes ports from for outgoing
 * connections and port-0 listeners. Between a port found free here and a spec's process
 * binding it, a loaded suite (thousands of connections a minute) could otherwise take it —
 * what most likely kept an etcd cluster of the suite from becoming healthy once. From 20000,
 * above the ports the hub and the studio's protocols take by default (17011, 16622, …), which
 * a spec may bind as given. Another spec process picking the same port meanwhile is left to
 * chance among some 12,000.
 */
const range = (() => {
  const [ephemeral = 32768] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
  return { low: 20000, high: Math.min(ephemeral, 65536) - 1 };
})();

/** A port in the range above, or 0 (any) where the kernel leaves it none. */
function candidate(): number {
  const { low, high } = range;
  return high - low < 1000 ? 0 : low + Math.floor(Math.random() * (high - low + 1));
}

/** Binds candidates until one is free (at most 50, then any port the kernel gives); `bind` resolves with the port it bound. */
async function firstBound(bind: (port: number) => Promise<number>): Promise<number> {
  for (let tries = 0; tries < 50; tries++) {
    try {
      return await bind(candidate());
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    }
  }
  return bind(0);
}

/**
 * A port of 127.0.0.1 free now: for a process of the spec's own (a broker), or for a hub that
 * must listen on the same port again after a restart (a port-0 listener's connections would
 * hold the port: uSockets sets SO_REUSEADDR only for a port given).
 */
export function freePort(): Promise<number> {
  return firstBound(
    (port) =>
      new Promise((resolve, reject) => {
        const probe = createServer();
        probe.once('error', reject);
        probe.listen(port, '127.0.0.1', () => {
          const { port: bound } = probe.address() as { port: number };
          probe.close(() => resolve(bound));
        });
      }),
  );
}

/** UDP ports of 127.0.0.1 free now: bound to see them free, then released (a group's voters). */
export async function freeUdpPorts(count: number): Promise<number[]> {
  const ports: number[] = [];
  while (ports.length < count) {
    const port = await firstBound(
      (asked) =>
        new Promise((resolve, reject) => {
          const socket = createSocket('udp4');
          socket.once('error', (error) => {
            socket.close();
            reject(error);
          });
          socket.bind(asked, '127.0.0.1', () => {
            const bound = socket.address().port;
            socket.close(() => resolve(bound));
          });
        }),
    );
    if (!ports.includes(port)) ports.push(port);
  }
  return ports;
}
