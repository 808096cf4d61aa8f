import type { Logger } from '../core/log.ts';
import { type Scheduler } from '../core/scheduler.ts';
import { type ListenSocket, type TemplatedApp } from './uws.ts';
/** Open file descriptors of this process and its soft limit. */
export interface DescriptorUse {
    readonly open: number;
    readonly limit: number;
}
/** How often descriptor use is checked. */
export declare const checkIntervalMs = 500;
/**
 * Descriptors kept free for everything but new connections (files, the state store, code
 * flows): accepting pauses when fewer than this are left, and resumes once twice as many
 * are free again, so it does not flap.
 */
export declare const reserveFor: (limit: number) => number;
/**
 * This process's descriptor use, from /proc (Linux; Node has no getrlimit). Elsewhere it
 * is unknown and nothing is guarded. Listing /proc/self/fd needs a descriptor itself: when
 * none is left, the process is at its limit.
 */
export declare function descriptorUse(): DescriptorUse | undefined;
export interface AcceptGuardOptions {
    readonly scheduler: Scheduler;
    readonly log: Logger;
    /** Where the descriptor numbers come from; specs replace it. */
    readonly use?: () => DescriptorUse | undefined;
}
/**
 * Owns the listening socket of a uWS app and keeps the process below its descriptor limit.
 * uWS has no hook for a failed accept(): at the limit the listening socket stays readable
 * and its loop retries at once, forever, at full CPU. So before the limit is reached the
 * listening socket is closed — new clients are refused (connection refused), the ones
 * connected are served on — and it listens again on the same address and port once
 * enough descriptors are free.
 */
export declare class AcceptGuard {
    private readonly app;
    private readonly host;
    private readonly port;
    private readonly options;
    private socket;
    private paused;
    private readonly checks;
    private readonly use;
    constructor(app: TemplatedApp, socket: ListenSocket, host: string, port: number, options: AcceptGuardOptions);
    /** Stops listening for good. Idempotent. */
    close(): void;
    private check;
    private stopListening;
    private listenAgain;
}
