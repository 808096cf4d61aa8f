/**
 * A redundancy group on the broker (R-B1–R-B5): hubs with the same `hub.group` run the same
 * flow; one is active and runs every connection, the others are standby and show it.
 *
 * Roles. Each hub says its role, retained and signed, on `$hub/<id>/role` as
 * `{group, role, epoch}`. To take over, a hub claims the next epoch (`role: active` with the
 * highest epoch it knows plus one); every hub hears the claims in the broker's order, and
 * the first claim of an epoch wins it, as for connection ids (share/claims.ts). The epoch only
 * grows: each hub keeps the highest it has seen in its records (the state folder, when it
 * has one).
 *
 * The lease (R-B3). Every hub of a group sends a QoS 1 renewal to `$lease/<id>` every
 * 200 ms. The active hub's lease holds until 1 s after it sent the latest renewal the broker
 * acknowledged; it ends at once when the link closes, or when the hub hears another hub's
 * claim of a later epoch. The broker handles messages in order: a renewal it takes after a
 * claim is acknowledged to the active hub only after it delivered the claim, so no renewal
 * the broker took after the claim extends the lease. A claimant that hears its own claim
 * back at `t` therefore knows the old lease runs out by `t + 1 s`, and drives devices only
 * after `t + 1.1 s` — whatever happened to the other hub: killed, paused, cut off from the
 * broker but not from its devices. `DeviceLink` asks the lease before each write, by the
 * clock, so a hub that wakes from a pause finds it ended before it sends anything.
 *
 * When to claim. A standby claims (with `failover: "auto"`) when the active hub's presence
 * says it is gone (its last will), or when it has heard none of its renewals for 1 s while
 * its own renewals came back acknowledged — the broker would have passed the active hub's
 * on before those acknowledgements, so the silence is the active hub's, not this hub's.
 *
 * A partition: an active hub that reaches its devices but not the broker loses its lease
 * 1 s after the broker's last acknowledgement and stops its device connections; a standby
 * that reaches the broker takes over. The devices are driven by the side that reaches the
 * broker: a hub without it cannot learn that another took over, so it must not drive.
 *
 * This file is the group as the rest of the hub reaches it (the site, the rest-api and the
 * console): it takes what the broker says of the group and hands it to its parts, each of
 * which it builds and passes what that part calls.
 */
import { performance } from 'node:perf_hooks';
import type { IClientPublishOptions } from 'mqtt';
import { merge, type Observable } from 'rxjs';
import { fail, ok, type Result, type Json } from '../../sdk/index.ts';
import type { GroupControl, Role, SiteContext } from '../hub-port.ts';
import type { RedundancyDetails } from '../../core/api-shapes.ts';
import type { BrokerLink } from '../../broker/broker-link.ts';
import type { GroupHubSettings, SiteSettings } from '../settings.ts';
import type { MessageProperties } from '../../broker/broker-link.ts';
import type { SiteChecks } from '../peers/checks.ts';
import type { Corrections } from '../peers/corrections.ts';
import { type OtherHub, parseJson } from '../peers/description.ts';
import type { GroupDirectory } from './directory.ts';
import type { RoleRecord } from './record.ts';
import { GroupRecords } from './records.ts';
import { refusalOf } from './refusal.ts';
import { Renewals } from './renewals.ts';
import { Roles, type ShownValues } from './roles.ts';
import { Takeover } from './takeover.ts';
import { FAILOVER_MS, SILENCE_MS } from './timing.ts';
import { Voting } from './voting.ts';
import { Coordination } from './coordination.ts';

/** What the group reads of the site below it: the checks every hub message passes, and the other hubs as heard. */
export interface GroupPeers {
  readonly directory: GroupDirectory;
  readonly checks: SiteChecks;
  readonly corrections: Corrections;
  readonly others: ReadonlyMap<string, OtherHub>;
  /** The values this hub shows of the other hubs' connections: what a takeover carries on. */
  readonly shown: ShownValues;
}

export class RedundancyGroup implements GroupControl {
  private readonly roles: Roles;
  private readonly renewals: Renewals;
  private readonly takeover: Takeover;
  private readonly voting: Voting;
  /** With `hub.coordinator.etcd`: the election decides (R-EG1), not the broker's claims nor voters. */
  private readonly coordination: Coordination | undefined;
  private readonly records: GroupRecords;
  private readonly directory: GroupDirectory;
  private readonly removeControl: () => void;
  /** Emits when this hub took over or stood down. */
  readonly roleChanges$: Observable<void>;

