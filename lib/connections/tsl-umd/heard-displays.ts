/**
 * The displays a receiver made from what it heard, by when each was heard last and from which
 * address: which one may give its place to a display heard for the first time when
 * `maxDisplays` are shown. Without it, a sender that named a thousand displays once filled the
 * table until a restart, and the mixer's own were never shown. A display quiet for
 * `forgetAfter` gives way first; else, one of the address that holds the most displays, when
 * it holds more than the asking address would with this one, so a flood that keeps naming
 * thousands cannot keep another source's displays out (two datagrams naming 2,500 did).
 * Listed displays are never here.
 */
export class HeardDisplays {
  /** By key, when heard last and from where; oldest first (a display heard again moves to the end). */
  private readonly heardAt = new Map<string, { readonly at: number; readonly source: string }>();
  /** Displays here, by the address heard last for each. */
  private readonly held = new Map<string, number>();

  constructor(
    private readonly now: () => number,
    private readonly forgetAfter: number,
  ) {}

  heard(key: string, source: string): void {
    this.forget(key);
    this.heardAt.set(key, { at: this.now(), source });
    this.held.set(source, (this.held.get(source) ?? 0) + 1);
  }

  /**
   * The display to forget so that `source` may show a new one: the one heard longest ago if it
   * is quiet for `forgetAfter`, else the oldest of the address holding the most, if that holds
   * more than `source` would; undefined when none gives way.
   */
  takeFor(source: string): string | undefined {
    const [oldest, first] = this.heardAt.entries().next().value ?? [];
    if (oldest !== undefined && first && this.now() - first.at >= this.forgetAfter) return this.taken(oldest);
    let most: string | undefined;
    for (const [holder, count] of this.held) if (most === undefined || count > (this.held.get(most) ?? 0)) most = holder;
    if (most === undefined || most === source || (this.held.get(most) ?? 0) <= (this.held.get(source) ?? 0) + 1) return undefined;
    for (const [key, heard] of this.heardAt) if (heard.source === most) return this.taken(key);
    return undefined;
  }

  private taken(key: string): string {
    this.forget(key);
    return key;
  }

  private forget(key: string): void {
    const was = this.heardAt.get(key);
    if (!was) return;
    this.heardAt.delete(key);
    const left = (this.held.get(was.source) ?? 1) - 1;
    if (left > 0) this.held.set(was.source, left);
    else this.held.delete(was.source);
  }
}
