/**
 * How OSC packets travel for the `osc` connection: UDP datagrams, or SLIP frames over a TCP
 * link. Each is a `LinkProtocol` for `DeviceLink` (R-G1), which reconnects and reports the
 * status: for TCP the link is the connection to the device; UDP has none, so its link is the
 * socket, up once it is bound (and `host` resolved), down when binding or resolving failed.
 */
import {
  HubError,
  type LinkAttempt,
  type LinkProtocol,
  TcpConnection,
  UdpEndpoint,
  type UdpOptions as UdpEndpointOptions,
} from '../../sdk/index.ts';
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

export interface UdpOptions extends UdpEndpointOptions {
  /** "" for the address the latest datagram came from. */
  readonly host: string;
  /** 0 for the port the latest datagram came from. */
  readonly sendPort: number;
  readonly maxBytes: number;
}

export class UdpTransport implements OscTransport {
  private readonly endpoint: UdpEndpoint;
  private latestAddress = '';
  private latestPort = 0;

  constructor(
    private readonly options: UdpOptions,
    handlers: PacketHandlers,
  ) {
    this.endpoint = new UdpEndpoint(options, (packet, from) => {
      const peer = `${from.address}:${from.port}`;
      this.latestAddress = from.address;
      this.latestPort = from.port;
      if (packet.length > options.maxBytes) handlers.tooLarge(packet.length, peer);
      else handlers.packet(packet, peer);
    });
  }

  /** Datagrams dropped because `allow` does not let their sender in. */
  get refusedPeers(): number {
    return this.endpoint.refusedPeers;
  }

  get localPort(): number {
    return this.endpoint.localPort;
  }

  open(attempt: LinkAttempt): void {
    this.endpoint.open(attempt);
  }

  send(packet: Buffer, confirm: (error?: unknown) => void): void {
    const address = this.options.host === '' ? this.latestAddress : this.endpoint.hostAddress;
    const port = this.options.sendPort || this.latestPort;
    if (address === '' || port === 0) {
      return confirm(new HubError('PB_DEVICE_UNAVAILABLE', 'nobody to send to: no `host` is set and no message was heard yet'));
    }
    this.endpoint.send(packet, port, address, confirm);
  }

  close(): void {
    this.endpoint.close();
  }
}

export interface TcpOptions {
  readonly host: string;
  readonly port: number;
  readonly maxBytes: number;
}

export class TcpTransport implements OscTransport {
  private connection: TcpConnection | undefined;
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
    this.connection = TcpConnection.open(attempt, { host, port }, { data: (chunk) => reader.push(chunk) });
  }

  send(packet: Buffer, confirm: (error?: unknown) => void): void {
    if (!this.connection) return confirm(new HubError('PB_DEVICE_UNAVAILABLE', 'the link is down'));
    this.connection.send(slipFrame(packet), confirm);
  }

  close(): void {
    this.connection?.close();
    this.connection = undefined;
  }
}
