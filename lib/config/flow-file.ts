import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
import JSON5 from 'json5';
import { HubError, reasonOf } from '../core/errors.ts';
import type { Claim, ConnectionConfig, ConnectionType, Link } from '../connections/connection.ts';
import { connectionTypes } from './connection-types.ts';
import { loadPlugins, noPlugins, type Plugins, refusedType } from './plugins.ts';
import { formatIssue, formatPath, type Issue } from '../core/issue.ts';
import { isConnectionId } from '../core/address.ts';
import { commonSettingNames, flowFileSchema } from './schema.ts';
import { describeExpected } from './expected.ts';
import { checkRuleTree, type TreeNode } from '../rules/rule-tree.ts';
import { flowIdOf } from '../rules/code-flows/flow-id.ts';
import { acceptingPlaceholders, asWanted, substituteEnvironment } from './environment.ts';
import { pruneToSchema } from './prune.ts';

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

export type FlowResult =
  | { readonly ok: true; readonly flow: Flow }
  | { readonly ok: false; readonly error: HubError; readonly issues: readonly Issue[] };

const schema = flowFileSchema(connectionTypes);
const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, strictRequired: false });
ajv.addVocabulary(['expected', 'keyExpected']);
const validateBuiltIn = ajv.compile(schema);
/** Validators of flows with types of packages, by the types they know: compiled once for a set. */
const validators = new Map<string, typeof validateBuiltIn>();

