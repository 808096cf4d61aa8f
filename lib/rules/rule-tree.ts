import type { Issue } from '../core/issue.ts';
import { formatPath } from '../core/issue.ts';
import { compileExpression, type Expression, ExpressionError } from '../core/expression.ts';
import { pipeSteps } from './steps/index.ts';

/** A rule of one source and steps (R-R1): it forwards the source's changes. */
export interface RuleNode {
  readonly source: string;
  readonly destinations: readonly string[];
  readonly description?: string;
  readonly enabled?: boolean;
  readonly pipe?: readonly Readonly<Record<string, unknown>>[];
}

/**
 * A rule that holds state (R-RS1, R-RS3): what `expr` says of its sources' latest values is
 * written to `to` whenever it may have changed, and again when a destination's connection
 * is back. `from` is one address (read as `value`) or addresses by name.
 */
export interface StateRuleNode {
  readonly from: string | Readonly<Record<string, string>>;
  readonly to: string | readonly string[];
  readonly expr?: string;
  /** `change`: only when a source changes (a pulse, an action, a press); `state` (the default) holds the destination. */
  readonly on?: 'state' | 'change';
  readonly combine?: Combine;
  readonly description?: string;
  readonly enabled?: boolean;
}

export interface FolderNode {
  readonly folder: string;
  readonly enabled?: boolean;
  readonly rules: readonly TreeNode[];
}

export type TreeNode = RuleNode | StateRuleNode | FolderNode;

/** How a rule of one source reads it in its expression. */
export const SINGLE_SOURCE_NAME = 'value';

export const isWildcard = (level: string) => level === '+';

/** The source a rule of patterns matches parameters against; undefined for a rule of fixed addresses. */
export function patternOf(from: readonly (readonly [string, string])[]): string | undefined {
  return from.find(([, address]) => address.split('/').some(isWildcard))?.[1];
}

/** How many levels a pattern matches: the `{n}` a rule may use. */
export const wildcardsOf = (pattern: string | undefined): number => (pattern ? pattern.split('/').filter(isWildcard).length : 0);

/** The names an expression over `from` may read. */
const namesOf = (from: readonly (readonly [string, string])[]) => from.map(([name]) => name);

/** Stand-ins for the levels a pattern matches: what `{n}` an expression over it may read, before anything matched. */
const someLevels = (pattern: string | undefined): string[] => Array.from({ length: wildcardsOf(pattern) }, () => '1');

/** A rule's sources by name, as `from` writes them. */
export const sourcesOf = (from: StateRuleNode['from']): [name: string, address: string][] =>
  typeof from === 'string' ? [[SINGLE_SOURCE_NAME, from]] : Object.entries(from);

const isFolder = (node: TreeNode): node is FolderNode => 'folder' in node;

/** A rule ready to run: where it stands in the tree, and its steps in order. */
export interface Rule {
  /** `rules[1].rules[0]`: where the rule stands in the flow file. */
  readonly path: string;
  /** The names of the folders it stands in, outermost first (R-R2); empty at the top. */
  readonly folders: readonly string[];
  /** How messages name the rule: its path, and its description when it has one. */
  readonly name: string;
  readonly source: string;
  readonly destinations: readonly string[];
  readonly pipe: readonly { readonly step: string; readonly argument: unknown }[];
  /** For a rule that holds state: its sources by name, its expression, when it writes. `source` is the first of them. */
  readonly state?: StateRule;
}

export interface StateRule {
  readonly from: readonly (readonly [name: string, address: string])[];
  /** The source with `+` levels it matches parameters against: one rule per match (rule-patterns.ts). */
  readonly pattern?: string;
  /** Undefined: the one source's value as it is. */
  readonly expression: Expression | undefined;
  readonly on: 'state' | 'change';
  /** How it joins the other rules that write its destinations the same way (R-RS4). */
  readonly combine?: Combine;
}

export type Combine = 'any' | 'all' | 'priority' | 'last';

/**
 * The enabled rules of a tree in the order they run for one change (R-R2): top to
 * bottom, depth first into folders. A disabled folder disables everything below it.
 */
