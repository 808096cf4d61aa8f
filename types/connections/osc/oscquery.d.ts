import type { AddressPatterns } from '../../core/address-pattern.ts';
import { type Logger, type Scheduler } from '../../sdk/index.ts';
import type { Graph } from '../serving.ts';
import { type OscMessage } from './packets.ts';
export interface OscQuerySettings {
    readonly port: number;
    readonly bindIp: string;
    readonly expose: AddressPatterns;
    readonly write: AddressPatterns;
    /** The patterns as written, for the log. */
    readonly written: {
        readonly expose: readonly string[];
        readonly write: readonly string[];
    };
}
/** What the namespace says of the OSC side: where OSC messages go. */
export interface OscSide {
    readonly name: string;
    readonly transport: 'UDP' | 'TCP';
    /** The connection's UDP port, where OSC messages are taken; undefined over TCP (the hub connects out). */
    port(): number | undefined;
}
export declare class OscQueryServer {
    private readonly graph;
    private readonly settings;
    private readonly osc;
    private app;
    private socket;
    private readonly clients;
    private readonly refusals;
    private portListening;
    private removals;
    constructor(graph: Graph, settings: OscQuerySettings, osc: OscSide, log: Logger, scheduler: Scheduler);
    get port(): number;
    get listeners(): number;
    /** Listens; resolves with the port. */
    start(): Promise<number>;
    stop(): void;
    /**
     * An OSC message heard on the connection's own socket: a hub write when its address is
     * `/<address>` of a parameter the namespace lets be written. False when it names none.
     */
    received(message: OscMessage, origin: string): boolean;
    /** HTTP: the namespace from `path` down, one of its attributes, or HOST_INFO. */
    private answer;
    private hostInfo;
    /** The namespace below `path`: made from the graph on each request, so it is never stale. */
    private nodeAt;
    private describe;
    private writable;
    /** `{"COMMAND": "LISTEN" | "IGNORE", "DATA": "/<address>"}`. */
    private command;
    /** An OSC packet on the WebSocket: its messages are writes, as on the connection's socket. */
    private oscFrom;
}
