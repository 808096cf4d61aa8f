/**
 * Rules over patterns (R-RS1): a source with `+` levels (`atem/input/+/tally/program`) makes
 * one rule of every parameter it matches, now or later, with the matched levels put in for
 * `{1}`, `{2}` … in `to`, in the other sources and in `$(…)` of the expression, and read as
 * values by `{1}` … in the expression (`umd/display/{1}/red`). The first source with `+`
 * levels is the one matched; a `+` in another source stands for the same level, in order.
 */
import type { Graph } from '../core/graph.ts';
import { compileExpression, EXPRESSION_ADDRESS } from '../core/expression.ts';
import { isWildcard, patternOf, type Rule, type StateRule } from './rule-tree.ts';

/** A held rule: one with `from`. */
type HeldSpec = Rule & { readonly state: StateRule };

/** The levels of `address` that the `+` of `pattern` stand for; undefined when it does not match. */
export function matchLevels(pattern: string, address: string): string[] | undefined {
  const wanted = pattern.split('/');
  const levels = address.split('/');
  if (wanted.length !== levels.length) return undefined;
  const matched: string[] = [];
  for (let i = 0; i < wanted.length; i++) {
    if (isWildcard(wanted[i] as string)) matched.push(levels[i] as string);
    else if (wanted[i] !== levels[i]) return undefined;
  }
  return matched;
}

/** `text` with `{n}` as the n-th matched level, and each `+` level as the next. */
function filled(text: string, levels: readonly string[]): string {
  let next = 0;
  return text
    .replace(/\{(\d+)\}/g, (whole, n: string) => levels[Number(n) - 1] ?? whole)
    .split('/')
    .map((level) => (isWildcard(level) ? (levels[next++] ?? level) : level))
    .join('/');
}

/** The rule for one match: fixed addresses, the expression compiled with the levels as values. */
export function instanceOf(rule: HeldSpec, levels: readonly string[]): HeldSpec {
  const { from, expression } = rule.state;
  const where = `${rule.path}{${levels.join('/')}}`;
  const text = expression?.source.replace(EXPRESSION_ADDRESS, (whole) => filled(whole, levels));
  const sources = from.map(([name, address]) => [name, filled(address, levels)] as const);
  return {
    ...rule,
    path: where,
    name: rule.name.replace(rule.path, where),
    source: sources[0]?.[1] ?? '',
    destinations: rule.destinations.map((address) => filled(address, levels)),
    state: {
      on: rule.state.on,
      ...(rule.state.combine ? { combine: rule.state.combine } : {}),
      from: sources,
      expression:
        text === undefined
          ? undefined
          : compileExpression(
              text,
              from.map(([name]) => name),
              levels,
            ),
    },
  };
}

/** Calls `found` with the rule of every parameter that matches, now and as they are defined; returns how to stop. */
export function matchPattern(rule: HeldSpec, graph: Graph, found: (instance: HeldSpec) => void): () => void {
  const pattern = patternOf(rule.state.from) as string;
  const seen = new Set<string>();
  const consider = (address: string) => {
    const levels = matchLevels(pattern, address);
    if (!levels || seen.has(levels.join('/'))) return;
    seen.add(levels.join('/'));
    found(instanceOf(rule, levels));
  };
  for (const parameter of graph.byPrefix(pattern.slice(0, pattern.indexOf('/') + 1))) consider(parameter.address);
  const added = graph.added$.subscribe((parameter) => consider(parameter.address));
  return () => added.unsubscribe();
}
