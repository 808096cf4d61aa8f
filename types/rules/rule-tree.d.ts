import type { Issue } from '../core/issue.ts';
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
    readonly pipe: readonly {
        readonly step: string;
        readonly argument: unknown;
    }[];
}
/**
 * The enabled rules of a tree in the order they run for one change (R-R2): top to
 * bottom, depth first into folders. A disabled folder disables everything below it.
 */
export declare function flattenRules(nodes: readonly TreeNode[], path?: (string | number)[], folders?: readonly string[]): Rule[];
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
/**
 * What the schema cannot check in a rule tree: each step's own argument checks, and that
 * every address names a connection or code flow of the file. It runs on whatever parts
 * the schema found no fault with, so one pass shows every mistake.
 */
export declare function checkRuleTree(nodes: unknown, context: RuleTreeContext, path?: (string | number)[]): Issue[];
