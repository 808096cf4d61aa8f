/**
 * Taking the lease over the broker, in a group without voters (R-B3): when a standby claims
 * the next epoch (no hub holds the lease, or its holder is gone or silent; in a manual group
 * only at an operator's word or to take back its own lapse), whether its claim won (the first
 * of its epoch the broker passed on), and when it may drive devices (`FENCE_WAIT_MS` after
 * its claim came back, or at once when the hub that held the lease said it stood down).
 */
import { performance } from 'node:perf_hooks';
import { after } from '../../sdk/index.ts';
import type { SiteContext } from '../hub-port.ts';
import type { GroupHubSettings } from '../settings.ts';
import type { GroupDirectory } from './directory.ts';
import type { Renewals } from './renewals.ts';
import type { Roles } from './roles.ts';
import type { GroupRecords } from './records.ts';
import { FENCE_WAIT_MS } from './timing.ts';

export interface Claim {
  readonly epoch: number;
  /** The hub that held the lease when the claim went out, if any. */
  readonly previous: string | undefined;
  /** `performance.now()` when the claim came back as the first of its epoch. */
  wonAt: number | undefined;
}

export class Takeover {
  /** This hub's claim of the next epoch, from when it went out until it won and took over, or lost. */
  claim: Claim | undefined;

  constructor(
    private readonly context: SiteContext,
    private readonly hub: GroupHubSettings,
    private readonly directory: GroupDirectory,
    private readonly roles: Roles,
    private readonly renewals: Renewals,
    private readonly records: GroupRecords,
    /** True when the group has voters: then the vote decides, not the claims. */
    private readonly voted: boolean,
  ) {}

  /** Without voters: claims when no hub here holds the lease, or takes over once its claim won. */
  decide(): void {
    // With voters the vote decides (voting.ts, voteChanged): the broker's claims and renewals do not.
    if (this.voted) return;
    if (this.roles.current === 'active' || this.roles.upSince === undefined || this.roles.stopped) return;
    if (this.claim) return this.tryActivate();
    const holder = this.roles.holder();
    if (holder && holder !== this.hub.id && this.renewals.alive(holder)) return;
    // A hub that says it holds a later epoch than this one knows may, while it renews: its renewals confirm it soon.
    if (this.records.unconfirmedActive().some((hubId) => hubId !== this.hub.id && this.renewals.alive(hubId))) return;
    // No hub holds the lease: the first ever (epoch 0) is taken either way; later, "manual" waits for an operator,
    // unless this hub held it last and only lost it by its own lapse.
    if (this.hub.failover === 'manual' && this.roles.epoch > 0 && !this.roles.ownLapse) {
      this.roles.sayWaiting(
        `no hub of group ${this.hub.group} is active${holder ? ` (hub ${holder} is gone or silent)` : ''}: failover is manual, POST /failover on a standby takes over`,
      );
      return;
    }
    this.claimNext();
  }

  claimNext(): Claim {
    const holder = this.roles.holder();
    const epoch = this.roles.epoch + 1;
    const previous = holder === this.hub.id ? undefined : holder;
    const claim: Claim = { epoch, previous, wonAt: undefined };
    this.claim = claim;
    // The epoch is learnt when the claim comes back: one that never reaches the broker counts for nothing.
    this.context.log.warn(
      `claims the lease of group ${this.hub.group} (epoch ${epoch})${previous ? `, held by hub ${previous} until now` : ''}`,
    );
    this.roles.publishRecord('active', epoch);
    return claim;
  }

  /** Its own claim came back: won when no other hub's claim of the epoch came first. */
  claimCameBack(): void {
    const claim = this.claim!;
    const winner = this.directory.firstClaim(this.hub.group, claim.epoch);
    if (winner === this.hub.id) {
      claim.wonAt ??= performance.now();
      // Looked at again when the old lease has surely run out, not only at the next renewal.
      after(this.context.scheduler, FENCE_WAIT_MS, () => this.claim === claim && this.tryActivate());
      return this.tryActivate();
    }
    this.context.log.info(`hub ${winner} claimed epoch ${claim.epoch} first: stays standby`);
    this.claim = undefined;
    this.roles.publishRecord('standby', claim.epoch);
  }

  /**
   * Takes over once the old lease has surely run out: `FENCE_WAIT_MS` after the claim came
   * back, or at once when the hub that held it said it stood down for this claim.
   */
  private tryActivate(): void {
    const claim = this.claim;
    if (claim?.wonAt === undefined) return;
    if (this.roles.epoch > claim.epoch) {
      // A later epoch was claimed meanwhile (after a broker restart, say): that claim is the one that counts.
      this.context.log.info(`epoch ${this.roles.epoch} was claimed after this hub's claim of ${claim.epoch}: stays standby`);
      this.claim = undefined;
      this.roles.publishRecord('standby', this.roles.epoch);
      return;
    }
    const now = performance.now();
    // The hub that held the lease said it stands down (it ends its lease before it says so).
    const previous = claim.previous ?? this.roles.lastHolder;
    const stoodDown = previous !== undefined && this.directory.recordOf(previous)?.role === 'standby';
    if ((!stoodDown && now < claim.wonAt + FENCE_WAIT_MS) || this.renewals.acknowledgedUntil <= now) return;
    this.claim = undefined;
    this.roles.becomeActive(claim.epoch, this.renewals.acknowledgedUntil, previous);
  }
}
