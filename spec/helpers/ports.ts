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
