import type { Cause, CauseTracker } from '../core/cause.ts';
/** An address as the guard knows it: one object per address, so chains compare identities, not strings. */
export declare class Point {
    readonly address: string;
    constructor(address: string);
}
/** A rule write that must not happen because it closes a feedback loop. */
export declare class Loop {
    /** The addresses of the loop, first and last the same: `a → b → a`. */
    readonly chain: readonly string[];
    /** How many times changes came back before the cut: the limit, or the cascade's budget. */
    readonly times: number;
    /** Cut because its cascade as a whole came back too often (loops that branch). */
    readonly branching: boolean;
    /** A return to a loop already cut and reported in the same cascade: dropped without a word. */
    static readonly quiet: Loop;
    constructor(
    /** The addresses of the loop, first and last the same: `a → b → a`. */
    chain: readonly string[], 
    /** How many times changes came back before the cut: the limit, or the cascade's budget. */
    times: number, 
    /** Cut because its cascade as a whole came back too often (loops that branch). */
    branching: boolean);
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
export declare class LoopGuard implements CauseTracker {
    readonly limit: number;
    private readonly budget;
    private readonly points;
    private readonly stack;
    private readonly rounds;
    private readonly snapshots;
    private depth;
    private start;
    private base;
    private cascade;
    private readonly suspended;
    constructor(limit: number);
    /** The point of `address`, the same object every time. */
    point(address: string): Point;
    /** A change of `point` reaches the rules; returns the mark to `leave` with. */
    arrive(point: Point): number;
    /**
     * A rule is about to write `point`. Returns the mark to `leave` with once the write is
     * done, or a `Loop` when the write closes a loop that must be cut.
     */
    enter(point: Point): number | Loop;
    /** Takes the chain back to what it was when `arrive` or `enter` returned `mark`. */
    leave(mark: number): void;
    capture(): Cause;
    resume(cause: Cause): void;
    end(): void;
    private push;
    /** How many times the chain had come back to `point` at its latest visit; -1 when it is not on the chain. */
    private roundsBefore;
    /** Marks the loop that `point` closes as cut in `cascade`, and describes it from its latest visit of `point`. */
    private cut;
}
/** What a cut loop is reported as: its chain of addresses and why it was cut. */
export declare function describeLoop({ chain, times, branching }: Loop): string;
