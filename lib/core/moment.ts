/**
 * A moment something waits for — the hub running its rules, serving its clients — and the
 * work that waits for it: run at once once the moment has come, else when it comes. A moment
 * that passes (the rules stop for a reload) makes later work wait again.
 */
export class Moment {
  private come = false;
  private waiting: (() => void)[] = [];

  /** Whether the moment is here. */
  get here(): boolean {
    return this.come;
  }

  /** Runs `work` now when the moment is here, else once it comes. */
  when(work: () => void): void {
    if (this.come) work();
    else this.waiting.push(work);
  }

  /** The moment has come: what waited runs, in the order it was given. */
  arrive(): void {
    this.come = true;
    for (const work of this.waiting.splice(0)) work();
  }

  /** The moment has passed: work given from now waits for it to come again. */
  pass(): void {
    this.come = false;
  }
}
