/**
 * When a hub that does not hold the lease may claim it (R-AV2; candidate.ts's header says the
 * whole round): only once no voter has named another holder for two rounds, a majority of
 * voters heard since named none, and its wait ran out — by its rank among the hubs that may
 * take it (the group's members in order, less the holder that went) and a random part, so
 * that two hubs starting together do not split the votes for ever. An operator's takeover
 * (`claimFor`) claims at every round for a while; a hub that stood aside claims nothing for a
 * while. Pure: time is passed in, `random` draws the waits.
 */
import { ASK_EVERY_MS, LEASE_MS } from './voter.ts';

/** The wait before a claim, for each rank after the first. */
const RANK_WAIT_MS = 300;
/** The random part of the wait before a claim, at most. */
const RANDOM_WAIT_MS = 200;
/** How long a voter's naming of another holder counts: two rounds, so that one lost answer does not start a claim. */
const NAMED_FOR_MS = 2 * ASK_EVERY_MS;

export class ClaimWait {
  /** When a voter last named another hub as the holder, and which. */
  private otherHolder: { readonly hub: string; readonly at: number } | undefined;
  /** When this hub first found no holder, since it last knew one: its claim waits from then. */
  private noneSince: number | undefined;
  private claimAt: number | undefined;
  /**
   * The voters that answered since `noneSince` without naming a holder: a claim needs a
   * majority of them, so a hub that wakes from a pause hears who holds before it claims.
   */
  private readonly heardNone = new Set<string>();
  /** Until then it claims at every round, whoever holds: an operator asked it to take over. */
  private eagerUntil = 0;
  /** Until then it claims nothing: it stood down for another hub, or released the lease. */
  private asideUntil = 0;
  /** Its first round: a hub just started hears the voters for a lease before it may claim. */
  private startedAt: number | undefined;

  constructor(
    private readonly id: string,
    /** The group's hubs in order: who claims first when none holds (the first that is not the holder that went). */
    private readonly members: readonly string[],
    private readonly random: () => number,
  ) {}

  /** The hub a voter named as holder within the last lease, if not this one. */
  holderSeen(now: number): string | undefined {
    return this.otherHolder && now - this.otherHolder.at < NAMED_FOR_MS ? this.otherHolder.hub : undefined;
  }

  /**
   * Whether this round of a hub that holds nothing claims: at every round while an operator
   * asked it to, else once its wait ran out with a majority of `majority` voters heard naming
   * no holder. `claims` false: never (a manual group waiting for its operator).
   */
  claimsNow(now: number, claims: boolean, majority: number): boolean {
    this.startedAt ??= now;
    if (claims && now < this.eagerUntil && now >= this.asideUntil) return true;
    if (this.holderSeen(now) !== undefined) this.forgetNone();
    else if (this.noneSince === undefined) {
      this.noneSince = now;
      this.claimAt = Math.max(now, this.startedAt + LEASE_MS) + this.rank() * RANK_WAIT_MS + this.random() * RANDOM_WAIT_MS;
    }
    const heard = this.heardNone.size >= majority;
    if (!claims || !heard || now < this.asideUntil || this.claimAt === undefined || now < this.claimAt) return false;
    this.claimAt = now + ASK_EVERY_MS + this.random() * RANDOM_WAIT_MS * 2;
    return true;
  }

  /** A round of a hub that holds the lease: the wait starts over when it next holds nothing. */
  holding(now: number): void {
    this.startedAt ??= now;
    this.forgetNone();
  }

  /** A voter answered: naming `holder` (another hub), or naming none. */
  heard(voter: string, holder: string | undefined, now: number): void {
    if (holder !== undefined) this.otherHolder = { hub: holder, at: now };
    else if (this.noneSince !== undefined && now >= this.noneSince) this.heardNone.add(voter);
  }

  /** See `Candidate.holderGone`. */
  holderGone(hub: string): void {
    if (this.otherHolder?.hub === hub) this.otherHolder = undefined;
    // It stood aside for a hub that holds nothing now.
    this.asideUntil = 0;
  }

  /** Claims at every round for `ms`, whoever holds. */
  claimFor(now: number, ms: number): void {
    this.eagerUntil = now + ms;
    this.asideUntil = 0;
  }

  /** Claims nothing for `ms`. */
  standAside(now: number, ms: number): void {
    this.asideUntil = now + ms;
    this.eagerUntil = 0;
  }

  /** Its place among the members that may take the lease now: all of them, less the last holder a voter named. */
  private rank(): number {
    const takers = this.members.filter((member) => member !== this.otherHolder?.hub);
    const at = takers.indexOf(this.id);
    return at < 0 ? takers.length : at;
  }

  /** Starts over the wait for a claim: a holder is known again (or this hub holds). */
  private forgetNone(): void {
    this.noneSince = undefined;
    this.claimAt = undefined;
    this.heardNone.clear();
  }
}
