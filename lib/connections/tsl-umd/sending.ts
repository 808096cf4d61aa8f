/**
 * The sending side of a `tsl-umd` connection: a UDP endpoint or a TCP connection to the
 * display device, which sends while the link is up and says when it comes up, so that
 * every display is sent then.
 */
import { type LinkAttempt, TcpConnection, UdpEndpoint } from '../../sdk/index.ts';
import type { TslLink } from './receiving.ts';
import type { TslUmdOptions } from './settings.ts';

type Done = (error?: Error) => void;

/** The side of a sender's link: `send` only while `up`. */
export interface TslSender extends TslLink {
  readonly up: boolean;
  send(packet: Buffer, done: Done): void;
}

/** Sends to the device `options` name, over UDP or TCP; `cameUp` each time the link comes up. */
export function tslSender(options: TslUmdOptions, cameUp: () => void): TslSender {
  return options.transport === 'udp' ? new UdpSender(options, cameUp) : new TcpSender(options, cameUp);
}

abstract class Sender implements TslSender {
  /** How a packet goes while the link is up. */
  protected out: ((packet: Buffer, done: Done) => void) | undefined;

  constructor(
    protected readonly options: TslUmdOptions,
    protected readonly cameUp: () => void,
  ) {}

  abstract open(attempt: LinkAttempt): void;
  abstract close(): void;

  get up(): boolean {
    return this.out !== undefined;
  }

  send(packet: Buffer, done: Done): void {
    this.out?.(packet, done);
  }

  details(): Record<string, unknown> {
    return { host: this.options.host, port: this.options.port };
  }
}

class UdpSender extends Sender {
  private readonly endpoint = new UdpEndpoint({ port: 0, bindIp: this.options.bindIp, host: this.options.host }, () => {});

  open(attempt: LinkAttempt): void {
    this.endpoint.open({
      up: () => {
        this.out = (packet, done) => this.endpoint.send(packet, this.options.port, this.endpoint.hostAddress, done);
        attempt.up();
        this.cameUp();
      },
      down: (reason) => {
        this.out = undefined;
        attempt.down(reason);
      },
    });
  }

  close(): void {
    this.out = undefined;
    this.endpoint.close();
  }
}

class TcpSender extends Sender {
  private connection: TcpConnection | undefined;

  open(attempt: LinkAttempt): void {
    const { host, port, connectTimeout } = this.options;
    const opened = TcpConnection.open(
      attempt,
      { host, port, connectTimeout },
      {
        // What a display device sends back is not part of the protocol: read and let go.
        data: () => {},
        connected: () => {
          this.out = (packet, done) => opened.send(packet, done);
          this.cameUp();
        },
        closed: () => {
          this.out = undefined;
        },
      },
    );
    this.connection = opened;
  }

  close(): void {
    this.out = undefined;
    this.connection?.close();
  }
}
