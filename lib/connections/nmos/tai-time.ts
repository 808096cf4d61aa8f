/**
 * NMOS times (`<seconds>:<nanoseconds>`, TAI): a resource's `version` and the timestamps of
 * IS-07 messages. Read from the hub's scheduler (milliseconds since the epoch, UTC) plus the
 * leap seconds TAI is ahead by. A resource's version must change whenever it does, also
 * twice within one millisecond: `Versions` hands out times that only move forward.
 */

/** TAI − UTC since 2017-01-01, and until the next leap second is announced. */
const TAI_AHEAD_S = 37;

/** `ms` since the epoch (UTC) as a TAI timestamp. */
export function taiOf(ms: number, extraNanoseconds = 0): string {
  const whole = Math.floor(ms);
  const seconds = Math.floor(whole / 1000) + TAI_AHEAD_S;
  const nanoseconds = (whole % 1000) * 1_000_000 + Math.floor((ms - whole) * 1_000_000) + extraNanoseconds;
  return `${seconds}:${nanoseconds}`;
}

/** Versions that always advance: a later call never gives a time at or before an earlier one's. */
export class Versions {
  private lastMs = Number.NEGATIVE_INFINITY;
  private within = 0;

  constructor(private readonly now: () => number) {}

  next(): string {
    const ms = Math.floor(this.now());
    if (ms > this.lastMs) {
      this.lastMs = ms;
      this.within = 0;
    } else this.within++;
    return taiOf(this.lastMs, this.within);
  }
}

/** A TAI timestamp as milliseconds since the epoch (UTC): the inverse of `taiOf`, to a millisecond. */
export function msOfTai(tai: string): number {
  const [seconds = '0', nanoseconds = '0'] = tai.split(':');
  return (Number(seconds) - TAI_AHEAD_S) * 1000 + Number(nanoseconds) / 1_000_000;
}

/** A TAI duration (`<seconds>:<nanoseconds>`, as a relative activation asks) in milliseconds. */
export function msOfDuration(tai: string): number {
  const [seconds = '0', nanoseconds = '0'] = tai.split(':');
  return Number(seconds) * 1000 + Number(nanoseconds) / 1_000_000;
}
