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
export function flattenRules(nodes: readonly TreeNode[], path: (string | number)[] = ['rules']): Rule[] {
  return nodes.flatMap((node, index): Rule[] => {
    const at = [...path, index];
    if (node.enabled === false) return [];
    if (isFolder(node)) return flattenRules(node.rules, [...at, 'rules']);
    const where = formatPath(at);
    return [
      {
        path: where,
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

/** What the schema cannot check in a rule tree: each step's own argument checks. */
export function checkRuleTree(nodes: readonly TreeNode[], path: (string | number)[] = ['rules']): Issue[] {
  return nodes.flatMap((node, index): Issue[] => {
    const at = [...path, index];
    if (isFolder(node)) return checkRuleTree(node.rules, [...at, 'rules']);
    return (node.pipe ?? []).flatMap((step, position) =>
      Object.entries(step).flatMap(([name, argument]) => {
        const problem = pipeSteps[name]?.check?.(argument as never);
        return problem ? [{ path: [...at, 'pipe', position, name], message: problem }] : [];
      }),
    );
  });
}
