/**
 * Who holds each redundancy group's lease, as the role records on the broker say: the first
 * hub heard claiming an epoch wins it (the broker's order decides, the same for every hub),
 * and holds it until a later epoch is claimed or it says it stands down.
 */
import type { RoleRecord } from './record.ts';
/**
 * The role records of every hub on the broker, in the order heard: who holds each group's
 * lease. Every hub that shares keeps one, in a group or not: a hub of a group owns
 * connections only while it holds the lease (site/claims.ts asks `owns`).
 */
export declare class GroupDirectory {
    private readonly records;
    /** The first hub heard claiming each epoch of each group: the broker's order decides. */
    private readonly firstClaims;
    /** A hub's record, signed by it, as the group's rules allow it (site/group-records.ts asks `RedundancyGroup.refusal`). */
    heard(hubId: string, record: RoleRecord): void;
    recordOf(hubId: string): RoleRecord | undefined;
    /** The hub heard first claiming this epoch of the group. */
    firstClaim(group: string, epoch: number): string | undefined;
    /** The hub that won the latest epoch claimed in the group and has not stood down since, if any. */
    holder(group: string): {
        readonly hubId: string;
        readonly epoch: number;
    } | undefined;
    /** True when the hub may own connections: it is in no group, or it holds its group's lease. */
    owns(hubId: string): boolean;
}
