/**
 * A redundancy group on the broker (R-B1–R-B5): hubs with the same `hub.group` run the same
 * flow; one is active and runs every connection, the others are standby and show it.
 *
 * Roles. Each hub says its role, retained and signed, on `$hub/<id>/role` as
 * `{group, role, epoch}`. To take over, a hub claims the next epoch (`role: active` with the
 * highest epoch it knows plus one); every hub hears the claims in the broker's order, and
 * the first claim of an epoch wins it, as for connection ids (site/site-share.ts). The epoch only
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
 */
import { performance } from 'node:perf_hooks';
import type { IClientPublishOptions } from 'mqtt';
import type { Subscription } from 'rxjs';
import { after, every, fail, ok, type OwnedParameter, type Result } from '../../sdk/index.ts';
import type { Carried, GroupControl, RedundancyDetails, Role, ServingContext } from '../serving.ts';
import type { Json } from '../../core/value.ts';
import { ASK_EVERY_MS, Candidate } from '../../group/candidate.ts';
import { type Dropped, VoteEndpoint } from '../../group/endpoint.ts';
import { LEASE_MS as VOTE_LEASE_MS, type Pledge, Voter } from '../../group/voter.ts';
import { type Stamp, voteKey } from '../../group/wire.ts';
import type { BrokerLink } from './broker-link.ts';
import type { HubSettings, MqttSettings } from './settings.ts';
import { nextStart } from './signing.ts';

/**
 * How long a renewal the broker acknowledged keeps the lease. An active hub whose event loop
 * stalls for longer loses it (and takes it again when no other hub took it meanwhile).
 */
export const LEASE_MS = 1000;
/**
 * With voters, how long a hub asked to take over (`POST /failover`) claims at every round,
 * and how long the active hub that heard the claim claims nothing: long enough for a claim
 * round after the active hub gave its grants back, short enough that a claimant that died
 * meanwhile leaves the group to its usual rule soon.
 */
const FAILOVER_MS = 3000;
/** How often every hub of a group renews. */
const RENEW_EVERY_MS = 200;
/** How long after its claim came back a hub waits before it drives devices: the old lease has run out by then. */
export const FENCE_WAIT_MS = LEASE_MS + 100;
/** How long the active hub may be silent (no renewal heard, while this hub's own came back) before a standby claims. */
export const SILENCE_MS = 1000;
/**
 * The keep-alive of a group hub's broker link, in seconds: Mosquitto's last will for a hub it
 * no longer hears comes within seconds, but a standby does not wait for it (see `SILENCE_MS`).
 */
export const GROUP_KEEPALIVE_S = 1;

/** A hub's role in its group, as its record on the broker says. */
export interface RoleRecord {
  readonly group: string;
  readonly role: Role;
  readonly epoch: number;
}

/**
 * The role records of every hub on the broker, in the order heard: who holds each group's
 * lease. Every hub that shares keeps one, in a group or not: a hub of a group owns
 * connections only while it holds the lease (site/site-share.ts asks `owns`).
 */
export class GroupDirectory {
  private readonly records = new Map<string, RoleRecord>();
  /** The first hub heard claiming each epoch of each group: the broker's order decides. */
  private readonly firstClaims = new Map<string, string>();

  /** A hub's record, signed by it, as the group's rules allow it (site/site-share.ts asks `RedundancyGroup.refusal`). */
  heard(hubId: string, record: RoleRecord): void {
    this.records.set(hubId, record);
    const key = `${record.group} ${record.epoch}`;
    if (record.role === 'active' && !this.firstClaims.has(key)) this.firstClaims.set(key, hubId);
  }

  recordOf(hubId: string): RoleRecord | undefined {
    return this.records.get(hubId);
  }

  /** The hub heard first claiming this epoch of the group. */
  firstClaim(group: string, epoch: number): string | undefined {
    return this.firstClaims.get(`${group} ${epoch}`);
  }

  /** The hub that won the latest epoch claimed in the group and has not stood down since, if any. */
  holder(group: string): { readonly hubId: string; readonly epoch: number } | undefined {
    let best: { hubId: string; epoch: number } | undefined;
    let latest = 0;
    for (const [hubId, record] of this.records) {
      if (record.group !== group) continue;
      latest = Math.max(latest, record.epoch);
      if (record.role !== 'active' || this.firstClaim(group, record.epoch) !== hubId) continue;
      if (!best || record.epoch > best.epoch) best = { hubId, epoch: record.epoch };
    }
    return best && best.epoch >= latest ? best : undefined;
  }

