/**
 * The group's role from an etcd election (R-EG1, R-EG2), when `hub.coordinator.etcd` is set:
 * after every round of the election this hub takes over, renews its fence or stands down, as
 * the election and its own proof of the lease say. The fence's epoch is the election's
 * revision, so every token the hub gives (a device's, a forwarded write's) carries it, and a
 * hub that is not the proven driver refuses device writes as a standby of a pair does.
 * The broker still carries the role records, the values and the records a takeover needs.
 */
import { performance } from 'node:perf_hooks';
import { type Observable, Subject } from 'rxjs';
import type { CoordinatorDetails } from '../../core/api-shapes.ts';
import { EtcdElection } from '../etcd/election.ts';
import type { SiteContext } from '../hub-port.ts';
import type { EtcdCoordinatorSettings, GroupHubSettings } from '../settings.ts';
import type { Roles } from './roles.ts';

export class Coordination {
  readonly election: EtcdElection;
  private failing: string | undefined;
  /** Times this hub won the election and took over, since it started: a metric. */
  private elections = 0;
  /** `performance.now()` when a round last reached etcd (or the election started). */
  private reachedAt = 0;
  private shownLeader: string | undefined;
  private readonly leaders = new Subject<void>();
  /** Emits when another hub leads the election: whose connections this hub shows changes with it. */
  readonly leaderChanges$: Observable<void> = this.leaders.asObservable();

  constructor(
    private readonly context: SiteContext,
    hub: GroupHubSettings,
    private readonly etcd: EtcdCoordinatorSettings,
    private readonly roles: Roles,
    /** Told after each round: who is active may show differently. */
    private readonly changed: () => void,
  ) {
    const settings = { ...etcd, group: hub.group, hubId: hub.id, members: hub.members };
    this.election = new EtcdElection(
      settings,
      context.scheduler,
      () => performance.now(),
      () => this.decide(),
      (why) => this.failed(why),
    );
  }

  start(): void {
    this.context.log.info(`campaigns in its group on etcd (${this.etcd.endpoints.join(', ')}), lease ${this.etcd.leaseMs} ms`);
    this.reachedAt = performance.now();
    this.election.start();
  }

  /** Drives nothing from now on and gives the lease back: another hub leads at once. */
  stop(): void {
    void this.election.stop();
  }

  /** The hub that leads the election now, as this hub last read it. */
  activeHub(): string | undefined {
    return this.election.view.leader?.hubId;
  }

  details(): CoordinatorDetails {
    const { members, leader, reached } = this.election.view;
    return {
      etcd: [...this.etcd.endpoints],
      endpoint: this.election.endpoint,
      reached,
      members: [...members],
      revision: leader?.revision ?? 0,
      leaseMs: this.etcd.leaseMs,
      leaseLeftMs: Math.round(this.election.held.left()),
      elections: this.elections,
      renewals: this.election.renewals,
    };
  }

  /** Why etcd is out of reach, once no round reached it for a lease (one dead member costs a round, not readiness). */
  unreachable(): string | undefined {
    if (this.election.view.reached || performance.now() - this.reachedAt < this.etcd.leaseMs) return undefined;
    return `no etcd member answered for ${Math.round((performance.now() - this.reachedAt) / 1000)} s: ${this.failing ?? 'none reached yet'}`;
  }

  private failed(why: string): void {
    if (why !== this.failing) this.context.log.warn(`etcd: ${why}`);
    this.failing = why;
  }

  /** After a round, or when the proof of the lease ran out: takes over, renews the fence, or stands down. */
  private decide(): void {
    if (this.roles.stopped) return;
    if (this.election.view.reached) {
      this.failing = undefined;
      this.reachedAt = performance.now();
    }
    const revision = this.election.drives();
    const leader = this.election.view.leader;
    if (leader) this.roles.learnEpoch(leader.revision);
    if (revision !== undefined) {
      const until = this.election.held.holdsUntil;
      if (this.roles.current !== 'active') {
        this.elections++;
        this.roles.becomeActive(revision, until, this.election.view.previous);
      } else this.context.hub.redundancy.lease.grant(revision, until);
    } else if (this.roles.current === 'active') {
      this.roles.lapse(
        leader && leader.revision !== this.context.hub.redundancy.lease.epoch
          ? `hub ${leader.hubId} leads the etcd election (revision ${leader.revision})`
          : `its etcd lease is no longer proven: no keep-alive answered within ${this.etcd.leaseMs} ms less the margin`,
      );
    }
    this.changed();
    if (leader?.hubId !== this.shownLeader) {
      this.shownLeader = leader?.hubId;
      this.leaders.next();
    }
  }
}
