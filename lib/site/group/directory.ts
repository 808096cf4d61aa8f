/**
 * Who holds each redundancy group's lease, as the role records on the broker say: the first
 * hub heard claiming an epoch wins it (the broker's order decides, the same for every hub),
 * and holds it until a later epoch is claimed or it says it stands down.
 */
import type { RoleRecord } from './record.ts';

/**
 * The role records of every hub on the broker, in the order heard: who holds each group's
 * lease. Every hub that shares keeps one, in a group or not: a hub of a group owns
 * connections only while it holds the lease (share/claims.ts asks `owns`).
 */
export class GroupDirectory {
  private readonly records = new Map<string, RoleRecord>();
  /** The first hub heard claiming each epoch of each group: the broker's order decides. */
  private readonly firstClaims = new Map<string, string>();

  /** A hub's record, signed by it, as the group's rules allow it; true when its group, role or epoch changed. */
  heard(hubId: string, record: RoleRecord): boolean {
    const before = this.records.get(hubId);
    this.records.set(hubId, record);
    const key = `${record.group} ${record.epoch}`;
    if (record.role === 'active' && !this.firstClaims.has(key)) this.firstClaims.set(key, hubId);
    return before === undefined || before.role !== record.role || before.epoch !== record.epoch || before.group !== record.group;
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
