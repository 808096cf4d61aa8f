/**
 * UDP for device types, written once: a socket bound for one attempt of a `DeviceLink`,
 * the device's host looked up once an attempt (not at every send), a receive buffer for
 * bursts, and one rule for IPv4 or IPv6 — the family of `bindIp` when one is given, else
 * IPv4 unless the device's host has only an IPv6 address — so that a sender's address compares equal to
 * the device's (an IPv6 socket on every address would show IPv4 senders as `::ffff:…`).
 */
import { type RemoteInfo, type Socket } from 'node:dgram';
import type { Peers } from './peers.ts';
import type { LinkAttempt } from './device-link.ts';
/**
 * A receive buffer for bursts: 4 MiB where the system allows it (Linux caps it at
 * net.core.rmem_max). With the default 208 KiB, a few hundred datagrams that arrive while the
 * hub is busy for some milliseconds (fanning a change out to a thousand dashboards) are
 * dropped by the kernel before the hub sees them.
 */
export declare function roomForBursts(socket: Socket): void;
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
}
/** A UDP socket of a device type: bound at each attempt of its link, closed at the next. */
export declare class UdpEndpoint {
    private readonly options;
    private readonly receive;
    private socket;
    private resolved;
    private bound;
    private refusedPeerCount;
    /** Datagrams dropped because `allow` does not let their sender in. */
    get refusedPeers(): number;
    constructor(options: UdpOptions, receive: (datagram: Buffer, from: RemoteInfo) => void);
    /** The multicast groups of `multicast` this attempt could not join, each with why: the socket receives the others, and what is sent to it. */
    notJoined: readonly string[];
    /** The device's address as looked up at this attempt; "" without a host. */
    get hostAddress(): string;
    /** The port received on (the one taken, for port 0); 0 while not bound. */
    get localPort(): number;
    /** Looks the host up, binds, and says the attempt is up; down with why not. */
    open(attempt: LinkAttempt): void;
    /** Sends one datagram; `done` once it is handed to the network, or why not. */
    send(datagram: Buffer, port: number, address: string, done: (error?: Error) => void): void;
    close(): void;
    private release;
}
