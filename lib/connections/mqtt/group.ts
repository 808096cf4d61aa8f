/**
 * A redundancy group on the broker (R-B1–R-B5): hubs with the same `hub.group` run the same
 * flow; one is active and runs every connection, the others are standby and show it.
 *
 * The lease. Each hub says its role, retained and signed, on `$hub/<id>/role` as
 * `{group, role, epoch}`. To take over, a hub claims the next epoch (`role: active` with the
 * highest epoch it knows plus one); every hub hears the claims in the broker's order, and
 * the first claim of an epoch wins it, as for connection ids (hub-share.ts). The epoch only
 * grows: each hub keeps the highest it has seen in its records (the state folder, when it
 * has one).
 *
 * Fencing (R-B3). The active hub renews its lease with a QoS 1 message every 250 ms; the
 * broker's acknowledgement of a renewal sent at `t` makes the lease hold until `t + 1.5 s`.
 * A lease belongs to one session with the broker: when the link closes it ends at once.
 * The broker publishes a hub's last will after its last message from it, so by the time a
 * standby hears that the active hub is gone and waits `FENCE_WAIT_MS`, the gone hub's lease
 * has run out whatever happened to it — killed, paused, cut off from the broker but not from
 * its devices — and it sends no command: `DeviceLink` asks the lease before each write, by
 * the clock, not by a timer that a paused process would run late. A standby that claims
 * while the active hub is still here (an operator's `POST /failover`) becomes active once
 * the other says it stood down, or is gone and its lease has run out.
 *
 * A partition: an active hub that reaches its devices but not the broker loses its lease
 * 1.5 s after the broker's last acknowledgement and stops its device connections; the
 * standby takes over once the broker has given up on it. The devices are driven by the side
 * that reaches the broker: a hub without the broker cannot be told that another took over.
 */
import { performance } from 'node:perf_hooks';
import type { Subscription } from 'rxjs';
import { fail, ok, type Result } from '../../core/errors.ts';
import type { OwnedParameter } from '../../core/parameter.ts';
import { after, every } from '../../core/scheduler.ts';
import type { GroupControl, Role, ServingContext } from '../connection.ts';
import type { BrokerLink } from './broker-link.ts';
import type { HubSettings, MqttSettings } from './settings.ts';

/** How long a renewal the broker acknowledged keeps the lease. */
export const LEASE_MS = 1500;
/** How often the active hub renews its lease. */
const RENEW_EVERY_MS = 250;
/** How long a standby waits after the active hub is gone before it drives devices: that hub's lease has run out by then. */
export const FENCE_WAIT_MS = LEASE_MS + 250;
/** The keep-alive of a group hub's broker link, in seconds: the broker gives up on a silent hub within about 2 s. */
export const GROUP_KEEPALIVE_S = 1;

interface RoleRecord {
  readonly group: string;
  readonly role: Role;
  readonly epoch: number;
}

/**
 * The role records of every hub on the broker, in the order heard: who holds each group's
 * lease. Every hub that shares keeps one, in a group or not: a hub of a group owns
 * connections only while it holds the lease (hub-share.ts asks `owns`).
 */
export class GroupDirectory {
  private readonly records = new Map<string, RoleRecord>();
  /** The first hub heard claiming each epoch of each group: the broker's order decides. */
  private readonly firstClaims = new Map<string, string>();

