/**
 * A hub's side of the vote (R-AV2). Every `ASK_EVERY_MS` it asks every voter of its group,
 * itself included:
 *
 * - the holder renews its epoch, and holds the lease while a majority granted one of its
 *   rounds: until that round was *sent* plus `LEASE_MS` less `DRIFT_MARGIN_MS` (voter.ts says
 *   why that keeps two holders apart);
 * - the others only ask who holds it (`probe`), and claim the next epoch only when no voter
 *   has named another holder for two rounds (a voter names the holder while its grant runs,
 *   a lease after the holder's last renewal it heard) — so the role moves only when the holder is
 *   gone from a majority, never because one link or the witness failed — and then after a
 *   wait by their rank among the hubs that may take it (the group's members in order, less
 *   the holder that went: a standby alone takes over at once) and a random part, so that two
 *   hubs starting together do not split the votes for ever. A claim also needs a majority of
 *   voters heard since, naming no holder: a hub woken from a pause hears who holds first;
 * - a hub an operator asked to take over claims at every round for a while (`claimFor`),
 *   and the holder that heard of it gives its grants back (`release`) and claims nothing
 *   meanwhile (`standAside`).
 *
 * A round's answers count only for that round, so an answer played back or delayed from
 * another round counts for nothing. Pure: time is passed in, `send` carries a request to a
 * voter, `random` draws the waits.
 */
import { ClaimWait } from './claim-wait.ts';
import { ASK_EVERY_MS, DRIFT_MARGIN_MS, LEASE_MS, type VoteAnswer, type VoteRequest } from './voter.ts';

/** Rounds whose answers are still taken: a round older than a lease can no longer extend it. */
const OPEN_ROUNDS = Math.ceil(LEASE_MS / ASK_EVERY_MS) + 1;

export interface Round {
  readonly n: number;
  readonly epoch: number;
  readonly sentAt: number;
  readonly granted: Set<string>;
}

export interface CandidateOptions {
  /** The group's hubs in order: who claims first when none holds (the first that is not the holder that went). */
  readonly members: readonly string[];
  /** A number in [0, 1): Math.random, or a seeded source in a spec. */
  readonly random?: () => number;
}

export class Candidate {
  private next = 0;
  private readonly rounds: Round[] = [];
  /** The epoch of the lease and the time (this hub's clock) it holds until; until 0: not held. */
  private held = { epoch: 0, until: 0 };
  /** The highest epoch any voter said it promised. */
  private seen = 0;
  /** When it may claim (claim-wait.ts). */
  private readonly wait: ClaimWait;
  /** The epoch of its last claim: claimed again while no voter refused it or named another holder, so that a lost answer spends no epoch. */
  private claiming = 0;
  /** Set once a voter refused `claiming` for a promise at or past it, or named another holder: the next claim asks for more. */
  private claimSpent = false;
  /**
   * Set while it holds the lease and a voter refused it because it promised that epoch (or a
   * later one) to another hub — two hubs that claimed one epoch together, one winning with the
   * others' votes: the holder then renews with the next epoch, so that every voter can grant it
   * again and losing any one other voter does not take it off air.
   */
  private behind = false;
  /** What each voter answered last, for the status of the group (which voters this hub reaches). */
  readonly lastAnswer = new Map<string, { readonly at: number; readonly answer: VoteAnswer }>();

  constructor(
    readonly id: string,
    readonly voters: readonly string[],
    private readonly send: (voter: string, request: VoteRequest & { readonly n: number }) => void,
    options: CandidateOptions = { members: [id] },
  ) {
    this.wait = new ClaimWait(id, options.members, options.random ?? Math.random);
  }

  get majority(): number {
    return Math.floor(this.voters.length / 2) + 1;
  }

  /** The highest epoch heard of: a claim asks for one more. */
  get highestEpoch(): number {
    return Math.max(this.seen, this.held.epoch);
  }

  /** The epoch held, and until when (this hub's clock), while it holds at `now`. */
  lease(now: number): { readonly epoch: number; readonly until: number } | undefined {
    return now < this.held.until ? this.held : undefined;
  }

  /** The hub a voter named as holder within the last lease, if not this one. */
  holderSeen(now: number): string | undefined {
    return this.wait.holderSeen(now);
  }

