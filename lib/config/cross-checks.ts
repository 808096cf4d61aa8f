/**
 * The mistakes of a flow file that no one entry shows alone: functions that follow each
 * other round through connections, two connections that claim one thing or put the hub in
 * two redundancy groups, code flows whose ids clash, and `machineEdits` on while the hub is
 * served beyond this machine.
 */
import type { ConnectionConfig, Link } from '../connections/connection.ts';
import { isConnectionId } from '../core/address.ts';
import { formatPath, type Issue } from '../core/issue.ts';
import { flowIdOf } from '../rules/code-flows/flow-id.ts';
import type { IdClaim } from './connection-check.ts';

/** Two enabled connections that claim one thing (a TCP port): the later one is the mistake. */
export function claimCollisions(claims: readonly IdClaim[]): Issue[] {
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
export function flowIdClashes(
  flows: readonly { readonly file: string; readonly index: number }[],
  connectionIds: readonly string[],
): Issue[] {
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
export function linkCycles(all: readonly Link[]): Issue[] {
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

/** A hub is in one redundancy group at most (R-B1): a second connection that names one is a mistake. */
export function groupClashes(connections: readonly ConnectionConfig[]): Issue[] {
  const grouped = connections.filter((config) => config.plan.redundancyGroup !== undefined);
  return grouped.slice(1).map((config) => ({
    path: ['connections', config.id, 'hub', 'group'],
    message: `a hub is in one redundancy group at most; connection "${grouped[0]!.id}" puts it in group "${grouped[0]!.plan.redundancyGroup}" already`,
  }));
}

/** An address that reaches only this machine. */
const onThisMachine = (address: unknown): boolean =>
  typeof address === 'string' && (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address) || address === '::1' || address === 'localhost');

/**
 * Whether `machineEdits: true` holds (R-ST8): only while every connection that serves the hub
 * and listens (a `bindIp`) listens on this machine alone — a console reached from elsewhere
 * never installs code here by the file's leave given for a local one. When it does not hold,
 * a warning says which connection keeps it off (`validate` lists it, `run` logs it).
 */
export function machineEditsHeld(written: unknown, connections: readonly ConnectionConfig[]): { held: boolean; warnings: Issue[] } {
  if (written !== true) return { held: false, warnings: [] };
  const open = connections.find(
    (config) =>
      config.common.enabled && config.plan.servesHub && 'bindIp' in config.plan.written && !onThisMachine(config.plan.written['bindIp']),
  );
  if (!open) return { held: true, warnings: [] };
  const where = open.plan.written['bindIp'] === '' ? 'every interface' : String(open.plan.written['bindIp']);
  return {
    held: false,
    warnings: [
      {
        path: ['machineEdits'],
        message: `off while connection "${open.id}" serves the hub on ${where}: the console may change this machine only while it is served on this machine alone (bindIp 127.0.0.1), or with --allow-machine-edits`,
      },
    ],
  };
}
