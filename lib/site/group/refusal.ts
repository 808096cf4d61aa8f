/**
 * The rules a role record naming this hub's group must pass to be taken (R-B1): it comes from
 * a member, it is not this hub's own sent by someone else, and its epoch is at most one
 * claim ahead of what this hub knows.
 */
import type { GroupHubSettings } from '../settings.ts';
import type { RoleRecord } from './record.ts';

/**
 * Why a role record that names this group is not taken (undefined when it is): it comes from
 * a hub that is not one of the group's members, it is this hub's own from before (someone
 * else put it there: `own`), or it says an epoch more than one step ahead of what this hub
 * knows (`unconfirmed`: taken once that hub's renewals say the same epoch). An epoch grows
 * one claim at a time; a hub that missed some, away, learns them from the hubs that are here.
 * In a group on etcd the epoch is the election's revision: it jumps, and is taken as it comes.
 */
export function refusalOf(
  hub: GroupHubSettings,
  /** The highest epoch this hub knows of. */
  epoch: number,
  hubId: string,
  record: RoleRecord,
  own: boolean,
): string | 'unconfirmed' | undefined {
  if (record.group !== hub.group) return undefined;
  const { members } = hub;
  if (members && !members.includes(hubId))
    return `hub ${hubId} is not a member of group ${hub.group} (${members.join(', ')}): its role record is ignored`;
  if (own) return "a role record of this hub's that it did not send: put back";
  // On etcd the epoch is the election's revision, which jumps; etcd confirms it, not the renewals (R-EG1).
  if (hub.coordinator === undefined && record.epoch > epoch + 1) return 'unconfirmed';
  return undefined;
}
