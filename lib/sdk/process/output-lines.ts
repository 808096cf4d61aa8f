/**
 * What a program the hub runs writes reaches the hub's log (R-PK4, R-CM2): its lines at their
 * level, within a budget — a program that prints without end would flood the log and the disk
 * under it. Past `perSecond` lines in a second, lines are counted and dropped, and one line
 * says how many once the second is over, whether or not another line comes. A line repeated
 * within a minute may be said once, with its count when the minute is over (`foldRepeats`,
 * R-CM10: a module whose device is away says the same every two seconds). Lines are cut at
 * `MOST_LINE` characters.
 */
import type { Subscription } from 'rxjs';
import type { Logger } from '../../core/log.ts';
import { RepeatedLines } from '../../core/repeated-lines.ts';
import { after, type Scheduler } from '../../core/scheduler.ts';

/** The longest line kept whole; the rest of a longer one is cut. */
const MOST_LINE = 4000;

type Level = 'error' | 'warn' | 'info' | 'debug';

export interface OutputLinesOptions {
  readonly log: Logger;
  readonly scheduler: Scheduler;
  /** Lines a second that reach the log. */
  readonly perSecond: number;
  /** Put before each line: `module: `. */
  readonly prefix: string;
  /** Whose lines, as the count of those dropped names them: "its process", "the module". */
  readonly whose: string;
  /** Say a line repeated within a minute once, and its count when the minute is over. */
  readonly foldRepeats?: boolean;
}

export class OutputLines {
  private secondStart = Number.NEGATIVE_INFINITY;
  private used = 0;
  private dropped = 0;
  private sayDropped: Subscription | undefined;
  private readonly repeats: RepeatedLines | undefined;

  constructor(private readonly options: OutputLinesOptions) {
    this.repeats = options.foldRepeats ? new RepeatedLines(options.scheduler) : undefined;
  }

  /** A line it wrote or logged, at `level`. */
  say(level: Level, text: string): void {
    const line = cut(text.trimEnd());
    const leveled = `${level}\n${line}`;
    if (this.repeats && !this.repeats.first(leveled, (count) => this.sayRepeated(leveled, count))) return;
    if (this.take()) this.options.log[level](`${this.options.prefix}${line}`);
  }

  /** A line it logged as pino writes it (JSON), said at its level; a line that is no JSON as it is. */
  json(text: string): void {
    let entry: { level?: unknown; msg?: unknown } | undefined;
    try {
      entry = JSON.parse(text) as { level?: unknown; msg?: unknown };
    } catch {
      entry = undefined;
    }
    const message = typeof entry?.msg === 'string' ? entry.msg : text;
    const level = typeof entry?.level === 'number' ? entry.level : 30;
    if (!this.take()) return;
    const said = cut(message);
    if (level >= 50) this.options.log.error(said);
    else if (level >= 40) this.options.log.warn(said);
    else if (level >= 30) this.options.log.info(said);
    else this.options.log.debug(said);
  }

  /** It stopped: what it repeated within its last minute, and what was dropped, is said now. */
  stop(): void {
    this.repeats?.stop((leveled, count) => this.sayRepeated(leveled, count));
    this.sayDropped?.unsubscribe();
    this.flush();
  }

  private take(): boolean {
    const { scheduler, perSecond } = this.options;
    if (scheduler.now() - this.secondStart >= 1000) {
      this.flush();
      this.secondStart = scheduler.now();
      this.used = 0;
    }
    if (this.used < perSecond) {
      this.used += 1;
      return true;
    }
    // The count is said when the second ends, whether or not another line comes.
    if (this.dropped++ === 0) this.sayDropped = after(scheduler, this.secondStart + 1000 - scheduler.now(), () => this.flush());
    return false;
  }

  private flush(): void {
    this.sayDropped?.unsubscribe();
    this.sayDropped = undefined;
    if (this.dropped === 0) return;
    const { log, whose, perSecond } = this.options;
    log.warn(`${this.dropped} lines of ${whose} were left out of the log: more than ${perSecond} a second`);
    this.dropped = 0;
  }

  /** A line (`<level>\n<text>`) said `count` times more within its minute. */
  private sayRepeated(leveled: string, count: number): void {
    const at = leveled.indexOf('\n');
    const level = leveled.slice(0, at) as Level;
    this.options.log[level](
      `${this.options.prefix}${leveled.slice(at + 1)} (said ${count} more time${count === 1 ? '' : 's'} within the minute)`,
    );
  }
}

const cut = (line: string) => (line.length > MOST_LINE ? `${line.slice(0, MOST_LINE)}… (${line.length} characters)` : line);
