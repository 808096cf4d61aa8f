/**
 * UDP for device types, written once: a socket bound for one attempt of a `DeviceLink`,
 * the device's host looked up once an attempt (not at every send), a receive buffer for
 * bursts, and one rule for IPv4 or IPv6 — the family of `bindIp` when one is given, else
 * IPv4 unless the device's host has only an IPv6 address — so that a sender's address compares equal to
 * the device's (an IPv6 socket on every address would show IPv4 senders as `::ffff:…`).
 */
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { Peers } from './peers.ts';
import { HubError } from '../../core/errors.ts';
import { PerSecond } from '../../core/per-second.ts';
import { whyNotBound } from '../../core/ports.ts';
import type { LinkAttempt } from './device-link.ts';

/**
 * A receive buffer for bursts: 4 MiB where the system allows it (Linux caps it at
 * net.core.rmem_max). With the default 208 KiB, a few hundred datagrams that arrive while the
 * hub is busy for some milliseconds (fanning a change out to a thousand dashboards) are
 * dropped by the kernel before the hub sees them.
 */
export function roomForBursts(socket: Socket): void {
  try {
    socket.setRecvBufferSize(4 * 1024 * 1024);
  } catch {
    // Refused by the system: the default buffer it is.
  }
}

/** The host's address in `family`, or its IPv4 one when it has both ("localhost" may list ::1 first). */
async function addressOf(host: string, family: 4 | 6 | undefined): Promise<string> {
  const addresses = await lookup(host, { all: true, family: family ?? 0 });
  const chosen = addresses.find((address) => address.family === 4) ?? addresses[0];
  if (!chosen) throw new Error('no address');
  return chosen.address;
}

export interface UdpOptions {
  /** The port received on; 0 takes any free one. */
  readonly port: number;
  /** "" for every address. */
  readonly bindIp: string;
  /** The device's host name or address, looked up at each attempt; "" when there is none to send to. */
  readonly host: string;
  /** Multicast groups to receive, joined once bound (on `bindIp`'s interface when one is given). */
  readonly multicast?: readonly string[];
  /** The peers whose datagrams it takes (the `allow` setting); others are dropped and counted. Absent: every peer. */
  readonly allow?: Peers;
  /**
   * Datagrams taken a second at most, and who is told of each past it (`first` for the first
   * of its second: the one to say), which is dropped: a flood costs the hub a bounded share of
   * its loop. Absent: every datagram is taken.
   */
  readonly rate?: { readonly mostASecond: number; readonly dropped: (first: boolean) => void };
}

/** A UDP socket of a device type: bound at each attempt of its link, closed at the next. */
export class UdpEndpoint {
  private socket: Socket | undefined;
  private resolved = '';
  private bound = 0;
  private refusedPeerCount = 0;
  private readonly perSecond: PerSecond | undefined;

  /** Datagrams dropped because `allow` does not let their sender in. */
  get refusedPeers(): number {
    return this.refusedPeerCount;
  }

  constructor(
    private readonly options: UdpOptions,
    private readonly receive: (datagram: Buffer, from: RemoteInfo) => void,
  ) {
    this.perSecond = options.rate && new PerSecond(options.rate.mostASecond);
  }

  /** The multicast groups of `multicast` this attempt could not join, each with why: the socket receives the others, and what is sent to it. */
  notJoined: readonly string[] = [];

  /** The device's address as looked up at this attempt; "" without a host. */
  get hostAddress(): string {
    return this.resolved;
  }

  /** The port received on (the one taken, for port 0); 0 while not bound. */
  get localPort(): number {
    return this.bound;
  }

  /** Looks the host up, binds, and says the attempt is up; down with why not. */
  open(attempt: LinkAttempt): void {
    const { port, bindIp, host } = this.options;
    void (async () => {
      const family = isIP(bindIp) === 6 ? 6 : isIP(bindIp) === 4 ? 4 : undefined;
      try {
        this.resolved = host === '' || isIP(host) ? host : await addressOf(host, family);
      } catch (error) {
        return attempt.down(`cannot resolve ${host}: ${(error as Error).message}`);
      }
      const type = (family ?? (isIP(this.resolved) === 6 ? 6 : 4)) === 6 ? 'udp6' : 'udp4';
      const socket = createSocket({ type, reuseAddr: false });
      this.socket = socket;
      const allow = this.options.allow;
      socket.on('message', (datagram, from) => {
        if (allow && !allow.allows(from.address)) return void this.refusedPeerCount++;
        if (this.overTheRate()) return;
        this.receive(datagram, from);
      });
      socket.once('error', (error: NodeJS.ErrnoException) => {
        this.release(socket);
        attempt.down(`cannot receive on UDP port ${port}: ${whyNotBound(error, bindIp)}`);
      });
      socket.bind({ port, ...(bindIp ? { address: bindIp } : {}), exclusive: true }, () => {
        this.bound = socket.address().port;
        roomForBursts(socket);
        this.notJoined = (this.options.multicast ?? []).flatMap((group) => {
          try {
            socket.addMembership(group, bindIp || undefined);
            return [];
          } catch (error) {
            return [`${group}: ${(error as Error).message}`];
          }
        });
        attempt.up();
      });
    })();
  }

  /** Whether one more datagram this second passes the rate: it is dropped, and said. */
  private overTheRate(): boolean {
    if (!this.perSecond || this.perSecond.take()) return false;
    this.options.rate?.dropped(this.perSecond.firstRefused);
    return true;
  }

  /** Sends one datagram; `done` once it is handed to the network, or why not. */
  send(datagram: Buffer, port: number, address: string, done: (error?: Error) => void): void {
    if (!this.socket) return done(new HubError('PB_DEVICE_UNAVAILABLE', 'the socket is closed'));
    this.socket.send(datagram, port, address, (error) => done(error ?? undefined));
  }

  close(): void {
    if (this.socket) this.release(this.socket);
  }

  private release(socket: Socket): void {
    if (this.socket === socket) {
      this.socket = undefined;
      this.bound = 0;
    }
    try {
      socket.close();
    } catch {
      // Closed already: an error after a close, or a close after an error.
    }
  }
}
