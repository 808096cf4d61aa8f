import { type Scheduler } from '../../core/scheduler.ts';
import { type ConnectionContext } from '../context.ts';
import type { ConnectionMetric } from '../type.ts';
/** `Kind` names what was dropped (`payload`, `parameters`…): each kind has its count. */
export declare class Overruns<Kind extends string> {
    private readonly scheduler;
    private readonly setStatus;
    /** What the reason ends with, in brackets: what happened, and where the bound is set. */
    private readonly hint;
    readonly counts: Record<Kind, number>;
    private link;
    private latest;
    private clear;
    constructor(kinds: readonly Kind[], scheduler: Scheduler, setStatus: ConnectionContext['setStatus'], 
    /** What the reason ends with, in brackets: what happened, and where the bound is set. */
    hint?: string);
    /** Where the link reports the connection's status. */
    readonly status: ConnectionContext["setStatus"];
    /** `count` items of `kind` dropped, for `reason`; degrades the connection unless `quiet` (counted only). */
    dropped(kind: Kind, reason: string, count?: number, quiet?: boolean): void;
    stop(): void;
    private show;
}
/**
 * The counter of what a connection dropped, by kind or reason: read from its details'
 * `dropped` record (`{ ...overruns.counts }`, and any counts of the type's own).
 */
export declare function droppedMetric(name: string, help: string, labelName?: string): ConnectionMetric;
