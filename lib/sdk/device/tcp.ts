/**
 * TCP for device types, written once: a connection to a device for one attempt of a
 * `DeviceLink` (a connect timeout, keep-alive, writes bounded by what the device left
 * unread), and a listener for devices that connect to the hub (a bound on clients at
 * once). Every TCP type uses these, so each behaves the same when a device is slow, silent
 * or gone.
 */
import { createServer, connect as netConnect, type Server, type Socket } from 'node:net';
import type { Writable } from 'node:stream';
import type { Peers } from './peers.ts';
import { HubError } from '../../core/errors.ts';
import { whyNotBound } from '../../core/ports.ts';
import { Type } from '@sinclair/typebox';
import { withDefault } from '../settings.ts';
import type { LinkAttempt } from './device-link.ts';

/** Bytes a peer may leave unread before writes to it are refused (a device that stopped reading). */
export const MAX_UNREAD_BYTES = 1024 * 1024;

/** A connect attempt that takes longer fails, by default. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5000;

/** The `connectTimeout` setting of every type that connects to a device over TCP. */
export const connectTimeoutSetting = withDefault(
  Type.Integer({
    minimum: 100,
    maximum: 60_000,
    description: 'Milliseconds a connection attempt may take before the status says the device is away (it goes on trying).',
  }),
  DEFAULT_CONNECT_TIMEOUT_MS,
);

/** Keep-alive probes start after this much silence: a device unplugged is noticed in about a minute, not hours. */
const KEEP_ALIVE_AFTER_MS = 10_000;

/** Writes bytes to a socket or port, refused when the peer left too much unread. */
export function writeBounded(stream: Writable, bytes: Buffer, done: (error?: Error) => void): void {
  if (stream.writableLength > MAX_UNREAD_BYTES)
    return done(new HubError('PB_DEVICE_UNAVAILABLE', `the device is not reading: ${stream.writableLength} bytes wait to be sent`));
  stream.write(bytes, (error) => done(error ?? undefined));
}

export interface TcpTarget {
  readonly host: string;
  readonly port: number;
  /** Milliseconds a connect may take; `DEFAULT_CONNECT_TIMEOUT_MS` when absent. */
  readonly connectTimeout?: number;
}

export interface TcpHandlers {
  /** Bytes as they arrive. */
  data(chunk: Buffer): void;
  /** Connected: called before the link is told it is up, so a greeting goes first. */
  connected?(): void;
  /** Closed, for any reason, before the link is told it is down. */
  closed?(): void;
}

/**
 * One TCP connection to a device, opened for one attempt of a link: the attempt is up on
 * connect and down on close, with the last error as the reason.
 */
export class TcpConnection {
  private readonly socket: Socket;
  private isConnected = false;

  private constructor(attempt: LinkAttempt, target: TcpTarget, handlers: TcpHandlers) {
    const { host, port } = target;
    const timeout = target.connectTimeout ?? DEFAULT_CONNECT_TIMEOUT_MS;
    let reason = `${host}:${port} closed the connection`;
    const socket = netConnect({ host, port, noDelay: true, keepAlive: true, keepAliveInitialDelay: KEEP_ALIVE_AFTER_MS });
    this.socket = socket;
    socket.setTimeout(timeout, () => {
      if (!this.isConnected) socket.destroy(new Error(`no connection within ${timeout} ms`));
    });
    socket.on('connect', () => {
      this.isConnected = true;
      socket.setTimeout(0);
      handlers.connected?.();
      attempt.up();
    });
    socket.on('data', (chunk: Buffer) => handlers.data(chunk));
    socket.on('error', (error) => (reason = unreachable(error, host, port)));
    socket.on('close', () => {
      this.isConnected = false;
      handlers.closed?.();
      attempt.down(reason);
    });
  }

  /** Connects to `target` for `attempt`. */
  static open(attempt: LinkAttempt, target: TcpTarget, handlers: TcpHandlers): TcpConnection {
    return new TcpConnection(attempt, target, handlers);
  }

  get connected(): boolean {
    return this.isConnected;
  }

  /** Sends bytes; `done` once the socket took them, or why not (not connected, or the device is not reading). */
  send(bytes: Buffer, done: (error?: Error) => void): void {
    if (!this.isConnected) return done(new HubError('PB_DEVICE_UNAVAILABLE', 'not connected'));
    writeBounded(this.socket, bytes, done);
  }

  /**
   * Sends bytes no one waits for (keep-alives, reads of a tree). A device that stopped
   * reading them is dropped: the link connects again rather than queue without end.
   */
  write(bytes: Buffer): void {
    if (!this.isConnected) return;
    writeBounded(this.socket, bytes, (error) => {
      if (error) this.close(error.message);
    });
  }

  /**
   * Stops reading what the device sends until `resume`: for a type whose work on what it read
   * takes a while (decoding in another thread), so what the device sends next waits in the
   * TCP buffers, and the device slows down, rather than in the hub's memory.
   */
  pause(): void {
    this.socket.pause();
  }

  /** Reads what the device sends again, after `pause`. */
  resume(): void {
    this.socket.resume();
  }

  /** Closes the connection (the attempt is down with `reason`, or the last error). */
  close(reason?: string): void {
    this.socket.destroy(reason === undefined ? undefined : new Error(reason));
  }
}

