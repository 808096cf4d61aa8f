import { type ErrorCode } from '../../core/errors.ts';
import type { Answered, SetResult } from '../../core/parameter.ts';
import type { Fence } from '../../core/lease.ts';
import { type Scheduler } from '../../core/scheduler.ts';
import { type ConnectionContext } from '../context.ts';
/** One attempt of a protocol to open its link: it says once that it is up, and once that it is down. */
export interface LinkAttempt {
    /** The link carries messages now. */
    up(): void;
    /** The attempt failed, or the link it opened closed, for this reason; the link tries again. */
    down(reason: string): void;
}
/** What a device type supplies: its way to open the link, and to close it. */
export interface LinkProtocol {
    /** Opens the link once, and tells `attempt` how it goes; calls of an attempt that ended are ignored. */
    open(attempt: LinkAttempt): void;
    /** Closes whatever is open, for good. */
    close(): void | Promise<void>;
}
export interface DeviceLinkOptions {
    readonly scheduler: Scheduler;
    /** Where the link's status goes: the connection's own, `context.setStatus` as it is. */
    readonly status: ConnectionContext['setStatus'];
    /** The code of the `degraded` status and of writes refused while down; default PB_DEVICE_UNAVAILABLE. */
    readonly unavailable?: ErrorCode;
    /** How long a write may wait for the device's confirmation (R-G1 `timeout`); default 2000 ms. */
    readonly timeoutMs?: number;
    /** Asked before every write (R-B3): `context.fence` for a device, `unfenced` for a broker. */
    readonly fence: Fence;
    /** The longest wait between two attempts; default 10 s. A link that everything waits for (a broker) tries more often. */
    readonly longestRetryMs?: number;
}
export declare const FIRST_RETRY_MS = 250;
export declare const LONGEST_RETRY_MS = 10000;
export declare const DEFAULT_TIMEOUT_MS = 2000;
export declare class DeviceLink {
    private readonly protocol;
    private readonly options;
    private isUp;
    private stopped;
    private retryMs;
    private retry;
    /** Ends the current attempt: its later calls are ignored. */
    private endAttempt;
    private reason;
    private firstOutcome;
    private settleFirst;
    private readonly unavailable;
    private readonly timeoutMs;
    constructor(protocol: LinkProtocol, options: DeviceLinkOptions);
    get up(): boolean;
    /** Why the link is down, while it is. */
    get downReason(): string;
    /** Opens the link; resolves once it is up or the first attempt failed (it goes on trying). */
    start(): Promise<void>;
    private attempt;
    /**
     * Sends a write through the link (a parameter's `forward`): refused at once while the
     * link is down; else `send` hands it to the device and calls `confirm` when the device
     * took it (or with the error it answered). `answered` hears the outcome once: the
     * confirmation, the device's refusal, or PB_DEVICE_TIMEOUT when neither came in time.
     */
    write(send: (confirm: (error?: unknown) => void) => void, answered?: Answered): SetResult;
    /** Closes the link for good and stops trying. Idempotent. */
    stop(): Promise<void>;
}