/** The schema validator for a flow whose types are the built-in ones and `extra`. */
function validatorFor(extra: readonly ConnectionType[]): typeof validateBuiltIn {
  if (extra.length === 0) return validateBuiltIn;
  // By the module too: two folders may hold a package of one name and version with other settings.
  const key = extra
    .map(
      ({ type, origin, refused }) =>
        `${type}@${origin?.package ?? ''}@${origin?.version ?? ''}@${origin?.module ?? ''}@${refused ? 'refused' : ''}`,
    )
    .join();
  let validate = validators.get(key);
  if (!validate) {
    validate = new Ajv({ allErrors: true, verbose: true, strict: true, strictRequired: false })
      .addVocabulary(['expected', 'keyExpected'])
      .compile(flowFileSchema([...connectionTypes, ...extra]));
    validators.set(key, validate);
  }
  return validate;
}

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
  { start = false, plugins = noPlugins }: ReadFor = {},
): FlowResult {
  const baseDir = dirname(path);
  const substituted = substituteEnvironment(raw, env);
  const document = substituted.document;
  const extraTypes = [...plugins.types, ...refusedTypes(plugins, document, start)];
  const types = [...connectionTypes, ...extraTypes];
  const validateSchema = validatorFor(extraTypes);
  const placeholderAt = new Set(substituted.issues.map((issue) => JSON.stringify(issue.path)));
  const schemaMistakes = schemaIssues(schemaErrors(validateSchema, document, substituted.whole), document).filter(
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
  const entries = Object.entries(asRecord(asRecord(document)['connections']));
  for (const [id, entry] of entries) {
    const unfilled = substituted.issues
      .filter((issue) => issue.path[0] === 'connections' && issue.path[1] === id)
      .map((issue) => issue.path[2]);
    const checked = checkConnection(id, entry, baseDir, unfilled, types);
    if (!checked) continue;
    issues.push(...checked.issues);
    // Read to start, they fail that connection alone; read to validate, they are mistakes.
    (start ? diagnostics : issues).push(...checked.diagnostics);
    warnings.push(...checked.warnings);
    links.push(...checked.links);
    claims.push(...checked.claims);
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
  return {
    ok: true,
    flow: {
      path,
      baseDir,
      connections,
      rules: valid.rules ?? [],
      flows: (valid.flows ?? []).map((f) => resolve(baseDir, f)),
      durability: valid.durability ?? 'process',
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

/**
 * Runs the schema. A string that was one whole placeholder (`port: '${PORT:-17011}'`) where
 * the schema wants a number or a boolean is converted (in `document`) and the schema runs again.
 */
function schemaErrors(validateSchema: typeof validateBuiltIn, document: unknown, whole: ReadonlySet<string>): readonly ErrorObject[] {
  if (validateSchema(document)) return [];
  let converted = false;
  for (const error of validateSchema.errors ?? []) {
    if (error.keyword !== 'type' || !whole.has(error.instancePath)) continue;
    const wanted = ([] as string[]).concat(error.params['type'] as string | string[]);
    const keys = pathOf(error.instancePath, document);
    const parent = keys.slice(0, -1).reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], document) as Record<
      string | number,
      unknown
    >;
    const key = keys[keys.length - 1] as string | number;
    const value = typeof parent[key] === 'string' ? asWanted(parent[key] as string, wanted) : undefined;
    if (value === undefined) continue;
    parent[key] = value;
    converted = true;
  }
  if (converted && validateSchema(document)) return [];
  return [...(validateSchema.errors ?? [])];
}

/** A claim with its connection, its path in the whole document. */
type IdClaim = Claim & { readonly id: string };

interface FlowDocument {
  rules?: TreeNode[];
  flows?: string[];
  durability?: 'process' | 'power';
}

const asRecord = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/**
 * The connection's own checks (its type's parser), on its settings with whatever the
 * schema refuses taken out: `whole` when nothing had to be taken out. Undefined for an
 * entry that is not an object of a known type (the schema says so).
 */
function checkConnection(
  id: string,
  entry: unknown,
  baseDir: string,
  /** Settings with a placeholder that could not be filled in: not checked further. */
  unfilled: readonly (string | number | undefined)[],
  types: readonly ConnectionType[],
):
  | {
      issues: Issue[];
      diagnostics: Issue[];
      warnings: Issue[];
      links: Link[];
      claims: IdClaim[];
      config?: ConnectionConfig;
      whole: boolean;
    }
  | undefined {
  const raw = asRecord(entry);
  const type = types.find((t) => t.type === raw['type']);
  if (!type) return undefined;
  if (type.refused) {
    // Its package was refused: nothing to check, and a connection that fails at start.
    const plan = type.prepare({}, { id, baseDir });
    const config = plan.ok ? { id, plan: plan.value, common: commonOf(raw) } : undefined;
    return { issues: [], diagnostics: [], warnings: [], links: [], claims: [], ...(config ? { config } : {}), whole: true };
  }
  const own: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (key !== 'type' && !commonSettingNames.includes(key) && !unfilled.includes(key)) own[key] = value;
  }
  const pruned = pruneToSchema(type.settings, own);
  if (!pruned) return { issues: [], diagnostics: [], warnings: [], links: [], claims: [], whole: false };
  // Addresses and paths in the whole document: the parser's paths are the pruned settings' own.
  const mapLinks = (links: readonly Link[]) =>
    links.map((link) => ({ ...link, output: `${id}/${link.output}`, path: ['connections', id, ...pruned.original(link.path)] }));
  const enabled = raw['enabled'] !== false;
  const mapClaims = (claims: readonly Claim[]) =>
    enabled ? claims.map((claim) => ({ ...claim, id, path: ['connections', id, ...pruned.original(claim.path)] })) : [];
  const context = { id, baseDir };
  let plan = type.prepare(pruned.settings, context);
  if (!plan.ok) {
    const issues = plan.issues.map((issue) => ({ path: ['connections', id, ...pruned.original(issue.path)], message: issue.message }));
    // What the parser refused goes too, so the rest still takes part in the checks across
    // connections (cycles, ports).
    for (let round = 0; !plan.ok && round < 100; round++) {
      if (!plan.issues.map((issue) => pruned.drop(issue.path)).some(Boolean)) break;
      plan = type.prepare(pruned.settings, context);
    }
    return {
      issues,
      diagnostics: [],
      warnings: [],
      links: plan.ok ? mapLinks(plan.value.links) : [],
      claims: plan.ok ? mapClaims(plan.value.claims) : [],
      whole: false,
    };
  }
  const config: ConnectionConfig = { id, plan: plan.value, common: commonOf(raw) };
  const located = (issues: readonly Issue[]) =>
    issues.map((issue) => ({ ...issue, path: ['connections', id, ...pruned.original(issue.path)] }));
  return {
    issues: [],
    diagnostics: located(plan.value.diagnostics),
    warnings: located(plan.value.warnings),
    links: mapLinks(plan.value.links),
    claims: mapClaims(plan.value.claims),
    config,
    whole: pruned.whole(),
  };
}

/** The settings every connection has, from its entry (which the schema accepted). */
function commonOf(raw: Record<string, unknown>): ConnectionConfig['common'] {
  const text = (key: string) => (typeof raw[key] === 'string' ? (raw[key] as string) : '');
  return {
    enabled: raw['enabled'] !== false,
    description: text('description'),
    location: text('location'),
    group: text('group'),
    debug: raw['debug'] === true,
    statusParameters: raw['statusParameters'] === true,
    persist: raw['persist'] !== false,
    ...(raw['isolate'] === 'process' || raw['isolate'] === 'none' ? { isolate: raw['isolate'] } : {}),
    ...(typeof raw['maxMemoryMb'] === 'number' ? { maxMemoryMb: raw['maxMemoryMb'] } : {}),
    ...(typeof raw['hangMs'] === 'number' ? { hangMs: raw['hangMs'] } : {}),
  };
}

/** Two enabled connections that claim one thing (a TCP port): the later one is the mistake. */
function claimCollisions(claims: readonly IdClaim[]): Issue[] {
  return claims.flatMap((claim, index) => {
    const earlier = claims.slice(0, index).find((c) => c.what === claim.what && (c.on === claim.on || c.on === '' || claim.on === ''));
    return earlier
      ? [
          {
            path: claim.path,
            message: `${claim.what} is already claimed by connection "${earlier.id}" (${formatPath(earlier.path)}); two connections cannot share it`,
          },
        ]
      : [];
  });
}

/** Code flows are named after their files (R-R6): an id that is invalid or taken would fail at start. */
function flowIdClashes(flows: readonly { readonly file: string; readonly index: number }[], connectionIds: readonly string[]): Issue[] {
  const seen = new Map<string, number>();
  return flows.flatMap(({ file, index }) => {
    const id = flowIdOf(file);
    const clash = !isConnectionId(id)
      ? 'is not a valid id'
      : connectionIds.includes(id)
        ? "is a connection's id"
        : seen.has(id)
          ? `is also the id of flows[${seen.get(id)}]`
          : undefined;
    if (!seen.has(id)) seen.set(id, index);
    return clash ? [{ path: ['flows', index], message: `its id "${id}" (from the file name) ${clash}; rename the file` }] : [];
  });
}

/**
 * Cycles of parameters that follow each other in the same turn (`Link`s, with their
 * outputs as full addresses) through more than
 * one connection: they would never settle. A cycle within one connection is its own
 * parser's to report (R-V3).
 */
function linkCycles(all: readonly Link[]): Issue[] {
  const links = new Map(all.map((link) => [link.output, link]));
  const issues: Issue[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const reported = new Set<string>();
  const connectionOf = (address: string) => address.slice(0, address.indexOf('/'));
  const visit = (address: string, chain: string[]): void => {
    if (state.get(address) === 'done') return;
    if (state.get(address) === 'visiting') {
      const cycle = [...chain.slice(chain.indexOf(address)), address];
      const key = [...new Set(cycle)].sort().join();
      if (new Set(cycle.map(connectionOf)).size > 1 && !reported.has(key)) {
        reported.add(key);
        const first = cycle[0] as string;
        issues.push({ path: links.get(first)?.path ?? [], message: `cycle among functions: ${cycle.join(' → ')}` });
      }
      return;
    }
    state.set(address, 'visiting');
    for (const input of links.get(address)?.inputs ?? []) if (links.has(input)) visit(input, [...chain, address]);
    state.set(address, 'done');
  };
  for (const address of links.keys()) visit(address, []);
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
      const known = Object.keys((parent['properties'] as object | undefined) ?? {});
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

/** The flow-file JSON Schema, for editors (`patchbay schema`): a placeholder is accepted where a number or boolean is wanted. */
export function flowFileJsonSchema(plugins: Plugins = noPlugins): string {
  const withPlugins = plugins.types.length === 0 ? schema : flowFileSchema([...connectionTypes, ...plugins.types]);
  return `${JSON.stringify(acceptingPlaceholders(withPlugins), null, 2)}\n`;
}

/** A hub is in one redundancy group at most (R-B1): a second connection that names one is a mistake. */
function groupClashes(connections: readonly ConnectionConfig[]): Issue[] {
  const grouped = connections.filter((config) => config.plan.redundancyGroup !== undefined);
  return grouped.slice(1).map((config) => ({
    path: ['connections', config.id, 'hub', 'group'],
    message: `a hub is in one redundancy group at most; connection "${grouped[0]!.id}" puts it in group "${grouped[0]!.plan.redundancyGroup}" already`,
  }));
}
