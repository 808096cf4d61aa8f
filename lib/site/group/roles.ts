/**
 * This hub's standing in its redundancy group: its role, the highest epoch it knows, and the
 * moves between standby and active (taking over, standing down), with what it shows of them:
 * its `_hub/*` parameters, its log lines and its role record on the broker. When to move is
 * decided elsewhere (takeover.ts over the broker, voting.ts with voters); this is the one place
 * that moves.
 */
import { type Observable, Subject } from 'rxjs';
import type { OwnedParameter, Value } from '../../sdk/index.ts';
import type { Role, SiteContext } from '../hub-port.ts';
import type { BrokerLink } from '../../broker/broker-link.ts';
import type { GroupHubSettings, SiteSettings } from '../settings.ts';
import type { GroupDirectory } from './directory.ts';
import type { RoleRecord } from './record.ts';
import type { GroupRecords } from './records.ts';

/** The values this hub shows of other hubs' connections (share/mirrors.ts): what a takeover carries on. */
export interface ShownValues {
  /** The last values of the connections `runs` names, with those their hub left when it went. */
  carried(runs: (connectionId: string) => boolean): ReadonlyMap<string, Value>;
}

export class Roles {
  // Each flag below is set here alone; the group's other parts read it, and ask for a move by a method.
  private role: Role = 'standby';
  /** The highest epoch this hub knows of (`learnEpoch` raises it). */
  private known: number;
  /** `performance.now()` when the broker link came up, every retained message in; undefined while it is down. */
  private linkUpSince: number | undefined;
  /** The hub that last held the lease other than this one: whose values and records a takeover carries on. */
  private previousHolder: string | undefined;
  /** The active hub as last logged, so that each change is said once. */
  private shownActive: string | undefined;
  private isStopped = false;
  private changing: Promise<void> = Promise.resolve();
  /** The log said that no hub is active and failover is manual: said once until that changes. */
  private waitingLogged = false;
  /**
   * The epoch this hub held when its own lease ran out (it was starved of CPU, or its
   * renewals were not acknowledged), while no other hub had claimed it: in a manual group it
   * takes its lease back with the next epoch, since that is no failover, only the same hub
   * driving on. Any later epoch (another hub's claim) ends that.
   */
  private lapsedEpoch: number | undefined;
  readonly parameters: { role: OwnedParameter; epoch: OwnedParameter; active: OwnedParameter; voters?: OwnedParameter };
  private readonly changes = new Subject<void>();
  private readonly stoodDown = new Subject<void>();
  /** Emits when this hub took over or stood down: whose connections it shows changes with it. */
  readonly roleChanges$: Observable<void> = this.changes.asObservable();
  /** Emits once a stand-down is done (after `roleChanges$`): the group looks again at whether to claim. */
  readonly stoodDown$: Observable<void> = this.stoodDown.asObservable();

  constructor(
    private readonly context: SiteContext,
    private readonly settings: SiteSettings,
    private readonly hub: GroupHubSettings,
    private readonly link: BrokerLink,
    private readonly directory: GroupDirectory,
    private readonly records: GroupRecords,
    private readonly shown: ShownValues,
    /** True when the group has voters: then a hub that takes over says so on the broker at once. */
    private readonly voted: boolean,
  ) {
    const kept = context.records.get('epoch');
    this.known = typeof kept === 'number' ? kept : 0;
    // The hub's own parameters (`_` ids), as `_status/connected`: only a type that serves the hub may make them.
    const define = (id: string, type: 'S' | 'I', initial: string | number) => {
      const defined = context.hub.graph.define(context.id, id, { type, access: 'read-only', initial }, { reserved: true });
      if (!defined.ok) throw defined.error;
      return defined.value;
    };
    this.parameters = {
      role: define('_hub/role', 'S', 'standby'),
      epoch: define('_hub/epoch', 'I', this.known),
      active: define('_hub/active', 'S', ''),
      // With voters: those this hub reached within the last second, space-separated (dashboards, the console).
      ...(hub.voters ? { voters: define('_hub/voters', 'S', '') } : {}),
    };
  }

  get current(): Role {
    return this.role;
  }

  get epoch(): number {
    return this.known;
  }

  get upSince(): number | undefined {
    return this.linkUpSince;
  }

  get stopped(): boolean {
    return this.isStopped;
  }

