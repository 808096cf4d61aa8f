import type { Subscription } from 'rxjs';
import type { Logger } from '../core/log.ts';
import { every, type Scheduler } from '../core/scheduler.ts';
import type { StateStore } from './store.ts';

/** How often an unhealthy store tries again to save what it holds in memory. */
export const retryIntervalMs = 5000;

/**
 * Looks after the store while the hub runs: each change of its health is logged, and
 * while it cannot write it is retried on the hub's scheduler, so values held in memory
 * reach the disk once it can. (Values are written through by the graph's `kept` hook, which
 * the hub sets with `Graph.hooks.keepWith`.) Unsubscribe to stop.
 */
export function superviseStore(store: StateStore, scheduler: Scheduler, log: Logger): Subscription {
  let retrying: Subscription | undefined;
  const health = store.health$.subscribe((now) => {
    if (now.ok) {
      if (!retrying) return;
      retrying.unsubscribe();
      retrying = undefined;
      log.info(`state folder ${store.folder}: saving values again`);
      return;
    }
    log.warn(`state folder ${store.folder}: ${now.reason}; trying again every ${retryIntervalMs / 1000} s`);
    retrying ??= every(scheduler, retryIntervalMs, () => store.retry());
  });
  health.add(() => retrying?.unsubscribe());
  return health;
}
