/**
 * What a connection's process writes reaches the hub's log (R-CM2: its lines at their level,
 * with the connection id), within a budget: a process that prints without end would flood
 * the log and the disk under it. Past MOST_LINES_PER_SECOND in a second, lines are counted
 * and dropped, and one line says how many.
 */
import type { Logger } from '../../core/log.ts';
/** The lines a second of one connection's process that reach the hub's log. */
export declare const MOST_LINES_PER_SECOND = 100;
export declare class OutputBudget {
    private readonly log;
    private readonly now;
    private windowStart;
    private used;
    private dropped;
    constructor(log: Logger, now: () => number);
    /** Text the process wrote to stdout (`info`) or stderr (`warn`), line by line. */
    output(chunk: string, level: 'info' | 'warn'): void;
    /** A line the process logged (pino JSON), logged again by the hub at its level. */
    line(line: string): void;
    /** Says how many lines were dropped in a second that is over (called on the hub's tick too). */
    flush(): void;
    private take;
}
