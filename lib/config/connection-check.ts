/**
 * One connection of a flow file checked by its type's own parser, which builds its plan:
 * the mistakes, diagnostics and warnings it finds, and the links and claims the checks
 * across connections need, each with its path in the whole document.
 */
import type { Claim, ConnectionConfig, ConnectionType, Link, SettingWrite } from '../connections/connection.ts';
import type { Issue } from '../core/issue.ts';
import { filesFolderOf } from '../connections/files-folder.ts';
import { pruneToSchema } from './prune.ts';
import { commonSettingNames } from './schema.ts';

/** A claim with its connection, its path in the whole document. */
export type IdClaim = Claim & { readonly id: string };

/**
 * The connection's own checks (its type's parser), on its settings with whatever the
 * schema refuses taken out: `whole` when nothing had to be taken out. Undefined for an
 * entry that is not an object of a known type (the schema says so).
 */
export function checkConnection(
  id: string,
  /** The connection's entry, as an object (`{}` for one that is not). */
  raw: Record<string, unknown>,
  /** Where relative paths start, and the state folder a hub of the flow keeps, if any. */
  { baseDir, stateFolder }: { readonly baseDir: string; readonly stateFolder?: string | undefined },
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
      /** What it writes by itself, paths in the whole document; none while disabled. */
      writes?: SettingWrite[];
      config?: ConnectionConfig;
      whole: boolean;
    }
  | undefined {
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
  const context = { id, baseDir, ...(stateFolder === undefined ? {} : { filesFolder: filesFolderOf(stateFolder, type.type) }) };
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
  // Its type could not check it (a package's parse() that failed to answer): it fails at
  // start, and `validate` names why.
  const refused = plan.value.refused;
  const unchecked = refused ? [{ path: ['connections', id], message: `${refused.code}: ${refused.message}` }] : [];
  // An open door: the package's code runs inside the hub, where its crash, hang or leak is the hub's.
  const inHub =
    type.origin && raw['isolate'] === 'none'
      ? [
          {
            path: ['connections', id, 'isolate'],
            message: `"none" runs the code of package "${type.origin.package}" in the hub's own process: its crash, hang or leak is the hub's, and it sees all the hub sees`,
          },
        ]
      : [];
  return {
    issues: [],
    diagnostics: [...unchecked, ...located(plan.value.diagnostics)],
    warnings: [...inHub, ...located(plan.value.warnings)],
    links: mapLinks(plan.value.links),
    claims: mapClaims(plan.value.claims),
    writes: enabled
      ? (plan.value.writes ?? []).map((write) => ({ ...write, path: ['connections', id, ...pruned.original(write.path)] }))
      : [],
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