  constructor(
    private readonly context: SiteContext,
    private readonly settings: SiteSettings,
    private readonly hub: GroupHubSettings,
    private readonly link: BrokerLink,
    private readonly peers: GroupPeers,
  ) {
    this.directory = peers.directory;
    this.records = new GroupRecords(peers.others);
    // Each part is handed the parts below it; what a part says goes up as an Observable the group follows.
    // Voters or an etcd election decide who drives; the broker's claims then do not.
    const voted = hub.voters?.[hub.id] !== undefined || hub.coordinator !== undefined;
    const { records, directory } = this;
    this.roles = new Roles(context, settings, hub, link, directory, records, peers.shown, voted);
    this.renewals = new Renewals(context, settings, hub, link, this.roles, () => records.sessions((hubId) => this.isPeer(hubId)));
    this.takeover = new Takeover(context, hub, directory, this.roles, this.renewals, records, voted);
    this.voting = new Voting(context, hub, link, this.roles);
    const etcd = hub.coordinator?.etcd;
    this.coordination = etcd && new Coordination(context, hub, etcd, this.roles, () => this.showActive());
    // With etcd the leader this hub reads may change without a role record: whose connections it shows changes too.
    this.roleChanges$ = this.coordination ? merge(this.roles.roleChanges$, this.coordination.leaderChanges$) : this.roles.roleChanges$;
    // Followed first, so that `_hub/active` is right before the share hears of the change.
    this.roles.roleChanges$.subscribe(() => this.showActive());
    this.roles.stoodDown$.subscribe(() => this.decide());
    this.renewals.acknowledged$.subscribe(() => this.decide());
    this.voting.changed$.subscribe(() => this.showActive());
    this.removeControl = context.hub.redundancy.control(this);
  }

  /** Shows who is active; then, without voters, claims when no hub here holds the lease, or takes over once its claim won. */
  private decide(): void {
    this.showActive();
    this.takeover.decide();
  }

  private showActive(): void {
    this.roles.showActive(this.activeHub());
  }

  /** True for a connection only the active hub of the group runs. */
  runsOnlyOnActive(connectionId: string): boolean {
    return this.context.hub.redundancy.activeOnly().includes(connectionId);
  }

  // --- What the rest-api and the console ask ---------------------------------------------

  role(): Role {
    return this.roles.current;
  }

  /** The hub that is active now, as this hub knows it: itself, or the holder of the latest epoch while it is here and renews. */
  activeHub(): string | undefined {
    if (this.roles.current === 'active') return this.hub.id;
    if (this.coordination) return this.coordination.activeHub();
    const named = this.voting.vote?.candidate.holderSeen(performance.now());
    if (named !== undefined) return named;
    const holder = this.roles.holder();
    return holder && holder !== this.hub.id && this.renewals.alive(holder) ? holder : undefined;
  }

  /** The highest epoch this hub knows of its group (on etcd, the latest revision it read): what fences the others' messages. */
  highestEpoch(): number {
    return this.roles.epoch;
  }

  /** The epoch of the lease this hub holds or last held: the token its values carry while it is active (R-EG2). */
  token(): number {
    return this.context.hub.redundancy.lease.epoch;
  }

  /** The hub whose connections this hub shows: the holder of the lease, or while this hub claims it, the one that held it until then. */
  owner(): string | undefined {
    if (this.roles.current === 'active') return this.hub.id;
    // With voters the vote says who holds the lease, not the role records (a hub asked to take over says it claims first).
    if (this.voting.vote || this.coordination) return this.activeHub();
    if (this.takeover.claim) return this.takeover.claim.previous;
    const holder = this.roles.holder();
    return holder === this.hub.id ? undefined : holder;
  }

  /** True for a hub of this group (its role record says so), this one too. */
  isPeer(hubId: string): boolean {
    return hubId === this.hub.id || this.directory.recordOf(hubId)?.group === this.hub.group;
  }

