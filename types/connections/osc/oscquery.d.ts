import { type Logger, type Scheduler, type AddressPatterns } from '../../sdk/index.ts';
import type { Graph } from '../serving.ts';
import { type OscMessage } from './packets.ts';
export interface OscQuerySettings {
    readonly port: number;
    readonly bindIp: string;
    readonly expose: AddressPatterns;
    readonly write: AddressPatterns;
    /** Origins of web pages let in (`scheme://host[:port]`); a request without `Origin` is always let in. */
    readonly origins: readonly string[];
    /** Names besides IP addresses, localhost and the machine's own that requests may be sent to. */
    readonly hostnames: readonly string[];
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
/** WebSocket clients at once from one address: one machine cannot take every slot. */
export declare const CLIENTS_PER_ADDRESS = 8;
/** A client that listens to nothing and has said nothing for this long is let go: it holds a slot for nothing. */
export declare const IDLE_MS = 60000;
export declare class OscQueryServer {
    private readonly graph;
    private readonly settings;
    private readonly osc;
    private readonly log;
    private readonly scheduler;
    private app;
    private socket;
    private readonly clients;
    private readonly perAddress;
    private readonly refusals;
    private readonly gate;
    private portListening;
    private index;
    private answers;
    private removals;
    private sweep;
    /** WebSocket texts that were no command, since the start. */
    private malformedCount;
    constructor(graph: Graph, settings: OscQuerySettings, osc: OscSide, log: Logger, scheduler: Scheduler);
    get port(): number;
    get listeners(): number;
    get malformed(): number;
    /** Listens; resolves with the port. */
    start(): Promise<number>;
    stop(): void;
    /**
     * An OSC message heard on the connection's own socket: a hub write when its address is
     * `/<address>` of a parameter the namespace lets be written. False when it names none.
     */
    received(message: OscMessage, origin: string): boolean;
    private hostInfo;
    private describe;
    private writable;
    /** `{"COMMAND": "LISTEN" | "IGNORE", "DATA": "/<address>"}`; anything else is counted, logged and ignored. */
    private command;
    /** Lets go of the clients that listen to nothing and have been silent for IDLE_MS: they hold slots for nothing. */
    private dropIdle;
    /**
     * Runs a uWS handler so that nothing it throws leaves it: a throw in a uWS callback ends
     * the process, and these requests come from anyone who reaches the port (issue 60, 3).
     */
    private guarded;
    /** An OSC packet on the WebSocket: its messages are writes, as on the connection's socket. */
    private oscFrom;
}