  /** True when the hub may own connections: it is in no group, or it holds its group's lease. */
  owns(hubId: string): boolean {
    const record = this.records.get(hubId);
    return record === undefined || this.holder(record.group)?.hubId === hubId;
  }
}

interface Peer {
  online: boolean;
  /** `performance.now()` when its latest renewal came. */
  heardAt: number | undefined;
}

interface Claim {
  readonly epoch: number;
  /** The hub that held the lease when the claim went out, if any. */
  readonly previous: string | undefined;
  /** `performance.now()` when the claim came back as the first of its epoch. */
  wonAt: number | undefined;
}

/** What the group needs of the hub's sharing (site/site-share.ts). */
export interface GroupSharing {
  /** The last values and records of the connections the active hub `owner` ran, as this standby has them. */
  carried(owner: string | undefined): Carried;
  /** The role or the active hub changed: mirror the active hub's connections, or stop mirroring them. */
  roleChanged(): void;
  /** The sessions of the other hubs of the group that are here: each renewal is bound to them (R-AV3). */
  sessions(): Record<string, string>;
  /** Hubs whose records say they are active in an epoch more than one step ahead, not confirmed by their renewals yet. */
  unconfirmedActive(): readonly string[];
}

export class RedundancyGroup implements GroupControl {
  private current: Role = 'standby';
  /** The highest epoch this hub knows of. */
  private epoch: number;
  private readonly peers = new Map<string, Peer>();
  private claim: Claim | undefined;
  /** `performance.now()` until which the broker's acknowledgements keep the lease. */
  private acknowledgedUntil = 0;
  /** When the latest of this hub's renewals that came back acknowledged was sent. */
  private freshSince = 0;
  private renewals: Subscription | undefined;
  private upSince: number | undefined;
  /** The hub that last held the lease other than this one: whose values and records a takeover carries on. */
  private lastHolder: string | undefined;
  /** The active hub as last logged, so that each change is said once. */
  private shownActive: string | undefined;
  private stopped = false;
  private changing: Promise<void> = Promise.resolve();
  private waitingLogged = false;
  /**
   * The epoch this hub held when its own lease ran out (it was starved of CPU, or its
   * renewals were not acknowledged), while no other hub had claimed it: in a manual group it
   * takes its lease back with the next epoch, since that is no failover, only the same hub
   * driving on. Any later epoch (another hub's claim) ends that.
   */
  private lapsedEpoch: number | undefined;
  private readonly parameters: { role: OwnedParameter; epoch: OwnedParameter; active: OwnedParameter; voters?: OwnedParameter };
  private readonly removeControl: () => void;
  sharing: GroupSharing | undefined;
  /**
   * The group's vote, when `hub.voters` lists its voters (R-AV1, R-AV2): the lease comes from a
   * majority of them over UDP, and the broker carries only roles, values and records.
   */
  private vote: Vote | undefined;
  /** An operator asked this hub to take over (a manual group's failover), until it holds the lease. */
  private operatorAsked = false;
  /** With voters: until when the takeover an operator asked of this hub may take (`performance.now()`); 0 when none was asked. */
  private failoverUntil = 0;

  constructor(
    private readonly context: ServingContext,
    private readonly settings: MqttSettings,
    private readonly hub: HubSettings & { readonly group: string },
    private readonly link: BrokerLink,
    private readonly directory: GroupDirectory,
  ) {
    const kept = context.records.get('epoch');
    this.epoch = typeof kept === 'number' ? kept : 0;
    // The hub's own parameters (`_` ids), as `_status/connected`: only a type that serves the hub may make them.
    const define = (id: string, type: 'S' | 'I', initial: string | number) => {
      const defined = context.hub.graph.define(context.id, id, { type, access: 'read-only', initial }, { reserved: true });
      if (!defined.ok) throw defined.error;
      return defined.value;
    };
    this.parameters = {
      role: define('_hub/role', 'S', 'standby'),
      epoch: define('_hub/epoch', 'I', this.epoch),
      active: define('_hub/active', 'S', ''),
      // With voters: those this hub reached within the last second, space-separated (dashboards, the console).
      ...(hub.voters ? { voters: define('_hub/voters', 'S', '') } : {}),
    };
    this.removeControl = context.hub.redundancy.control(this);
  }

