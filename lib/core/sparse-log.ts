import type { Logger } from './log.ts';
import type { Scheduler } from './scheduler.ts';

const INTERVAL_MS = 10_000;

/**
 * Warnings about what clients and brokers send, at most one line in ten seconds: a flood of
 * bad writes or messages is one line, and the next says how many came meanwhile. The first
 * of a quiet spell is logged at once.
 */
export class SparseLog {
  private at = Number.NEGATIVE_INFINITY;
  private unlogged = 0;

  constructor(
    private readonly log: Logger,
    private readonly scheduler: Scheduler,
    /** What the count of unlogged ones is of: "refused", "ignored". */
    private readonly what: string,
    /** `debug` for what is expected on a busy network and counted elsewhere (malformed tally packets). */
    private readonly level: 'warn' | 'debug' = 'warn',
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
    this.log[this.level](`${line}${since}`);
  }
}

/** A reason that names `address` once: as it is when it names the address already, else with it in front. */
export function namingOnce(address: string, reason: string): string {
  return reason.includes(address) ? reason : `${address}: ${reason}`;
}
