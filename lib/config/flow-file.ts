/**
 * The entry to flow files: reads one, parses it (JSON5), loads the packages of its
 * `plugins`, and validates it into a `Flow` with every mistake at once; and the flow-file
 * JSON Schema editors check the file with.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import JSON5 from 'json5';
import { HubError, reasonOf } from '../core/errors.ts';
import type { ConnectionConfig, ConnectionType, Link, SettingWrite } from '../connections/connection.ts';
import { connectionTypes } from './connection-types.ts';
import { loadPlugins, noPlugins, type Plugins, refusedType } from './plugins.ts';
import { formatIssue, type Issue } from '../core/issue.ts';
import { flowFileSchema } from './schema.ts';
import { checkRuleTree, type TreeNode, writerConflicts } from '../rules/rule-tree.ts';
import { flowIdOf } from '../rules/code-flows/flow-id.ts';
import { acceptingPlaceholders, substituteEnvironment } from './environment.ts';
import { builtInSchema, checkSchema } from './schema-check.ts';
import { checkConnection, type IdClaim } from './connection-check.ts';
import { claimCollisions, flowIdClashes, groupClashes, linkCycles, machineEditsHeld } from './cross-checks.ts';

/** A validated flow file. Paths are absolute. */
export interface Flow {
  readonly path: string;
  readonly baseDir: string;
  readonly connections: readonly ConnectionConfig[];
  readonly rules: readonly TreeNode[];
  readonly flows: readonly string[];
  /** How safe an answered write of a persistent parameter is (R-S4). */
  readonly durability: 'process' | 'power';
  /** Whether admin logins may change this machine from the console (`machineEdits` as it holds, R-ST8); absent: no. */
  readonly machineEdits?: boolean;
  /** The modules folder of a Companion installation the flow names (`companionModules`), absolute. */
  readonly companionModules?: string;
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
  /** The state folder a hub of the flow keeps (or would): its types' files folders (`ParseContext.filesFolder`) are in it. */
  readonly stateFolder?: string | undefined;
}

export type FlowResult =
  | { readonly ok: true; readonly flow: Flow }
  | { readonly ok: false; readonly error: HubError; readonly issues: readonly Issue[] };

/** Where `${NAME}` placeholders of flow files are looked up: the process environment, or another for specs. */
export type Environment = Readonly<Record<string, string | undefined>>;

/** Reads and validates a flow file: every mistake at once, each with its JSON path. */
export async function loadFlowFile(file: string, env: Environment = process.env, readFor: ReadFor = {}): Promise<FlowResult> {
  const path = resolve(file);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : reasonOf(error);
    return { ok: false, error: new HubError('PB_FLOW_FILE_READ', `${path}: ${reason}`), issues: [] };
  }
  return flowOfText(text, path, env, readFor);
}

/**
 * Validates `text` as the flow file at `path` would be (relative paths and packages found
 * from its folder), as `loadFlowFile` does once it has read it: what an editor checks
 * before it writes the file.
 */
export async function flowOfText(text: string, path: string, env: Environment = process.env, readFor: ReadFor = {}): Promise<FlowResult> {
  let document: unknown;
  try {
    document = parseJson5(text);
  } catch (error) {
    const { lineNumber, columnNumber, message } = error as SyntaxError & { lineNumber?: number; columnNumber?: number };
    const where = lineNumber === undefined ? '' : `:${lineNumber}:${columnNumber ?? 0}`;
    const reason = message.replace(/^JSON5: /, '').replace(/ at \d+:\d+$/, '');
    return { ok: false, error: new HubError('PB_FLOW_FILE_READ', `${path}${where}: ${reason}`), issues: [] };
  }
  const plugins = await loadPlugins(asRecord(document)['plugins'], dirname(path), connectionTypes);
  return validateFlow(document, path, env, { ...readFor, plugins });
}

