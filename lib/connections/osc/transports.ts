/**
 * How OSC packets travel for the `osc` connection: UDP datagrams, or SLIP frames over a TCP
 * link. Each is a `LinkProtocol` for `DeviceLink` (R-G1), which reconnects and reports the
 * status: for TCP the link is the connection to the device; UDP has none, so its link is the
 * socket, up once it is bound (and `host` resolved), down when binding or resolving failed.
 */
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { lookup } from 'node:dns/promises';
import { connect, type Socket as TcpSocket } from 'node:net';
import { HubError, type LinkAttempt, type LinkProtocol, roomForBursts } from '../../sdk/index.ts';
import { SlipReader, slipFrame } from './slip.ts';

export interface PacketHandlers {
  /** A packet as it came, from `peer` (`address:port`), within `maxBytes`. */
  packet(packet: Buffer, peer: string): void;
  /** A packet over `maxBytes`, dropped. */
  tooLarge(bytes: number, peer: string): void;
}

/** A way to carry packets: a link protocol that can also send. */
export interface OscTransport extends LinkProtocol {
  /** Sends one packet; `confirm` hears when the socket took it, or why it could not. */
  send(packet: Buffer, confirm: (error?: unknown) => void): void;
  /** The local port datagrams are received on; 0 for TCP. */
  readonly localPort: number;
}

export interface UdpOptions {
  readonly port: number;
  readonly bindIp: string;
  /** "" for the address the latest datagram came from. */
  readonly host: string;
  /** 0 for the port the latest datagram came from. */
  readonly sendPort: number;
  readonly maxBytes: number;
}

export class UdpTransport implements OscTransport {
  private socket: UdpSocket | undefined;
  private hostAddress = '';
  private latestAddress = '';
  private latestPort = 0;
  localPort = 0;

  constructor(
    private readonly options: UdpOptions,
    private readonly handlers: PacketHandlers,
  ) {}

  open(attempt: LinkAttempt): void {
    const { port, bindIp, host, maxBytes } = this.options;
    const socket = createSocket({ type: bindIp.includes(':') ? 'udp6' : 'udp4' });
    this.socket = socket;
    socket.on('message', (packet, from) => {
      const peer = `${from.address}:${from.port}`;
      this.latestAddress = from.address;
      this.latestPort = from.port;
      if (packet.length > maxBytes) this.handlers.tooLarge(packet.length, peer);
      else this.handlers.packet(packet, peer);
    });
    socket.once('error', (error) => {
      this.release(socket);
      attempt.down(`cannot receive on UDP port ${port}: ${error.message}`);
    });
    socket.bind(port, bindIp || undefined, () => {
      this.localPort = socket.address().port;
      roomForBursts(socket);
      if (host === '') return attempt.up();
      // Resolved once a link, not at every send: a name lookup per fader move would cost more than the send.
      lookup(host, { family: bindIp.includes(':') ? 6 : 4 }).then(
        ({ address }) => {
          this.hostAddress = address;
          attempt.up();
        },
        (error: Error) => {
          this.release(socket);
          attempt.down(`cannot resolve ${host}: ${error.message}`);
        },
      );
    });
  }

  send(packet: Buffer, confirm: (error?: unknown) => void): void {
    const address = this.options.host === '' ? this.latestAddress : this.hostAddress;
    const port = this.options.sendPort || this.latestPort;
    if (!this.socket || address === '' || port === 0) {
      return confirm(new HubError('PB_DEVICE_UNAVAILABLE', 'nobody to send to: no `host` is set and no message was heard yet'));
    }
    this.socket.send(packet, port, address, (error) => confirm(error ?? undefined));
  }

  close(): void {
    if (this.socket) this.release(this.socket);
  }

  private release(socket: UdpSocket): void {
    if (this.socket === socket) this.socket = undefined;
    try {
      socket.close();
    } catch {
      // Closed already: an error after a close, or a close after an error.
    }
  }
}

export interface TcpOptions {
  readonly host: string;
  readonly port: number;
  readonly maxBytes: number;
}

export class TcpTransport implements OscTransport {
  private socket: TcpSocket | undefined;
  readonly localPort = 0;

  constructor(
    private readonly options: TcpOptions,
    private readonly handlers: PacketHandlers,
  ) {}

  open(attempt: LinkAttempt): void {
    const { host, port, maxBytes } = this.options;
    const peer = `${host}:${port}`;
    const reader = new SlipReader(maxBytes, {
      frame: (packet) => this.handlers.packet(packet, peer),
      tooLarge: (bytes) => this.handlers.tooLarge(bytes, peer),
    });
    const socket = connect({ host, port, noDelay: true, keepAlive: true });
    this.socket = socket;
    socket.on('connect', () => attempt.up());
    socket.on('data', (chunk) => reader.push(chunk));
    socket.on('error', (error) => {
      socket.destroy();
      attempt.down(`${peer}: ${error.message}`);
    });
    socket.on('close', () => {
      if (this.socket === socket) this.socket = undefined;
      attempt.down(`${peer} closed the connection`);
    });
  }

  send(packet: Buffer, confirm: (error?: unknown) => void): void {
    const socket = this.socket;
    if (!socket) return confirm(new HubError('PB_DEVICE_UNAVAILABLE', 'the link is down'));
    socket.write(slipFrame(packet), (error) => confirm(error ?? undefined));
  }

  close(): void {
    this.socket?.destroy();
    this.socket = undefined;
  }
}
