/**
 * What the hub is running, for a login to look at (R-L2): its connections, its problems and
 * its rules, each narrowed to what the login may see. What connections say of themselves is
 * masked here, once for every type.
 */
import { Type } from '@sinclair/typebox';
import { ConnectionInfo, Problem, RuleListing, SiteListing } from '../core/api-shapes.ts';
import type { ClientAccess } from './access.ts';
import { ok } from './operation-shapes.ts';
import { redacted } from './redact.ts';
import { JSON_TYPE, sendOk } from './respond.ts';
import type { Handler, Route } from './route.ts';

const listConnections: Handler = (res, _req, { connections }, access) =>
  sendOk(res, JSON_TYPE, JSON.stringify(redacted(connections().filter((c) => access.seesConnection(c.id)))));

// The site as each connection that shares with other hubs sees it (an mqtt connection with `hub`), read from its
// details — what `/connections` holds, gathered. Known by what its details hold: lib/http names no connection type.
const listSite: Handler = (res, _req, { connections }, access) =>
  sendOk(
    res,
    JSON_TYPE,
    JSON.stringify(
      connections().flatMap((c) => {
        const details = c.details as Record<string, unknown> | undefined;
        if (!access.seesConnection(c.id) || details?.['hubs'] === undefined || typeof details['refusedTokens'] !== 'number') return [];
        const { hubs, refusedTokens, redundancy } = details;
        return [{ connection: c.id, hubs, refusedTokens, ...(redundancy === undefined ? {} : { redundancy }) }];
      }),
    ),
  );

const listProblems: Handler = (res, _req, { problems }, access) =>
  sendOk(res, JSON_TYPE, JSON.stringify(redacted(problems().filter((p) => visibleProblem(access, p)))));

// What a rule conflicts with names other rules and settings of the flow: for full access alone.
const listRules: Handler = (res, _req, { rules }, access) =>
  sendOk(
    res,
    JSON_TYPE,
    JSON.stringify(
      rules().flatMap(({ conflicts, ...rule }) =>
        visibleRule(access, rule) ? [access.full && conflicts ? { ...rule, conflicts } : rule] : [],
      ),
    ),
  );

/** A scoped token sees the problems of the connections it sees, and an admin token a package installed again; the rest (rules, code flows, state) only full access does. */
function visibleProblem(access: ClientAccess, problem: Problem): boolean {
  // A package installed again is the admins' to reload (R-PK10): what runs of it is theirs to see.
  return (
    access.full || (problem.source === 'connection' && access.seesConnection(problem.id)) || (problem.source === 'package' && access.admin)
  );
}

/** A scoped token sees the rules whose every address it may read. */
function visibleRule(access: ClientAccess, rule: RuleListing): boolean {
  return access.full || [rule.source, ...rule.destinations].every((address) => access.canRead(address));
}

export const listingRoutes: readonly Route[] = [
  {
    path: '/connections',
    get: {
      summary: 'List the connections',
      description:
        '`[{"id", "type", "status", "reason", "code"?, "owner"?, "description", "location", "group", "details"?}]` (R-L2); `code` while failed or degraded; `owner` names the hub that runs a connection shown from another hub (R-M5); a rest-api\'s details hold its port, `tls` and WebSocket client counts; secrets and absolute paths are masked (below).',
      tag: 'hub',
      answers: { 200: ok('The connections this login sees.', { [JSON_TYPE]: Type.Array(ConnectionInfo) }) },
      errors: [],
      handle: listConnections,
    },
  },
  {
    path: '/site',
    get: {
      summary: 'Show the site',
      description:
        "For each mqtt connection with `hub` (R-M5): the other hubs on its broker (`hubs`, here or away, with the connections each shares), the fencing tokens refused (`refusedTokens`, R-EG2) and, in a redundancy group, `redundancy`: the group, this hub's role, the epoch, the active hub and, on etcd, `coordinator` with the endpoints, the members campaigning (the active one first), the revision (the fencing token), the lease and its time left on this hub (R-EG4). The same as the connection's `details` in `GET /connections`, gathered; a scoped token sees the mqtt connections it sees.",
      tag: 'hub',
      answers: { 200: ok("The site as this hub's mqtt connections see it.", { [JSON_TYPE]: Type.Array(SiteListing) }) },
      errors: [],
      handle: listSite,
    },
  },
  {
    path: '/problems',
    get: {
      summary: 'List the problems',
      description:
        'The hub\'s current problems: failed or degraded connections, failed code flows, rules with problems, a state folder that cannot be written, a package installed again while an older version runs (R-PK10, `PB_PLUGIN_CHANGED`: a reload runs it); each `{ source: "connection" | "code-flow" | "rule" | "state" | "package", id, code, message }`. A scoped token sees the problems of the connections it sees, and an admin token a package installed again.',
      tag: 'hub',
      answers: { 200: ok('The problems now.', { [JSON_TYPE]: Type.Array(Problem) }) },
      errors: [],
      handle: listProblems,
    },
  },
  {
    path: '/rules',
    get: {
      summary: 'List the rules',
      description:
        "The flow's enabled rules in the order they run: `[{ path, folders, name, source, destinations, pipe, from?, expr?, on?, combine?, status, code?, reason?, conflicts? }]` (`folders` the names of the folders the rule stands in, outermost first, R-R2; `pipe` as written in the flow file; a rule that holds state has `from`, its sources by name, `source` the first of them, `destinations` its `to`, and `expr`, `on` and `combine` as written, R-RS1–R-RS4 — a pattern rule is one entry, its matches not listed; `conflicts`, what `validate` warns of another rule or a key's press writing what it holds, at it or naming it, R-RS4, to full access; a rule whose write was refused stays `running`, the refusal listed in `GET /problems` until a write there is taken, R-RS6; `status` `running`, `waiting` for a parameter it names (`PB_WAITING`, R-G2), `failed` or `idle`); a scoped token sees the rules whose every address it may read.",
      tag: 'hub',
      answers: { 200: ok('The rules.', { [JSON_TYPE]: Type.Array(RuleListing) }) },
      errors: [],
      handle: listRules,
    },
  },
];
