import { AsyncLocalStorage } from 'node:async_hooks';
import { Observable } from 'rxjs';
/** One running flow: what Node's async context carries through its timers and promises. */
export interface RunningFlow {
    readonly id: string;
    readonly path: string;
    /** Reports the flow failed and stops it. */
    readonly fail: (error: unknown) => void;
    stopped: boolean;
}
/**
 * The flow whose code is running now. Everything a flow runs — its module, its default
 * export, its subscriptions and what it watches — runs inside it, and Node keeps it across
 * the timers and promises made there, so an error that escapes every handler can be
 * traced back to its flow (R-R6) instead of ending the hub.
 */
export declare const current: AsyncLocalStorage<RunningFlow>;
/**
 * For the process's last-resort handlers (`uncaughtException`, `unhandledRejection`): when
 * `error` was raised by code a code flow started, reports that flow failed with its file,
 * stops it, and returns true; the hub runs on. False when no flow owns it: then it is the
 * hub's own failure.
 */
export declare function codeFlowFailed(error: unknown): boolean;
/** Makes every emission of `source` run as code of `flow`. */
export declare function within<T>(flow: RunningFlow, source: Observable<T>): Observable<T>;
