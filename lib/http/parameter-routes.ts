/**
 * Reading parameters over HTTP (R-H1, R-H7): one value as text or JSON, and the list of
 * every parameter a login may read, narrowed by filters and streamed when long.
 */
import { Type } from '@sinclair/typebox';
import { ParameterListing, ValueSchema } from '../core/api-shapes.ts';
import { ok as success, type Result } from '../core/errors.ts';
import type { Reading } from '../core/graph.ts';
import { type ClientAccess, lookupFor, withStanding } from './access.ts';
import { compileFilters } from './filters.ts';
import { ok, type Query } from './operation-shapes.ts';
import { acceptsJson, JSON_TYPE, jsonClient, sendError, sendOk, TEXT } from './respond.ts';
import type { Handler, Route } from './route.ts';
import { slices, stream } from './stream.ts';
import { flag, flagSchema } from './ws/upgrade-query.ts';

const PARAMETERS = '/parameters/';

/** R-H1: the value as text, or as JSON for clients that accept it; 503 while unknown. */
const readParameter: Handler = (res, req, { graph, connections }, access) => {
  const json = acceptsJson(req);
  let address = req.getUrl().slice(PARAMETERS.length);
  if (address.includes('%')) {
    try {
      address = decodeURIComponent(address);
    } catch {
      return sendError(res, { code: 'PB_BAD_ADDRESS', message: 'bad percent-encoding in the address' }, jsonClient(req));
    }
  }
  const found = lookupFor(access, graph, address);
  if (!found.ok) return sendError(res, withStanding(found.error, address, connections), jsonClient(req));
  const value = found.value.value;
  if (value === undefined) {
    const why = found.value.type === 'T' ? 'a trigger has no state' : 'the value is unknown';
    return sendError(res, { code: 'PB_STATE_UNKNOWN', message: `${address}: ${why}` }, jsonClient(req));
  }
  if (json) sendOk(res, JSON_TYPE, JSON.stringify(value));
  else sendOk(res, TEXT, typeof value === 'string' ? value : String(value));
};

/** Below this many parameters `GET /parameters` is answered at once; above, streamed in slices. */
const LIST_AT_ONCE = 2000;

/**
 * Which parameters a listing for this client holds, and with what access: those it may read
 * that any of the request's `?filter=`s match (all without one). Shared by `GET /parameters`
 * and the description that lists them (`/openapi.json?parameters=1`).
 */
export function listedFor(access: ClientAccess, query: URLSearchParams): Result<(p: Reading) => Reading['access'] | undefined> {
  const filters = compileFilters(query.getAll('filter'));
  if (!filters.ok) return filters;
  return success((p) =>
    access.canRead(p.address) && (filters.value.length === 0 || filters.value.some((f) => f.test(p.address)))
      ? access.full
        ? p.access
        : accessAs(access, p)
      : undefined,
  );
}

/**
 * R-H7: every parameter with type, access and known value, narrowed by `?filter=`. A long
 * list is built and sent in slices of about a millisecond, so one request for 100,000
 * parameters does not hold every other client for the whole of it.
 */
const listParameters: Handler = (res, req, { graph, log }, access) => {
  const query = new URLSearchParams(req.getQuery() ?? '');
  const listed = listedFor(access, query);
  if (!listed.ok) return sendError(res, listed.error, jsonClient(req));
  const withMeta = flag(query.get('meta'));
  if (withMeta === undefined) return sendError(res, { code: 'PB_BAD_REQUEST', message: 'meta is 1 or 0 (true or false)' }, jsonClient(req));
  const entry = (p: Reading) => {
    const as = listed.value(p);
    if (as === undefined) return undefined;
    const last = p.lastChange;
    return JSON.stringify({
      p: p.address,
      type: p.type,
      access: as,
      ...(p.value === undefined ? {} : { v: p.value }),
      ...(last ? { by: last.by, at: new Date(last.at).toISOString() } : {}),
      ...(withMeta && p.meta !== undefined ? { meta: p.meta } : {}),
    } satisfies ParameterListing);
  };
  // Readings, not parameters: listing a million a table has not made yet makes none of them.
  const rest = graph.readings();
  // What parameters say of themselves may run long (a router's choices): such a list is sent in slices whatever its length.
  if (graph.size <= LIST_AT_ONCE && !withMeta) {
    const parts: string[] = [];
    for (const parameter of rest) {
      const text = entry(parameter);
      if (text !== undefined) parts.push(text);
    }
    return sendOk(res, JSON_TYPE, `[${parts.join(',')}]`);
  }
  // Live, as the graph goes on changing: one removed before it is reached is not listed.
  stream(res, JSON_TYPE, slices('[', rest, entry, ']'), log);
};

/**
 * A parameter's access as a scoped token has it (R-A2): what the parameter allows, less the
 * writes the token may not make. A write-only parameter the token may not write is listed
 * read-only, as everything else it may look at but not change.
 */
function accessAs(access: ClientAccess, p: Reading): Reading['access'] {
  if (p.access === 'read-only' || access.canWrite(p.address)) return p.access;
  return 'read-only';
}

export const filter: Query = {
  description: 'A regular expression (RE2 syntax); only addresses any given one matches are listed (R-H9).',
  schema: Type.String(),
  repeats: true,
};

export const parameterRoutes: readonly Route[] = [
  {
    path: '/parameters/*',
    get: {
      summary: 'Read a value',
      description:
        'The string form (`text/plain; charset=utf-8`), or the JSON value with `Accept: application/json` (R-H1); **503 State Unknown** while unknown (a trigger always); 404 for an unknown connection or parameter, with the reason.',
      tag: 'values',
      variable: { name: 'address', description: 'The address, `<connection>/<parameter id>` (percent-encoded where needed).' },
      answers: { 200: ok('The value.', { [TEXT]: Type.String(), [JSON_TYPE]: ValueSchema }) },
      errors: ['PB_BAD_ADDRESS', 'PB_UNKNOWN_CONNECTION', 'PB_UNKNOWN_PARAMETER', 'PB_STATE_UNKNOWN'],
      handle: readParameter,
    },
  },
  {
    path: '/parameters',
    get: {
      summary: 'List the parameters',
      description:
        '`[{"p", "type", "access", "v"?, "by"?, "at"?, "meta"?}]` for every parameter (R-H7): `v`, the JSON value, absent while unknown; `by` and `at`, who made the last change and when (R-O2); `access` as the asking token has it (`read-only` where a scoped token may not write); `meta`, with `?meta=1`, what it says of itself (R-PK6: label, description, unit, range, step, choices; `arguments` for a command whose write is a JSON object of them, R-PK8), absent when it says nothing; narrowed by filters (any may match). Above 2,000 parameters, or with `?meta=1`, it is sent in slices of about a millisecond, so a list of 100,000 (or of long choices) holds no other client.',
      tag: 'values',
      query: {
        filter,
        meta: {
          description: '`1`: each parameter with what it says of itself (R-PK6), when it says anything.',
          schema: flagSchema(),
        },
      },
      answers: { 200: ok('The parameters, in definition order.', { [JSON_TYPE]: Type.Array(ParameterListing) }) },
      errors: ['PB_BAD_FILTER', 'PB_BAD_REQUEST'],
      handle: listParameters,
    },
  },
];