  get lastHolder(): string | undefined {
    return this.previousHolder;
  }

  /** True when the lease this hub last held ran out by itself and no later epoch was claimed since. */
  get ownLapse(): boolean {
    return this.lapsedEpoch !== undefined && this.lapsedEpoch === this.known;
  }

  /** The broker link came up (every retained message in) at `now`, or went down (undefined). */
  linkChanged(now: number | undefined): void {
    this.linkUpSince = now;
  }

  /** The group stops: nothing moves from here on, and it is a standby without standing down (the group ends what it held). */
  stop(): void {
    this.isStopped = true;
    this.linkUpSince = undefined;
    this.role = 'standby';
  }

  /** Says once, until `waitingOver`, that no hub is active and an operator must act. */
  sayWaiting(message: string): void {
    if (this.waitingLogged) return;
    this.waitingLogged = true;
    this.context.log.warn(message);
  }

  /** Whatever was waiting changed (a hub went, or this hub holds the lease): say it again when it waits again. */
  waitingOver(): void {
    this.waitingLogged = false;
  }

  /** Its own lease ran out: stands down, and may take it back in a manual group (`ownLapse`). */
  lapse(why: string): void {
    this.lapsedEpoch = this.known;
    this.standDown(why);
  }

  /** The hub that won the latest epoch claimed, while it has not stood down; this hub too. */
  holder(): string | undefined {
    const holder = this.directory.holder(this.hub.group);
    return holder && holder.epoch >= this.epoch ? holder.hubId : undefined;
  }

  /** Takes over: the lease granted until `until`, the connections started from what `previous` ran. */
  becomeActive(epoch: number, until: number, previous: string | undefined): void {
    // What only the active hub runs: the values this hub shows of it are what it starts from.
    const activeOnly = new Set(this.context.hub.redundancy.activeOnly());
    const carried = { values: this.shown.carried((id) => activeOnly.has(id)), records: this.records.recordsOfHub(previous) };
    this.role = 'active';
    this.context.hub.redundancy.lease.grant(epoch, until);
    this.learnEpoch(epoch);
    this.context.records.set('epoch', epoch);
    this.parameters.epoch.report(epoch);
    this.showActive(this.hub.id);
    this.changes.next();
    this.context.log.warn(`takes over as the active hub of group ${this.hub.group} (epoch ${epoch})`);
    if (this.voted && this.link.up) this.publishRecord('active', epoch);
    // `_hub/role` says active once the connections run: a client that sees it may write to them.
    this.changing = this.changing
      .then(() => this.context.hub.redundancy.activate(carried))
      .then(() => {
        if (this.current === 'active') this.parameters.role.report('active');
      });
  }

  /** Ends the lease now, and stops the connections only the active hub runs. */
  standDown(why: string, epoch = this.epoch): void {
    this.context.hub.redundancy.lease.end();
    this.role = 'standby';
    this.context.log.warn(`stands down to standby: ${why}`);
    this.parameters.role.report('standby');
    if (this.link.up) this.publishRecord('standby', epoch);
    this.changing = this.changing.then(async () => {
      await this.context.hub.redundancy.standDown();
      this.changes.next();
      this.stoodDown.next();
    });
  }

  learnEpoch(epoch: number): void {
    if (epoch <= this.known) return;
    this.known = epoch;
    this.context.records.set('epoch', epoch);
  }

  /** Shows `active` (the hub active now, as the group knows it) in `_hub/active`, and says in the log when it changed. */
  showActive(active: string | undefined): void {
    const holder = this.holder();
    if (holder !== undefined && holder !== this.hub.id) this.previousHolder = holder;
    this.parameters.active.report(active ?? '');
    if (this.current !== 'active' && this.parameters.epoch.value !== this.epoch) this.parameters.epoch.report(this.epoch);
    if (this.current === 'active') this.shownActive = this.hub.id;
    else if (active !== this.shownActive && this.upSince !== undefined) {
      if (active !== undefined)
        this.context.log.info(`standby: hub ${active} is the active hub of group ${this.hub.group} (epoch ${this.epoch})`);
      this.shownActive = active;
    }
  }

  publishRecord(role: Role, epoch: number): void {
    const record: RoleRecord = { group: this.hub.group, role, epoch };
    this.link.publish(this.settings.layout.role(this.hub.id), JSON.stringify(record), { qos: 1, retain: true }, 'drop');
  }
}