export function flattenRules(nodes: readonly TreeNode[], path: (string | number)[] = ['rules'], folders: readonly string[] = []): Rule[] {
  return nodes.flatMap((node, index): Rule[] => {
    const at = [...path, index];
    if (node.enabled === false) return [];
    if (isFolder(node)) return flattenRules(node.rules, [...at, 'rules'], [...folders, node.folder]);
    const where = formatPath(at);
    const name = node.description ? `${where} "${node.description}"` : where;
    if ('from' in node) {
      const from = sourcesOf(node.from);
      const pattern = patternOf(from);
      const state: StateRule = {
        from,
        ...(pattern ? { pattern } : {}),
        expression: node.expr === undefined ? undefined : compileExpression(node.expr, namesOf(from), someLevels(pattern)),
        on: node.on ?? 'state',
        ...(node.combine ? { combine: node.combine } : {}),
      };
      const to = typeof node.to === 'string' ? [node.to] : [...node.to];
      return [{ path: where, folders, name, source: from[0]?.[1] ?? '', destinations: to, pipe: [], state }];
    }
    return [
      {
        path: where,
        folders,
        name,
        source: node.source,
        destinations: node.destinations,
        pipe: (node.pipe ?? []).map((step) => {
          const [name, argument] = Object.entries(step)[0] as [string, unknown];
          return { step: name, argument };
        }),
      },
    ];
  });
}

/** The addresses a rule reads: its source, or a held rule's sources and what its expression names. */
export function readsOf(rule: Rule): string[] {
  if (!rule.state) return [rule.source];
  return [...new Set([...rule.state.from.map(([, address]) => address), ...(rule.state.expression?.addresses ?? [])])];
}

/**
 * What a rule that holds state is, as a key: the same key at a reload is the same rule, which
 * its destinations heard already (its first write then goes as any write, not to hold).
 */
export const heldKey = (rule: Rule): string =>
  JSON.stringify([rule.path, rule.state?.from, rule.destinations, rule.state?.expression?.source, rule.state?.on, rule.state?.combine]);

