import type { Cause, CauseTracker } from '../core/cause.ts';

/** An address as the guard knows it: one object per address, so chains compare identities, not strings. */
export class Point {
  constructor(readonly address: string) {}
}

/**
 * Everything that follows synchronously from one change from outside the rules (a client,
 * a device, a timed step): the chains of one cascade share it.
 */
class Cascade {
  /** Rule writes of this cascade that came back to a point already on their chain. */
  returns = 0;
  /** Points of the loops cut in this cascade; later returns to them are dropped quietly. */
  cut: Set<Point> | undefined;
}

/** One point of a chain kept past its delivery, newest first: the cause of a queued write. */
class Snapshot {
  constructor(
    readonly point: Point,
    readonly rounds: number,
    readonly parent: Snapshot | undefined,
    readonly cascade: Cascade,
  ) {}
}

/** What a `resume` put aside, for `end` to put back. */
interface Segment {
  readonly start: number;
  readonly base: Snapshot | undefined;
  readonly cascade: Cascade | undefined;
}

/** A rule write that must not happen because it closes a feedback loop. */
export class Loop {
  /** A return to a loop already cut and reported in the same cascade: dropped without a word. */
  static readonly quiet = new Loop([], 0, false);

  constructor(
    /** The addresses of the loop, first and last the same: `a → b → a`. */
    readonly chain: readonly string[],
    /** How many times changes came back before the cut: the limit, or the cascade's budget. */
    readonly times: number,
    /** Cut because its cascade as a whole came back too often (loops that branch). */
    readonly branching: boolean,
  ) {}
}

/**
 * Cuts feedback loops among rules (R-R5) and nothing else. A rule write closes a loop when
 * it is caused, synchronously, by an earlier change of the same address: its chain of
 * causes comes back to where it was. Each address may come back `limit` times on one
 * chain; the write that would come back once more is cut and reported with the loop's
 * addresses, and its cascade drops further returns to that loop without a second report.
 * Changes from outside the rules start fresh chains, however many arrive in one turn, so a
 * burst of writes is never taken for a loop.
 *
 * The chain in effect is a stack of points: the engine calls `arrive` when a change
 * reaches its rules and `enter` before each rule write, and `leave` with the mark they
 * returned once the write is done. A change reached through something other than a rule
 * (a virtual-core function, a code flow writing from its subscription) arrives on top of
 * the chain of what it reacted to, because that reaction runs inside the delivery; so a
 * loop through it is cut at the next rule write that comes back, and shows in the chain.
 * Loops that wait between hops (`delay`, `debounce`) are not followed: the timed step
 * emits outside any delivery, on an empty chain, so they cannot hang the hub and are left
 * alone.
 *
 * Re-entrancy: a parameter that is notifying queues a write made to it meanwhile and
 * delivers it from its own delivery loop once the notification in progress is over, when
 * the writer and every write between it and that notification have returned. A loop always
 * closes that way — a → b → a writes `a` while `a` is still notifying — so were the chain
 * only the call stack, each round would be delivered as a fresh change, on the same short
 * stack as the first, and the loop would run for ever.
 * The guard is therefore the graph's cause tracker: the parameter `capture`s the chain
 * with the queued write (a snapshot of the stack, made only then) and `resume`s it around
 * the delivery, which runs as a new segment of the stack on top of the snapshot, hiding the
 * frames below, which are not its causes. The chain grows a → b → a → b … exactly as if
 * the delivery had been nested.
 *
 * A loop that branches (two rules feeding one address with values that never repeat)
 * doubles its chains every round, and since queued writes are delivered in order, breadth
 * first, their number explodes long before any one chain reaches the limit. So a cascade
 * also has a budget: `64 × limit` returns in all.
 *
 * Cost on the hot path, where chains are not loops: no allocation, and a walk down the
 * stack comparing identities to see whether the address is already on it.
 */
export class LoopGuard implements CauseTracker {
  private readonly budget: number;
  private readonly points = new Map<string, Point>();
  // The chain in effect: stack[0, depth), whose current segment [start, depth) continues
  // `base`; rounds[i] is how many times the chain had come back to stack[i] before it.
  private readonly stack: Point[] = [];
  private readonly rounds: number[] = [];
  // Snapshots already made of stack[i] (valid while that frame stands), so many queued
  // writes from one frame share one.
  private readonly snapshots: (Snapshot | undefined)[] = [];
  private depth = 0;
  private start = 0;
  private base: Snapshot | undefined;
  private cascade: Cascade | undefined;
  private readonly suspended: Segment[] = [];

