import { Subscription } from 'rxjs';
import type { Graph } from '../core/graph.ts';
import type { Logger } from '../core/log.ts';
import type { Parameter } from '../core/parameter.ts';
import { every, type Scheduler } from '../core/scheduler.ts';
import type { StateStore, StoreHealth } from './store.ts';

/** How often an unhealthy store tries again to save what it holds in memory. */
export const retryIntervalMs = 5000;

/**
 * Writes every change of every persistent parameter through to the store, in the turn it
 * happens (R-S2, R-S4): parameters that appear later (a reload, a connection restarting)
 * are followed from the moment they are defined. Their starting values were seeded from
 * the store, so only changes are written. While the store is unhealthy it is retried on
 * the hub's scheduler, and each change of health is logged.
 */
export class Persistence {
  private readonly subscriptions = new Subscription();
  private readonly followed = new Map<string, Subscription>();
  private retrying: Subscription | undefined;

  constructor(
    private readonly graph: Graph,
    private readonly store: StateStore,
    private readonly scheduler: Scheduler,
    private readonly log: Logger,
  ) {}

  start(): void {
    for (const parameter of this.graph.all()) this.follow(parameter);
    this.subscriptions.add(this.graph.added$.subscribe((parameter) => this.follow(parameter)));
    this.subscriptions.add(
      this.graph.removed$.subscribe((parameter) => {
        this.followed.get(parameter.address)?.unsubscribe();
        this.followed.delete(parameter.address);
      }),
    );
    this.subscriptions.add(this.store.health$.subscribe((health) => this.healthChanged(health)));
  }

  /** Stops following changes; the store stays open. Idempotent. */
  stop(): void {
    this.subscriptions.unsubscribe();
    for (const subscription of this.followed.values()) subscription.unsubscribe();
    this.followed.clear();
    this.retrying?.unsubscribe();
    this.retrying = undefined;
  }

  private follow(parameter: Parameter): void {
    if (!parameter.persist || parameter.type === 'T' || this.followed.has(parameter.address)) return;
    const address = parameter.address;
    this.followed.set(
      address,
      parameter.changes$.subscribe((value) => this.store.setValue(address, value)),
    );
  }

  private healthChanged(health: StoreHealth): void {
    if (health.ok) {
      if (!this.retrying) return;
      this.retrying.unsubscribe();
      this.retrying = undefined;
      this.log.info(`state folder ${this.store.folder}: saving values again`);
      return;
    }
    this.log.warn(`state folder ${this.store.folder}: ${health.reason}; trying again every ${retryIntervalMs / 1000} s`);
    this.retrying ??= every(this.scheduler, retryIntervalMs, () => this.store.retry());
  }
}
