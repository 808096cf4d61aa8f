import { HubError } from '../core/errors.ts';
import type { ConnectionConfig } from '../connections/connection.ts';
import { type Plugins } from './plugins.ts';
import { type Issue } from '../core/issue.ts';
import { type TreeNode } from '../rules/rule-tree.ts';
/** A validated flow file. Paths are absolute. */
export interface Flow {
    readonly path: string;
    readonly baseDir: string;
    readonly connections: readonly ConnectionConfig[];
    readonly rules: readonly TreeNode[];
    readonly flows: readonly string[];
    /** How safe an answered write of a persistent parameter is (R-S4). */
    readonly durability: 'process' | 'power';
    /**
     * Mistakes that keep one connection alone from starting (R-X2), read for a start: that
     * connection fails with the reason and the others run. Read to validate, they are mistakes.
     */
    readonly diagnostics: readonly Issue[];
    /** What runs but likely wants attention (a folder not there yet): `validate` lists them, `run` logs them. */
    readonly warnings: readonly Issue[];
    /**
     * The packages of `plugins` (R-PK1): their types, and those refused (R-PK3), which a flow
     * read to validate has as mistakes and one read to start runs without.
     */
    readonly plugins: Plugins;
}
/** What a flow file is read for: to `validate` it (every mistake refuses it), or to `start` it (see `Flow.diagnostics`). */
export interface ReadFor {
    readonly start?: boolean;
    /** The types of the flow's `plugins`, loaded (`loadFlowFile` does it; a document validated alone has none). */
    readonly plugins?: Plugins;
}
export type FlowResult = {
    readonly ok: true;
    readonly flow: Flow;
} | {
    readonly ok: false;
    readonly error: HubError;
    readonly issues: readonly Issue[];
};
/** Where `${NAME}` placeholders of flow files are looked up: the process environment, or another for specs. */
export type Environment = Readonly<Record<string, string | undefined>>;
/** Reads and validates a flow file: every mistake at once, each with its JSON path. */
export declare function loadFlowFile(file: string, env?: Environment, readFor?: ReadFor): Promise<FlowResult>;
/**
 * Validates `text` as the flow file at `path` would be (relative paths and packages found
 * from its folder), as `loadFlowFile` does once it has read it: what an editor checks
 * before it writes the file.
 */
export declare function flowOfText(text: string, path: string, env?: Environment, readFor?: ReadFor): Promise<FlowResult>;
/** The packages of a flow file's `plugins`, loaded, however the rest of the file stands: none when it cannot be read. */
export declare function pluginsOf(file: string): Promise<Plugins>;
/**
 * Validates a parsed flow document; `path` locates relative paths and names the file in
 * errors. Environment placeholders are filled in first, then the schema and every check
 * beyond it run in one pass: each part the schema found no fault with is checked further,
 * so one run shows every mistake.
 */
export declare function validateFlow(raw: unknown, path: string, env?: Environment, { start, plugins }?: ReadFor): FlowResult;
/** The flow-file JSON Schema, for editors (`patchbay schema`): a placeholder is accepted where a number or boolean is wanted. */
export declare function flowFileJsonSchema(plugins?: Plugins): string;