/** The packages of a flow file's `plugins`, loaded, however the rest of the file stands: none when it cannot be read. */
export async function pluginsOf(file: string): Promise<Plugins> {
  try {
    const document = parseJson5(await readFile(resolve(file), 'utf8'));
    return await loadPlugins(asRecord(document)['plugins'], dirname(resolve(file)), connectionTypes);
  } catch {
    return noPlugins;
  }
}

/**
 * JSON5 as the json5 package reads it, but a file that is plain JSON (as a generated one
 * with a million lines is) is read by the native JSON parser: the json5 package reads some
 * 2 MB a second, a 30 MB file took 4.5 s. JSON is JSON5, so either reads it the same; the
 * first comment or unquoted key sends a file to json5, whose errors say where.
 */
function parseJson5(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return JSON5.parse(text);
  }
}

/**
 * Validates a parsed flow document; `path` locates relative paths and names the file in
 * errors. Environment placeholders are filled in first, then the schema and every check
 * beyond it run in one pass: each part the schema found no fault with is checked further,
 * so one run shows every mistake.
 */
export function validateFlow(
  raw: unknown,
  path: string,
  env: Environment = process.env,
  { start = false, plugins = noPlugins, stateFolder }: ReadFor = {},
): FlowResult {
  const baseDir = dirname(path);
  const substituted = substituteEnvironment(raw, env);
  const document = substituted.document;
  const extraTypes = [...plugins.types, ...refusedTypes(plugins, document, start)];
  const types = [...connectionTypes, ...extraTypes];
  const placeholderAt = new Set(substituted.issues.map((issue) => JSON.stringify(issue.path)));
  const schemaMistakes = checkSchema(document, extraTypes, substituted.whole).filter(
    (issue) => !placeholderAt.has(JSON.stringify(issue.path)),
  );
  const issues: Issue[] = [...substituted.issues, ...schemaMistakes];
  // Parts with a mistake of the schema or of a placeholder at or below them are not checked further.
  const mistakes = [...issues];
  const faulty = (at: readonly (string | number)[]) => mistakes.some((issue) => at.every((key, i) => issue.path[i] === key));

  const connections: ConnectionConfig[] = [];
  const diagnostics: Issue[] = [];
  const warnings: Issue[] = [];
  const links: Link[] = [];
  const claims: IdClaim[] = [];
  const writes: SettingWrite[] = [];
  const entries = Object.entries(asRecord(asRecord(document)['connections']));
  for (const [id, entry] of entries) {
    const unfilled = substituted.issues
      .filter((issue) => issue.path[0] === 'connections' && issue.path[1] === id)
      .map((issue) => issue.path[2]);
    const checked = checkConnection(id, asRecord(entry), { baseDir, stateFolder }, unfilled, types);
    if (!checked) continue;
    issues.push(...checked.issues);
    // Read to start, they fail that connection alone; read to validate, they are mistakes.
    // One at the very place of a schema mistake says it twice (its check saw the setting taken out).
    const said = new Set(mistakes.map((issue) => JSON.stringify(issue.path)));
    (start ? diagnostics : issues).push(...checked.diagnostics.filter((issue) => !said.has(JSON.stringify(issue.path))));
    warnings.push(...checked.warnings);
    links.push(...checked.links);
    claims.push(...checked.claims);
    writes.push(...(checked.writes ?? []));
    if (checked.config && checked.whole) connections.push(checked.config);
  }
  issues.push(...linkCycles(links), ...claimCollisions(claims), ...groupClashes(connections));
  // A refused package is a mistake to validate; to start, its connections fail and the rest runs (R-PK3).
  if (!start)
    issues.push(...plugins.refused.map(({ index, error }) => ({ path: ['plugins', index], message: `${error.code}: ${error.message}` })));
  const connectionIds = entries.map(([id]) => id);
  const flows = asRecord(document)['flows'];
  const flowFiles = (Array.isArray(flows) ? flows : [])
    .map((file, index) => ({ file, index }))
    .filter((f): f is { file: string; index: number } => typeof f.file === 'string' && f.file !== '');
  issues.push(...flowIdClashes(flowFiles, connectionIds));
  // A connection that finds other hubs' connections (R-M5) makes any connection id possible.
  const sharesHubs = connections.some((config) => config.plan.discovers.connections);
  issues.push(
    ...checkRuleTree(asRecord(document)['rules'], {
      faulty,
      connections: connectionIds,
      codeFlows: flowFiles.map((f) => flowIdOf(f.file)),
      sharesHubs,
    }),
  );
  for (const { file, index } of flowFiles) {
    const full = resolve(baseDir, file);
    if (!faulty(['flows', index]) && !existsSync(full)) issues.push({ path: ['flows', index], message: `no such file: ${full}` });
  }
  if (issues.length > 0) {
    const lines = issues.map(formatIssue).join('\n  ');
    return {
      ok: false,
      error: new HubError('PB_FLOW_FILE_INVALID', `${path}: ${issues.length} mistake${issues.length > 1 ? 's' : ''}:\n  ${lines}`),
      issues,
    };
  }
  const valid = document as FlowDocument;
  warnings.push(...writerConflicts(valid.rules ?? [], writes));
  const machine = machineEditsHeld(valid.machineEdits, connections);
  warnings.push(...machine.warnings);
  return {
    ok: true,
    flow: {
      path,
      baseDir,
      connections,
      rules: valid.rules ?? [],
      flows: (valid.flows ?? []).map((f) => resolve(baseDir, f)),
      durability: valid.durability ?? 'process',
      machineEdits: machine.held,
      ...(valid.companionModules ? { companionModules: resolve(baseDir, valid.companionModules) } : {}),
      diagnostics,
      warnings,
      plugins,
    },
  };
}

