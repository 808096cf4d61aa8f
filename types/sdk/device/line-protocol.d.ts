/**
 * What the line-protocol types (R-N1, R-N2) share, whatever carries their bytes (a TCP
 * connection, datagrams, a serial port): the settings that say how frames look and what
 * they mean, and the device that turns received frames into parameter values, accepted
 * writes into frames, and sends the poll frames. A type supplies only its transport.
 *
 * Frames are text in the connection's `encoding` (see `framing.ts`). Each received frame is
 * tried against the `receive` patterns in order (RE2, as every user expression in the hub);
 * the first that matches sets the parameters its `set` names, with `$name` standing for the
 * pattern's named group (for each match of its `each` pattern, when it has one: the lines of
 * a block). A frame no pattern matches is counted and logged at debug level.
 * A write sends the frame of its parameter's `send` entry, `$VALUE` standing for the value
 * (and `$1` for the number of a range the entry's parameter has, `out/{0..39}`),
 * and is answered once the transport took it (devices of this kind confirm nothing); its
 * value is then the parameter's, as the device says nothing back (R-G1). Nothing is sent at
 * start, restored values included (R-G3); polls run while the link is up.
 */
import { type TObject } from '@sinclair/typebox';
import type { ConnectionMetric } from '../../core/counts.ts';
import type { Checked, Issue } from '../../core/issue.ts';
import { type GroupPattern } from '../../core/regex.ts';
import type { ConnectionContext } from '../context.ts';
import { type Parsed } from '../settings.ts';
import { type Claim, type DeclaredParameter, type DefinedConnectionType, type Link } from '../type.ts';
import { type LinkAttempt } from './device-link.ts';
import { type Encoding, type FramingOptions, Framer } from './framing.ts';
import { type ParameterLines } from '../parameter-lines.ts';
export declare const DEFAULT_DELIMITER = "\r\n";
/** The settings every line-protocol type has, beside those of its transport. */
export declare const lineSettings: {
    parameters: import("../settings.ts").TDefaulted<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TString, import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>]>>;
    delimiter: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TString>;
    length: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TInteger>;
    lengthPrefix: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TLiteral<1>, import("@sinclair/typebox").TLiteral<2>, import("@sinclair/typebox").TLiteral<4>]>>;
    encoding: import("../settings.ts").TDefaulted<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TLiteral<"utf8">, import("@sinclair/typebox").TLiteral<"latin1">, import("@sinclair/typebox").TLiteral<"hex">]>>;
    maxFrameBytes: import("../settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    maxFramesPerSecond: import("../settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    receive: import("../settings.ts").TDefaulted<import("@sinclair/typebox").TArray<TObject<{
        match: import("@sinclair/typebox").TString;
        each: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TString>;
        set: import("@sinclair/typebox").TRecord<import("@sinclair/typebox").TString, import("@sinclair/typebox").TString>;
    }>>>;
    send: import("../settings.ts").TDefaulted<import("@sinclair/typebox").TArray<TObject<{
        parameter: import("@sinclair/typebox").TString;
        frame: import("@sinclair/typebox").TString;
        values: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TRecord<import("@sinclair/typebox").TString, import("@sinclair/typebox").TString>>;
    }>>>;
    poll: import("../settings.ts").TDefaulted<import("@sinclair/typebox").TArray<TObject<{
        frame: import("@sinclair/typebox").TString;
        every: import("@sinclair/typebox").TInteger;
    }>>>;
    timeout: import("../settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
};
/** The shared settings as the schema fills them in. */
export interface LineSettingsWritten {
    readonly parameters: string | readonly string[];
    readonly delimiter?: string;
    readonly length?: number;
    readonly lengthPrefix?: 1 | 2 | 4;
    readonly encoding: Encoding;
    readonly maxFrameBytes: number;
    readonly maxFramesPerSecond: number;
    readonly receive: readonly {
        readonly match: string;
        readonly each?: string;
        readonly set: Readonly<Record<string, string>>;
    }[];
    readonly send: readonly {
        readonly parameter: string;
        readonly frame: string;
        readonly values?: Readonly<Record<string, string>>;
    }[];
    readonly poll: readonly {
        readonly frame: string;
        readonly every: number;
    }[];
    readonly timeout: number;
}
/** A `set` entry's id or value: fixed text, or text with groups (by their place in `GroupPattern.names`). */
type Filled = string | {
    readonly parts: readonly string[];
    readonly groups: readonly number[];
};
/** Text with `$name` in it, read once: the literal parts, and the names between them. */
interface Template {
    readonly parts: readonly string[];
    readonly names: readonly string[];
}
export interface LineProtocol extends FramingOptions {
    readonly parameters: ParameterLines;
    readonly receivers: readonly {
        readonly pattern: GroupPattern;
        /** Applies `set` once for each of its matches; its groups come before those of `pattern`. */
        readonly each?: GroupPattern;
        readonly set: readonly {
            readonly id: Filled;
            readonly value: Filled;
        }[];
    }[];
    /** The send entry of each parameter that takes writes. */
    readonly sends: ReadonlyMap<string, {
        readonly frame: Template;
        readonly values: Readonly<Record<string, string>>;
    }>;
    readonly polls: readonly {
        readonly frame: Buffer;
        readonly every: number;
    }[];
    readonly maxFramesPerSecond: number;
    readonly timeout: number;
}
/** Reads the shared settings: every mistake with its path, relative to the connection. */
export declare function parseLineProtocol(settings: LineSettingsWritten): Checked<LineProtocol>;
/** A line protocol's parameters follow nothing else in the hub in the same turn. */
export declare const noLinks: () => readonly Link[];
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
/** The line-protocol metrics of a type (`patchbay_<type>_…`), read from its connections' details. */
export declare function lineMetrics(type: string): ConnectionMetric[];
/** A line-protocol type's `parse`: its own settings as written, with the shared ones read into `protocol`. */
export declare function parseLine<S extends LineSettingsWritten>(written: S): Checked<S & {
    readonly protocol: LineProtocol;
}>;
/** A line-protocol type's `declared`: its parameters are kept as a dummy's are (R-S2), never sent at start (R-G3). */
export declare const declaredLines: ({ protocol }: {
    readonly protocol: LineProtocol;
}) => (id: string) => DeclaredParameter | undefined;
/** A line-protocol type's settings once parsed: as written, with the protocol they make. */
export type LineTypeSettings<S extends TObject> = Parsed<S> & {
    readonly protocol: LineProtocol;
};
/**
 * Declares a connection type that speaks the line protocol over one transport (tcp-client,
 * tcp-server, udp, serial). A type supplies what is its own — its settings (those of its
 * transport beside `lineSettings`), what it holds alone (a port), and how to open the
 * transport — and gets the rest alike: the parsing, the parameters a dummy's way, metrics,
 * and the device.
 */
export declare function defineLineType<S extends TObject>(definition: {
    readonly type: string;
    readonly summary: string;
    readonly settings: S;
    readonly claims?: (settings: LineTypeSettings<S>) => readonly Claim[];
    readonly pathsAsWritten?: (settings: LineTypeSettings<S>) => readonly string[];
    /** Mistakes in its own settings that the line settings' checks do not see (see `diagnose` of a type). */
    readonly diagnose?: (settings: LineTypeSettings<S>) => readonly Issue[];
    /** What `validate` should warn of in its settings (see `warn` of a type). */
    readonly warn?: (settings: LineTypeSettings<S>) => readonly Issue[];
    /** The transport, as these settings make it. */
    open(settings: LineTypeSettings<S>, streams: FrameStreams): LineTransport;
}): DefinedConnectionType<S, LineTypeSettings<S>>;
export {};
