/**
 * Warnings about what arrives from the broker, at most one line in ten seconds: a flood of
 * bad messages is one line, and the next says how many came meanwhile.
 */
import type { Logger } from '../../core/log.ts';
import type { Scheduler } from '../../core/scheduler.ts';

const INTERVAL_MS = 10_000;

export class SparseLog {
  private at = Number.NEGATIVE_INFINITY;
  private unlogged = 0;

  constructor(
    private readonly log: Logger,
    private readonly scheduler: Scheduler,
    /** What the count of unlogged ones is of: "refused", "ignored". */
    private readonly what: string,
  ) {}

  warn(line: string): void {
    const now = this.scheduler.now();
    if (now - this.at < INTERVAL_MS) {
      this.unlogged++;
      return;
    }
    const since = this.unlogged > 0 ? ` (${this.unlogged} more ${this.what} since the last line)` : '';
    this.at = now;
    this.unlogged = 0;
    this.log.warn(`${line}${since}`);
  }
}
