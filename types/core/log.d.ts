import { type Logger } from 'pino';
import type { LogLine } from './api-shapes.ts';
export type { Logger };
export declare const logLevels: readonly ["fatal", "error", "warn", "info", "debug", "trace"];
export type LogLevel = (typeof logLevels)[number] | 'silent';
export declare const logFormats: readonly ["pretty", "json"];
export type LogFormat = (typeof logFormats)[number];
export interface LogOptions {
    readonly level?: LogLevel;
    readonly format?: LogFormat;
    /** Where lines go; standard error by default, so standard output stays the program's. */
    readonly destination?: NodeJS.WritableStream;
}
/**
 * The hub's structured logger. `pretty` prints one readable line per event,
 * `[HH:MM:ss.l] LEVEL: [connection] message`; `json` prints one JSON object per line for log
 * collectors. Connection loggers are `log.child({ connection: id })`.
 */
export declare function createLogger({ level, format, destination }?: LogOptions): Logger;
/** A logger that drops everything (specs that do not read logs). */
export declare const silentLogger: Logger;
/** One log line as the console's live log shows it (R-U1): the shape of the log socket's lines. */
export type TappedLine = LogLine;
/** The last lines of a logger kept for clients that come later (the console's log tab). */
export declare const HISTORY_LINES = 1000;
/** The last lines `logger` (and its parent's other children) wrote, oldest first; none for a logger not made by createLogger. */
export declare function logHistory(logger: Logger): TappedLine[];
/**
 * Follows every line `logger` (and its parent's other children) writes at its level, e.g.
 * for the WebSocket's `?log=` stream. Returns the function that stops following; a logger
 * not made by createLogger has no lines to follow.
 */
export declare function tapLog(logger: Logger, listener: (line: TappedLine) => void): () => void;
