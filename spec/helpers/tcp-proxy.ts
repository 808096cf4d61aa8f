import { createServer, type Server, type Socket, connect } from 'node:net';
import type { ExecutionContext } from 'ava';

/**
 * A TCP proxy on 127.0.0.1 in front of a port, to cut a client off as a network would: a
 * tablet that sleeps, a Wi-Fi that drops. `blackhole` stops passing bytes either way and
 * throws away what arrives (the sender thinks it delivered); `cut` then resets every
 * connection through it, and new ones pass again.
 */
export class TcpProxy {
  private readonly pairs = new Set<[Socket, Socket]>();
  private holed = false;

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(t: ExecutionContext, targetPort: number): Promise<TcpProxy> {
    let proxy: TcpProxy | undefined;
    const server = createServer((client) => {
      const upstream = connect(targetPort, '127.0.0.1');
      const pair: [Socket, Socket] = [client, upstream];
      proxy?.pairs.add(pair);
      client.on('data', (data) => proxy?.holed || upstream.write(data));
      upstream.on('data', (data) => proxy?.holed || client.write(data));
      const end = () => {
        proxy?.pairs.delete(pair);
        client.destroy();
        upstream.destroy();
      };
      for (const socket of pair) {
        socket.on('error', end);
        socket.on('close', end);
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxy = new TcpProxy(server, (server.address() as { port: number }).port);
    t.teardown(() => proxy?.close());
    return proxy;
  }

  blackhole(): void {
    this.holed = true;
  }

  cut(): void {
    for (const [client, upstream] of this.pairs) {
      client.resetAndDestroy();
      upstream.resetAndDestroy();
    }
    this.pairs.clear();
    this.holed = false;
  }

  close(): void {
    this.cut();
    this.server.close();
  }
}