/**
 * Stand-in types for the connections of refused packages (`refusedType`): the type names a
 * refused package declares, and, read to start, any type nobody knows while a package whose
 * names could not be read was refused (it may be that package's).
 */
function refusedTypes(plugins: Plugins, document: unknown, start: boolean): ConnectionType[] {
  const known = new Set([...connectionTypes, ...plugins.types].map((type) => type.type));
  const standIns = new Map<string, ConnectionType>();
  for (const refused of plugins.refused) {
    for (const type of refused.types) if (!known.has(type) && !standIns.has(type)) standIns.set(type, refusedType(type, refused));
  }
  const unnamed = plugins.refused.find((refused) => refused.types.length === 0 && refused.repeats === undefined);
  if (start && unnamed) {
    for (const entry of Object.values(asRecord(asRecord(document)['connections']))) {
      const type = asRecord(entry)['type'];
      if (typeof type === 'string' && !known.has(type) && !standIns.has(type))
        standIns.set(type, refusedType(type, { error: unnamed.error }));
    }
  }
  return [...standIns.values()];
}

interface FlowDocument {
  rules?: TreeNode[];
  flows?: string[];
  durability?: 'process' | 'power';
  machineEdits?: boolean;
  companionModules?: string;
}

const asRecord = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/**
 * The flow-file JSON Schema, for editors (`patchbay schema`) and the console's forms: a
 * placeholder is accepted where a number or boolean is wanted. Given the connections of a
 * flow, each whose type knows its settings finer than the type's schema (`settingsOf`: a
 * Companion module's config fields) has them under its id.
 */
export function flowFileJsonSchema(plugins: Plugins = noPlugins, connections: readonly ConnectionConfig[] = []): string {
  const withPlugins = plugins.types.length === 0 ? builtInSchema : flowFileSchema([...connectionTypes, ...plugins.types]);
  const own = Object.fromEntries(
    connections.flatMap(({ id, plan }) => {
      const settings = plan.settingsOf?.();
      return settings && Object.keys(settings).length > 0 ? [[id, { properties: settings }]] : [];
    }),
  );
  const schema =
    Object.keys(own).length === 0
      ? withPlugins
      : {
          ...withPlugins,
          properties: { ...withPlugins.properties, connections: { ...withPlugins.properties.connections, properties: own } },
        };
  return `${JSON.stringify(acceptingPlaceholders(schema), null, 2)}\n`;
}