  // --- What the rest-api and the console ask ---------------------------------------------

  role(): Role {
    return this.current;
  }

  /** The hub that is active now, as this hub knows it: itself, or the holder of the latest epoch while it is here and renews. */
  activeHub(): string | undefined {
    if (this.current === 'active') return this.hub.id;
    const named = this.vote?.candidate.holderSeen(performance.now());
    if (named !== undefined) return named;
    const holder = this.holder();
    return holder && holder !== this.hub.id && this.alive(holder) ? holder : undefined;
  }

  /** The hub whose connections this hub shows: the holder of the lease, or while this hub claims it, the one that held it until then. */
  owner(): string | undefined {
    if (this.current === 'active') return this.hub.id;
    // With voters the vote says who holds the lease, not the role records (a hub asked to take over says it claims first).
    if (this.vote) return this.activeHub();
    if (this.claim) return this.claim.previous;
    const holder = this.holder();
    return holder === this.hub.id ? undefined : holder;
  }

  /** True for a hub of this group (its role record says so), this one too. */
  isPeer(hubId: string): boolean {
    return hubId === this.hub.id || this.directory.recordOf(hubId)?.group === this.hub.group;
  }

  failover(): Result<string> {
    if (this.current === 'active')
      return fail('PB_ALREADY_ACTIVE', `hub ${this.hub.id} is the active hub of group ${this.hub.group} already`);
    if (this.claim) return ok(`hub ${this.hub.id} is taking over already (epoch ${this.claim.epoch})`);
    if (!this.link.up) return fail('PB_BROKER_UNAVAILABLE', 'the broker is not connected: a takeover needs it to order the claims');
    if (this.vote) {
      // The active hub stands down on hearing the claim and gives its grants back; this hub claims at every round meanwhile.
      this.operatorAsked = true;
      this.failoverUntil = performance.now() + FAILOVER_MS;
      this.vote.candidate.claimFor(performance.now(), FAILOVER_MS);
      this.publishRecord('active', this.epoch + 1);
      this.context.log.warn(
        `asks to take over group ${this.hub.group} (epoch ${this.epoch + 1}): the active hub stands down, then the voters decide`,
      );
      return ok(
        `hub ${this.hub.id} asks the voters for the lease as epoch ${this.epoch + 1}: it is active once ${this.context.id}/_hub/role says so`,
      );
    }
    const claim = this.claimNext();
    return ok(
      `hub ${this.hub.id} claims the lease as epoch ${claim.epoch}${claim.previous ? ` from hub ${claim.previous}` : ''}: it is active once ${this.context.id}/_hub/role says so`,
    );
  }

  recordsChanged(connectionId: string, records: readonly (readonly [string, Json])[]): void {
    if (this.current !== 'active') return;
    const topic = this.settings.layout.records(this.hub.id, connectionId);
    this.link.publish(topic, JSON.stringify(Object.fromEntries(records)), { qos: 1, retain: true }, 'drop');
  }

  replicated(done: (acknowledged: boolean) => void): void {
    // With voters the active hub answers without the broker (after its own commit); the standby gets the value when it is back (R-AV1).
    if (this.vote && !this.link.up) return done(true);
    this.link.whenAcknowledged(done);
  }

  details(): RedundancyDetails {
    return {
      group: this.hub.group,
      role: this.current,
      epoch: this.epoch,
      active: this.activeHub() ?? null,
      failover: this.hub.failover,
      ...(this.vote ? { voters: this.votersReached() } : {}),
      ...(this.claim ? { claiming: this.claim.epoch } : {}),
      ...(this.waitingForOperator() ? { waiting: 'for an operator: POST /failover on this hub takes over' } : {}),
    };
  }

  // --- What the broker says ----------------------------------------------------------------

  /** Connected, every retained message in: this hub joins as a standby, and looks for an active hub. */
  up(): void {
    if (this.stopped) return;
    this.upSince = performance.now();
    if (this.vote) return this.publishRecord(this.current, this.epoch);
    this.publishRecord('standby', this.epoch);
    this.startRenewing();
    this.decide();
  }

