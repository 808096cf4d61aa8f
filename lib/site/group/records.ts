/**
 * What the hubs of this hub's redundancy group say of themselves (R-B1–B5), kept between the
 * messages that bring it: role records more than one epoch ahead, held until that hub's own
 * renewals confirm them; the sessions of the group's hubs that renewals are bound to; and the
 * records of the active hub's connections, kept for a takeover (R-B4). Whether a record is
 * taken is the group's to decide (group.ts): this only keeps.
 */
import type { Json } from '../../sdk/index.ts';
import { parseJson } from '../peers/description.ts';
import type { OtherHub } from '../peers/description.ts';
import type { RoleRecord } from './record.ts';

export class GroupRecords {
  /** The records each hub of the group publishes of its connections, while it is active. */
  private readonly recordsOf = new Map<string, Map<string, [string, Json][]>>();
  /** Role records of the group's hubs whose epoch is more than one step ahead: taken once that hub's own fresh renewals say the same epoch. */
  private readonly unconfirmed = new Map<string, RoleRecord>();

  constructor(private readonly others: ReadonlyMap<string, OtherHub>) {}

  /** Holds a role record until the hub's renewals confirm its epoch. */
  hold(hubId: string, record: RoleRecord): void {
    this.unconfirmed.set(hubId, record);
  }

  /** A record of the hub was taken: nothing of it waits any more. */
  taken(hubId: string): void {
    this.unconfirmed.delete(hubId);
  }

  /** The held record of the hub, when a renewal of it says the same epoch: taken now. */
  confirmedBy(hubId: string, renewedEpoch: unknown): RoleRecord | undefined {
    const held = this.unconfirmed.get(hubId);
    if (held === undefined || held.epoch !== renewedEpoch) return undefined;
    this.unconfirmed.delete(hubId);
    return held;
  }

  /** Records of a hub's connections, signed by it: kept, in case it is the active hub of this hub's group when it goes (R-B4). */
  keep(hubId: string, connectionId: string, payload: Buffer): void {
    const data = payload.length > 0 ? parseJson(payload) : undefined;
    const kept = this.recordsOf.get(hubId) ?? new Map<string, [string, Json][]>();
    this.recordsOf.set(hubId, kept);
    if (data) kept.set(connectionId, Object.entries(data) as [string, Json][]);
    else kept.delete(connectionId);
  }

  /** The records `owner` published of its connections: what a takeover from it starts from. */
  recordsOfHub(owner: string | undefined): Map<string, [string, Json][]> {
    return new Map(owner === undefined ? [] : this.recordsOf.get(owner));
  }

  /** The hubs whose records say they are active in a later epoch than this hub knows, not confirmed yet. */
  unconfirmedActive(): string[] {
    return [...this.unconfirmed].filter(([, record]) => record.role === 'active').map(([hubId]) => hubId);
  }

  /** The broker sessions of the other hubs of the group that are here: a renewal names them, bound to each. */
  sessions(isPeer: (hubId: string) => boolean): Record<string, string> {
    const sessions: Record<string, string> = {};
    for (const [hubId, other] of this.others)
      if (other.online && other.session && (isPeer(hubId) || this.unconfirmed.has(hubId))) sessions[hubId] = other.session;
    return sessions;
  }
}
