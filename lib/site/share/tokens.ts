/**
 * Fencing tokens on what the hubs of a redundancy group send one another (R-EG2, R-B3): the
 * active hub's values and bursts carry its lease's epoch (on etcd, the election's revision;
 * on a pair, the epoch its claim won), and a forwarded write carries the highest epoch the
 * writer knows of the owner's group. Every hub keeps the highest token it has seen of each
 * group — from role records, tokens on messages and, for its own group, what its election
 * or vote told it — and refuses a message whose token is lower: a driver that lost the role
 * (paused, cut off, or on a link that delivered late) changes no value anywhere once a later
 * one is known. One piece for pairs and groups on etcd alike: both fence with the epoch.
 *
 * A message without a token is not fenced: a standby's own connections, and hubs in no group,
 * send none.
 */
import type { GroupDirectory } from '../group/directory.ts';
import type { RedundancyGroup } from '../group/group.ts';

export class Tokens {
  private readonly highest = new Map<string, number>();
  /** Messages refused for a token lower than one seen, since the start: a metric. */
  refused = 0;

  constructor(
    private readonly hubGroup: string | undefined,
    private readonly directory: GroupDirectory,
    /** This hub's group (its epoch and role), when it is in one. */
    private readonly group: () => RedundancyGroup | undefined,
  ) {}

  /** The token a message carries (a user property, or a burst's field); undefined when none, or not a whole number. */
  static read(token: unknown): number | undefined {
    if ((typeof token !== 'string' || !/^\d{1,16}$/.test(token)) && typeof token !== 'number') return undefined;
    const value = Number(token);
    return Number.isSafeInteger(value) ? value : undefined;
  }

  /** The highest token seen of a group: its hubs' role records, the tokens taken, and this hub's own knowledge of its group. */
  highestOf(group: string): number {
    const own = group === this.hubGroup ? (this.group()?.highestEpoch() ?? 0) : 0;
    return Math.max(this.highest.get(group) ?? 0, own);
  }

  /** The token this hub's values carry: its lease's epoch while it is the active hub of its group; none otherwise. */
  own(): number | undefined {
    const group = this.group();
    return group?.role() === 'active' ? group.token() : undefined;
  }

  /** The token a write forwarded to `owner` carries: the highest this hub knows of the owner's group; none when it is in none. */
  forWriteTo(owner: string): number | undefined {
    const group = this.directory.recordOf(owner)?.group;
    return group === undefined ? undefined : this.highestOf(group);
  }

  /** A role record heard: its epoch is a token of its group. */
  heard(group: string, epoch: number): void {
    if (epoch > (this.highest.get(group) ?? 0)) this.highest.set(group, epoch);
  }

  /**
   * Whether a message of `hubId` that carries `token` is taken: a token no lower than the
   * highest seen of its group is. Returns why it is refused (counted), or undefined. A higher
   * token does not raise what is seen: only role records (as the group's rules take them) and
   * this hub's own election or vote do, so that a message signed with a made-up token far
   * ahead holds nothing back.
   */
  check(hubId: string, token: number | undefined): string | undefined {
    const group = this.directory.recordOf(hubId)?.group;
    if (token === undefined || group === undefined) return undefined;
    const highest = this.highestOf(group);
    if (token < highest) {
      this.refused++;
      return `hub ${hubId} sent token ${token} of group ${group}, lower than ${highest} seen: a driver that lost the role`;
    }
    return undefined;
  }

  /**
   * Whether a write another hub forwarded to this one is made: refused when it carries a token
   * lower than the highest this hub knows of its group (it was meant for an earlier driver), or
   * while this hub is active with a lower one (a later driver exists, this hub is the stale one).
   */
  checkWrite(from: string, token: number | undefined): string | undefined {
    const group = this.group();
    if (token === undefined || group === undefined || this.hubGroup === undefined) return undefined;
    const highest = this.highestOf(this.hubGroup);
    if (token < highest) {
      this.refused++;
      return `hub ${from} forwarded it with token ${token}, lower than ${highest}: it was meant for an earlier driver of group ${this.hubGroup}`;
    }
    if (group.role() === 'active' && token > group.token()) {
      this.refused++;
      return `hub ${from} knows token ${token} of group ${this.hubGroup}, later than this hub's lease (${group.token()}): another hub drives`;
    }
    return undefined;
  }
}
