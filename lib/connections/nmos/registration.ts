/**
 * The node's registration with IS-04 v1.3 registries (R-NM1). One loop, so nothing it sends
 * interleaves: it registers every resource in order (node, device, sources, flows, senders,
 * receivers), then tells the registry of each change (a resource whose version moved is
 * POSTed again, one gone is DELETEd, senders before flows before sources) and sends a
 * heartbeat every `heartbeatMs`. A 404 to a heartbeat means the registry forgot the node:
 * everything is registered again, in order. A 200 to the first POST of the node means the
 * registry still held it from before (a stale record): it is deleted and registered anew.
 * A 5xx, a timeout, a refused connection or any other answer it cannot use moves it to the
 * next registry: within 250 ms when the failing one held the node, else after a backoff (1 s
 * doubling to 30 s, reset once registered), whose first
 * request is a heartbeat when the node was registered before (a cluster's other member holds
 * it already; a 404 registers everything). The registries are asked for each time (DNS-SD
 * finds and forgets them); with none it waits and looks again, and it looks again at each
 * failure too. On stop it deletes what it registered, within a deadline. Every request is bounded (registry-requests.ts).
 */
import type { ErrorCode, Scheduler } from '../../sdk/index.ts';
import { after } from '../../sdk/index.ts';
import { RegistryFailure, type RegistryRequest } from './registry-requests.ts';
import type { Registered, NodeModel } from './resources.ts';
import { type ResourceKind, resourceKinds } from './resource-shapes.ts';

const API = '/x-nmos/registration/v1.3';
const FIRST_BACKOFF_MS = 1000;
const LONGEST_BACKOFF_MS = 30_000;
/** The wait before the next registry when the one that held the node fails: long enough for a DNS-SD answer. */
const FAILOVER_WAIT_MS = 250;
/** How long to wait for DNS-SD to find a registry before looking again. */
const NO_REGISTRY_WAIT_MS = 2000;

/** Where registration stands, for the connection's status. */
export type RegistrationState =
  | { readonly registered: true; readonly registry: string }
  | { readonly registered: false; readonly code: ErrorCode; readonly reason: string };

export interface RegistrationOptions {
  /** The registries to use now, best first: named in the settings, or found by DNS-SD (they may come and go). */
  readonly registries: () => readonly string[];
  /** Asked when there is no registry to use, and at each failure: look again (DNS-SD asks the network). */
  readonly lookAgain?: () => void;
  readonly heartbeatMs: number;
  /** How long stopping may take to delete what was registered. */
  readonly stopDeadlineMs: number;
  readonly request: RegistryRequest;
  readonly scheduler: Scheduler;
  state(state: RegistrationState): void;
}

export class Registration {
  /** What the current registry holds of this node, by id: the version it was told. */
  private readonly told = new Map<string, { kind: ResourceKind; version: string }>();
  private index = 0;
  /** The registry `told` is of. */
  private toldRegistry: string | undefined;
  /** The registry the node is registered with, as the connection's status says. */
  private registeredAt: string | undefined;
  private backoff = FIRST_BACKOFF_MS;
  private lastHeartbeat = Number.NEGATIVE_INFINITY;
  private stopped = false;
  private wake: (() => void) | undefined;
  private loop: Promise<void> | undefined;
  /** Counted for the connection's details. */
  readonly counts = { registrations: 0, heartbeats: 0, failures: 0 };

  constructor(
    private readonly model: NodeModel,
    private readonly options: RegistrationOptions,
  ) {}

  /** The registry in use now. */
  get registry(): string | undefined {
    const registries = this.options.registries();
    return registries[this.index % Math.max(1, registries.length)];
  }

  start(): void {
    if (this.loop) return;
    this.loop = this.run();
  }

  /** The model changed: the registry is told at once, not at the next heartbeat. */
  changed(): void {
    this.wake?.();
  }

