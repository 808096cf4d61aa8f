import { type Observable, Subject, type Subscription } from 'rxjs';
import { type ErrorCode, HubError, reasonOf } from '../core/errors.ts';
import type { Graph } from '../core/graph.ts';
import type { Logger } from '../core/log.ts';
import type { Scheduler } from '../core/scheduler.ts';
import type { Rule } from './rule-tree.ts';
import type { Signal } from './signal.ts';
import { pipeSteps } from './steps/index.ts';

/** A problem of one rule, reported as data with the rule that has it. */
export interface RuleProblem {
  readonly rule: string;
  readonly code: ErrorCode;
  readonly message: string;
}

export interface RuleEngineOptions {
  readonly graph: Graph;
  readonly scheduler: Scheduler;
  readonly log: Logger;
  /** How often rules may write one address in one synchronous turn before it is a loop (R-R5). */
  readonly loopLimit?: number;
  /** True for connections that are disabled: rules that touch them are idle, not wrong. */
  readonly isDisabled?: (connectionId: string) => boolean;
}

interface RunningRule {
  readonly rule: Rule;
  readonly input: Subject<Signal>;
}

/**
 * Runs a flattened rule tree (R-R1–R-R5). Each source is subscribed once and hands every
 * change to its rules in tree order; each rule's pipe is an RxJS pipeline whose output is
 * converted and written to every destination. Feedback loops are cut: when rules write the
 * same address more than `loopLimit` times within one synchronous turn, the writes to it
 * stop for that turn and the chain of addresses is reported.
 */
export class RuleEngine {
  private readonly subscriptions: Subscription[] = [];
  private readonly problems = new Subject<RuleProblem>();
  private readonly loopLimit: number;
  // What rules wrote in the current synchronous turn; cleared by a microtask, which a
  // runaway synchronous loop never lets run.
  private readonly writesThisTurn = new Map<string, number>();
  private readonly trail: { source: string; destination: string }[] = [];
  private readonly cut = new Set<string>();
  private resetPending = false;

  readonly problems$: Observable<RuleProblem> = this.problems.asObservable();

  constructor(private readonly options: RuleEngineOptions) {
    this.loopLimit = options.loopLimit ?? 256;
  }

  /**
   * Starts every rule whose source and destinations exist and allow it (R-R4); the others
   * are reported and left out. Returns how many run.
   */
  start(rules: readonly Rule[]): number {
    const bySource = new Map<string, RunningRule[]>();
    for (const rule of rules) {
      const idle = [rule.source, ...rule.destinations].map((a) => a.slice(0, a.indexOf('/'))).find((id) => this.options.isDisabled?.(id));
      if (idle) {
        this.options.log.info(`rule ${rule.name}: idle while connection "${idle}" is disabled`);
        continue;
      }
      const problem = this.checkAddresses(rule);
      if (problem) {
        this.report(rule, problem.code, problem.message);
        continue;
      }
      const input = new Subject<Signal>();
      const context = { scheduler: this.options.scheduler };
      const output = rule.pipe.reduce<Observable<Signal>>((stream, { step, argument }) => stream.pipe(pipeSteps[step]!.operator(argument as never, context)), input);
      this.subscriptions.push(
        output.subscribe({
          next: (signal) => {
            for (const destination of rule.destinations) this.write(rule, destination, signal);
          },
          error: (error: unknown) => this.report(rule, 'PB_RULE_FAILED', `stopped: ${reasonOf(error)}`),
        }),
      );
      const group = bySource.get(rule.source) ?? [];
      group.push({ rule, input });
      bySource.set(rule.source, group);
    }
    for (const [source, group] of bySource) {
      const parameter = this.options.graph.get(source);
      if (!parameter) continue;
      this.subscriptions.push(
        parameter.changes$.subscribe((value) => {
          const signal: Signal = { value, source, time: this.options.scheduler.now() };
          for (const { input } of group) input.next(signal);
        }),
      );
    }
    return [...bySource.values()].reduce((sum, group) => sum + group.length, 0);
  }

  /** Stops every rule, timed steps included. Idempotent. */
  stop(): void {
    for (const subscription of this.subscriptions.splice(0)) subscription.unsubscribe();
  }

  private checkAddresses(rule: Rule): HubError | undefined {
    const { graph } = this.options;
    const source = graph.lookup(rule.source);
    if (!source.ok) return new HubError(source.error.code, `source ${source.error.message}`);
    if (source.value.access === 'write-only') return new HubError('PB_WRITE_ONLY', `source ${rule.source} is write-only, so it cannot be read`);
    for (const destination of rule.destinations) {
      const found = graph.lookup(destination);
      if (!found.ok) return new HubError(found.error.code, `destination ${found.error.message}`);
      if (found.value.access === 'read-only') return new HubError('PB_READ_ONLY', `destination ${destination} is read-only`);
    }
    return undefined;
  }

  private write(rule: Rule, destination: string, signal: Signal): void {
    const count = (this.writesThisTurn.get(destination) ?? 0) + 1;
    this.writesThisTurn.set(destination, count);
    // The trail that names a loop's chain is kept only for addresses already suspicious:
    // ordinary traffic pays nothing for it.
    if (count > this.loopLimit / 2) {
      this.trail.push({ source: signal.source, destination });
      if (this.trail.length > 4 * this.loopLimit) this.trail.splice(0, this.trail.length - 2 * this.loopLimit);
    }
    if (!this.resetPending) {
      this.resetPending = true;
      queueMicrotask(() => {
        this.writesThisTurn.clear();
        this.trail.length = 0;
        this.cut.clear();
        this.resetPending = false;
      });
    }
    if (count > this.loopLimit) {
      if (!this.cut.has(destination)) {
        this.cut.add(destination);
        this.report(rule, 'PB_FEEDBACK_LOOP', `feedback loop cut: rules wrote ${destination} ${this.loopLimit} times in one turn; chain ${this.chainTo(destination)}`);
      }
      return;
    }
    const written = this.options.graph.write(destination, signal.value, `rule ${rule.path}`);
    if (!written.ok) this.report(rule, written.error.code, written.error.message);
  }

  /**
   * The cycle of addresses that led back to `destination`, read backwards from the recent
   * writes. A link made by something other than a rule (a logic function, a code flow)
   * ends the trail there, shown as `…`.
   */
  private chainTo(destination: string): string {
    const chain = [destination];
    let target = destination;
    let end = this.trail.length;
    while (chain.length <= 32) {
      const index = this.trail.findLastIndex((entry, j) => j < end && entry.destination === target);
      if (index < 0) return `… → ${chain.join(' → ')}`;
      target = (this.trail[index] as { source: string }).source;
      chain.unshift(target);
      end = index;
      if (target === destination) break;
    }
    return chain.join(' → ');
  }

  private report(rule: Rule, code: ErrorCode, message: string): void {
    this.options.log.error(`rule ${rule.name}: ${message}`);
    this.problems.next({ rule: rule.name, code, message });
  }
}
