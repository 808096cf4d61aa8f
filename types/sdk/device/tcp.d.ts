/**
 * TCP for device types, written once: a connection to a device for one attempt of a
 * `DeviceLink` (a connect timeout, keep-alive, writes bounded by what the device left
 * unread), and a listener for devices that connect to the hub (a bound on clients at
 * once). Every TCP type uses these, so each behaves the same when a device is slow, silent
 * or gone.
 */
import { type Socket } from 'node:net';
import type { Writable } from 'node:stream';
import type { Peers } from './peers.ts';
import type { LinkAttempt } from './device-link.ts';
/** Bytes a peer may leave unread before writes to it are refused (a device that stopped reading). */
export declare const MAX_UNREAD_BYTES: number;
/** A connect attempt that takes longer fails, by default. */
export declare const DEFAULT_CONNECT_TIMEOUT_MS = 5000;
/** The `connectTimeout` setting of every type that connects to a device over TCP. */
export declare const connectTimeoutSetting: import("../settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
/** Writes bytes to a socket or port, refused when the peer left too much unread. */
export declare function writeBounded(stream: Writable, bytes: Buffer, done: (error?: Error) => void): void;
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
export declare class TcpConnection {
    private readonly socket;
    private isConnected;
    private constructor();
    /** Connects to `target` for `attempt`. */
    static open(attempt: LinkAttempt, target: TcpTarget, handlers: TcpHandlers): TcpConnection;
    get connected(): boolean;
    /** Sends bytes; `done` once the socket took them, or why not (not connected, or the device is not reading). */
    send(bytes: Buffer, done: (error?: Error) => void): void;
    /**
     * Sends bytes no one waits for (keep-alives, reads of a tree). A device that stopped
     * reading them is dropped: the link connects again rather than queue without end.
     */
    write(bytes: Buffer): void;
    /**
     * Stops reading what the device sends until `resume`: for a type whose work on what it read
     * takes a while (decoding in another thread), so what the device sends next waits in the
     * TCP buffers, and the device slows down, rather than in the hub's memory.
     */
    pause(): void;
    /** Reads what the device sends again, after `pause`. */
    resume(): void;
    /** Closes the connection (the attempt is down with `reason`, or the last error). */
    close(reason?: string): void;
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
}
/** A TCP port devices connect to: each accepted socket goes to `accept`, past `maxClients` none. */
export declare class TcpListener {
    private readonly options;
    private readonly accept;
    private server;
    private readonly sockets;
    /** Clients connected now, by address. */
    private readonly perAddress;
    private refusedCount;
    private refusedPeerCount;
    private boundPort;
    constructor(options: TcpListenOptions, accept: (socket: Socket) => void);
    /** The clients connected now. */
    get clients(): ReadonlySet<Socket>;
    /** Clients closed at once because `maxClients` were connected (or `maxPerAddress` from their address). */
    get refused(): number;
    /** Clients closed at once because `allow` does not let their address in. */
    get refusedPeers(): number;
    /** The port listened on (the one taken, for port 0); 0 while not listening. */
    get port(): number;
    /** Listens; rejects with why not (the port taken, the address not this machine's). */
    listen(): Promise<number>;
    /** Listens for one attempt of a link: up once listening, down (tried again) when the port cannot be had. */
    open(attempt: LinkAttempt): void;
    /** Stops listening and closes every client. */
    close(): Promise<void>;
    private accepted;
}
