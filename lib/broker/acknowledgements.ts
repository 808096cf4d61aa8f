/**
 * What the broker has acknowledged of what a link published (QoS 1 and 2), and who waits for
 * it: an active hub answers a write once the broker has it, so that a standby taking over
 * has it too (R-B2).
 */
export class Acknowledgements {
  private issued = 0;
  /** The link's session: an acknowledgement of a session before is no longer counted. */
  private session = 0;
  private readonly unacknowledged = new Set<number>();
  private waiters: { readonly through: number; readonly done: (acknowledged: boolean) => void }[] = [];

  /** A message handed to the client: returns what to call when the broker acknowledged it. */
  expect(): () => void {
    const seq = ++this.issued;
    const session = this.session;
    this.unacknowledged.add(seq);
    return () => {
      if (session !== this.session) return;
      this.unacknowledged.delete(seq);
      this.settle();
    };
  }

  /** Calls `done(true)` once every message so far is acknowledged; at once with `up` when none waits. */
  whenAll(done: (acknowledged: boolean) => void, up: boolean): void {
    if (this.unacknowledged.size === 0) return done(up);
    this.waiters.push({ through: this.issued, done });
  }

  /** The link closed: whatever was not acknowledged may be lost, and the next session counts afresh. */
  dropAll(): void {
    this.session++;
    this.unacknowledged.clear();
    for (const { done } of this.waiters.splice(0)) done(false);
  }

  private settle(): void {
    if (this.waiters.length === 0) return;
    // Sequence numbers only grow: the oldest one waiting is the first in the set.
    const oldest = this.unacknowledged.values().next().value ?? Number.POSITIVE_INFINITY;
    let settled = 0;
    while (settled < this.waiters.length && this.waiters[settled]!.through < oldest) settled++;
    for (const { done } of this.waiters.splice(0, settled)) done(true);
  }
}