  /** A round: renew, watch, or claim (see the header). `claims` false: never claim (a manual group waiting for its operator). */
  tick(now: number, claims = true): void {
    const held = this.lease(now);
    if (held) {
      this.wait.holding(now);
      return void this.ask(this.behind ? this.highestEpoch + 1 : held.epoch, now);
    }
    if (this.wait.claimsNow(now, claims, this.majority)) return void this.ask(this.claimEpoch(), now);
    this.ask(this.highestEpoch, now, true);
  }

  /** The epoch to claim: the one claimed last while no voter said a later one, else one past the highest heard of. */
  private claimEpoch(): number {
    if (this.claiming <= this.held.epoch || this.claimSpent || this.seen > this.claiming) {
      this.claiming = this.highestEpoch + 1;
      this.claimSpent = false;
    }
    return this.claiming;
  }

  /**
   * The hub `hub` says it no longer holds (it stood down, or stops): a voter's naming of it
   * no longer holds this hub back, nor does standing aside. Only the wait changes: the
   * voters still grant no one while its grants run, unless it gave them back.
   */
  holderGone(hub: string): void {
    this.wait.holderGone(hub);
  }

  /** Claims at every round for `ms`, whoever holds (an operator's failover): the voters still grant only once the holder's grants ran out. */
  claimFor(now: number, ms: number): void {
    this.wait.claimFor(now, ms);
  }

  /** Ends the lease here and claims nothing for `ms`: another hub was asked to take over. */
  standAside(now: number, ms: number): void {
    this.end();
    this.wait.standAside(now, ms);
  }

  /** Claims the next epoch now (an operator's failover), whoever holds it: the voters still refuse while a grant runs. */
  claim(now: number): number {
    return this.ask(this.claimEpoch(), now);
  }

  /** Asks every voter for `epoch` (to renew or claim), only who holds it (`probe`), or to free its grant (`release`); the round's number. */
  ask(epoch: number, now: number, probe = false, release = false): number {
    const round: Round = { n: this.next++, epoch, sentAt: now, granted: new Set() };
    if (!probe && !release) {
      this.rounds.push(round);
      if (this.rounds.length > OPEN_ROUNDS) this.rounds.shift();
    }
    const kind = probe ? { probe } : release ? { release } : {};
    for (const voter of this.voters) this.send(voter, { n: round.n, candidate: this.id, epoch, ...kind });
    return round.n;
  }

  /** A voter's answer to round `n`; the lease as it holds now, if it does. */
  answered(voter: string, n: number, answer: VoteAnswer, now: number): { readonly epoch: number; readonly until: number } | undefined {
    if (!this.voters.includes(voter)) return this.lease(now);
    this.lastAnswer.set(voter, { at: now, answer });
    this.seen = Math.max(this.seen, answer.epoch);
    const namesOther = !answer.granted && answer.holder !== undefined && answer.holder !== this.id;
    this.wait.heard(voter, namesOther ? answer.holder : undefined, now);
    if (namesOther) this.claimSpent = true;
    const lease = this.lease(now);
    const round = this.rounds.find((open) => open.n === n);
    // A renewal refused for an epoch promised past it (not a probe's answer, which refuses every time).
    if (lease && round && !answer.granted && answer.epoch >= lease.epoch && answer.holder !== this.id) this.behind = true;
    // A claim refused for a promise of its epoch or a later one: that epoch is another hub's.
    if (round && round.epoch === this.claiming && !answer.granted && answer.epoch >= round.epoch) this.claimSpent = true;
    if (!round || !answer.granted || answer.epoch !== round.epoch) return this.lease(now);
    round.granted.add(voter);
    if (round.granted.size >= this.majority) {
      const until = round.sentAt + LEASE_MS - DRIFT_MARGIN_MS;
      // A later epoch replaces the lease; the same one only grows (a slow answer of an old round never shortens it).
      if (round.epoch > this.held.epoch) this.behind = false;
      if (round.epoch > this.held.epoch || (round.epoch === this.held.epoch && until > this.held.until))
        this.held = { epoch: round.epoch, until };
    }
    return this.lease(now);
  }

  /** Ends the lease here at once (standing down): no round asked before counts any more. */
  end(): void {
    this.held = { epoch: this.held.epoch, until: 0 };
    this.rounds.length = 0;
  }

  /**
   * Gives the lease back to every voter, so that another hub is granted it at once rather
   * than when its grants run out. Call only once this hub drives nothing (its lease ended
   * here): the voters free their grants as they read this.
   */
  release(now: number): void {
    const { epoch } = this.held;
    this.end();
    if (epoch > 0) this.ask(epoch, now, false, true);
  }
}
