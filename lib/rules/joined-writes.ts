import type { Value } from '../core/value.ts';
import type { Combine } from './rule-tree.ts';

const says = (value: Value | undefined): boolean => value !== undefined && value !== false && value !== 0 && value !== '';

/**
 * Rules that say `combine` the same way, joined at a destination they share (R-RS4): a lamp
 * red when any of its sources says so, a gate open when all do, the first of a priority
 * list that says something, or the latest. What each rule says is kept, in the order the
 * rules run (tree order; the matches of one pattern as they were found), and the joined
 * value is what the destination is written.
 */
export class JoinedWrites {
  private readonly said = new Map<string, Value | undefined>();

  constructor(readonly how: Combine) {}

  /** A rule that writes here, in the order rules run. */
  add(rule: string): void {
    if (!this.said.has(rule)) this.said.set(rule, undefined);
  }

  /** `rule` says `value` now: what the destination is to hold, or undefined while nothing can be said. */
  offer(rule: string, value: Value): Value | undefined {
    this.said.set(rule, value);
    const all = [...this.said.values()];
    switch (this.how) {
      case 'last':
        return value;
      case 'any':
        return all.some(says) ? true : all.includes(undefined) ? undefined : false;
      case 'all':
        return all.includes(undefined) ? (all.some((v) => v !== undefined && !says(v)) ? false : undefined) : all.every(says);
      case 'priority':
        return all.find(says) ?? all.find((v) => v !== undefined);
    }
  }
}
