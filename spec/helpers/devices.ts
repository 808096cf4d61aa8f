import { createServer, type Server, type Socket } from 'node:net';
import type { ExecutionContext } from 'ava';

/**
 * A video router as the spec writes it, on plain `net`: it answers `ROUTE?` with every route,
 * takes `ROUTE <dst> <src>` and confirms it, and records every line it was sent.
 */
export class RouterSimulator {
  readonly heard: string[] = [];
  readonly routes = new Map<number, number>([
    [1, 3],
    [2, 4],
  ]);
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();

  constructor(readonly port: number) {}

  async start(): Promise<void> {
    const server = createServer((socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      let held = '';
      socket.on('data', (chunk) => {
        held += chunk.toString('latin1');
        for (let at = held.indexOf('\r\n'); at >= 0; at = held.indexOf('\r\n')) {
          const line = held.slice(0, at);
          held = held.slice(at + 2);
          this.heard.push(line);
          const route = /^ROUTE (\d+) (\d+)$/.exec(line);
          if (route) this.routes.set(Number(route[1]), Number(route[2]));
          if (route || line === 'ROUTE?') for (const [dst, src] of this.routes) socket.write(`ROUTE ${dst} ${src}\r\n`);
        }
      });
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
  }

  /** Says something of its own, as a device does. */
  say(text: string): void {
    for (const socket of this.sockets) socket.write(text);
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** A device on TCP that keeps every line it was sent, with the connection it came on (one per hub run). */
export async function recordingDevice(t: ExecutionContext) {
  const lines: { connection: number; line: string; at: number }[] = [];
  const sockets: Socket[] = [];
  const server: Server = createServer((socket) => {
    const connection = sockets.push(socket);
    let carry = '';
    socket.on('data', (chunk) => {
      const parts = (carry + chunk.toString()).split('\n');
      carry = parts.pop()!;
      for (const line of parts) if (line !== 'STATUS?') lines.push({ connection, line, at: performance.now() });
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    for (const socket of sockets) socket.destroy();
    server.close();
  });
  return { port: (server.address() as { port: number }).port, lines, sockets };
}
