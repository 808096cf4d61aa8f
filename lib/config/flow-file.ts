import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
import JSON5 from 'json5';
import { HubError, reasonOf } from '../core/errors.ts';
import type { ConnectionConfig } from '../connections/connection.ts';
import { connectionTypes } from './connection-types.ts';
import { type Checked, formatIssue, type Issue, within } from '../core/issue.ts';
import { commonSettingNames, flowFileSchema } from './schema.ts';
import { describeExpected } from './expected.ts';
import { checkRuleTree, type TreeNode } from '../rules/rule-tree.ts';

/** A validated flow file. Paths are absolute. */
export interface Flow {
  readonly path: string;
  readonly baseDir: string;
  readonly connections: readonly ConnectionConfig[];
  readonly rules: readonly TreeNode[];
  readonly flows: readonly string[];
  /** How safe an answered write of a persistent parameter is (R-S4). */
  readonly durability: 'process' | 'power';
}

export type FlowResult = { readonly ok: true; readonly flow: Flow } | { readonly ok: false; readonly error: HubError; readonly issues: readonly Issue[] };

const schema = flowFileSchema(connectionTypes);
const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, strictRequired: false });
ajv.addVocabulary(['expected', 'keyExpected']);
const validateSchema = ajv.compile(schema);

/** Reads and validates a flow file: every mistake at once, each with its JSON path. */
export async function loadFlowFile(file: string): Promise<FlowResult> {
  const path = resolve(file);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : reasonOf(error);
    return { ok: false, error: new HubError('PB_FLOW_FILE_READ', `${path}: ${reason}`), issues: [] };
  }
  let document: unknown;
  try {
    document = JSON5.parse(text);
  } catch (error) {
    const { lineNumber, columnNumber, message } = error as SyntaxError & { lineNumber?: number; columnNumber?: number };
    const where = lineNumber === undefined ? '' : `:${lineNumber}:${columnNumber ?? 0}`;
    const reason = message.replace(/^JSON5: /, '').replace(/ at \d+:\d+$/, '');
    return { ok: false, error: new HubError('PB_FLOW_FILE_READ', `${path}${where}: ${reason}`), issues: [] };
  }
  return validateFlow(document, path);
}

/** Validates a parsed flow document; `path` locates relative paths and names the file in errors. */
export function validateFlow(document: unknown, path: string): FlowResult {
  const baseDir = dirname(path);
  const issues: Issue[] = validateSchema(document) ? [] : schemaIssues(validateSchema.errors ?? [], document);
  const faulty = (at: (string | number)[]) => issues.some((issue) => at.every((key, i) => issue.path[i] === undefined || issue.path[i] === key));
  // Settings are parsed once, here; each connection the schema found no fault with is
  // parsed even when others have mistakes, so one run shows every mistake.
  const connections: ConnectionConfig[] = [];
  for (const [id, raw] of Object.entries(asRecord(asRecord(document)['connections']))) {
    if (faulty(['connections', id])) continue;
    const prepared = toConnectionConfig(id, asRecord(raw));
    if (prepared.ok) connections.push(prepared.value);
    else issues.push(...within(['connections', id], prepared.issues));
  }
  issues.push(...semanticIssues(document, baseDir, faulty));
  if (issues.length > 0) {
    const lines = issues.map(formatIssue).join('\n  ');
    return {
      ok: false,
      error: new HubError('PB_FLOW_FILE_INVALID', `${path}: ${issues.length} mistake${issues.length > 1 ? 's' : ''}:\n  ${lines}`),
      issues,
    };
  }
  const valid = document as FlowDocument;
  return {
    ok: true,
    flow: {
      path,
      baseDir,
      connections,
      rules: valid.rules ?? [],
      flows: (valid.flows ?? []).map((f) => resolve(baseDir, f)),
      durability: valid.durability ?? 'process',
    },
  };
}

interface FlowDocument {
  rules?: TreeNode[];
  flows?: string[];
  durability?: 'process' | 'power';
}