  failover(): Result<string> {
    if (this.roles.current === 'active')
      return fail('PB_ALREADY_ACTIVE', `hub ${this.hub.id} is the active hub of group ${this.hub.group} already`);
    if (this.takeover.claim) return ok(`hub ${this.hub.id} is taking over already (epoch ${this.takeover.claim.epoch})`);
    if (this.coordination)
      return fail('PB_BAD_REQUEST', 'in a group on etcd the election moves the role: stop the active hub, and it gives its lease back');
    if (!this.link.up) return fail('PB_BROKER_UNAVAILABLE', 'the broker is not connected: a takeover needs it to order the claims');
    if (this.voting.vote) return this.voting.failover();
    const claim = this.takeover.claimNext();
    return ok(
      `hub ${this.hub.id} claims the lease as epoch ${claim.epoch}${claim.previous ? ` from hub ${claim.previous}` : ''}: it is active once ${this.context.id}/_hub/role says so`,
    );
  }

  recordsChanged(connectionId: string, records: readonly (readonly [string, Json])[]): void {
    if (this.roles.current !== 'active') return;
    const topic = this.settings.layout.records(this.hub.id, connectionId);
    this.link.publish(topic, JSON.stringify(Object.fromEntries(records)), { qos: 1, retain: true }, 'drop');
  }

  replicated(done: (acknowledged: boolean) => void): void {
    if (!this.voting.vote && !this.coordination) return this.link.whenAcknowledged(done);
    // With voters or etcd the active hub answers without the broker (after its own commit); the standby
    // gets the value when it is back (R-AV1). A link that closes before the broker acknowledged
    // is that outage beginning: the value goes out again with every other once it is back.
    if (!this.link.up) return done(true);
    this.link.whenAcknowledged(() => done(true));
  }

  unready(): string | undefined {
    return this.coordination?.unreachable();
  }

  details(): RedundancyDetails {
    return {
      group: this.hub.group,
      role: this.roles.current,
      epoch: this.roles.epoch,
      active: this.activeHub() ?? null,
      failover: this.hub.failover,
      ...(this.voting.vote ? { voters: this.voting.votersReached() } : {}),
      ...(this.coordination ? { coordinator: this.coordination.details() } : {}),
      ...(this.takeover.claim ? { claiming: this.takeover.claim.epoch } : {}),
      ...(this.waitingForOperator() ? { waiting: 'for an operator: POST /failover on this hub takes over' } : {}),
    };
  }

  private waitingForOperator(): boolean {
    return (
      this.roles.current === 'standby' &&
      !this.takeover.claim &&
      this.hub.failover === 'manual' &&
      this.roles.epoch > 0 &&
      this.activeHub() === undefined
    );
  }

  /** With `hub.voters`: the group's vote runs from now (voting.ts). Rejects when its port cannot be had. */
  startVoting(siteKey: Buffer): Promise<void> {
    this.coordination?.start();
    return this.voting.startVoting(siteKey);
  }

  // --- What the broker says ----------------------------------------------------------------

  /** Connected, every retained message in: this hub joins as a standby, and looks for an active hub. */
  up(): void {
    if (this.roles.stopped) return;
    this.roles.linkChanged(performance.now());
    if (this.voting.vote || this.coordination) return this.roles.publishRecord(this.roles.current, this.roles.epoch);
    this.roles.publishRecord('standby', this.roles.epoch);
    this.renewals.start();
    this.decide();
  }

  /**
   * The broker link closed. With voters nothing changes for the lease: the active hub drives on
   * (R-AV1). Without them the lease belongs to one broker session, so it ends now.
   */
  down(reason: string): void {
    this.roles.linkChanged(undefined);
    if (this.voting.vote || this.coordination) return;
    this.renewals.stop();
    this.takeover.claim = undefined;
    if (this.roles.current === 'active') this.roles.standDown(`the broker connection closed (${reason})`);
  }

  /** A hub's presence, signed by it: one that went is no longer heard from. */
  presence(hubId: string, online: boolean): void {
    const peer = this.renewals.peer(hubId);
    if (peer.online === online) return;
    peer.online = online;
    if (!online && this.isPeer(hubId)) this.roles.waitingOver();
    this.decide();
  }

  /**
   * Whether a role record that names a hub is taken, as the group's rules allow it: one more
   * than one epoch ahead waits for that hub's renewals (`renewal` hands it back then); this
   * hub's own from before (not of this run), once up, is someone else's doing and put right.
   */
  admits(topic: string, hubId: string, record: RoleRecord, properties: MessageProperties): boolean {
    const { checks, corrections } = this.peers;
    const own = hubId === this.hub.id && this.link.up && !checks.fromThisRun(properties);
    const refusal = refusalOf(this.hub, this.roles.epoch, hubId, record, own);
    if (refusal === 'unconfirmed') {
      this.records.hold(hubId, record);
      checks.refuse(
        'refused',
        topic,
        `hub ${hubId} says epoch ${record.epoch}, more than one step ahead: taken once its renewals confirm it`,
      );
      return false;
    }
    if (refusal !== undefined) {
      checks.refuse('refused', topic, refusal);
      if (own) corrections.correct(topic, () => this.republishRecord());
      return false;
    }
    this.records.taken(hubId);
    return true;
  }

