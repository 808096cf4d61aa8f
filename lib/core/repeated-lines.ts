import { after, type Scheduler } from './scheduler.ts';

/** How long a line said stays said: the same line again within it is counted, not said. */
const WINDOW_MS = 60_000;
/** The most lines followed at once: past them a line is said as it comes (memory stays bounded). */
const MOST_FOLLOWED = 500;

/**
 * Lines of a chatty source said once a minute each (R-CM10): a module that logs "connection
 * refused" every two seconds while its device is away says it once, and when the minute is
 * over how many times more it said it. Unlike `SparseLog`, which thins one kind of warning
 * by time, this knows lines apart by their text.
 */
export class RepeatedLines {
  private readonly followed = new Map<string, { count: number; readonly timer: { unsubscribe(): void } }>();

  constructor(private readonly scheduler: Scheduler) {}

  /**
   * True when `line` is to be said now; false when it was said within the minute (it is
   * counted). `repeated` is told the count when the minute of a line said again is over.
   */
  first(line: string, repeated: (count: number) => void): boolean {
    const seen = this.followed.get(line);
    if (seen) {
      seen.count++;
      return false;
    }
    if (this.followed.size >= MOST_FOLLOWED) return true;
    const entry = {
      count: 0,
      timer: after(this.scheduler, WINDOW_MS, () => {
        this.followed.delete(line);
        if (entry.count > 0) repeated(entry.count);
      }),
    };
    this.followed.set(line, entry);
    return true;
  }

  /** The source stopped: what it repeated is told now, and nothing is followed any more. */
  stop(repeated: (line: string, count: number) => void): void {
    for (const [line, { count, timer }] of this.followed) {
      timer.unsubscribe();
      if (count > 0) repeated(line, count);
    }
    this.followed.clear();
  }
}
