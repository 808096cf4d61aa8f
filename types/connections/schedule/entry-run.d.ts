import { type ConnectionContext } from '../../sdk/index.ts';
import type { FireTimes } from './fire-times.ts';
import type { Zone } from './zone.ts';
/** An entry of the settings, parsed. */
export interface Entry {
    readonly id: string;
    readonly zone: Zone;
    readonly times: FireTimes;
    readonly catchUp: boolean;
}
export declare class EntryRun {
    private readonly context;
    private readonly entry;
    private readonly fire;
    private readonly next;
    private readonly enabled;
    private readonly recordKey;
    private wait;
    private catchUpWait;
    private stopped;
    /** Defines the entry's parameters: `enabled` takes its kept value here (R-S3). */
    constructor(context: ConnectionContext, entry: Entry);
    /** Drops or catches up what passed while the hub was down, then waits for the next time. */
    start(): void;
    stop(): void;
    /** Waits for the first time after what is handled (and after now); shows it in `next`. */
    private plan;
    /** Stores the times up to `handledUntil` as handled before firing, so that no restart fires them again. */
    private fireNow;
    private isEnabled;
    private handledUntil;
    /** Never moves back: a clock set back does not make handled times due again. */
    private handle;
}
