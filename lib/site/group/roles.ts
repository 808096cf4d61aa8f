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
  current: Role = 'standby';
  /** The highest epoch this hub knows of (`learnEpoch` raises it). */
  epoch: number;
  /** `performance.now()` when the broker link came up, every retained message in; undefined while it is down. */
  upSince: number | undefined;
  /** The hub that last held the lease other than this one: whose values and records a takeover carries on. */
  lastHolder: string | undefined;
  /** The active hub as last logged, so that each change is said once. */
  private shownActive: string | undefined;
  stopped = false;
  private changing: Promise<void> = Promise.resolve();
  /** The log said that no hub is active and failover is manual: said once until that changes. */
  waitingLogged = false;
  /**
   * The epoch this hub held when its own lease ran out (it was starved of CPU, or its
   * renewals were not acknowledged), while no other hub had claimed it: in a manual group it
   * takes its lease back with the next epoch, since that is no failover, only the same hub
   * driving on. Any later epoch (another hub's claim) ends that.
   */
  lapsedEpoch: number | undefined;
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
  }

  /** The hub that won the latest epoch claimed, while it has not stood down; this hub too. */
  holder(): string | undefined {
    const holder = this.directory.holder(this.hub.group);
    return holder && holder.epoch >= this.epoch ? holder.hubId : undefined;
  }

  /** Takes over: the lease granted until `until`, the connections started from what `previous` ran. */
  becomeActive(epoch: number, until: number, previous: string | undefined): void {
    const carried = { values: this.shown.carried(this.runsOnlyOnActive), records: this.records.recordsOfHub(previous) };
    this.current = 'active';
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
    this.current = 'standby';
    this.context.log.warn(`stands down to standby: ${why}`);
    this.parameters.role.report('standby');
    if (this.link.up) this.publishRecord('standby', epoch);
    this.changing = this.changing.then(async () => {
      await this.context.hub.redundancy.standDown();
      this.changes.next();
      this.stoodDown.next();
    });
  }

  /** True for a connection only the active hub of the group runs: the standbys show all of it, and carry it on at a takeover. */
  readonly runsOnlyOnActive = (connectionId: string): boolean => this.context.hub.redundancy.activeOnly().includes(connectionId);

  learnEpoch(epoch: number): void {
    if (epoch <= this.epoch) return;
    this.epoch = epoch;
    this.context.records.set('epoch', epoch);
  }

  /** Shows `active` (the hub active now, as the group knows it) in `_hub/active`, and says in the log when it changed. */
  showActive(active: string | undefined): void {
    const holder = this.holder();
    if (holder !== undefined && holder !== this.hub.id) this.lastHolder = holder;
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