  /** Stops the loop and deletes what the registry holds of the node, within the deadline. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.wake?.();
    await this.loop;
    const registry = this.registry;
    if (registry === undefined || this.told.size === 0) return;
    let expired = false;
    const deadline = after(this.options.scheduler, this.options.stopDeadlineMs, () => {
      expired = true;
    });
    try {
      for (const [id, { kind }] of this.deletionOrder([...this.told])) {
        if (expired) break;
        await this.options.request('DELETE', `${registry}${API}/resource/${kind}s/${id}`).catch(() => undefined);
        this.told.delete(id);
      }
    } finally {
      deadline.unsubscribe();
    }
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      const registry = this.registry;
      if (registry === undefined) {
        this.options.state({ registered: false, code: 'PB_DEVICE_UNAVAILABLE', reason: 'no registry found by DNS-SD yet' });
        this.options.lookAgain?.();
        await this.sleep(NO_REGISTRY_WAIT_MS);
        continue;
      }
      try {
        // Another registry than the one told (the one before failed, or DNS-SD found a better
        // one): the first thing it hears is a heartbeat, as IS-04 asks — in a cluster it holds
        // the node already (200, nothing more to say); a 404 and it is told everything.
        if (registry !== this.toldRegistry && this.told.size > 0) await this.heartbeat(registry);
        this.toldRegistry = registry;
        if (this.told.size === 0) await this.registerAll(registry);
        else await this.tell(registry);
        if (this.registeredAt !== registry) {
          this.registeredAt = registry;
          this.backoff = FIRST_BACKOFF_MS;
          this.options.state({ registered: true, registry });
        }
        if (this.stopped) return;
        if (this.options.scheduler.now() - this.lastHeartbeat >= this.options.heartbeatMs) await this.heartbeat(registry);
        await this.sleep(Math.max(0, this.lastHeartbeat + this.options.heartbeatMs - this.options.scheduler.now()));
      } catch (error) {
        if (this.stopped) return;
        this.counts.failures++;
        // A registry that held the node failed: the next is tried after a moment only (time for
        // DNS-SD to answer), as IS-04's failover wants the node registered elsewhere before
        // anything forgets it; the backoff is for registries that never took it.
        const wait = this.registeredAt === undefined ? this.backoff : FAILOVER_WAIT_MS;
        this.registeredAt = undefined;
        const failure = error instanceof RegistryFailure ? error : new RegistryFailure('PB_BAD_ANSWER', String(error));
        const registries = this.options.registries();
        const next = (this.index + 1) % Math.max(1, registries.length);
        this.options.state({
          registered: false,
          code: failure.code,
          reason: `${failure.message}; trying ${registries[next] ?? 'the next registry found'} in ${wait} ms`,
        });
        // DNS-SD asks the network again at each failure: a registry whose announcement was
        // missed is heard during the backoff, and takes its place in the order before the next is
        // chosen (the list is read again after the sleep), rather than being skipped.
        this.options.lookAgain?.();
        this.index = next;
        await this.sleep(wait);
        if (wait === this.backoff) this.backoff = Math.min(this.backoff * 2, LONGEST_BACKOFF_MS);
      }
    }
  }

  /** Registers everything in order; a stale node record (200 on its first POST) is deleted and registered anew. */
  private async registerAll(registry: string): Promise<void> {
    this.told.clear();
    const all = this.model.all();
    const node = all[0] as Registered;
    const status = await this.post(registry, node);
    if (status === 200) {
      await this.expect(registry, 'DELETE', `${registry}${API}/resource/nodes/${node.id}`, undefined, [204, 404]);
      await this.expect(registry, 'POST', `${registry}${API}/resource`, { type: 'node', data: node.data }, [201]);
    }
    this.told.set(node.id, { kind: 'node', version: node.data.version });
    this.counts.registrations++;
    this.lastHeartbeat = this.options.scheduler.now();
    await this.tell(registry);
  }

  /** Tells the registry what changed since it was last told: new versions POSTed, resources gone DELETEd. */
  private async tell(registry: string): Promise<void> {
    const all = this.model.all();
    for (const resource of all) {
      if (this.stopped) return;
      if (this.told.get(resource.id)?.version === resource.data.version) continue;
      await this.post(registry, resource);
      this.told.set(resource.id, { kind: resource.kind, version: resource.data.version });
    }
    const present = new Set(all.map(({ id }) => id));
    for (const [id, { kind }] of this.deletionOrder([...this.told].filter(([id]) => !present.has(id)))) {
      if (this.stopped) return;
      await this.expect(registry, 'DELETE', `${registry}${API}/resource/${kind}s/${id}`, undefined, [204, 404]);
      this.told.delete(id);
    }
  }

  private async heartbeat(registry: string): Promise<void> {
    const node = this.model.resources.node;
    this.lastHeartbeat = this.options.scheduler.now();
    const status = await this.options.request('POST', `${registry}${API}/health/nodes/${node.id}`);
    this.counts.heartbeats++;
    // The registry forgot the node (it missed heartbeats, or restarted): register everything again, in order.
    if (status === 404) return void this.told.clear();
    if (status !== 200)
      throw new RegistryFailure(status >= 500 ? 'PB_DEVICE_UNAVAILABLE' : 'PB_BAD_ANSWER', `heartbeat to ${registry}: answered ${status}`);
  }

  private async post(registry: string, resource: Registered): Promise<number> {
    return this.expect(registry, 'POST', `${registry}${API}/resource`, { type: resource.kind, data: resource.data }, [200, 201]);
  }

  private async expect(
    registry: string,
    method: 'POST' | 'DELETE',
    url: string,
    body: unknown,
    statuses: readonly number[],
  ): Promise<number> {
    const status = await this.options.request(method, url, body);
    if (statuses.includes(status)) return status;
    const what = body === undefined ? `${method} ${url.slice(registry.length)}` : `registering a ${(body as { type: string }).type}`;
    throw new RegistryFailure(status >= 500 ? 'PB_DEVICE_UNAVAILABLE' : 'PB_BAD_ANSWER', `${what} at ${registry}: answered ${status}`);
  }

  /** Senders before flows before sources, the node last: what refers to another goes before it. */
  private deletionOrder<T extends [string, { kind: ResourceKind }]>(entries: T[]): T[] {
    return entries.sort(([, a], [, b]) => resourceKinds.indexOf(b.kind) - resourceKinds.indexOf(a.kind));
  }

  /** Waits `ms`, or until woken by a change or by stop. */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = after(this.options.scheduler, ms, () => done());
      const done = () => {
        timer.unsubscribe();
        this.wake = undefined;
        resolve();
      };
      this.wake = done;
    });
  }
}
