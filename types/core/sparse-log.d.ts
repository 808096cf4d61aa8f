import type { Logger } from './log.ts';
import type { Scheduler } from './scheduler.ts';
/**
 * Warnings about what clients and brokers send, at most one line in ten seconds: a flood of
 * bad writes or messages is one line, and the next says how many came meanwhile. The first
 * of a quiet spell is logged at once.
 */
export declare class SparseLog {
    private readonly log;
    private readonly scheduler;
    /** What the count of unlogged ones is of: "refused", "ignored". */
    private readonly what;
    /** `debug` for what is expected on a busy network and counted elsewhere (malformed tally packets). */
    private readonly level;
    private at;
    private unlogged;
    constructor(log: Logger, scheduler: Scheduler, 
    /** What the count of unlogged ones is of: "refused", "ignored". */
    what: string, 
    /** `debug` for what is expected on a busy network and counted elsewhere (malformed tally packets). */
    level?: 'warn' | 'debug');
    warn(line: string): void;
}
/** A reason that names `address` once: as it is when it names the address already, else with it in front. */
export declare function namingOnce(address: string, reason: string): string;
