/**
 * A bound on how many things a second are taken (datagrams, log lines): a count of what
 * someone else sends, read on the monotonic clock, not the hub's time (the scheduler's).
 */
export class PerSecond {
  private second = -1;
  private taken = 0;

  constructor(private readonly most: number) {}

  /** Takes one more: true while this second has room for it. */
  take(): boolean {
    const second = Math.floor(performance.now() / 1000);
    if (second !== this.second) {
      this.second = second;
      this.taken = 0;
    }
    return ++this.taken <= this.most;
  }

  /** Whether the last one refused was the first this second refused: the one to say. */
  get firstRefused(): boolean {
    return this.taken === this.most + 1;
  }
}
