/**
 * The receiving side of a `tsl-umd` connection: a UDP endpoint or a TCP listener that takes
 * packets from tally sources, says where it listens once up, and hands each packet on with
 * its sender.
 */
import type { Socket } from 'node:net';
import { type LinkAttempt, type LinkProtocol, type Logger, TcpListener, UdpEndpoint } from '../../sdk/index.ts';
import { V5StreamReader } from './packets.ts';
import type { TslUmdOptions } from './settings.ts';

/**
 * Datagrams a receiver takes a second: a mixer naming a thousand displays three times a
 * second stays under it, and a flood past it costs the hub a bounded share of its loop.
 */
export const MOST_DATAGRAMS_A_SECOND = 5000;

/** A side of the connection's link, with what it shows in the connection's details. */
export interface TslLink extends LinkProtocol {
  details(): Record<string, unknown>;
}

/** Where what a receiver takes goes. */
export interface Taken {
  /** A whole packet, and its sender as `address:port`. */
  packet(bytes: Buffer, from: string): void;
  /** Bytes of a TCP stream that make no packet, skipped. */
  malformed(why: string, from: string): void;
  /** A datagram, or a TCP sender, from another address than `host`: not taken. */
  stranger(): void;
  /** Datagrams past `MOST_DATAGRAMS_A_SECOND`, dropped: `first` for the first of a second. */
  flooded(first: boolean): void;
}

/** Listens as `options` say, over UDP or TCP, and hands on what it takes. */
export function tslReceiver(options: TslUmdOptions, log: Logger, taken: Taken): TslLink {
  return options.transport === 'udp' ? udpReceiver(options, log, taken) : tcpReceiver(options, log, taken);
}

function udpReceiver(options: TslUmdOptions, log: Logger, taken: Taken): TslLink {
  const { port, bindIp, host, peers } = options;
  const rate = { mostASecond: MOST_DATAGRAMS_A_SECOND, dropped: (first: boolean) => taken.flooded(first) };
  const endpoint = new UdpEndpoint({ port, bindIp, host: '', allow: peers, rate }, (packet, from) => {
    if (host !== '' && from.address !== host) return taken.stranger();
    taken.packet(packet, `${from.address}:${from.port}`);
  });
  return {
    open: (attempt) => endpoint.open(listening(options, log, attempt, () => String(endpoint.localPort))),
    close: () => endpoint.close(),
    details: () => ({ port: endpoint.localPort, refusedPeers: endpoint.refusedPeers }),
  };
}

function tcpReceiver(options: TslUmdOptions, log: Logger, taken: Taken): TslLink {
  const { port, bindIp, host, peers, maxClients } = options;
  // Senders that sent a whole packet: the others (half a packet and silence) give up their slots to new ones.
  const spoke = new WeakSet<Socket>();
  const yields = (socket: Socket) => !spoke.has(socket);
  const listener = new TcpListener({ port, bindIp, maxClients, allow: peers, yields }, (socket: Socket) => {
    const from = `${socket.remoteAddress}:${socket.remotePort}`;
    if (host !== '' && socket.remoteAddress !== host) {
      taken.stranger();
      return void socket.destroy();
    }
    const packet = (bytes: Buffer) => {
      spoke.add(socket);
      taken.packet(bytes, from);
    };
    const reader = new V5StreamReader({ packet, skipped: (why) => taken.malformed(why, from) });
    socket.on('data', (chunk: Buffer) => reader.push(chunk));
  });
  return {
    open: (attempt) => listener.open(listening(options, log, attempt, () => String(listener.port))),
    close: () => listener.close(),
    details: () => ({
      port: listener.port,
      clients: listener.clients.size,
      refusedClients: listener.refused,
      yieldedClients: listener.yielded,
      refusedPeers: listener.refusedPeers,
    }),
  };
}

/** Says where it listens and whom it takes, as every listener does, then is up. */
function listening({ version, transport, bindIp, host, peers }: TslUmdOptions, log: Logger, attempt: LinkAttempt, where: () => string) {
  const takes = `takes ${host === '' ? peers.describe() : `${host} only`}`;
  return {
    up() {
      log.info(`receiving TSL UMD ${version} over ${transport.toUpperCase()} on ${bindIp || '*'}:${where()}; ${takes}`);
      attempt.up();
    },
    down: (reason: string) => attempt.down(reason),
  };
}
