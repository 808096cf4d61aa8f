import { pino, type Logger, type Level } from 'pino';
import pretty from 'pino-pretty';

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
  if (format === 'json') return pino({ level, base: null }, destination);
  const colorize = 'isTTY' in destination && destination.isTTY === true;
  return pino(
    { level, base: null },
    pretty({
      destination,
      sync: true,
      colorize,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'connection,type',
      messageFormat: '{if connection}[{connection}] {end}{msg}',
      singleLine: true,
    }),
  );
}

/** A logger that drops everything (specs that do not read logs). */
export const silentLogger: Logger = pino({ level: 'silent' });
