/**
 * What a connection's process writes reaches the hub's log (R-PK4: its lines at their level,
 * with the connection id), within a budget: a process that prints without end would flood
 * the log and the disk under it. Past MOST_LINES_PER_SECOND in a second, lines are counted
 * and dropped, and one line says how many.
 */
import type { Logger } from '../../core/log.ts';

/** The lines a second of one connection's process that reach the hub's log. */
export const MOST_LINES_PER_SECOND = 100;
/** The longest line kept whole; the rest of a longer one is cut. */
const MOST_LINE = 4000;

export class OutputBudget {
  private windowStart = 0;
  private used = 0;
  private dropped = 0;

  constructor(
    private readonly log: Logger,
    private readonly now: () => number,
  ) {}

  /** Text the process wrote to stdout (`info`) or stderr (`warn`), line by line. */
  output(chunk: string, level: 'info' | 'warn'): void {
    for (const line of chunk.split('\n')) {
      if (line.trim() !== '' && this.take()) this.log[level](`process: ${cut(line.trimEnd())}`);
    }
  }

  /** A line the process logged (pino JSON), logged again by the hub at its level. */
  line(line: string): void {
    if (!this.take()) return;
    let entry: { level?: unknown; msg?: unknown };
    try {
      entry = JSON.parse(line) as { level?: unknown; msg?: unknown };
    } catch {
      this.log.info(cut(line));
      return;
    }
    const message = cut(typeof entry?.msg === 'string' ? entry.msg : line);
    const level = typeof entry?.level === 'number' ? entry.level : 30;
    if (level >= 50) this.log.error(message);
    else if (level >= 40) this.log.warn(message);
    else if (level >= 30) this.log.info(message);
    else this.log.debug(message);
  }

  /** Says how many lines were dropped in a second that is over (called on the hub's tick too). */
  flush(): void {
    if (this.now() - this.windowStart < 1000) return;
    if (this.dropped > 0) {
      this.log.warn(`${this.dropped} lines of its process were left out of the log: more than ${MOST_LINES_PER_SECOND} a second`);
    }
    this.windowStart = this.now();
    this.used = 0;
    this.dropped = 0;
  }

  private take(): boolean {
    this.flush();
    if (this.used < MOST_LINES_PER_SECOND) {
      this.used += 1;
      return true;
    }
    this.dropped += 1;
    return false;
  }
}

const cut = (line: string) => (line.length > MOST_LINE ? `${line.slice(0, MOST_LINE)}… (${line.length} characters)` : line);