const asRecord = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** Splits a connection's entry into its type, the common settings and its own, and parses its own. */
function toConnectionConfig(id: string, raw: Record<string, unknown>): Checked<ConnectionConfig> {
  const type = connectionTypes.find((t) => t.type === raw['type']);
  if (!type) return { ok: false, issues: [{ path: ['type'], message: `unknown connection type ${JSON.stringify(raw['type'])}` }] };
  const settings: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (key !== 'type' && !commonSettingNames.includes(key)) settings[key] = value;
  }
  const plan = type.prepare(settings, { id });
  if (!plan.ok) return plan;
  const text = (key: string) => (typeof raw[key] === 'string' ? (raw[key] as string) : '');
  return {
    ok: true,
    value: {
      id,
      plan: plan.value,
      common: {
        enabled: raw['enabled'] !== false,
        description: text('description'),
        location: text('location'),
        group: text('group'),
        debug: raw['debug'] === true,
        statusParameters: raw['statusParameters'] === true,
        persist: raw['persist'] !== false,
      },
    },
  };
}

/** Checks of rules and code-flow files that the schema cannot express, on the parts it found no fault with. */
function semanticIssues(document: unknown, baseDir: string, faulty: (path: (string | number)[]) => boolean): Issue[] {
  const issues: Issue[] = [];
  const rules = asRecord(document)['rules'];
  if (Array.isArray(rules) && !faulty(['rules'])) issues.push(...checkRuleTree(rules as TreeNode[]));
  const flows = asRecord(document)['flows'];
  if (Array.isArray(flows)) {
    flows.forEach((file, index) => {
      if (typeof file !== 'string' || faulty(['flows', index])) return;
      const full = resolve(baseDir, file);
      if (!existsSync(full)) issues.push({ path: ['flows', index], message: `no such file: ${full}` });
    });
  }
  return issues;
}

/** Turns Ajv's errors into one issue per place, each saying what was expected there. */
function schemaIssues(errors: readonly ErrorObject[], document: unknown): Issue[] {
  const explainedBranches = errors.filter((e) => e.keyword === 'anyOf').map((e) => `${e.schemaPath}/`);
  const byPath = new Map<string, Issue>();
  for (const error of errors) {
    if (error.keyword === 'if' || explainedBranches.some((prefix) => error.schemaPath.startsWith(prefix))) continue;
    const issue = toIssue(error, pathOf(error.instancePath, document));
    const key = JSON.stringify(issue.path);
    if (!byPath.has(key)) byPath.set(key, issue);
  }
  return [...byPath.values()];
}

function toIssue(error: ErrorObject, path: (string | number)[]): Issue {
  const parent = error.parentSchema ?? {};
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required': {
      const name = String(params['missingProperty']);
      const property = (parent['properties'] as Record<string, Record<string, unknown>> | undefined)?.[name] ?? {};
      return { path: [...path, name], message: `missing; expected ${describeExpected(property)}` };
    }
    case 'additionalProperties': {
      const name = String(params['additionalProperty']);
      if (parent['keyExpected']) return { path: [...path, name], message: `"${name}" is not a valid ${String(parent['keyExpected'])}` };
      const known = Object.keys((parent['properties'] as object | undefined) ?? {}).filter((k) => k !== '$schema');
      return { path: [...path, name], message: `unknown key; expected one of ${known.join(', ')}` };
    }
    default:
      return { path, message: `expected ${describeExpected(parent)}` };
  }
}

/** JSON pointer → path, with array positions as numbers. */
function pathOf(pointer: string, document: unknown): (string | number)[] {
  if (pointer === '') return [];
  const path: (string | number)[] = [];
  let node = document;
  for (const token of pointer.slice(1).split('/')) {
    const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
    const index = Array.isArray(node) ? Number(key) : Number.NaN;
    path.push(Number.isInteger(index) ? index : key);
    node = (node as Record<string, unknown> | undefined)?.[key];
  }
  return path;
}

/** The flow-file JSON Schema, for editors (`patchbay schema`). */
export function flowFileJsonSchema(): string {
  return `${JSON.stringify(schema, null, 2)}\n`;
}
