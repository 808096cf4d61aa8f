/**
 * A hub's part in its group's election on etcd (R-EG1, R-EG2), etcd's own recipe: each hub
 * keeps a lease and puts one key under `<prefix><group>/` with it; the key created first
 * (the lowest create revision) names the driver, and that revision is its fencing token.
 * A key goes only with its lease, so a driver keeps the role until its lease ends; the next
 * key then leads, and its revision is higher than every one before it (keys are only added
 * after the ones already there). Never a lock: Jepsen found etcd's locks unsafe, not its
 * store, so the hub fences every effect with the revision.
 *
 * The hub drives only while `HeldLease` proves the lease by its own clock (the send time of
 * the last keep-alive etcd answered, plus the lease, less a margin), whatever etcd or this
 * client say. Every round (a fortieth of the lease) it reads the group's keys; a keep-alive
 * goes out every half lease, and again at the next round when one failed. Rounds never
 * overlap: one that waits on a dead member costs one deadline, and the next asks another.
 *
 * Why half a lease: etcd ends a lease a lease after the last keep-alive it heard, so the
 * takeover after a driver dies is a lease less the age of that keep-alive (plus etcd's
 * half-second sweep of ended leases); keep-alives every third of the lease kept the median
 * takeover just above one lease. Half a lease still leaves room for one keep-alive lost and
 * sent again a round later (even to a dead member, a deadline later) within the proof's
 * lease less its margin; two in a row were never covered by a third either.
 */
import type { Subscription } from 'rxjs';
import { HeldLease } from '../../core/held-lease.ts';
import { every, type Scheduler } from '../../sdk/index.ts';
import { type EtcdEntry, EtcdGateway } from './gateway.ts';

export interface EtcdElectionSettings {
  readonly endpoints: readonly string[];
  readonly leaseMs: number;
  readonly prefix: string;
  readonly group: string;
  readonly hubId: string;
  /** The hubs that may lead; undefined: any hub that campaigns. */
  readonly members: readonly string[] | undefined;
}

/** What the hub knows of the election after its latest round. */
export interface ElectionView {
  /** The hubs campaigning now, the leader first. */
  readonly members: readonly string[];
  readonly leader: { readonly hubId: string; readonly revision: number } | undefined;
  /** The leader before the present one, other than this hub: whose records a takeover carries on. */
  readonly previous: string | undefined;
  /** False while the latest round did not reach etcd. */
  readonly reached: boolean;
}

/** Per call: short enough that a dead member costs less than a lease. */
const DEADLINE_MS = 500;

export class EtcdElection {
  readonly held: HeldLease;
  private readonly gateway: EtcdGateway;
  private leaseId: string | undefined;
  private ownRevision = 0;
  private lastKeepAlive = Number.NEGATIVE_INFINITY;
  private busy = false;
  /** Keep-alives (and grants) etcd answered, since this hub started: a metric. */
  renewals = 0;
  private rounds: Subscription | undefined;
  private latest: ElectionView = { members: [], leader: undefined, previous: undefined, reached: false };

  constructor(
    private readonly settings: EtcdElectionSettings,
    private readonly scheduler: Scheduler,
    private readonly clock: () => number,
    /** After every round, and when the held lease runs out by itself. */
    private readonly changed: () => void,
    private readonly failed: (why: string) => void,
  ) {
    this.gateway = new EtcdGateway(settings.endpoints, scheduler, DEADLINE_MS);
    this.held = new HeldLease(scheduler, clock, settings.leaseMs, changed);
  }

  get view(): ElectionView {
    return this.latest;
  }

  /** The etcd member the group's calls go to now. */
  get endpoint(): string {
    return this.gateway.endpoint;
  }

  /** The revision this hub drives with, while it leads and its lease is proven; undefined otherwise. */
  drives(): number | undefined {
    const leader = this.latest.leader;
    return leader && this.ownRevision > 0 && leader.revision === this.ownRevision && this.held.holds() ? leader.revision : undefined;
  }

  start(): void {
    this.rounds ??= every(this.scheduler, Math.max(25, Math.round(this.settings.leaseMs / 40)), () => void this.round());
    void this.round();
  }

  /** Stops campaigning: drives nothing from now on, and gives the lease back so that another hub leads at once. */
  async stop(): Promise<void> {
    this.rounds?.unsubscribe();
    this.rounds = undefined;
    this.held.end();
    const id = this.leaseId;
    this.leaseId = undefined;
    if (id) await this.gateway.revoke(id).catch(() => undefined);
  }

  private async round(): Promise<void> {
    if (this.busy || !this.rounds) return;
    this.busy = true;
    try {
      await this.keepLease();
      const group = `${this.settings.prefix}${this.settings.group}/`;
      if (this.ownRevision === 0 && this.leaseId) await this.gateway.create(`${group}${this.leaseId}`, this.settings.hubId, this.leaseId);
      const { entries } = await this.gateway.range(group);
      this.take(entries);
    } catch (error) {
      this.latest = { ...this.latest, reached: false };
      this.failed((error as Error).message);
    } finally {
      this.busy = false;
    }
    if (this.rounds) this.changed();
  }

  /** A lease to begin with, then a keep-alive every half of it; one etcd no longer knows is begun again. */
  private async keepLease(): Promise<void> {
    const now = this.clock();
    if (this.leaseId && now - this.lastKeepAlive < this.settings.leaseMs / 2) return;
    this.lastKeepAlive = now;
    const sent = this.held.sending();
    if (!this.leaseId) {
      const granted = await this.gateway.grant(Math.ceil(this.settings.leaseMs / 1000));
      this.leaseId = granted.id;
      this.ownRevision = 0;
      this.held.acknowledged(sent);
      this.renewals++;
      return;
    }
    // A keep-alive that failed is sent again at the next round, not half a lease later.
    const ttl = await this.gateway.keepAlive(this.leaseId).catch((error: unknown) => {
      this.lastKeepAlive = Number.NEGATIVE_INFINITY;
      throw error;
    });
    if (ttl > 0) {
      this.renewals++;
      return this.held.acknowledged(sent);
    }
    // Gone at etcd (it ran out while this hub was paused or cut off): what it held went with it.
    this.held.end();
    this.leaseId = undefined;
    this.ownRevision = 0;
  }

  private take(entries: readonly EtcdEntry[]): void {
    const { members } = this.settings;
    const running = entries.filter((entry) => members === undefined || members.includes(entry.value));
    const own = running.find((entry) => entry.lease === this.leaseId);
    this.ownRevision = own?.createRevision ?? 0;
    const first = running[0];
    const leader = first && { hubId: first.value, revision: first.createRevision };
    const before = this.latest.leader;
    const previous =
      before && before.revision !== leader?.revision && before.hubId !== this.settings.hubId ? before.hubId : this.latest.previous;
    this.latest = { members: [...new Set(running.map((entry) => entry.value))], leader, previous, reached: true };
  }
}
