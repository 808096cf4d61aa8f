import type { Subscription } from 'rxjs';
import type { Logger } from '../core/log.ts';
import { type Scheduler } from '../core/scheduler.ts';
import type { StateStore } from './store.ts';
/** How often an unhealthy store tries again to save what it holds in memory. */
export declare const retryIntervalMs = 5000;
/**
 * Looks after the store while the hub runs: each change of its health is logged, and
 * while it cannot write it is retried on the hub's scheduler, so values held in memory
 * reach the disk once it can. (Values are written through by the graph's `kept` hook, which
 * the hub sets with `Graph.keepWith`.) Unsubscribe to stop.
 */
export declare function superviseStore(store: StateStore, scheduler: Scheduler, log: Logger): Subscription;