  /**
   * The broker link closed. With voters nothing changes for the lease: the active hub drives on
   * (R-AV1). Without them the lease belongs to one broker session, so it ends now.
   */
  down(reason: string): void {
    this.upSince = undefined;
    if (this.vote) return;
    this.stopRenewing();
    this.claim = undefined;
    if (this.current === 'active') this.standDown(`the broker connection closed (${reason})`);
  }

  /** A hub's presence, signed by it: one that went is no longer heard from. */
  presence(hubId: string, online: boolean): void {
    const peer = this.peer(hubId);
    if (peer.online === online) return;
    peer.online = online;
    if (!online && this.isPeer(hubId)) this.waitingLogged = false;
    this.decide();
  }

  /** A renewal of a hub of the group, signed by it and bound to this hub's session: it is here now. */
  renewalHeard(hubId: string): void {
    this.peer(hubId).heardAt = performance.now();
  }

  /**
   * Why a role record that names this group is not taken (undefined when it is): it comes from
   * a hub that is not one of the group's members, it is this hub's own from before (someone
   * else put it there: `own`), or it says an epoch more than one step ahead of what this hub
   * knows (`unconfirmed`: taken once that hub's renewals say the same epoch). An epoch grows
   * one claim at a time; a hub that missed some, away, learns them from the hubs that are here.
   */
  refusal(hubId: string, record: RoleRecord, own: boolean): string | 'unconfirmed' | undefined {
    if (record.group !== this.hub.group) return undefined;
    const { members } = this.hub;
    if (members && !members.includes(hubId))
      return `hub ${hubId} is not a member of group ${this.hub.group} (${members.join(', ')}): its role record is ignored`;
    if (own) return "a role record of this hub's that it did not send: put back";
    if (record.epoch > this.epoch + 1) return 'unconfirmed';
    return undefined;
  }

  /** Says this hub's role again: its record on the broker was overwritten. */
  republishRecord(): void {
    if (this.upSince === undefined || this.stopped) return;
    if (this.claim) return this.publishRecord('active', this.claim.epoch);
    this.publishRecord(this.current, this.current === 'active' ? this.context.hub.redundancy.lease.epoch : this.epoch);
  }

  /** A hub's role record as the directory took it (this hub's own come back too: their order decides claims). */
  record(hubId: string, record: RoleRecord): void {
    if (record.group !== this.hub.group || this.stopped) return;
    this.learnEpoch(record.epoch);
    // A hub that says it stands by (a stop's goodbye, a failover) holds nothing: this one need not wait for the voters to stop naming it.
    if (this.vote && hubId !== this.hub.id && record.role === 'standby') this.vote.candidate.holderGone(hubId);
    if (hubId === this.hub.id) {
      if (this.claim && record.role === 'active' && record.epoch === this.claim.epoch) this.claimCameBack();
    } else if (this.current === 'active' && record.epoch > this.context.hub.redundancy.lease.epoch) {
      // A later epoch was claimed (a record carries one only after its claim was heard): that hub takes over.
      this.standDown(`hub ${hubId} claimed the lease (epoch ${record.epoch})`, record.epoch);
      // With voters: its lease ended here (above), so it gives its grants back and claims nothing while the other claims.
      const now = performance.now();
      this.vote?.candidate.release(now);
      this.vote?.candidate.standAside(now, FAILOVER_MS);
    }
    if (!this.vote) this.decide();
  }

  /**
   * Stops; what to publish before disconnecting: this hub no longer holds the lease (ended
   * here first), so a standby that claims may drive devices at once.
   */
  stop(): { topic: string; payload: string; options: IClientPublishOptions }[] {
    // Its own goodbye comes back before the link closes: a stopping hub claims nothing.
    this.stopped = true;
    this.upSince = undefined;
    this.claim = undefined;
    this.stopRenewing();
    if (this.vote && this.current === 'active') {
      // Drives nothing from here on, then frees the voters' grants: the other hub is granted at its next round.
      this.context.hub.redundancy.lease.end();
      this.vote.candidate.release(performance.now());
    }
    this.stopVoting();
    this.removeControl();
    if (this.current !== 'active') return [];
    this.context.hub.redundancy.lease.end();
    this.current = 'standby';
    const record: RoleRecord = { group: this.hub.group, role: 'standby', epoch: this.epoch };
    return [{ topic: this.settings.layout.role(this.hub.id), payload: JSON.stringify(record), options: { qos: 1, retain: true } }];
  }

