/**
 * The group's lease from its voters (R-AV1, R-AV2), when `hub.voters` lists them: this hub
 * votes on a UDP port of its own and asks the voters every round, and after each round or
 * answer takes over, renews or stands down as the majority says. What it keeps of the vote in
 * the records (its pledge, the last request taken from each voter) is read back here too.
 */
import { performance } from 'node:perf_hooks';
import { type Observable, Subject, type Subscription } from 'rxjs';
import { every, ok, type Result, type Json } from '../../sdk/index.ts';
import type { SiteContext } from '../hub-port.ts';
import { Candidate } from '../vote/candidate.ts';
import { ASK_EVERY_MS } from '../vote/voter.ts';
import { type Dropped, VoteEndpoint } from '../vote/endpoint.ts';
import { LEASE_MS as VOTE_LEASE_MS, type Pledge, Voter } from '../vote/voter.ts';
import { type Stamp, voteKey } from '../vote/wire.ts';
import type { BrokerLink } from '../../broker/broker-link.ts';
import type { GroupHubSettings } from '../settings.ts';
import { nextStart } from '../../broker/signing.ts';
import type { Roles } from './roles.ts';
import { FAILOVER_MS } from './timing.ts';

export interface Vote {
  readonly candidate: Candidate;
  readonly endpoint: VoteEndpoint;
  readonly rounds: Subscription;
  readonly keeping: Subscription;
  readonly dropped: Record<Dropped, number>;
}

export class Voting {
  /**
   * The group's vote, when `hub.voters` lists its voters (R-AV1, R-AV2): the lease comes from a
   * majority of them over UDP, and the broker carries only roles, values and records.
   */
  vote: Vote | undefined;
  private readonly changed = new Subject<void>();
  /** Emits after a round or an answer that left this hub's role as it was: who is active may show differently. */
  readonly changed$: Observable<void> = this.changed.asObservable();
  /** An operator asked this hub to take over (a manual group's failover), until it holds the lease. */
  private operatorAsked = false;
  /** With voters: until when the takeover an operator asked of this hub may take (`performance.now()`); 0 when none was asked. */
  private failoverUntil = 0;

  constructor(
    private readonly context: SiteContext,
    private readonly hub: GroupHubSettings,
    private readonly link: BrokerLink,
    private readonly roles: Roles,
  ) {}

  /** With `hub.voters`: votes on a UDP port of its own, and asks the voters every round. Rejects when its port cannot be had. */
  async startVoting(siteKey: Buffer): Promise<void> {
    const voters = this.hub.voters;
    const own = voters?.[this.hub.id];
    if (!voters || !own) return;
    const { records, log } = this.context;
    const start = nextStart(records.get('vote start'));
    records.set('vote start', start);
    const voter = new Voter(this.hub.id, readPledge(records.get('vote pledge')), performance.now(), (pledge) =>
      records.set('vote pledge', { ...pledge }),
    );
    const taken: Record<string, Stamp> = readTaken(records.get('vote taken'));
    let takenChanged = false;
    const dropped: Record<Dropped, number> = { unsigned: 0, malformed: 0, stranger: 0, replayed: 0 };
    let candidate: Candidate | undefined;
    const endpoint = await VoteEndpoint.open({
      id: this.hub.id,
      group: this.hub.group,
      key: voteKey(siteKey),
      listen: own,
      voters,
      voter,
      start,
      lastTaken: taken,
      keepTaken: (sender, stamp) => {
        taken[sender] = stamp;
        takenChanged = true;
      },
      answered: (from, n, answer) => {
        candidate?.answered(from, n, answer, performance.now());
        this.voteChanged();
      },
      dropped: (why, from) => {
        dropped[why] += 1;
        if (dropped[why] === 1 || dropped[why] % 1000 === 0)
          log.warn(`a vote not taken (${why}${from ? `, from ${from}` : ''}): ${dropped[why]} so far`);
      },
    });
    const members = this.hub.members ?? [this.hub.id];
    candidate = new Candidate(this.hub.id, Object.keys(voters), (to, request) => endpoint.ask(to, request), { members });
    const voting = candidate;
    const rounds = every(this.context.scheduler, ASK_EVERY_MS, () => {
      voting.tick(performance.now(), this.mayClaim());
      this.voteChanged();
    });
    // What was taken from each voter is kept a second apart: the state folder is not written at every round.
    const keeping = every(this.context.scheduler, VOTE_LEASE_MS, () => {
      if (!takenChanged) return;
      takenChanged = false;
      records.set('vote taken', Object.fromEntries(Object.entries(taken).map(([sender, { start, n }]) => [sender, { start, n }])));
    });
    this.vote = { candidate: voting, endpoint, rounds, keeping, dropped };
    log.info(`votes on ${own.host}:${endpoint.port}/udp in group ${this.hub.group}, with ${Object.keys(voters).join(', ')}`);
  }

  stopVoting(): void {
    const vote = this.vote;
    if (!vote) return;
    vote.rounds.unsubscribe();
    vote.keeping.unsubscribe();
    vote.candidate.end();
    void vote.endpoint.close();
  }

