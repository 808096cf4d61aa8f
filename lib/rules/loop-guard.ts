import { type Cause, currentCause, swapCause } from '../core/cause.ts';

/**
 * Everything that follows synchronously from one change from outside the rules (a client,
 * a device, a timed step): the chains of one cascade share it.
 */
class Cascade {
  /** Rule writes of this cascade that came back to an address already on their chain. */
  returns = 0;
  /** Addresses of the loops cut in this cascade; later returns to them are dropped quietly. */
  cut: Set<string> | undefined;
}

/** One address on a chain of synchronous causes, newest first; the cause the guard sets. */
class Link {
  constructor(
    readonly address: string,
    readonly parent: Link | undefined,
    readonly cascade: Cascade,
    /** How many times the chain had come back to `address` before this visit. */
    readonly rounds: number,
  ) {}
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
    /** Cut because its cascade as a whole came back too often (a loop that branches). */
    readonly branching: boolean,
  ) {}
}

/**
 * Cuts feedback loops among rules (R-R5) and nothing else. A rule write is a loop when it
 * is caused, synchronously, by an earlier change of the same address: its chain of causes
 * comes back to where it was. Each address may come back `limit` times on one chain; the
 * write that would come back once more is cut, reported with the loop's addresses, and the
 * cascade it belongs to drops further returns to that loop without reporting them again.
 * Changes from outside the rules start fresh chains, however many arrive in one turn, so a
 * burst of writes is never mistaken for a loop.
 *
 * A chain is a list of links held as the current cause (`lib/core/cause.ts`): the engine
 * calls `arrive` when a change reaches its rules and `enter` before each rule write, and
 * puts the previous cause back with `leave` once the write returns.
 *
 * Why the chain survives re-entrancy: a parameter that is notifying queues a write made to
 * it meanwhile and delivers it after the notification in progress, from its own delivery
 * loop, once the writer has returned. A loop always closes that way: a → b → a writes `a`
 * while `a` is still notifying, so the second change of `a` leaves the call stack of the
 * write that made it. Were the chain only the call stack, that delivery would look like a
 * fresh change and the loop would run for ever, one round per queued value. The parameter
 * therefore keeps the cause current at the time of the write with the queued value and
 * restores it while delivering it: the chain grows a → b → a → b … exactly as if the
 * delivery had been nested, and the count of rounds grows with it.
 *
 * Links made by something other than a rule show too, because whatever reacts to a change
 * synchronously (a virtual-core function, a code flow writing another parameter from its
 * subscription) runs under the cause of that change: when its write reaches a rule source,
 * `arrive` adds the source to the chain. A loop through such a link is cut at the next rule
 * write that comes back. Loops that wait between hops (`delay`, `debounce`) start a fresh
 * chain on each hop, since the timed step emits outside any delivery: they cannot hang the
 * hub and are left alone.
 *
 * A loop that branches (two rules feeding back into one address with values that never
 * repeat) doubles its chains every round, and since queued writes are delivered in order,
 * breadth first, their number explodes long before any one chain reaches the limit. So a
 * cascade also has a budget: `64 × limit` returns in all.
 *
 * Cost on the hot path: one small object per rule write and a walk back along the chain
 * to look for the address, which for a chain that is not a loop is the chain's length.
 */
export class LoopGuard {
  private readonly budget: number;

  constructor(readonly limit: number) {
    this.budget = 64 * limit;
  }

  /**
   * A change of `address` reaches the rules. It continues the chain being delivered (or
   * starts one when it comes from outside); returns the cause to put back with `leave`.
   */
  arrive(address: string): Cause {
    const outer = currentCause();
    const parent = outer instanceof Link ? outer : undefined;
    if (parent?.address === address) return outer;
    const earlier = find(parent, address);
    swapCause(new Link(address, parent, parent?.cascade ?? new Cascade(), earlier ? earlier.rounds + 1 : 0));
    return outer;
  }

  /**
   * A rule is about to write `address`. Returns the cause to put back with `leave` once the
   * write returns, or a `Loop` when the write closes a loop that must be cut.
   */
  enter(address: string): Cause | Loop {
    const outer = currentCause();
    const parent = outer instanceof Link ? outer : undefined;
    const cascade = parent?.cascade ?? new Cascade();
    const earlier = find(parent, address);
    let rounds = 0;
    if (earlier) {
      if (cascade.cut?.has(address)) return Loop.quiet;
      rounds = earlier.rounds + 1;
      if (rounds > this.limit) return cut(cascade, parent, earlier, address, this.limit, false);
      if (++cascade.returns > this.budget) return cut(cascade, parent, earlier, address, this.budget, true);
    }
    swapCause(new Link(address, parent, cascade, rounds));
    return outer;
  }

  /** Puts back the cause that `arrive` or `enter` returned. */
  leave(outer: Cause): void {
    swapCause(outer);
  }
}

/** Marks the loop from `earlier` through `parent` back to `address` as cut in `cascade`, and describes it. */
function cut(cascade: Cascade, parent: Link | undefined, earlier: Link, address: string, times: number, branching: boolean): Loop {
  const chain = [address];
  for (let link = parent; link !== undefined && link !== earlier; link = link.parent) chain.push(link.address);
  chain.push(address);
  chain.reverse();
  cascade.cut ??= new Set();
  for (const a of chain) cascade.cut.add(a);
  return new Loop(chain, times, branching);
}

/** The latest visit of `address` on the chain ending at `link`. */
function find(link: Link | undefined, address: string): Link | undefined {
  while (link !== undefined && link.address !== address) link = link.parent;
  return link;
}