  // --- Deciding ----------------------------------------------------------------------------

  /** The hub that won the latest epoch claimed, while it has not stood down; this hub too. */
  private holder(): string | undefined {
    const holder = this.directory.holder(this.hub.group);
    return holder && holder.epoch >= this.epoch ? holder.hubId : undefined;
  }

  /** True while the hub is here and renews; false once it went, or fell silent while this hub's own renewals came back. */
  private alive(hubId: string): boolean {
    const peer = this.peers.get(hubId);
    if (!peer?.online) return false;
    const since = Math.max(peer.heardAt ?? 0, this.upSince ?? 0);
    return this.freshSince <= since + SILENCE_MS;
  }

  private decide(): void {
    this.showActive();
    // With voters the vote decides (voteChanged): the broker's claims and renewals do not.
    if (this.vote) return;
    if (this.current === 'active' || this.upSince === undefined || this.stopped) return;
    if (this.claim) return this.tryActivate();
    const holder = this.holder();
    if (holder && holder !== this.hub.id && this.alive(holder)) return;
    // A hub that says it holds a later epoch than this one knows may, while it renews: its renewals confirm it soon.
    if (this.sharing?.unconfirmedActive().some((hubId) => hubId !== this.hub.id && this.alive(hubId))) return;
    // No hub holds the lease: the first ever (epoch 0) is taken either way; later, "manual" waits for an operator,
    // unless this hub held it last and only lost it by its own lapse.
    const ownLapse = this.lapsedEpoch !== undefined && this.lapsedEpoch === this.epoch;
    if (this.hub.failover === 'manual' && this.epoch > 0 && !ownLapse) {
      if (!this.waitingLogged) {
        this.waitingLogged = true;
        this.context.log.warn(
          `no hub of group ${this.hub.group} is active${holder ? ` (hub ${holder} is gone or silent)` : ''}: failover is manual, POST /failover on a standby takes over`,
        );
      }
      return;
    }
    this.claimNext();
  }

  private waitingForOperator(): boolean {
    return this.current === 'standby' && !this.claim && this.hub.failover === 'manual' && this.epoch > 0 && this.activeHub() === undefined;
  }

  private claimNext(): Claim {
    const holder = this.holder();
    const epoch = this.epoch + 1;
    const previous = holder === this.hub.id ? undefined : holder;
    const claim: Claim = { epoch, previous, wonAt: undefined };
    this.claim = claim;
    // The epoch is learnt when the claim comes back: one that never reaches the broker counts for nothing.
    this.context.log.warn(
      `claims the lease of group ${this.hub.group} (epoch ${epoch})${previous ? `, held by hub ${previous} until now` : ''}`,
    );
    this.publishRecord('active', epoch);
    return claim;
  }

  /** Its own claim came back: won when no other hub's claim of the epoch came first. */
  private claimCameBack(): void {
    const claim = this.claim!;
    const winner = this.directory.firstClaim(this.hub.group, claim.epoch);
    if (winner === this.hub.id) {
      claim.wonAt ??= performance.now();
      // Looked at again when the old lease has surely run out, not only at the next renewal.
      after(this.context.scheduler, FENCE_WAIT_MS, () => this.claim === claim && this.tryActivate());
      return this.tryActivate();
    }
    this.context.log.info(`hub ${winner} claimed epoch ${claim.epoch} first: stays standby`);
    this.claim = undefined;
    this.publishRecord('standby', claim.epoch);
  }

