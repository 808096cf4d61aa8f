import type { Issue } from '../core/issue.ts';
import { formatPath } from '../core/issue.ts';
import { pipeSteps } from './steps/index.ts';

export interface RuleNode {
  readonly source: string;
  readonly destinations: readonly string[];
  readonly description?: string;
  readonly enabled?: boolean;
  readonly pipe?: readonly Readonly<Record<string, unknown>>[];
}

export interface FolderNode {
  readonly folder: string;
  readonly enabled?: boolean;
  readonly rules: readonly TreeNode[];
}

export type TreeNode = RuleNode | FolderNode;

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
}

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
    return [
      {
        path: where,
        folders,
        name: node.description ? `${where} "${node.description}"` : where,
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
