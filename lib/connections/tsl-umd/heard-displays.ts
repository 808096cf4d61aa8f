/**
 * The displays a receiver made from what it heard, by when each was heard last: which one may
 * give its place to a display heard for the first time when `maxDisplays` are shown. Without
 * it, a sender that named a thousand displays once filled the table until a restart, and the
 * mixer's own were never shown. Only a display quiet for `forgetAfter` gives way, so a flood
 * cannot push out displays a tally source keeps sending; listed displays are never here.
 */
export class HeardDisplays {
  /** By key, when heard last; oldest first (a display heard again moves to the end). */
  private readonly heardAt = new Map<string, number>();

  constructor(
    private readonly now: () => number,
    private readonly forgetAfter: number,
  ) {}

  heard(key: string): void {
    this.heardAt.delete(key);
    this.heardAt.set(key, this.now());
  }

  /** The display heard longest ago, if it has not been heard for `forgetAfter`: it is forgotten. */
  takeStale(): string | undefined {
    for (const [key, at] of this.heardAt) {
      if (this.now() - at < this.forgetAfter) return undefined;
      this.heardAt.delete(key);
      return key;
    }
    return undefined;
  }
}