  /** `POST /failover` on a standby of a group with voters (its vote running): it asks the voters for the lease. */
  failover(): Result<string> {
    // The active hub stands down on hearing the claim and gives its grants back; this hub claims at every round meanwhile.
    this.operatorAsked = true;
    this.failoverUntil = performance.now() + FAILOVER_MS;
    this.vote!.candidate.claimFor(performance.now(), FAILOVER_MS);
    this.roles.publishRecord('active', this.roles.epoch + 1);
    this.context.log.warn(
      `asks to take over group ${this.hub.group} (epoch ${this.roles.epoch + 1}): the active hub stands down, then the voters decide`,
    );
    return ok(
      `hub ${this.hub.id} asks the voters for the lease as epoch ${this.roles.epoch + 1}: it is active once ${this.context.id}/_hub/role says so`,
    );
  }

  /** Whether this hub may claim the lease when no voter names a holder: always in an auto group; in a manual one, at the first start, at an operator's word, or to take back its own lapse. */
  private mayClaim(): boolean {
    if (this.hub.failover === 'auto' || this.roles.epoch === 0 || this.operatorAsked) return true;
    if (this.roles.ownLapse) return true;
    this.roles.sayWaiting(`no hub of group ${this.hub.group} is active: failover is manual, POST /failover on a standby takes over`);
    return false;
  }

  /** After a round or an answer: takes over, renews, or stands down, as the majority says. */
  private voteChanged(): void {
    const vote = this.vote;
    if (!vote || this.roles.stopped) return;
    const now = performance.now();
    const lease = vote.candidate.lease(now);
    if (this.failoverUntil > 0 && (lease || now >= this.failoverUntil)) {
      this.failoverUntil = 0;
      if (!lease) {
        // Said again as a standby: its claim record would otherwise stand on the broker.
        this.operatorAsked = false;
        if (this.link.up) this.roles.publishRecord('standby', this.roles.epoch);
        const holder = vote.candidate.holderSeen(now);
        this.context.log.warn(
          `the takeover asked of hub ${this.hub.id} did not take within ${FAILOVER_MS / 1000} s${holder ? `: hub ${holder} holds the lease` : ''}`,
        );
      }
    }
    if (lease) {
      this.operatorAsked = false;
      this.roles.waitingOver();
      if (this.roles.current !== 'active') {
        const holder = this.roles.holder();
        return this.roles.becomeActive(
          lease.epoch,
          lease.until,
          holder === this.hub.id ? this.roles.lastHolder : (holder ?? this.roles.lastHolder),
        );
      }
      const fence = this.context.hub.redundancy.lease;
      if (lease.epoch !== fence.epoch) {
        this.roles.learnEpoch(lease.epoch);
        this.roles.parameters.epoch.report(lease.epoch);
        if (this.link.up) this.roles.publishRecord('active', lease.epoch);
      }
      fence.grant(lease.epoch, lease.until);
    } else if (this.roles.current === 'active') {
      this.roles.lapse(`its lease ended: a majority of the voters did not renew it for ${VOTE_LEASE_MS / 1000} s`);
    }
    const reached = Object.entries(this.votersReached())
      .filter(([, voter]) => voter.reached)
      .map(([id]) => id)
      .join(' ');
    if (this.roles.parameters.voters?.value !== reached) this.roles.parameters.voters?.report(reached);
    this.changed.next();
  }

  /** Which voters this hub heard from within a lease, and whether each granted it the last time. */
  votersReached(): Record<string, { reached: boolean; granted: boolean }> {
    const now = performance.now();
    const reached: Record<string, { reached: boolean; granted: boolean }> = {};
    for (const voter of this.vote?.candidate.voters ?? []) {
      const last = this.vote?.candidate.lastAnswer.get(voter);
      const heard = last !== undefined && now - last.at < VOTE_LEASE_MS;
      // A grant counts while its voter answers: one not heard for a lease grants nothing any more.
      reached[voter] = { reached: heard, granted: heard && last?.answer.granted === true };
    }
    return reached;
  }
}

/** A voter's promise as kept in the records, when it reads as one. */
function readPledge(kept: Json | undefined): Pledge | undefined {
  const pledge = kept as Partial<Pledge> | undefined;
  return typeof pledge?.candidate === 'string' && Number.isSafeInteger(pledge.epoch)
    ? { candidate: pledge.candidate, epoch: pledge.epoch as number }
    : undefined;
}

/** The last vote request taken from each voter, as kept in the records. */
function readTaken(kept: Json | undefined): Record<string, Stamp> {
  const taken: Record<string, Stamp> = {};
  if (typeof kept !== 'object' || kept === null || Array.isArray(kept)) return taken;
  for (const [sender, stamp] of Object.entries(kept)) {
    const { start, n } = (stamp ?? {}) as Partial<Stamp>;
    if (Number.isSafeInteger(start) && Number.isSafeInteger(n)) taken[sender] = { start: start as number, n: n as number };
  }
  return taken;
}
