/**
 * The connections of other hubs this hub shows (R-M5): each at the same addresses as its
 * owner's, its parameters added, removed or retyped as the owner's description says, its
 * status the owner's (failed while the owner is away), its values the owner's signed ones.
 * Writes go to the owner (`remote-writes.ts`). When the active hub of this hub's group goes,
 * the last values of what it ran are kept: a takeover starts from them (R-B2).
 */
import { Status, type Value } from '../../sdk/index.ts';
import type { MirroredConnection, SiteContext } from '../hub-port.ts';
import type { ConnectionInfo } from '../../core/api-shapes.ts';
import type { ProxyParameter } from '../../core/parameter.ts';
import { type Counter, compareCounters } from '../../broker/signing.ts';
import type { OtherHub, SharedConnection } from '../peers/description.ts';
import type { EarlyValues, SharedValue } from './early-values.ts';
import type { RemoteWrites } from './remote-writes.ts';

/** A parameter shown: its proxy, its type and access (`key`), and the counter of the value it shows. */
interface Shown {
  readonly parameter: ProxyParameter;
  readonly key: string;
  counter: Counter | undefined;
}

export interface Mirror {
  readonly owner: string;
  readonly handle: MirroredConnection;
  readonly parameters: Map<string, Shown>;
}

/** Sends a write to the hub that owns the connection now. */
type Forward = RemoteWrites['send'];

export class Mirrors {
  private readonly byId = new Map<string, Mirror>();
  /** The last values of the active hub's connections, kept when it went away: a takeover starts from them. */
  private leftValues = new Map<string, Value>();

  constructor(
    private readonly context: SiteContext,
    private readonly others: ReadonlyMap<string, OtherHub>,
    private readonly early: EarlyValues,
    private readonly forward: Forward,
  ) {}

  has(connectionId: string): boolean {
    return this.byId.has(connectionId);
  }

  /** True when this hub runs the connection itself: in its graph, and not shown from another hub. */
  isLocal(connectionId: string): boolean {
    return !this.byId.has(connectionId) && this.context.graph.hasConnection(connectionId);
  }

  get(connectionId: string): Mirror | undefined {
    return this.byId.get(connectionId);
  }

  /** Shows `id` as its owner describes it: parameters added, removed or retyped to match. */
  mirror(id: string, owner: string, shared: SharedConnection): void {
    let mirror = this.byId.get(id);
    if (mirror && mirror.owner !== owner) {
      mirror.handle.close();
      this.byId.delete(id);
      mirror = undefined;
    }
    if (!mirror) {
      const opened = this.context.hub.mirror(id, owner);
      if (!opened.ok) {
        this.context.log.warn(`connection "${id}" of hub ${owner} is not shown: ${opened.error.message}`);
        return;
      }
      mirror = { owner, handle: opened.value, parameters: new Map() };
      this.byId.set(id, mirror);
    }
    const wanted = new Map(
      shared.parameters.map(([parameterId, type, access]) => [parameterId, { type, access, key: `${type} ${access}` }]),
    );
    for (const [parameterId, entry] of mirror.parameters) {
      if (wanted.get(parameterId)?.key === entry.key) continue;
      mirror.handle.remove(parameterId);
      mirror.parameters.delete(parameterId);
    }
    for (const [parameterId, { type, access, key }] of wanted) {
      if (mirror.parameters.has(parameterId)) continue;
      const address = `${id}/${parameterId}`;
      let parameter: ProxyParameter;
      try {
        parameter = mirror.handle.define(parameterId, {
          type,
          access,
          forward: (value, origin, answered) => this.forward(address, this.byId.get(id)?.owner, type, value, origin, answered),
        });
      } catch (error) {
        this.context.log.warn(`${address} of hub ${owner} is not shown: ${(error as Error).message}`);
        continue;
      }
      const shown: Shown = { parameter, key, counter: undefined };
      mirror.parameters.set(parameterId, shown);
      const early = this.early.take(address);
      if (early) this.follow(mirror, shown, early.from, early.value);
    }
    this.show(id, mirror);
  }

  /** A value signed by `from` of a connection this hub does not run: followed when shown, else held. */
  value(connectionId: string, address: string, from: string, value: SharedValue): void {
    const mirror = this.byId.get(connectionId);
    const shown = mirror?.parameters.get(address.slice(connectionId.length + 1));
    if (mirror && shown) this.follow(mirror, shown, from, value);
    else this.early.hold(address, { from, value });
  }