/** What `checkRuleTree` needs to know of the rest of the flow file. */
export interface RuleTreeContext {
  /** True when the schema found a mistake at `path` or below it: such parts are not checked further. */
  readonly faulty: (path: readonly (string | number)[]) => boolean;
  /** The ids of the file's connections, which addresses may name. */
  readonly connections: readonly string[];
  /** The ids of the file's code flows, which addresses may name too. */
  readonly codeFlows: readonly string[];
  /** True when the hub shares a broker with other hubs: addresses may name their connections, known only at run time. */
  readonly sharesHubs?: boolean;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What the schema cannot check in a rule tree: each step's own argument checks, and that
 * every address names a connection or code flow of the file. It runs on whatever parts
 * the schema found no fault with, so one pass shows every mistake.
 */
export function checkRuleTree(nodes: unknown, context: RuleTreeContext, path: (string | number)[] = ['rules']): Issue[] {
  if (!Array.isArray(nodes)) return [];
  const known = new Set([...context.connections, ...context.codeFlows]);
  const names = `connections: ${context.connections.join(', ') || 'none'}${context.codeFlows.length ? `; code flows: ${context.codeFlows.join(', ')}` : ''}`;
  const checkAddress = (address: unknown, at: (string | number)[]): Issue[] => {
    if (typeof address !== 'string' || context.faulty(at) || context.sharesHubs) return [];
    const id = address.slice(0, address.indexOf('/'));
    return known.has(id) ? [] : [{ path: at, message: `no connection "${id}" in this flow file (${names})` }];
  };
  return nodes.flatMap((node: unknown, index): Issue[] => {
    const at = [...path, index];
    if (!isRecord(node)) return [];
    if ('folder' in node) return checkRuleTree(node['rules'], context, [...at, 'rules']);
    if ('from' in node) return checkStateRule(node, at, checkAddress, context.faulty);
    const destinations = Array.isArray(node['destinations']) ? (node['destinations'] as unknown[]) : [];
    const pipe = Array.isArray(node['pipe']) ? (node['pipe'] as unknown[]) : [];
    return [
      ...checkAddress(node['source'], [...at, 'source']),
      ...destinations.flatMap((address, position) => checkAddress(address, [...at, 'destinations', position])),
      ...pipe.flatMap((step, position) => {
        if (!isRecord(step) || context.faulty([...at, 'pipe', position])) return [];
        return Object.entries(step).flatMap(([name, argument]) => {
          const problem = pipeSteps[name]?.check?.(argument as never);
          return problem ? [{ path: [...at, 'pipe', position, name, ...problem.path], message: problem.message }] : [];
        });
      }),
    ];
  });
}

/** What the schema cannot check of a rule that holds state: its addresses, its expression (with the column of a mistake), that it has one where it needs one. */
function checkStateRule(
  node: Record<string, unknown>,
  at: (string | number)[],
  checkAddress: (address: unknown, at: (string | number)[]) => Issue[],
  faulty: RuleTreeContext['faulty'],
): Issue[] {
  const from = node['from'];
  const sources = typeof from === 'string' ? [[SINGLE_SOURCE_NAME, from]] : isRecord(from) ? Object.entries(from) : [];
  const to = node['to'];
  const levels = wildcardsOf(patternOf(sources as [string, string][]));
  const places = (address: unknown, at: (string | number)[]): Issue[] =>
    typeof address !== 'string'
      ? []
      : [...address.matchAll(/\{(\d+)\}/g)]
          .filter(([, n]) => Number(n) < 1 || Number(n) > levels)
          .map(([whole]) => ({
            path: at,
            message: `${whole} is no level its sources match (${levels ? `{1} to {${levels}}` : 'they have no + level'})`,
          }));
  const issues = [
    ...(typeof to === 'string' ? places(to, [...at, 'to']) : Array.isArray(to) ? to.flatMap((d, i) => places(d, [...at, 'to', i])) : []),
    ...(typeof from === 'string'
      ? checkAddress(from, [...at, 'from'])
      : sources.flatMap(([name, address]) => checkAddress(address, [...at, 'from', name]))),
    ...(typeof to === 'string'
      ? checkAddress(to, [...at, 'to'])
      : Array.isArray(to)
        ? to.flatMap((d, i) => checkAddress(d, [...at, 'to', i]))
        : []),
  ];
  const expr = node['expr'];
  if (typeof expr !== 'string' || faulty([...at, 'expr'])) {
    if (expr === undefined && sources.length > 1)
      issues.push({
        path: [...at, 'expr'],
        message: `an expression over ${sources.map(([name]) => name).join(', ')} is needed: which of them goes to the destination?`,
      });
    return issues;
  }
  try {
    const named = sources as [string, string][];
    const expression = compileExpression(expr, namesOf(named), someLevels(patternOf(named)));
    for (const address of expression.addresses) issues.push(...checkAddress(address, [...at, 'expr']));
  } catch (error) {
    if (!(error instanceof ExpressionError)) throw error;
    issues.push({ path: [...at, 'expr'], message: error.message });
  }
  return issues;
}

/**
 * Parameters that a rule holding state and another rule, or a connection's own setting (a
 * key's press), both write (R-RS4): the lamp would show whichever wrote last, and the rule's
 * state would not hold. Warnings at the later rule's `to` or `destinations`, or at the
 * setting; forwarding rules among themselves are events, as before.
 */
export function writerConflicts(
  nodes: readonly TreeNode[],
  settingWrites: readonly { readonly address: string; readonly path: readonly (string | number)[] }[] = [],
): Issue[] {
  const rules = flattenRules(nodes);
  const warnings: Issue[] = [];
  const seen: { readonly rule: Rule; readonly destination: string; readonly matches: RegExp }[] = [];
  for (const rule of rules)
    for (const destination of new Set(rule.destinations)) {
      const matches = placesAsAny(destination);
      // A destination of a pattern rule (`umd/display/{1}/red`) is every address it can be.
      const first = seen.find(
        (other) =>
          other.rule !== rule && (other.matches.test(destination) || matches.test(other.destination)) && conflicting(other.rule, rule),
      );
      seen.push({ rule, destination, matches });
      if (!first) continue;
      warnings.push({
        path: [...pathOf(rule.path), rule.state ? 'to' : 'destinations'],
        message: `${destination} is written by ${first.rule.path} too${first.destination === destination ? '' : ` (as ${first.destination})`}: a rule that holds state should be its one writer (the last write would win); give them one rule with an expression over both, or say how they join with the same \`combine\` on each`,
      });
    }
  for (const { address, path } of settingWrites) {
    const holder = seen.find((other) => other.rule.state?.on === 'state' && other.matches.test(address));
    if (holder)
      warnings.push({
        path: [...path],
        message: `${address} is held by ${holder.rule.path}${holder.destination === address ? '' : ` (as ${holder.destination})`}: what this writes lasts only until that rule writes again; let the rule read it instead (a source of its expression), or write another parameter`,
      });
  }
  return warnings;
}

/** Two writers of one destination conflict when one holds state, unless both say the same `combine`. */
const conflicting = (a: Rule, b: Rule): boolean =>
  (a.state?.on === 'state' || b.state?.on === 'state') && !(a.state?.combine !== undefined && a.state.combine === b.state?.combine);

/** An address whose `{n}` stand for any one level, as a pattern that matches the whole of one. */
const placesAsAny = (address: string): RegExp =>
  new RegExp(
    `^${address
      .split(/\{\d+\}/)
      .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
      .join('[^/]+')}$`,
  );

/** `rules[1].rules[0]` as the path of an issue. */
const pathOf = (path: string): (string | number)[] =>
  [...path.matchAll(/([a-z]+)|\[(\d+)\]/g)].map(([, key, index]) => (key === undefined ? Number(index) : key));