  /** A hub's record, signed by it; false when it does not read as one. */
  heard(hubId: string, payload: Buffer): RoleRecord | undefined {
    const record = readRecord(payload);
    if (!record) return undefined;
    this.records.set(hubId, record);
    const key = `${record.group} ${record.epoch}`;
    if (record.role === 'active' && !this.firstClaims.has(key)) this.firstClaims.set(key, hubId);
    return record;
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
  /** `performance.now()` when it was heard to go (its will, or its own goodbye). */
  goneAt: number | undefined;
}

interface Claim {
  readonly epoch: number;
  /** The hub that held the lease when the claim went out, if any: it must have let go first. */
  readonly previous: string | undefined;
  confirmed: boolean;
}

/** What the group needs of the hub's sharing (hub-share.ts). */
export interface GroupSharing {
  /** The last values of the active hub's connections, as this standby shows them. */
  carriedValues(): ReadonlyMap<string, import('../../core/value.ts').Value>;
  /** The role or the active hub changed: mirror the active hub's connections, or stop mirroring them. */
  roleChanged(): void;
}

export class RedundancyGroup implements GroupControl {
  private current: Role = 'standby';
  /** The highest epoch this hub knows of. */
  private epoch: number;
  private readonly peers = new Map<string, Peer>();
  private claim: Claim | undefined;
  /** `performance.now()` until which the broker's acknowledgements keep the lease. */
  private acknowledgedUntil = 0;
  private renewals: Subscription | undefined;
  private recheck: Subscription | undefined;
  private upSince: number | undefined;
  private changing: Promise<void> = Promise.resolve();
  private waitingLogged = false;
  private readonly parameters: { role: OwnedParameter; epoch: OwnedParameter; active: OwnedParameter };
  private readonly removeControl: () => void;
  sharing: GroupSharing | undefined;

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
    };
    this.removeControl = context.hub.redundancy.control(this);
  }

  // --- What the rest-api and the console ask ---------------------------------------------

  role(): Role {
    return this.current;
  }

  /** The hub that is active now, as this hub knows it: itself, the holder of the latest epoch, or none. */
  activeHub(): string | undefined {
    if (this.current === 'active') return this.hub.id;
    const holder = this.holder();
    return holder && this.peers.get(holder)?.online ? holder : undefined;
  }

  /** The hub whose connections this hub shows: the holder of the lease, or while this hub claims it, the one that held it until then. */
  owner(): string | undefined {
    if (this.current === 'active') return this.hub.id;
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
    this.context.log.warn(`an operator asked hub ${this.hub.id} to take over`);
    this.claimNext();
    return ok(`hub ${this.hub.id} takes over as epoch ${this.claim!.epoch} once hub ${this.claim!.previous ?? '(none)'} has let go`);
  }

  replicated(done: (acknowledged: boolean) => void): void {
    this.link.whenAcknowledged(done);
  }

  details(): Record<string, unknown> {
    return {
      group: this.hub.group,
      role: this.current,
      epoch: this.epoch,
      active: this.activeHub() ?? null,
      failover: this.hub.failover,
      ...(this.claim ? { claiming: this.claim.epoch } : {}),
      ...(this.waitingForOperator() ? { waiting: 'for an operator: POST /failover on this hub takes over' } : {}),
    };
  }

  // --- What the broker says ----------------------------------------------------------------

  /** Connected, every retained message in: this hub joins as a standby, and looks for an active hub. */
  up(): void {
    this.upSince = performance.now();
    this.publishRecord('standby', this.epoch);
    this.decide();
  }

  /** The broker link closed: a lease belongs to one session, so it ends now. */
  down(reason: string): void {
    this.upSince = undefined;
    this.stopRenewing();
    if (this.claim) this.claim = undefined;
    if (this.current === 'active') this.standDown(`the broker connection closed (${reason})`);
  }

  /** A hub's presence, signed by it: a hub that goes starts the wait after which its lease has run out. */
  presence(hubId: string, online: boolean): void {
    const peer = this.peer(hubId);
    if (peer.online === online) return;
    peer.online = online;
    peer.goneAt = online ? undefined : performance.now();
    if (!online && this.isPeer(hubId)) this.waitingLogged = false;
    this.decide();
  }

  /** A hub's role record as the directory took it (this hub's own come back too: their order decides claims). */
  record(hubId: string, record: RoleRecord): void {
    if (record.group !== this.hub.group) return;
    this.learnEpoch(record.epoch);
    if (hubId === this.hub.id) {
      if (this.claim && record.role === 'active' && record.epoch === this.claim.epoch) this.claimCameBack();
    } else if (this.current === 'active' && record.role === 'active' && record.epoch > this.context.hub.redundancy.lease.epoch) {
      this.standDown(`hub ${hubId} took over (epoch ${record.epoch})`, record.epoch);
    }
    this.decide();
  }

  stop(): void {
    this.stopRenewing();
    this.recheck?.unsubscribe();
    this.removeControl();
    if (this.current === 'active') {
      this.context.hub.redundancy.lease.end();
      this.current = 'standby';
    }
  }

  // --- Deciding ----------------------------------------------------------------------------

  /** The hub that won the latest epoch claimed, while it has not stood down; this hub too. */
  private holder(): string | undefined {
    const holder = this.directory.holder(this.hub.group);
    return holder && holder.epoch >= this.epoch ? holder.hubId : undefined;
  }

  private decide(): void {
    this.showActive();
    if (this.current === 'active' || this.upSince === undefined) return;
    if (this.claim) return this.tryActivate();
    const holder = this.holder();
    if (holder && holder !== this.hub.id && this.peers.get(holder)?.online) return;
    // No hub holds the lease: the first ever (epoch 0) is taken either way; later, "manual" waits for an operator.
    if (this.hub.failover === 'manual' && this.epoch > 0) {
      if (!this.waitingLogged) {
        this.waitingLogged = true;
        this.context.log.warn(
          `no hub of group ${this.hub.group} is active${holder ? ` (hub ${holder} is gone)` : ''}: failover is manual, POST /failover on a standby takes over`,
        );
      }
      return;
    }
    this.claimNext();
  }

  private waitingForOperator(): boolean {
    return this.current === 'standby' && !this.claim && this.hub.failover === 'manual' && this.epoch > 0 && this.activeHub() === undefined;
  }

  private claimNext(): void {
    const holder = this.holder();
    const epoch = this.epoch + 1;
    this.claim = { epoch, previous: holder === this.hub.id ? undefined : holder, confirmed: false };
    this.learnEpoch(epoch);
    this.context.log.info(
      `claims the lease of group ${this.hub.group} (epoch ${epoch})${holder ? `, held by hub ${holder} until now` : ''}`,
    );
    this.startRenewing();
    this.publishRecord('active', epoch);
  }

  /** Its own claim came back: won when no other hub's claim of the epoch came first. */
  private claimCameBack(): void {
    const claim = this.claim!;
    const winner = this.directory.firstClaim(this.hub.group, claim.epoch);
    if (winner === this.hub.id) {
      claim.confirmed = true;
      return this.tryActivate();
    }
    this.context.log.info(`hub ${winner} claimed epoch ${claim.epoch} first: stays standby`);
    this.claim = undefined;
    this.stopRenewing();
    this.publishRecord('standby', claim.epoch);
  }

  /** True once the hub that held the lease has let go: it said it stood down, or it is gone and its lease has run out. */
  private previousLetGo(previous: string | undefined): boolean {
    if (previous === undefined) return true;
    const peer = this.peers.get(previous);
    if (peer?.online) return this.directory.recordOf(previous)?.role === 'standby';
    // Gone before this hub was connected: the wait counts from when this hub could first have heard.
    const since = peer?.goneAt ?? this.upSince ?? performance.now();
    return performance.now() >= since + FENCE_WAIT_MS;
  }

  private tryActivate(): void {
    const claim = this.claim;
    if (!claim?.confirmed) return;
    const now = performance.now();
    if (!this.previousLetGo(claim.previous) || this.acknowledgedUntil <= now) {
      this.recheck?.unsubscribe();
      this.recheck = after(this.context.scheduler, 50, () => {
        this.recheck = undefined;
        if (this.claim === claim) this.tryActivate();
      });
      return;
    }
    this.claim = undefined;
    this.current = 'active';
    this.context.hub.redundancy.lease.grant(claim.epoch, this.acknowledgedUntil);
    this.context.records.set('epoch', claim.epoch);
    this.parameters.epoch.report(claim.epoch);
    this.parameters.role.report('active');
    this.showActive();
    const carried = this.sharing?.carriedValues() ?? new Map();
    this.sharing?.roleChanged();
    this.context.log.warn(`takes over as the active hub of group ${this.hub.group} (epoch ${claim.epoch})`);
    this.changing = this.changing.then(() => this.context.hub.redundancy.activate(carried));
  }

  /** Ends the lease now, and stops the connections only the active hub runs. */
  private standDown(why: string, epoch = this.epoch): void {
    this.context.hub.redundancy.lease.end();
    this.current = 'standby';
    this.stopRenewing();
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
    this.parameters.active.report(this.activeHub() ?? '');
    if (this.current !== 'active') this.parameters.epoch.report(this.epoch);
  }

  private peer(hubId: string): Peer {
    let peer = this.peers.get(hubId);
    if (!peer) this.peers.set(hubId, (peer = { online: hubId === this.hub.id, goneAt: undefined }));
    return peer;
  }

  private publishRecord(role: Role, epoch: number): void {
    const record: RoleRecord = { group: this.hub.group, role, epoch };
    this.link.publish(this.settings.layout.role(this.hub.id), JSON.stringify(record), { qos: 1, retain: true }, 'drop');
  }

  // --- The lease's renewals ----------------------------------------------------------------

  private startRenewing(): void {
    if (this.renewals) return;
    this.acknowledgedUntil = 0;
    const renew = () => {
      const sentAt = performance.now();
      this.link.publish(this.settings.layout.lease(this.hub.id), '', { qos: 1, retain: false }, 'drop', (error) => {
        if (error) return;
        this.acknowledgedUntil = Math.max(this.acknowledgedUntil, sentAt + LEASE_MS);
        this.context.hub.redundancy.lease.renew(this.acknowledgedUntil);
      });
      if (this.current === 'active' && !this.context.hub.redundancy.lease.holds())
        this.standDown(`its lease ran out: the broker acknowledged no renewal for ${LEASE_MS / 1000} s`);
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

function readRecord(payload: Buffer): RoleRecord | undefined {
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