  /** Every connection shown again with its owner's status: after a connect. */
  showAll(): void {
    for (const [id, mirror] of this.byId) this.show(id, mirror);
  }

  /** The broker is gone: every connection shown is degraded, its values maybe stale. */
  down(reason: string): void {
    for (const mirror of this.byId.values()) {
      mirror.handle.show({
        ...this.describe(mirror),
        status: Status.Degraded,
        reason: `values may be stale: ${reason}`,
        code: 'PB_BROKER_UNAVAILABLE',
      });
    }
  }

  /**
   * A hub came or went. Gone, its values are unknown until it is back and sends them again;
   * of what only this hub group's active hub runs (`groupRuns`), the last values are kept
   * for a takeover, which starts from them.
   */
  ownerPresence(hubId: string, online: boolean, groupRuns: (connectionId: string) => boolean): void {
    for (const [id, mirror] of this.byId) {
      if (mirror.owner !== hubId) continue;
      if (!online && groupRuns(id)) this.keepLeft(mirror);
      if (!online) for (const { parameter } of mirror.parameters.values()) mirror.handle.forget(parameter);
      this.show(id, mirror);
    }
  }

  /** Closes every connection shown whose owner is no longer the one `owners` names (the claims were decided again). */
  keepOwnedBy(owners: ReadonlyMap<string, { readonly hubId: string }>, groupRuns: (connectionId: string) => boolean): void {
    for (const [id, mirror] of this.byId) {
      if (owners.get(id)?.hubId === mirror.owner) continue;
      // The active hub of this hub's group that stood down (or stopped) leaves its last values to a takeover.
      if (groupRuns(id)) this.keepLeft(mirror);
      mirror.handle.close();
      this.byId.delete(id);
    }
  }

  /** The values shown of what only the group's active hub runs, with those it left: what a takeover starts from (R-B2). */
  carried(groupRuns: (connectionId: string) => boolean): ReadonlyMap<string, Value> {
    const carried = new Map(this.leftValues);
    this.leftValues = new Map();
    for (const [id, mirror] of this.byId) if (groupRuns(id)) for (const [address, value] of valuesOf(mirror)) carried.set(address, value);
    return carried;
  }

  closeAll(): void {
    for (const mirror of this.byId.values()) mirror.handle.close();
    this.byId.clear();
  }

  private keepLeft(mirror: Mirror): void {
    this.leftValues = new Map([...this.leftValues, ...valuesOf(mirror)]);
  }

  private describe(mirror: Mirror): Omit<ConnectionInfo, 'id' | 'status' | 'reason'> {
    const shared = this.others.get(mirror.owner)?.connections.get(mirror.handle.id);
    return {
      type: shared?.type ?? '',
      description: shared?.description ?? '',
      location: shared?.location ?? '',
      group: shared?.group ?? '',
      details: { hub: mirror.owner },
    };
  }

  private show(id: string, mirror: Mirror): void {
    const owner = this.others.get(mirror.owner);
    const shared = owner?.connections.get(id);
    const base = this.describe(mirror);
    if (!owner?.online || !shared) {
      mirror.handle.show({
        ...base,
        status: Status.Failed,
        reason: `hub ${mirror.owner} is away (its broker connection ended)`,
        code: 'PB_OWNER_UNAVAILABLE',
      });
      return;
    }
    const code = shared.code as ConnectionInfo['code'];
    mirror.handle.show({ ...base, status: shared.status, reason: shared.reason, ...(code ? { code } : {}) });
  }

  /**
   * A value signed by `from`: taken when it is the owner's (a hub that lost the id may have
   * sent one too) and no older than the one shown. Its value topic and its bursts are two
   * topics, whose messages a broker need not keep in order between them: the owner's counter does.
   */
  private follow(mirror: Mirror, shown: Shown, from: string, value: SharedValue): void {
    if (from !== mirror.owner) return;
    if (shown.counter && compareCounters(value.counter, shown.counter) < 0) return;
    shown.counter = value.counter;
    const { parameter } = shown;
    if (value.text === '' && parameter.type !== 'S' && parameter.type !== 'T') return mirror.handle.forget(parameter);
    parameter.report(parameter.type === 'T' ? null : value.text, `hub ${mirror.owner}${value.by ? `: ${value.by}` : ''}`);
  }
}

function valuesOf(mirror: Mirror): Map<string, Value> {
  const values = new Map<string, Value>();
  for (const { parameter } of mirror.parameters.values()) if (parameter.value !== undefined) values.set(parameter.address, parameter.value);
  return values;
}