  /**
   * Takes over once the old lease has surely run out: `FENCE_WAIT_MS` after the claim came
   * back, or at once when the hub that held it said it stood down for this claim.
   */
  private tryActivate(): void {
    const claim = this.claim;
    if (claim?.wonAt === undefined) return;
    if (this.epoch > claim.epoch) {
      // A later epoch was claimed meanwhile (after a broker restart, say): that claim is the one that counts.
      this.context.log.info(`epoch ${this.epoch} was claimed after this hub's claim of ${claim.epoch}: stays standby`);
      this.claim = undefined;
      this.publishRecord('standby', this.epoch);
      return;
    }
    const now = performance.now();
    // The hub that held the lease said it stands down (it ends its lease before it says so).
    const previous = claim.previous ?? this.lastHolder;
    const stoodDown = previous !== undefined && this.directory.recordOf(previous)?.role === 'standby';
    if ((!stoodDown && now < claim.wonAt + FENCE_WAIT_MS) || this.acknowledgedUntil <= now) return;
    this.claim = undefined;
    this.becomeActive(claim.epoch, this.acknowledgedUntil, previous);
  }

  /** Takes over: the lease granted until `until`, the connections started from what `previous` ran. */
  private becomeActive(epoch: number, until: number, previous: string | undefined): void {
    const carried = this.sharing?.carried(previous) ?? { values: new Map(), records: new Map() };
    this.current = 'active';
    this.context.hub.redundancy.lease.grant(epoch, until);
    this.learnEpoch(epoch);
    this.context.records.set('epoch', epoch);
    this.parameters.epoch.report(epoch);
    this.showActive();
    this.sharing?.roleChanged();
    this.context.log.warn(`takes over as the active hub of group ${this.hub.group} (epoch ${epoch})`);
    if (this.vote && this.link.up) this.publishRecord('active', epoch);
    // `_hub/role` says active once the connections run: a client that sees it may write to them.
    this.changing = this.changing
      .then(() => this.context.hub.redundancy.activate(carried))
      .then(() => {
        if (this.current === 'active') this.parameters.role.report('active');
      });
  }

  /** Ends the lease now, and stops the connections only the active hub runs. */
  private standDown(why: string, epoch = this.epoch): void {
    this.context.hub.redundancy.lease.end();
    this.current = 'standby';
    this.context.log.warn(`stands down to standby: ${why}`);
    this.parameters.role.report('standby');
    if (this.link.up) this.publishRecord('standby', epoch);
    this.changing = this.changing.then(async () => {
      await this.context.hub.redundancy.standDown();
      this.sharing?.roleChanged();
      this.decide();
    });
  }

  private learnEpoch(epoch: number): void {
    if (epoch <= this.epoch) return;
    this.epoch = epoch;
    this.context.records.set('epoch', epoch);
  }

  private showActive(): void {
    const holder = this.holder();
    if (holder !== undefined && holder !== this.hub.id) this.lastHolder = holder;
    const active = this.activeHub();
    this.parameters.active.report(active ?? '');
    if (this.current !== 'active' && this.parameters.epoch.value !== this.epoch) this.parameters.epoch.report(this.epoch);
    if (this.current === 'active') this.shownActive = this.hub.id;
    else if (active !== this.shownActive && this.upSince !== undefined) {
      if (active !== undefined)
        this.context.log.info(`standby: hub ${active} is the active hub of group ${this.hub.group} (epoch ${this.epoch})`);
      this.shownActive = active;
    }
  }

  private peer(hubId: string): Peer {
    let peer = this.peers.get(hubId);
    if (!peer) this.peers.set(hubId, (peer = { online: hubId === this.hub.id, heardAt: undefined }));
    return peer;
  }

  private publishRecord(role: Role, epoch: number): void {
    const record: RoleRecord = { group: this.hub.group, role, epoch };
    this.link.publish(this.settings.layout.role(this.hub.id), JSON.stringify(record), { qos: 1, retain: true }, 'drop');
  }

  // --- The vote (R-AV2) ------------------------------------------------------------------

