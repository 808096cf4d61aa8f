import type { ConnectionContext } from '../context.ts';
import { type LinkAttempt } from './device-link.ts';
import { Framer } from './framing.ts';
import type { LineProtocol } from './line-protocol.ts';
/** How a transport hands over what arrives: one stream per connection or port, one per datagram. */
export interface FrameStreams {
    /** A stream of its own; `fatal` is told when it cannot go on (a length prefix past the bound). */
    open(fatal: (reason: string) => void): Framer;
}
/** What a line-protocol type supplies: its link to the device, and how a frame is written on it. */
export interface LineTransport {
    /** Opens the link once (see `LinkProtocol.open`), handing what arrives to `streams`. */
    open(attempt: LinkAttempt): void;
    /** Closes whatever is open, for good. */
    close(): void | Promise<void>;
    /** Writes one frame; `done` once the transport took it, or with why not. */
    send(frame: Buffer, done: (error?: Error) => void): void;
    /** Facts about the link worth showing (peers, the port). */
    details?(): Readonly<Record<string, unknown>>;
    /**
     * For a transport that listens: where, and whom it lets in (`receiving on *:9000; takes
     * datagrams from 10.0.0.5`), logged each time its link comes up, as every listener says.
     */
    listening?(): string;
}
export type OverrunKind = 'frames' | 'parameters' | 'flood';
/** The device of one line-protocol connection: its parameters, what frames mean, its polls. */
export declare class LineDevice implements FrameStreams {
    private readonly context;
    private readonly protocol;
    readonly counts: {
        matched: number;
        unmatched: number;
        dropped: number;
        sent: number;
    };
    private readonly link;
    private readonly overruns;
    private readonly parameters;
    private readonly transport;
    private readonly polls;
    private readonly drops;
    /** What frames say that does not fit the settings: a parameter not declared, a value that does not convert. */
    private readonly oddities;
    /** Read once per turn on the real clock: a frame costs about a microsecond, a clock read a tenth of it. */
    private readonly clock;
    private windowStart;
    private inWindow;
    constructor(context: ConnectionContext, protocol: LineProtocol, transport: (streams: FrameStreams) => LineTransport);
    start(): Promise<void>;
    stop(): Promise<void>;
    details(): Readonly<Record<string, unknown>>;
    open(fatal: (reason: string) => void): Framer;
    private dropped;
    /** A frame from the device: the first pattern that matches sets what it names. */
    private received;
    private set;
    private write;
    private startPolls;
    private stopPolls;
}