export interface TcpListenOptions {
  readonly port: number;
  /** "" for every address. */
  readonly bindIp: string;
  /** Clients connected at once at most; one more is closed at once and counted. */
  readonly maxClients: number;
  /** Clients connected at once from one address at most (one more is closed and counted as `refused`), so that one machine cannot take every slot. Absent: `maxClients`. */
  readonly maxPerAddress?: number;
  /** The peers it lets in (the `allow` setting); others are closed at once and counted. Absent: every peer. */
  readonly allow?: Peers;
  /** Told of each peer refused by `allow` (for a log line: sparse, a flood is one). */
  readonly refusedPeer?: (address: string) => void;
  /**
   * Whether a client connected now may give its slot to a new one when `maxClients` are
   * connected (or `maxPerAddress` from the new one's address, then one from there): one that
   * has not done what a client is for yet (a satellite that added no device), so that idle
   * links cannot hold every slot. The longest connected yields first.
   */
  readonly yields?: (socket: Socket) => boolean;
}

/** A TCP port devices connect to: each accepted socket goes to `accept`, past `maxClients` none. */
export class TcpListener {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  /** Clients connected now, by address. */
  private readonly perAddress = new Map<string, number>();
  private refusedCount = 0;
  private refusedPeerCount = 0;
  private yieldedCount = 0;
  private boundPort = 0;

  constructor(
    private readonly options: TcpListenOptions,
    private readonly accept: (socket: Socket) => void,
  ) {}

  /** The clients connected now. */
  get clients(): ReadonlySet<Socket> {
    return this.sockets;
  }

  /** Clients closed at once because `maxClients` were connected (or `maxPerAddress` from their address). */
  get refused(): number {
    return this.refusedCount;
  }

  /** Clients closed to give their slot to a new one (`yields`). */
  get yielded(): number {
    return this.yieldedCount;
  }

  /** Clients closed at once because `allow` does not let their address in. */
  get refusedPeers(): number {
    return this.refusedPeerCount;
  }

  /** The port listened on (the one taken, for port 0); 0 while not listening. */
  get port(): number {
    return this.boundPort;
  }

  /** Listens; rejects with why not (the port taken, the address not this machine's). */
  listen(): Promise<number> {
    const { port, bindIp } = this.options;
    const server = createServer({ noDelay: true, keepAlive: true, keepAliveInitialDelay: KEEP_ALIVE_AFTER_MS }, (socket) =>
      this.accepted(socket),
    );
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) => {
        if (this.server === server) this.server = undefined;
        server.close();
        reject(new HubError('PB_START_FAILED', `cannot listen on ${bindIp || '*'}:${port}: ${whyNotBound(error, bindIp)}`));
      });
      server.listen({ port, ...(bindIp ? { host: bindIp } : {}), exclusive: true }, () => {
        this.boundPort = (server.address() as { port: number }).port;
        resolve(this.boundPort);
      });
    });
  }

  /** Listens for one attempt of a link: up once listening, down (tried again) when the port cannot be had. */
  open(attempt: LinkAttempt): void {
    this.listen().then(
      () => attempt.up(),
      (error: HubError) => attempt.down(error.message),
    );
  }

  /** Stops listening and closes every client. */
  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.boundPort = 0;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    this.perAddress.clear();
    if (server?.listening) await new Promise((resolve) => server.close(resolve));
  }

  private accepted(socket: Socket): void {
    if (this.options.allow && !this.options.allow.allows(socket.remoteAddress)) {
      this.refusedPeerCount++;
      this.options.refusedPeer?.(socket.remoteAddress ?? 'an unknown address');
      return void socket.destroy();
    }
    const address = socket.remoteAddress ?? '';
    const atAddress = (this.perAddress.get(address) ?? 0) >= (this.options.maxPerAddress ?? this.options.maxClients);
    if ((atAddress || this.sockets.size >= this.options.maxClients) && !this.yieldSlot(atAddress ? address : undefined)) {
      this.refusedCount++;
      return void socket.destroy();
    }
    const fromAddress = this.perAddress.get(address) ?? 0;
    this.sockets.add(socket);
    this.perAddress.set(address, fromAddress + 1);
    // A client's error is its own: it closes that client, and the close below forgets it.
    socket.on('error', () => {});
    socket.on('close', () => this.forget(socket, address));
    this.accept(socket);
  }

  /** `address` as it was when the socket came: a closed socket's is gone. */
  private forget(socket: Socket, address: string): void {
    if (!this.sockets.delete(socket)) return;
    const left = (this.perAddress.get(address) ?? 1) - 1;
    if (left > 0) this.perAddress.set(address, left);
    else this.perAddress.delete(address);
  }

  /** Closes the longest connected client that `yields` lets go (one from `address`, when given); false when none may. */
  private yieldSlot(address?: string): boolean {
    const { yields } = this.options;
    if (!yields) return false;
    for (const client of this.sockets)
      if ((address === undefined || client.remoteAddress === address) && yields(client)) {
        this.yieldedCount++;
        // Forgotten now, not at its close: the slot is the new client's at once.
        this.forget(client, client.remoteAddress ?? '');
        client.destroy();
        return true;
      }
    return false;
  }
}

/**
 * Why a connect failed, in the words of the person who set the address, with the system's
 * code kept for those who search it: refused, a host not found, no route, no answer.
 */
export function unreachable(error: NodeJS.ErrnoException, host: string, port: number): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return `${host}:${port} refused the connection (ECONNREFUSED): nothing listens there; is the device on, and is its port ${port}?`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `no machine called ${host} is found (${error.code}): check the host name`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `${host} cannot be reached from here (${error.code}): is it on this machine's network?`;
    case 'ETIMEDOUT':
      return `${host}:${port} did not answer (ETIMEDOUT): is it on, and is nothing in between dropping the connection?`;
    default:
      return `${host}:${port}: ${error.message}`;
  }
}
