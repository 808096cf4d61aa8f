/**
 * How OSC packets travel for the `osc` connection: UDP datagrams, or SLIP frames over a TCP
 * link. Each is a `LinkProtocol` for `DeviceLink` (R-G1), which reconnects and reports the
 * status: for TCP the link is the connection to the device; UDP has none, so its link is the
 * socket, up once it is bound (and `host` resolved), down when binding or resolving failed.
 */
import { type LinkAttempt, type LinkProtocol, type UdpOptions as UdpEndpointOptions } from '../../sdk/index.ts';
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
export declare class UdpTransport implements OscTransport {
    private readonly options;
    private readonly endpoint;
    private latestAddress;
    private latestPort;
    constructor(options: UdpOptions, handlers: PacketHandlers);
    /** Datagrams dropped because `allow` does not let their sender in. */
    get refusedPeers(): number;
    get localPort(): number;
    open(attempt: LinkAttempt): void;
    send(packet: Buffer, confirm: (error?: unknown) => void): void;
    close(): void;
}
export interface TcpOptions {
    readonly host: string;
    readonly port: number;
    readonly maxBytes: number;
}
export declare class TcpTransport implements OscTransport {
    private readonly options;
    private readonly handlers;
    private connection;
    readonly localPort = 0;
    constructor(options: TcpOptions, handlers: PacketHandlers);
    open(attempt: LinkAttempt): void;
    send(packet: Buffer, confirm: (error?: unknown) => void): void;
    close(): void;
}
