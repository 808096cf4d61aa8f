import type { ErrorCode } from '../core/errors.ts';
import type { Graph } from '../core/graph.ts';
import { onChange, type Parameter } from '../core/parameter.ts';
import type { Value } from '../core/value.ts';
import { type Rule, readsOf, type StateRule } from './rule-tree.ts';

/**
 * The rules asked to evaluate this turn, in the order asked, and whether a microtask will
 * run them: one for all (Node's `queueMicrotask` makes an async resource a call, a third of
 * a rule's cost). A rule that writes asks others, which run in the same pass: a loop of
 * rules that hold state runs within one pass, so a count of each rule's evaluations in it
 * finds the loop (the loop guard's chains end with the turn that asked), and changes from
 * outside, however many a turn, start a pass of their own.
 */
const due: (HeldRule | undefined)[] = [];
/** How many of `due` are asked this pass (the array is kept: emptying it costs more than the pass). */
let dueCount = 0;
const settledPromise = Promise.resolve();
let draining = false;
let pass = 0;

function settleLater(rule: HeldRule): void {
  due[dueCount++] = rule;
  if (draining) return;
  draining = true;
  pass += 1;
  void settledPromise.then(drain);
}

/** Runs the pass: one function for every pass, so asking for one makes nothing new. */
function drain(): void {
  let i = 0;
  try {
    for (; i < dueCount; i++) {
      const rule = due[i] as HeldRule;
      due[i] = undefined;
      rule.evaluate(pass);
    }
  } finally {
    // A rule that threw (a bug, said as an unhandled rejection) costs the rest of this pass, never the next.
    for (; i < dueCount; i++) due[i] = undefined;
    dueCount = 0;
    draining = false;
  }
}

/** A rule that holds state: one with `from`. */
export type HeldRuleSpec = Rule & { readonly state: StateRule };

export interface HeldRuleEnvironment {
  readonly graph: Graph;
  /**
   * Writes what the rule says to one destination, by its place in the rule's `to`, as every
   * rule write goes (counted, guarded, refusals reported); `holding`: to be sent though the
   * destination shows it.
   */
  readonly write: (at: number, value: Value, holding: boolean) => void;
  /** An event of the rule: an evaluation past its bounds, a loop among rules. */
  readonly report: (code: ErrorCode, message: string) => void;
  /** The most evaluations of one rule in one pass: past it, a loop among rules is cut (the loop guard's limit). */
  readonly mostPerPass: number;
}

/**
 * Runs one rule that holds state (R-RS1, R-RS3, R-RS5). A change of any of its sources, or
 * of a parameter its expression reads as `$(address)`, asks for an evaluation once the
 * turn's work is done (a microtask): every change of one write batch, one device message or
 * one scene recall has landed by then, so the rule reads settled values and writes once.
 * It writes what it says when it differs from what it last wrote, and always when asked to
 * hold (`settle(true)`: it started, a destination's connection is back), unless it is `on:
 * 'change'`. A loop of such rules is cut by a count of evaluations in one pass (`settleLater`).
 */
export class HeldRule {
  private asked: 'change' | 'hold' | undefined;
  private last: Value | undefined;
  /** Set by `ranBefore` until its first `settle`. */
  private startQuiet = false;
  /** The pass it last evaluated in, and how many times in it. */
  private pass = 0;
  private evaluations = 0;
  private readonly reads: readonly string[];
  /** The parameters it reads, as they come and go (a read per evaluation costs no lookup). */
  private readonly sourceAt = new Map<string, Parameter | undefined>();
  /** Its named sources' parameters, in the order of `from`, as they come and go. */
  private readonly named: (Parameter | undefined)[];
  /** Its named sources' values, read anew at each evaluation. */
  private readonly values: (Value | undefined)[];

  constructor(
    readonly rule: HeldRuleSpec,
    private readonly env: HeldRuleEnvironment,
  ) {
    this.reads = readsOf(rule);
    this.values = rule.state.from.map(() => undefined);
    this.named = rule.state.from.map(() => undefined);
  }

  /** The addresses it reads: its sources and what its expression names. */
  get sources(): readonly string[] {
    return this.reads;
  }

  /** Follows the changes of what it reads while it exists; returns how to stop. */
  follow(running: () => boolean): () => void {
    const changes = new Map<string, () => void>();
    const stops = this.reads.map((address) =>
      this.env.graph.follow(address, (parameter) => {
        changes.get(address)?.();
        changes.delete(address);
        this.sourceAt.set(address, parameter);
        this.rule.state.from.forEach(([, source], at) => {
          if (source === address) this.named[at] = parameter;
        });
        if (parameter && parameter.access !== 'write-only')
          changes.set(
            address,
            onChange(parameter, () => {
              if (running()) this.settle(false);
            }),
          );
      }),
    );
    return () => {
      for (const stop of stops) stop();
      for (const unfollow of changes.values()) unfollow();
      changes.clear();
    };
  }

  /**
   * The rule ran before this start, as it is (a reload that changed something else): its
   * destinations heard it already, so its first evaluation writes as any write (a device
   * skips a value it shows) instead of holding — a save in the console does not send every
   * lamp of the studio again. A device back or a parameter that comes later still holds.
   */
  ranBefore(): void {
    this.startQuiet = true;
  }

  /** Asks for an evaluation at the end of this turn; `hold` writes even what it wrote before (never on `change`). */
  settle(holding: boolean): void {
    if (holding && this.rule.state.on === 'change') return;
    const hold = holding && !this.startQuiet;
    this.startQuiet = false;
    const wanted = hold ? 'hold' : 'change';
    if (this.asked) {
      if (wanted === 'hold') this.asked = 'hold';
      return;
    }
    this.asked = wanted;
    settleLater(this);
  }

  /** Evaluates what was asked (`settle`) in pass `pass` of the turns' queue. */
  evaluate(pass: number): void {
    const hold = this.asked === 'hold';
    this.asked = undefined;
    if (pass !== this.pass) {
      this.pass = pass;
      this.evaluations = 0;
    }
    if (++this.evaluations > this.env.mostPerPass) {
      if (this.evaluations === this.env.mostPerPass + 1)
        this.env.report(
          'PB_FEEDBACK_LOOP',
          `evaluated more than ${this.env.mostPerPass} times in one pass: rules that hold state feed back on each other through ${this.reads.join(', ')}; cut`,
        );
      return;
    }
    const said = this.says();
    if (said === undefined || (!hold && said === this.last)) return;
    this.last = said;
    for (let at = 0; at < this.rule.destinations.length; at++) this.env.write(at, said, hold);
  }

  /** What the rule says of its sources' values now; undefined until each has one, or when its expression says unknown. */
  private says(): Value | undefined {
    const { expression } = this.rule.state;
    const { values, named } = this;
    for (let i = 0; i < named.length; i++) {
      const value = named[i]?.value;
      if (value === undefined) return undefined;
      values[i] = value;
    }
    if (!expression) return values[0];
    try {
      return expression.evaluate(values, this.readAddress);
    } catch (error) {
      this.env.report('PB_RULE_FAILED', `its expression: ${(error as Error).message}`);
      return undefined;
    }
  }

  private readonly readAddress = (address: string): Value | undefined => this.sourceAt.get(address)?.value;
}