  constructor(readonly limit: number) {
    this.budget = 64 * limit;
  }

  /** The point of `address`, the same object every time. */
  point(address: string): Point {
    let point = this.points.get(address);
    if (!point) this.points.set(address, (point = new Point(address)));
    return point;
  }

  /** A change of `point` reaches the rules; returns the mark to `leave` with. */
  arrive(point: Point): number {
    const mark = this.depth;
    if ((mark > this.start ? this.stack[mark - 1] : this.base?.point) !== point) this.push(point, this.roundsBefore(point) + 1);
    return mark;
  }

  /**
   * A rule is about to write `point`. Returns the mark to `leave` with once the write is
   * done, or a `Loop` when the write closes a loop that must be cut.
   */
  enter(point: Point): number | Loop {
    const mark = this.depth;
    const before = this.roundsBefore(point);
    if (before >= 0) {
      const cascade = (this.cascade ??= new Cascade());
      if (cascade.cut?.has(point)) return Loop.quiet;
      if (before + 1 > this.limit) return this.cut(point, cascade, this.limit, false);
      if (++cascade.returns > this.budget) return this.cut(point, cascade, this.budget, true);
    }
    this.push(point, before + 1);
    return mark;
  }

  /** Takes the chain back to what it was when `arrive` or `enter` returned `mark`. */
  leave(mark: number): void {
    this.depth = mark;
  }

  capture(): Cause {
    if (this.depth === this.start) return this.base;
    const cascade = (this.cascade ??= new Cascade());
    let i = this.depth - 1;
    while (i >= this.start && this.snapshots[i] === undefined) i--;
    let snapshot = i >= this.start ? this.snapshots[i] : this.base;
    for (i++; i < this.depth; i++)
      this.snapshots[i] = snapshot = new Snapshot(this.stack[i] as Point, this.rounds[i] as number, snapshot, cascade);
    return snapshot;
  }

  resume(cause: Cause): void {
    this.suspended.push({ start: this.start, base: this.base, cascade: this.cascade });
    this.start = this.depth;
    this.base = cause instanceof Snapshot ? cause : undefined;
    this.cascade = this.base?.cascade;
  }

  end(): void {
    const outer = this.suspended.pop();
    if (!outer) return;
    this.depth = this.start;
    ({ start: this.start, base: this.base, cascade: this.cascade } = outer);
  }

  private push(point: Point, rounds: number): void {
    // An empty chain is a change from outside: a new cascade begins.
    if (this.depth === this.start && this.base === undefined) this.cascade = undefined;
    const i = this.depth++;
    this.stack[i] = point;
    this.rounds[i] = rounds;
    this.snapshots[i] = undefined;
  }

  /** How many times the chain had come back to `point` at its latest visit; -1 when it is not on the chain. */
  private roundsBefore(point: Point): number {
    for (let i = this.depth - 1; i >= this.start; i--) if (this.stack[i] === point) return this.rounds[i] as number;
    for (let s = this.base; s !== undefined; s = s.parent) if (s.point === point) return s.rounds;
    return -1;
  }

  /** Marks the loop that `point` closes as cut in `cascade`, and describes it from its latest visit of `point`. */
  private cut(point: Point, cascade: Cascade, times: number, branching: boolean): Loop {
    const loop = [point];
    let found = false;
    for (let i = this.depth - 1; i >= this.start && !found; i--) {
      loop.push(this.stack[i] as Point);
      found = this.stack[i] === point;
    }
    for (let s = this.base; s !== undefined && !found; s = s.parent) {
      loop.push(s.point);
      found = s.point === point;
    }
    cascade.cut ??= new Set();
    for (const p of loop) cascade.cut.add(p);
    return new Loop(
      loop.reverse().map((p) => p.address),
      times,
      branching,
    );
  }
}

/** What a cut loop is reported as: its chain of addresses and why it was cut. */
export function describeLoop({ chain, times, branching }: Loop): string {
  const path = chain.join(' → ');
  return branching
    ? `feedback loop cut: changes came back round their own chains ${times} times in all (loops that branch); chain ${path}`
    : `feedback loop cut: a change came back to ${chain[0]} ${times} times; chain ${path}`;
}
