import { ok, type Result } from '../core/errors.ts';
import { convert, type Value } from '../core/value.ts';
import type { Combine } from './rule-tree.ts';

/** What says something for `priority`: anything but false, 0 and "". */
const says = (value: Value | undefined): boolean => value !== undefined && value !== false && value !== 0 && value !== '';

/**
 * Rules that say `combine` the same way, joined at a destination they share (R-RS4): a lamp
 * red when any of its sources says so, a gate open when all do, the first of a priority
 * list that says something, or the latest. What each rule says is kept, in the order the
 * rules run (tree order; the matches of one pattern as they were found), and the joined
 * value is what the destination is written. `any` and `all` join booleans: what a rule says
 * is converted as a write to a boolean would be (`"off"` is false), and what does not
 * convert is refused as such a write is.
 */
export class JoinedWrites {
  private readonly said = new Map<string, Value | undefined>();

  constructor(readonly how: Combine) {}

  /** A rule that writes here, in the order rules run. */
  add(rule: string): void {
    if (!this.said.has(rule)) this.said.set(rule, undefined);
  }

  /** `rule` says `value` now: what the destination is to hold (undefined while nothing can be said), or why not. */
  offer(rule: string, value: Value): Result<Value | undefined> {
    if (this.how === 'last') return ok(value);
    if (this.how === 'priority') {
      this.said.set(rule, value);
      const all = [...this.said.values()];
      return ok(all.find(says) ?? all.find((v) => v !== undefined));
    }
    const converted = convert(value, 'B');
    if (!converted.ok) return converted;
    this.said.set(rule, converted.value);
    const all = [...this.said.values()];
    const wanted = this.how === 'any';
    if (all.includes(wanted)) return ok(wanted);
    return ok(all.includes(undefined) ? undefined : !wanted);
  }
}
