/**
 * Ember+ on the wire, shared by `ember-provider` and `ember-consumer` (R-E1, R-E2): S101
 * frames read within a bound (R-G4) and written, and Glow messages decoded into the flat list
 * of elements they carry, each with its numbered path. The BER coding and the element model
 * are emberplus-connection's. Reading frames is ours: its reader keeps no bound on a frame or
 * on a message of many frames, and decodes each message twice.
 */
import { Model, Types } from 'emberplus-connection';
export declare const ElementType: typeof Model.ElementType, ParameterType: typeof Model.ParameterType, ParameterAccess: typeof Model.ParameterAccess, MatrixType: typeof Model.MatrixType;
/** How a provider says a connect went (Glow's dispositions; the library's index does not export its enum). */
export declare const ConnectionDisposition: {
    readonly Tally: "TALLY";
    readonly Modified: "MODIFIED";
    readonly Pending: "PENDING";
    readonly Locked: "LOCKED";
};
export type EmberConnection = Model.Connections[number];
export type EmberElement = Model.EmberElement;
export type EmberValue = Types.EmberValue;
type Command = Extract<EmberElement, {
    type: Model.ElementType.Command;
}>;
/** The Glow command numbers (Ember+ 2.x). */
export declare const CommandNumber: {
    readonly Subscribe: 30;
    readonly Unsubscribe: 31;
    readonly GetDirectory: 32;
    readonly Invoke: 33;
};
/** The default bound of one message, all its frames together (R-G4). */
export declare const DEFAULT_MAX_MESSAGE_BYTES: number;
/** What an `S101Reader` hands on. */
export interface S101Events {
    /** Each whole frame, before what it carries is handed on: what a bound on a peer's rate counts. */
    frame?(): void;
    /** One whole Glow message (the BER of all its frames). */
    message(ber: Buffer): void;
    /** The peer asks whether we are alive. */
    keepalive(): void;
    /** A frame or message dropped: `malformed` (bad CRC, not Ember+) or `oversized` (past the bound). */
    dropped(kind: 'malformed' | 'oversized', reason: string): void;
}
/**
 * Reads S101 frames from a byte stream: unescapes them, checks their CRC, joins the frames of
 * one message, and drops (and says so) a frame or a message past `maxMessageBytes` without
 * holding more than that bound. A bad frame is dropped alone: the stream goes on at the next
 * frame's start.
 */
export declare class S101Reader {
    private readonly maxMessageBytes;
    private readonly events;
    private inFrame;
    private escaped;
    private tooLong;
    private frame;
    private length;
    private parts;
    private partsLength;
    constructor(maxMessageBytes: number, events: S101Events);
    push(chunk: Buffer): void;
    private begin;
    private append;
    private end;
}
/** The S101 frames of one Glow message, as one buffer to write. */
export declare function framesOf(ber: Buffer): Buffer;
export declare const KEEPALIVE_RESPONSE: Buffer;
/** The frames of a message of elements. */
export declare function elementsMessage(elements: readonly Types.RootElement[]): Buffer;
/** The frames of an answer to an invocation. */
export declare function invocationResultMessage(id: number, success: boolean): Buffer;
/** An element at `path` (numbers joined by `.`), with its children listed when given. */
export declare function qualified(path: string, contents: EmberElement, children?: ReadonlyMap<number, EmberElement>): Types.RootElement;
/** A root element numbered `number`, without children: how a provider lists its root. */
export declare function numbered(number: number, contents: EmberElement): Types.RootElement;
/** A node's contents. */
export declare function nodeContents(identifier?: string, isOnline?: boolean): EmberElement;
/** A function's contents: a function without arguments, as a trigger is one. */
export declare function functionContents(identifier: string): EmberElement;
/** A parameter's contents, with the fields given. */
export declare function parameterContents(parameterType: Model.ParameterType, fields?: {
    identifier?: string;
    value?: EmberValue;
    access?: Model.ParameterAccess;
    isOnline?: boolean;
}): EmberElement;
/**
 * A consumer's request that `target` of the matrix at `path` have exactly `sources` connected
 * (the absolute operation, Ember+'s default: every matrix type takes it, and an empty list
 * disconnects).
 */
export declare function matrixConnectionMessage(path: string, target: number, sources: readonly number[]): Buffer;
/** A linear matrix's contents, with the connections given (a node's listing gives none). */
export declare function matrixContents(fields: {
    identifier: string;
    matrixType: Model.MatrixType;
    targetCount: number;
    sourceCount: number;
    connections?: Record<number, {
        readonly sources: readonly number[];
    }>;
}): EmberElement;
/** A command on the element at `path`, or on the root when `path` is empty. */
export declare function commandMessage(path: string, number: number, extra?: Partial<Command>): Buffer;
/** One element a message carries: its contents at its path, or a command on the element at its path. */
export type Met = {
    readonly kind: 'element';
    readonly path: string;
    readonly contents: Exclude<EmberElement, Command>;
} | {
    readonly kind: 'command';
    readonly path: string;
    readonly command: Command;
} | {
    readonly kind: 'invocation-result';
    readonly id: number;
    readonly success: boolean;
};
/**
 * How deep a path may go: Ember+ trees of real devices are a dozen levels deep. A deeper
 * path is no device's, and the message that holds it is dropped.
 */
export declare const MAX_PATH_DEPTH = 64;
/** A decoded Glow message: the elements it carries, or why it was dropped. */
export type Decoded = {
    readonly met: Met[];
} | {
    readonly dropped: string;
};
/**
 * The elements a Glow message carries, parents before children, each with its full path; a
 * provider's answers and a consumer's requests read alike. Runs in the decoding thread (see
 * `ember-decoding.ts`): emberplus-connection's decoder has no bound on the time a message takes.
 */
export declare function decodeMessage(ber: Buffer): Decoded;
/** The path of the element that holds the one at `path`; empty for the root's elements. */
export declare function parentPath(path: string): string;
export {};
