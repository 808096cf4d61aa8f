/**
 * Who may drive is decided by a majority of a group's voters (R-AV2), never by one part: each
 * hub of the group is a voter, and with two hubs a witness is the third. A hub drives while a
 * majority of voters grant it the lease for its epoch; each grant runs `LEASE_MS` on the
 * voter's own clock from when the voter took the request, and a voter grants no other hub
 * until the grant it gave ran out. The hub counts its lease from when it *sent* the request,
 * a little shorter (`DRIFT_MARGIN_MS`): its lease has ended before any voter it counted can
 * grant another, so two majorities never hold at once — whatever happened to the messages,
 * and however long a hub was paused (it reads its lease by its clock before every write).
 *
 * This file is the voter's rule, pure: time is passed in (monotonic milliseconds), and what
 * it promised is handed to `keep` so that a restarted voter does not promise an epoch twice.
 */

/** How long a grant lasts on the voter's clock. */
export const LEASE_MS = 1000;
/** What a candidate takes off its lease for clocks that run at different rates (10 %) and the time a request takes to be read. */
export const DRIFT_MARGIN_MS = 100;
/** How often a candidate asks: five rounds a lease, so that a lost datagram or two costs nothing. */
export const ASK_EVERY_MS = 200;

/** What a voter keeps across its restarts: the highest epoch it promised, and to whom. */
export interface Pledge {
  readonly epoch: number;
  readonly candidate: string;
}

export interface VoteRequest {
  /** The hub that asks to hold the lease. */
  readonly candidate: string;
  /** The epoch it asks for: the one it holds (a renewal), or a later one (a claim). */
  readonly epoch: number;
  /** Asks only who holds the lease: nothing is granted or promised (a standby watching). */
  readonly probe?: boolean;
  /** Gives back the grant of `epoch` (a hub that stood down or stops): the voter may grant another at once. */
  readonly release?: boolean;
}

export type VoteAnswer =
  | { readonly granted: true; readonly epoch: number }
  | {
      readonly granted: false;
      /** The highest epoch this voter promised: a later claim must ask for more. */
      readonly epoch: number;
      /** The hub its grant is with, while the grant runs. */
      readonly holder: string | undefined;
      readonly reason: string;
    };

export class Voter {
  private promised: Pledge;
  /** The running grant: to the promised candidate, until this time (the voter's clock). */
  private until = 0;
  /** A voter that (re)started may have granted a lease it no longer knows runs: it grants no other hub until this time. */
  private readonly quietUntil: number;

  constructor(
    readonly id: string,
    kept: Pledge | undefined,
    now: number,
    private readonly keep: (promised: Pledge) => void = () => {},
  ) {
    this.promised = kept ?? { epoch: 0, candidate: '' };
    // Whether or not a promise was kept: the last one may not have reached the disk before a kill.
    this.quietUntil = now + LEASE_MS;
  }

  /** The highest epoch promised, and to whom. */
  get promise(): Pledge {
    return this.promised;
  }

  /** The hub whose grant runs now, if any. */
  holder(now: number): string | undefined {
    return now < this.until ? this.promised.candidate : undefined;
  }

  ask({ candidate, epoch, probe, release }: VoteRequest, now: number): VoteAnswer {
    const { promised } = this;
    const refuse = (reason: string): VoteAnswer => ({ granted: false, epoch: promised.epoch, holder: this.holder(now), reason });
    if (probe) return refuse('asked who holds it');
    if (release) {
      this.release(candidate, epoch);
      return refuse('given back');
    }
    const same = candidate === promised.candidate;
    if (epoch < promised.epoch) return refuse(`epoch ${epoch} is behind ${promised.epoch}`);
    // An epoch is one hub's: a claim of an epoch promised to another asks for the next.
    if (epoch === promised.epoch && !same && promised.epoch > 0) return refuse(`epoch ${epoch} is promised to hub ${promised.candidate}`);
    if (!same && now < this.until) return refuse(`its grant to hub ${promised.candidate} runs ${Math.ceil(this.until - now)} ms more`);
    if (!same && now < this.quietUntil) return refuse('it restarted and waits out any grant it may have given');
    if (epoch !== promised.epoch || !same) {
      this.promised = { epoch, candidate };
      this.keep(this.promised);
    }
    this.until = now + LEASE_MS;
    return { granted: true, epoch };
  }

  /** A hub that stands down gives its grant back: the voter may grant another at once. */
  release(candidate: string, epoch: number): void {
    if (candidate === this.promised.candidate && epoch === this.promised.epoch) this.until = 0;
  }
}
