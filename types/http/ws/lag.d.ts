import { type Scheduler } from '../../core/scheduler.ts';
import type { Changes } from './changes.ts';
import type { Sending } from './sending.ts';
import type { Snapshots } from './snapshots.ts';
import type { WsSocket } from './state.ts';
export interface LagLimits {
    /** A client whose send buffer holds more than this (beyond its snapshot) stops getting changes. */
    readonly lagLimit: number;
    /** How often, while changes flow, send buffers are checked against the limit. */
    readonly scanIntervalMs: number;
    /** uWS's per-socket cap: a client found beyond it may have lost messages. */
    readonly dropLimit: number;
    readonly scheduler: Scheduler;
}
export declare class LagWatch {
    private readonly limits;
    /** Every client that joined and has not left. */
    private readonly clients;
    private readonly changes;
    private readonly sending;
    private readonly snapshots;
    /** Clients off the stream now, waiting to drain. */
    readonly lagging: Set<WsSocket>;
    private scan;
    private publishedSinceScan;
    constructor(limits: LagLimits, 
    /** Every client that joined and has not left. */
    clients: ReadonlySet<WsSocket>, changes: Changes, sending: Sending, snapshots: Snapshots);
    /** Something was sent: buffers are looked at within the scan interval. */
    published(): void;
    /** A client found lagging elsewhere (its queue behind a snapshot outgrew the limit), its `missedSince` set. */
    add(ws: WsSocket): void;
    remove(ws: WsSocket): void;
    /** A lagging client that drained below a quarter of the limit is sent what it missed and joins again. */
    resumeIfDrained(ws: WsSocket): void;
    stop(): void;
    private scanSoon;
    private checkBuffers;
    private setLagging;
}
