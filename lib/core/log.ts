import { pino, type Logger, type Level } from 'pino';
import pretty from 'pino-pretty';
import type { LogLine } from './api-shapes.ts';
import { wallClockOfTurn } from './scheduler.ts';

export type { Logger };
export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const satisfies readonly Level[];
export type LogLevel = (typeof logLevels)[number] | 'silent';
export const logFormats = ['pretty', 'json'] as const;
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
export function createLogger({ level = 'info', format = 'pretty', destination = process.stderr }: LogOptions = {}): Logger {
  const taps: Taps = new Set();
  taps.add(keepHistory(taps));
  const hooks = { logMethod: tapLine(taps) };
  if (format === 'json') return withTaps(pino({ level, base: null, hooks }, destination), taps);
  const colorize = 'isTTY' in destination && destination.isTTY === true;
  return withTaps(
    pino(
      { level, base: null, hooks },
      pretty({
        destination,
        sync: true,
        colorize,
        translateTime: 'SYS:HH:MM:ss.l',
        ignore: 'connection,type',
        messageFormat: '{if connection}[{connection}] {end}{msg}',
        singleLine: true,
      }),
    ),
    taps,
  );
}

/** A logger that drops everything (specs that do not read logs). */
export const silentLogger: Logger = pino({ level: 'silent' });

/** One log line as the console's live log shows it (R-U1): the shape of the log socket's lines. */
export type TappedLine = LogLine;

/** The last lines of a logger kept for clients that come later (the console's log tab). */
export const HISTORY_LINES = 1000;

type Tap = (line: TappedLine) => void;
type Taps = Set<Tap> & { history?: LineRing };

/** The last `HISTORY_LINES` lines, overwritten in a ring: a line costs no copy of the others. */
class LineRing {
  private readonly lines: TappedLine[] = [];
  private oldest = 0;

  add(line: TappedLine): void {
    if (this.lines.length < HISTORY_LINES) return void this.lines.push(line);
    this.lines[this.oldest] = line;
    this.oldest = (this.oldest + 1) % HISTORY_LINES;
  }

  /** Oldest first. */
  all(): TappedLine[] {
    return [...this.lines.slice(this.oldest), ...this.lines.slice(0, this.oldest)];
  }
}

/**
 * The first tap of every logger: its last lines, for `logHistory`. Only lines the logger's
 * level lets through are made at all, so the history holds those alone.
 */
function keepHistory(taps: Taps): Tap {
  const ring = new LineRing();
  taps.history = ring;
  return (line) => ring.add(line);
}

/** The last lines `logger` (and its parent's other children) wrote, oldest first; none for a logger not made by createLogger. */
export function logHistory(logger: Logger): TappedLine[] {
  return (logger as Logger & { [TAPS]?: Taps })[TAPS]?.history?.all() ?? [];
}

/** Where a logger of createLogger keeps its taps; its children (prototype copies) share them. */
const TAPS = Symbol('log taps');

function withTaps(logger: Logger, taps: Taps): Logger {
  return Object.assign(logger, { [TAPS]: taps });
}

/**
 * Follows every line `logger` (and its parent's other children) writes at its level, e.g.
 * for the WebSocket's `?log=` stream. Returns the function that stops following; a logger
 * not made by createLogger has no lines to follow.
 */
export function tapLog(logger: Logger, listener: (line: TappedLine) => void): () => void {
  const taps = (logger as Logger & { [TAPS]?: Taps })[TAPS];
  taps?.add(listener);
  return () => taps?.delete(listener);
}

function tapLine(taps: Taps) {
  return function (this: Logger, args: Parameters<Logger['info']>, method: (...args: unknown[]) => void, level: number): void {
    const [first, second] = args as unknown[];
    const msg = typeof first === 'string' ? first : typeof second === 'string' ? second : first instanceof Error ? first.message : '';
    const connection = (this.bindings() as { connection?: string }).connection;
    const line: TappedLine = {
      level: pino.levels.labels[level] ?? String(level),
      time: wallClockOfTurn(),
      ...(connection ? { connection } : {}),
      msg,
    };
    for (const tap of taps) tap(line);
    method.apply(this, args as unknown[]);
  };
}
