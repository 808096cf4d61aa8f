/**
 * The hub's role in its redundancy group (R-B1–B5): taking over as the active hub, standing
 * down to a standby, and the `Redundancy` through which the group's mqtt connection drives both.
 */
import type { Subject } from 'rxjs';
import type { Flow } from '../config/flow-file.ts';
import { type ConnectionRunner, startTogether } from '../connections/runner.ts';
import type { Carried, GroupControl, Redundancy, Role } from '../connections/serving.ts';
import type { Graph, Reading } from '../core/graph.ts';
import { Lease } from '../core/lease.ts';
import type { Logger } from '../core/log.ts';
import { count } from './count.ts';
import type { Mirrors } from './mirrors.ts';

/** What taking over and standing down work on, of the hub. */
export interface RoleHost {
  readonly graph: Graph;
  readonly log: Logger;
  /** What the hub shows of connections it does not run: on a standby, those it stopped. */
  readonly mirrors: Mirrors;
  /** Told when the hub's connections changed, for the clients that follow them. */
  readonly connectionsChanged: Subject<void>;
  /** The group the flow puts the hub in (R-B1), if any. */
  group(): string | undefined;
  /** The connections of the running flow, in flow order. */
  runners(): readonly ConnectionRunner[];
  /** The time as changes are stamped now. */
  changeClock(): number;
  /** Starts the code flows, then the rules (taking what connections said since `replaySince`); resolves with how many rules run. */
  startLogic(replaySince?: number): Promise<number>;
  /** Stops the rules and the code flows. */
  stopLogic(): void;
}

/** The hub's role in its group, and what goes with it: the lease, what a takeover carries, the group's control. */
export class GroupRole {
  /** In a redundancy group (R-B1): this hub's role, and the values a takeover carries into its connections. */
  role: Role | undefined;
  carried: Carried | undefined;
  readonly lease = new Lease();
  groupControl: GroupControl | undefined;

  constructor(private readonly hub: RoleHost) {}

  /** Takes over as the active hub of the group (R-B2, R-B4): see `Redundancy.activate`. */
  private async activate(carried: Carried): Promise<void> {
    if (this.role !== 'standby') return;
    this.role = 'active';
    this.carried = carried;
    // What it kept showing since it stood down gives way to the connections themselves.
    this.hub.mirrors.release();
    const activeOnly = this.hub.runners().filter((runner) => !runner.config.plan.runsOnStandby);
    // What the devices say as they connect to the new active hub reaches its rules (R-DV2).
    const since = this.hub.changeClock();
    try {
      await startTogether(activeOnly);
    } finally {
      this.carried = undefined;
    }
    // The standbys keep every record from now on, also those no change will send.
    for (const runner of activeOnly) this.groupControl?.recordsChanged(runner.id, runner.recordEntries());
    const rules = await this.hub.startLogic(since);
    this.hub.connectionsChanged.next();
    this.hub.log.info(
      `active in group ${this.hub.group()} (epoch ${this.lease.epoch}): ${count(this.hub.runners().length, 'connection')}, ${count(rules, 'rule')}`,
    );
  }

  /** Stands down to a standby (R-B3): see `Redundancy.standDown`. The lease has ended already: no device hears this hub meanwhile. */
  private async standDown(): Promise<void> {
    if (this.role !== 'active') return;
    this.role = 'standby';
    this.hub.stopLogic();
    const activeOnly = [...this.hub.runners()].reverse().filter((runner) => !runner.config.plan.runsOnStandby);
    const last = readingsOf(this.hub.graph, new Set(activeOnly.map((runner) => runner.id)));
    for (const runner of activeOnly) {
      const info = runner.info;
      await runner.dispose({ forget: false });
      // Shown as they were until the active hub's mirror comes: a dashboard reads values, not 404 (R-AV1).
      this.hub.mirrors.keep(info, last.get(runner.id) ?? [], () => this.lease.refusal());
    }
    this.hub.connectionsChanged.next();
    this.hub.log.warn(
      `standby in group ${this.hub.group()}: the connections only the active hub runs are stopped; their last values are shown, writes refused, until the active hub's are`,
    );
  }

  /** The hub's side of the group, as its mqtt connection drives it (see `Redundancy`). */
  redundancy(): Redundancy {
    const self = this;
    return {
      get group() {
        return self.hub.group();
      },
      lease: this.lease,
      activate: (carried) => this.activate(carried),
      standDown: () => this.standDown(),
      activeOnly: () =>
        this.hub
          .runners()
          .filter((r) => !r.config.plan.runsOnStandby)
          .map((r) => r.id),
      control: (control) => {
        this.groupControl = control;
        return () => {
          if (this.groupControl === control) this.groupControl = undefined;
        };
      },
      get current() {
        return self.groupControl;
      },
    };
  }
}

/** The redundancy group a flow puts its hub in (R-B1), if any. */
export function groupOf(flow: Flow): string | undefined {
  return flow.connections.find((config) => config.plan.redundancyGroup !== undefined)?.plan.redundancyGroup;
}

/** The readings of the connections `ids`, by connection, in one walk of the graph that makes no parameter. */
function readingsOf(graph: Graph, ids: ReadonlySet<string>): Map<string, Reading[]> {
  const found = new Map<string, Reading[]>();
  for (const reading of graph.readings()) {
    if (!ids.has(reading.connectionId)) continue;
    let list = found.get(reading.connectionId);
    if (!list) found.set(reading.connectionId, (list = []));
    list.push(reading);
  }
  return found;
}