  /** With `hub.voters`: votes on a UDP port of its own, and asks the voters every round. Rejects when its port cannot be had. */
  async startVoting(siteKey: Buffer): Promise<void> {
    const voters = this.hub.voters;
    const own = voters?.[this.hub.id];
    if (!voters || !own) return;
    const { records, log } = this.context;
    const start = nextStart(records.get('vote start'));
    records.set('vote start', start);
    const voter = new Voter(this.hub.id, readPledge(records.get('vote pledge')), performance.now(), (pledge) =>
      records.set('vote pledge', { ...pledge }),
    );
    const taken: Record<string, Stamp> = readTaken(records.get('vote taken'));
    let takenChanged = false;
    const dropped: Record<Dropped, number> = { unsigned: 0, malformed: 0, stranger: 0, replayed: 0 };
    let candidate: Candidate | undefined;
    const endpoint = await VoteEndpoint.open({
      id: this.hub.id,
      group: this.hub.group,
      key: voteKey(siteKey),
      listen: own,
      voters,
      voter,
      start,
      lastTaken: taken,
      keepTaken: (sender, stamp) => {
        taken[sender] = stamp;
        takenChanged = true;
      },
      answered: (from, n, answer) => {
        candidate?.answered(from, n, answer, performance.now());
        this.voteChanged();
      },
      dropped: (why, from) => {
        dropped[why] += 1;
        if (dropped[why] === 1 || dropped[why] % 1000 === 0)
          log.warn(`a vote not taken (${why}${from ? `, from ${from}` : ''}): ${dropped[why]} so far`);
      },
    });
    const members = this.hub.members ?? [this.hub.id];
    candidate = new Candidate(this.hub.id, Object.keys(voters), (to, request) => endpoint.ask(to, request), { members });
    const voting = candidate;
    const rounds = every(this.context.scheduler, ASK_EVERY_MS, () => {
      voting.tick(performance.now(), this.mayClaim());
      this.voteChanged();
    });
    // What was taken from each voter is kept a second apart: the state folder is not written at every round.
    const keeping = every(this.context.scheduler, VOTE_LEASE_MS, () => {
      if (!takenChanged) return;
      takenChanged = false;
      records.set('vote taken', Object.fromEntries(Object.entries(taken).map(([sender, { start, n }]) => [sender, { start, n }])));
    });
    this.vote = { candidate: voting, endpoint, rounds, keeping, dropped };
    log.info(`votes on ${own.host}:${endpoint.port}/udp in group ${this.hub.group}, with ${Object.keys(voters).join(', ')}`);
  }

  private stopVoting(): void {
    const vote = this.vote;
    if (!vote) return;
    vote.rounds.unsubscribe();
    vote.keeping.unsubscribe();
    vote.candidate.end();
    void vote.endpoint.close();
  }

  /** Whether this hub may claim the lease when no voter names a holder: always in an auto group; in a manual one, at the first start, at an operator's word, or to take back its own lapse. */
  private mayClaim(): boolean {
    if (this.hub.failover === 'auto' || this.epoch === 0 || this.operatorAsked) return true;
    if (this.lapsedEpoch !== undefined && this.lapsedEpoch === this.epoch) return true;
    if (!this.waitingLogged) {
      this.waitingLogged = true;
      this.context.log.warn(`no hub of group ${this.hub.group} is active: failover is manual, POST /failover on a standby takes over`);
    }
    return false;
  }

  /** After a round or an answer: takes over, renews, or stands down, as the majority says. */
  private voteChanged(): void {
    const vote = this.vote;
    if (!vote || this.stopped) return;
    const now = performance.now();
    const lease = vote.candidate.lease(now);
    if (this.failoverUntil > 0 && (lease || now >= this.failoverUntil)) {
      this.failoverUntil = 0;
      if (!lease) {
        // Said again as a standby: its claim record would otherwise stand on the broker.
        this.operatorAsked = false;
        if (this.link.up) this.publishRecord('standby', this.epoch);
        const holder = vote.candidate.holderSeen(now);
        this.context.log.warn(
          `the takeover asked of hub ${this.hub.id} did not take within ${FAILOVER_MS / 1000} s${holder ? `: hub ${holder} holds the lease` : ''}`,
        );
      }
    }
    if (lease) {
      this.operatorAsked = false;
      this.waitingLogged = false;
      if (this.current !== 'active') {
        const holder = this.holder();
        return this.becomeActive(lease.epoch, lease.until, holder === this.hub.id ? this.lastHolder : (holder ?? this.lastHolder));
      }
      const fence = this.context.hub.redundancy.lease;
      if (lease.epoch !== fence.epoch) {
        this.learnEpoch(lease.epoch);
        this.parameters.epoch.report(lease.epoch);
        if (this.link.up) this.publishRecord('active', lease.epoch);
      }
      fence.grant(lease.epoch, lease.until);
    } else if (this.current === 'active') {
      this.lapsedEpoch = this.epoch;
      this.standDown(`its lease ended: a majority of the voters did not renew it for ${VOTE_LEASE_MS / 1000} s`);
    }
    const reached = Object.entries(this.votersReached())
      .filter(([, voter]) => voter.reached)
      .map(([id]) => id)
      .join(' ');
    if (this.parameters.voters?.value !== reached) this.parameters.voters?.report(reached);
    this.showActive();
  }

