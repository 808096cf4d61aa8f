/**
 * A device that records who commanded it, for the redundancy specs: one TCP listener on this
 * machine's end of each hub's network link (so the link says which hub sent a command), each
 * `ROUTE 1 <value>` line kept with its hub, its fencing token (`T<n>` after the value, when
 * the flow sends `$TOKEN`; 0 without) and the time it arrived.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { Network, Teardowns } from './namespaces.ts';

export interface Heard<Hub extends string> {
  readonly hub: Hub;
  readonly value: number;
  readonly token: number;
  readonly at: number;
}

/** Listens on `port` of each hub's device link until the spec ends; what it hears, in order of arrival. */
export async function recordingRouter<Hub extends string>(
  t: Teardowns,
  network: Network,
  hubs: readonly Hub[],
  port: number,
): Promise<Heard<Hub>[]> {
  const heard: Heard<Hub>[] = [];
  const servers: Server[] = [];
  const sockets = new Set<Socket>();
  for (const hub of hubs) {
    const server = createServer((socket) => {
      sockets.add(socket);
      let carry = '';
      socket.on('data', (chunk) => {
        const lines = (carry + chunk.toString()).split('\n');
        carry = lines.pop()!;
        for (const line of lines) {
          const route = /^ROUTE 1 (\d+)(?: T(\d+))?$/.exec(line);
          if (route) heard.push({ hub, value: Number(route[1]), token: Number(route[2] ?? 0), at: performance.now() });
        }
      });
      socket.on('error', () => {});
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(port, network.deviceLink(hub).here, resolve));
  }
  t.teardown(() => {
    for (const server of servers) server.close();
    for (const socket of sockets) socket.destroy();
  });
  return heard;
}

/**
 * What the device heard between two instants: which hubs drove it, in order, and its longest
 * wait between two commands (from the last it heard before `from`: a hub that stops at once
 * leaves a wait that starts there).
 */
export function heardBetween<Hub extends string>(heard: readonly Heard<Hub>[], from: number, to: number) {
  const during = heard.filter((h) => h.at >= from && h.at < to);
  const drivers: Hub[] = [];
  for (const { hub } of during) if (drivers.at(-1) !== hub) drivers.push(hub);
  const times = [heard.findLast((h) => h.at < from)?.at ?? from, ...during.map((h) => h.at)];
  let longestWait = 0;
  for (let i = 1; i < times.length; i++) longestWait = Math.max(longestWait, times[i]! - times[i - 1]!);
  return { drivers, longestWait: Math.round(longestWait), count: during.length };
}