  /**
   * A renewal of a hub, signed by it: it counts when it is bound to this hub's session (one
   * played back from before is not); returns the record of that hub it confirms, if one waited.
   */
  renewal(topic: string, hubId: string, payload: Buffer): RoleRecord | undefined {
    const { checks } = this.peers;
    const renewal = parseJson(payload);
    const seen = renewal?.['seen'] as Record<string, unknown> | undefined;
    if (seen?.[this.hub.id] !== checks.session) {
      // Sent before that hub heard this session's presence: not counted for a moment after a connect.
      if (this.context.scheduler.now() > checks.sessionSince + 2 * SILENCE_MS)
        checks.refuse('replayed', topic, `a renewal of hub ${hubId} not bound to this session: played back`);
      return undefined;
    }
    this.renewals.peer(hubId).heardAt = performance.now();
    return this.records.confirmedBy(hubId, renewal?.['epoch']);
  }

  /** Records of a hub's connections, signed by it: kept, in case it is the active hub when it goes (R-B4). */
  connectionRecords(hubId: string, connectionId: string, payload: Buffer): void {
    this.records.keep(hubId, connectionId, payload);
  }

  /** Says this hub's role again: its record on the broker was overwritten. */
  republishRecord(): void {
    if (this.roles.upSince === undefined || this.roles.stopped) return;
    if (this.takeover.claim) return this.roles.publishRecord('active', this.takeover.claim.epoch);
    this.roles.publishRecord(
      this.roles.current,
      this.roles.current === 'active' ? this.context.hub.redundancy.lease.epoch : this.roles.epoch,
    );
  }

  /** A hub's role record as the directory took it (this hub's own come back too: their order decides claims). */
  record(hubId: string, record: RoleRecord): void {
    if (record.group !== this.hub.group || this.roles.stopped) return;
    this.roles.learnEpoch(record.epoch);
    // A hub that says it stands by (a stop's goodbye, a failover) holds nothing: this one need not wait for the voters to stop naming it.
    if (this.voting.vote && hubId !== this.hub.id && record.role === 'standby') this.voting.vote.candidate.holderGone(hubId);
    if (hubId === this.hub.id) {
      if (this.takeover.claim && record.role === 'active' && record.epoch === this.takeover.claim.epoch) this.takeover.claimCameBack();
    } else if (this.roles.current === 'active' && record.epoch > this.context.hub.redundancy.lease.epoch) {
      // A later epoch was claimed (a record carries one only after its claim was heard): that hub takes over.
      this.roles.standDown(`hub ${hubId} claimed the lease (epoch ${record.epoch})`, record.epoch);
      // With voters: its lease ended here (above), so it gives its grants back and claims nothing while the other claims.
      const now = performance.now();
      this.voting.vote?.candidate.release(now);
      this.voting.vote?.candidate.standAside(now, FAILOVER_MS);
    }
    if (!this.voting.vote && !this.coordination) this.decide();
  }

  /**
   * Stops; what to publish before disconnecting: this hub no longer holds the lease (ended
   * here first), so a standby that claims may drive devices at once.
   */
  stop(): { topic: string; payload: string; options: IClientPublishOptions }[] {
    // Its own goodbye comes back before the link closes: a stopping hub claims nothing.
    const wasActive = this.roles.current === 'active';
    this.roles.stop();
    this.takeover.claim = undefined;
    this.renewals.stop();
    if (this.voting.vote && wasActive) {
      // Drives nothing from here on, then frees the voters' grants: the other hub is granted at its next round.
      this.context.hub.redundancy.lease.end();
      this.voting.vote.candidate.release(performance.now());
    }
    this.voting.stopVoting();
    this.coordination?.stop();
    this.removeControl();
    if (!wasActive) return [];
    this.context.hub.redundancy.lease.end();
    const record: RoleRecord = { group: this.hub.group, role: 'standby', epoch: this.roles.epoch };
    return [{ topic: this.settings.layout.role(this.hub.id), payload: JSON.stringify(record), options: { qos: 1, retain: true } }];
  }
}