  /** Which voters this hub heard from within a lease, and whether each granted it the last time. */
  private votersReached(): Record<string, { reached: boolean; granted: boolean }> {
    const now = performance.now();
    const reached: Record<string, { reached: boolean; granted: boolean }> = {};
    for (const voter of this.vote?.candidate.voters ?? []) {
      const last = this.vote?.candidate.lastAnswer.get(voter);
      const heard = last !== undefined && now - last.at < VOTE_LEASE_MS;
      // A grant counts while its voter answers: one not heard for a lease grants nothing any more.
      reached[voter] = { reached: heard, granted: heard && last?.answer.granted === true };
    }
    return reached;
  }

  // --- Renewals ----------------------------------------------------------------------------

  /** Every 200 ms a renewal: the active hub's lease, and every hub's proof that what it hears is current. */
  private startRenewing(): void {
    if (this.renewals) return;
    this.acknowledgedUntil = 0;
    const renew = () => {
      const sentAt = performance.now();
      // Bound to each other hub's session, with the epoch this hub knows: a renewal played back later counts for nothing (R-AV3).
      const renewal = JSON.stringify({ epoch: this.epoch, seen: this.sharing?.sessions() ?? {} });
      this.link.publish(this.settings.layout.lease(this.hub.id), renewal, { qos: 1, retain: false }, 'drop', (error) => {
        if (error) return;
        this.freshSince = Math.max(this.freshSince, sentAt);
        this.acknowledgedUntil = Math.max(this.acknowledgedUntil, sentAt + LEASE_MS);
        this.context.hub.redundancy.lease.renew(this.acknowledgedUntil);
        this.decide();
      });
      if (this.current === 'active' && !this.context.hub.redundancy.lease.holds()) {
        this.lapsedEpoch = this.epoch;
        this.standDown(`its lease ran out: the broker acknowledged no renewal for ${LEASE_MS / 1000} s`);
      }
    };
    renew();
    this.renewals = every(this.context.scheduler, RENEW_EVERY_MS, renew);
  }

  private stopRenewing(): void {
    this.renewals?.unsubscribe();
    this.renewals = undefined;
    this.acknowledgedUntil = 0;
  }
}

interface Vote {
  readonly candidate: Candidate;
  readonly endpoint: VoteEndpoint;
  readonly rounds: Subscription;
  readonly keeping: Subscription;
  readonly dropped: Record<Dropped, number>;
}

/** A voter's promise as kept in the records, when it reads as one. */
function readPledge(kept: Json | undefined): Pledge | undefined {
  const pledge = kept as Partial<Pledge> | undefined;
  return typeof pledge?.candidate === 'string' && Number.isSafeInteger(pledge.epoch)
    ? { candidate: pledge.candidate, epoch: pledge.epoch as number }
    : undefined;
}

/** The last vote request taken from each voter, as kept in the records. */
function readTaken(kept: Json | undefined): Record<string, Stamp> {
  const taken: Record<string, Stamp> = {};
  if (typeof kept !== 'object' || kept === null || Array.isArray(kept)) return taken;
  for (const [sender, stamp] of Object.entries(kept)) {
    const { start, n } = (stamp ?? {}) as Partial<Stamp>;
    if (Number.isSafeInteger(start) && Number.isSafeInteger(n)) taken[sender] = { start: start as number, n: n as number };
  }
  return taken;
}

/** A role record, when the payload reads as one. */
export function readRecord(payload: Buffer): RoleRecord | undefined {
  try {
    const data = JSON.parse(payload.toString()) as Partial<RoleRecord> | null;
    if (
      typeof data?.group === 'string' &&
      (data.role === 'active' || data.role === 'standby') &&
      typeof data.epoch === 'number' &&
      Number.isSafeInteger(data.epoch) &&
      data.epoch >= 0
    )
      return { group: data.group, role: data.role, epoch: data.epoch };
  } catch {
    // Not a record: ignored like any message that does not read.
  }
  return undefined;
}
