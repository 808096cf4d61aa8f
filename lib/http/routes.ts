/**
 * The HTTP routes of a rest-api connection (R-H1, R-H2, R-H4, R-H7): one handler per
 * built-in path and method, plus hosted files and 404 for everything else. Handlers follow
 * the rules of the native edge: request data is read before they return, `onAborted` is
 * set before anything asynchronous, and every later answer is corked. Authentication and
 * the fault guard are the server's; parsing is the pure modules'.
 */
import type { ParameterListing, Problem, RuleListing } from '../core/api-shapes.ts';
import type { Reading } from '../core/graph.ts';
import type { Parameter } from '../core/parameter.ts';
import { reasonOf, type Result } from '../core/errors.ts';
import { namingOnce } from '../core/sparse-log.ts';
import { bodyFields, bodyTypeOf, checkSize, formFields, type UpdateFields } from './body.ts';
import { compileFilters } from './filters.ts';
import { type ClientAccess, lookupFor, writableFor } from './access.ts';
import { acceptsJson, type CodedError, JSON_TYPE, jsonClient, sendError, sendOk, TEXT } from './respond.ts';
import { FILE_CHUNK, fileChunks } from './static-files.ts';
import { readFile } from 'node:fs/promises';
import { descriptionRoutes } from './description-routes.ts';
import { flowRoutes } from './flow-routes.ts';
import { operatingRoutes } from './operating-routes.ts';
import { answerLater, clientAddress, readBody } from './handling.ts';
import { redacted } from './redact.ts';
import { stream } from './stream.ts';
import type { Handler, Route, RouteContext } from './route.ts';
import type { HttpRequest, HttpResponse } from './uws.ts';

const PARAMETERS = '/parameters/';

/** R-H1: the value as text, or as JSON for clients that accept it; 503 while unknown. */
const readParameter: Handler = (res, req, { graph }, access) => {
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
  if (!found.ok) return sendError(res, found.error, jsonClient(req));
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
 * R-H7: every parameter with type, access and known value, narrowed by `?filter=`. A long
 * list is built and sent in slices of about a millisecond, so one request for 100,000
 * parameters does not hold every other client for the whole of it.
 */
const listParameters: Handler = (res, req, { graph, log }, access) => {
  const filters = compileFilters(new URLSearchParams(req.getQuery() ?? '').getAll('filter'));
  if (!filters.ok) return sendError(res, filters.error, jsonClient(req));
  const wanted = (p: Reading) => access.canRead(p.address) && (filters.value.length === 0 || filters.value.some((f) => f.test(p.address)));
  const entry = (p: Reading) => {
    const last = p.lastChange;
    return JSON.stringify({
      p: p.address,
      type: p.type,
      access: access.full ? p.access : accessAs(access, p),
      ...(p.value === undefined ? {} : { v: p.value }),
      ...(last ? { by: last.by, at: new Date(last.at).toISOString() } : {}),
    } satisfies ParameterListing);
  };
  // Readings, not parameters: listing a million a table has not made yet makes none of them.
  const rest = graph.readings();
  if (graph.size <= LIST_AT_ONCE) {
    const parts: string[] = [];
    for (const parameter of rest) if (wanted(parameter)) parts.push(entry(parameter));
    return sendOk(res, JSON_TYPE, `[${parts.join(',')}]`);
  }
  // Live, as the graph goes on changing: one removed before it is reached is not listed.
  let begun = false;
  let ended = false;
  let first = true;
  stream(
    res,
    JSON_TYPE,
    () => {
      if (ended) return undefined;
      const parts: string[] = begun ? [] : ['['];
      begun = true;
      // The real clock: how long this slice held the event loop, which virtual time cannot measure.
      const started = performance.now();
      for (let count = 1; count % 64 !== 0 || performance.now() - started < 1; count++) {
        const next = rest.next();
        if (next.done) {
          parts.push(']');
          ended = true;
          break;
        }
        if (!wanted(next.value)) continue;
        parts.push(first ? entry(next.value) : `,${entry(next.value)}`);
        first = false;
      }
      return parts.join('');
    },
    log,
  );
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

/**
 * R-H2: converts and writes; answers 200, or the error with its code. A value the hub
 * keeps is stored before the answer goes out (R-S4), so a client that has its `OK` knows
 * the value survives the hub being killed; answers waiting together share one commit.
 */
function answerUpdate(res: HttpResponse, context: RouteContext, access: ClientAccess, fields: Result<UpdateFields>, json: boolean): void {
  if (!fields.ok) return sendError(res, fields.error, json);
  const { parameter: address, value } = fields.value;
  const { settled, log } = context;
  // Looked up once, here: whether it answers later, the write, whether it is kept.
  const found = writableFor(access, context.graph, address);
  if (!found.ok) return refuse(context, res, address, found.error, json);
  const parameter = found.value;
  if (parameter.answersLater) return answerForwarded(res, context, parameter, value, json);
  const written = parameter.set(value, httpOrigin(res));
  if (!written.ok) return refuse(context, res, address, written.error, json);
  const kept = settled !== undefined && parameter.persist === true;
  // On the active hub of a group a write is answered once the broker has it: a standby that takes over has it too (R-B2).
  const group = context.group?.();
  const replicated = group?.role() === 'active' ? group : undefined;
  if (!kept && !replicated) return answerTaken(res, json);
  // Callbacks stay inline (anonymous): this runs for every kept write.
  let aborted = false;
  res.onAborted(() => (aborted = true));
  if (!replicated && settled) {
    settled(() => {
      if (!aborted) answerLater(res, json, log, () => answerTaken(res, json));
    });
    return;
  }
  let waiting = kept ? 2 : 1;
  let reached = true;
  const done = (acknowledged: boolean) => {
    reached &&= acknowledged;
    if (--waiting > 0 || aborted) return;
    answerLater(res, json, log, () => (reached ? answerTaken(res, json) : sendError(res, notReplicated, json)));
  };
  if (kept) settled?.(() => done(true));
  replicated?.replicated(done);
}

const notReplicated: CodedError = {
  code: 'PB_BROKER_UNAVAILABLE',
  message:
    'written on this hub, but its broker connection closed before the broker had the value: a standby that takes over may not have it',
};

/**
 * A write to a parameter answered later — owned by another hub or a broker topic (R-M5), a
 * device, a scene, an http-client request — is answered with its owner's answer: taken, or
 * the owner's error and code.
 */
function answerForwarded(res: HttpResponse, context: RouteContext, parameter: Parameter, value: unknown, json: boolean): void {
  const { log } = context;
  let aborted = false;
  res.onAborted(() => (aborted = true));
  const client = clientAddress(res);
  const written = parameter.set(value, httpOrigin(res), (answer) => {
    if (!answer.ok) context.refusals.warn(refusalLine(client, parameter.address, answer.error));
    if (!aborted) answerLater(res, json, log, () => (answer.ok ? answerTaken(res, json) : sendError(res, answer.error, json)));
  });
  if (!written.ok) refuse(context, res, parameter.address, written.error, json);
}

/** Answers a refused write, and logs it (sparsely): whoever watches the hub sees what clients get wrong. */
function refuse(context: RouteContext, res: HttpResponse, address: string, error: CodedError, json: boolean): void {
  context.refusals.warn(refusalLine(clientAddress(res), address, error));
  sendError(res, error, json);
}

const refusalLine = (client: string, address: string, error: CodedError) =>
  `HTTP write from ${client} refused: ${namingOnce(address, error.message)} (${error.code})`;

/** Who an HTTP write is from (R-O2): `http <client address>`. */
function httpOrigin(res: HttpResponse): string {
  return `http ${clientAddress(res)}`;
}

function answerTaken(res: HttpResponse, json: boolean): void {
  if (json) sendOk(res, JSON_TYPE, '{"ok":true}');
  else sendOk(res, TEXT, 'OK');
}

const updateFromQuery: Handler = (res, req, context, access) => {
  answerUpdate(res, context, access, formFields(new URLSearchParams(req.getQuery() ?? '')), jsonClient(req));
};

/** R-H2 `POST /update`: type and declared size are checked before a byte is read. */
const updateFromBody: Handler = (res, req, context, access) => {
  const { maxBody, log } = context;
  const json = jsonClient(req);
  const type = bodyTypeOf(req.getHeader('content-type'));
  if (!type.ok) return sendError(res, type.error, json, { close: true });
  if (ambiguousLength(req)) return void res.close();
  const declared = checkSize(Number(req.getHeader('content-length') || 0), maxBody);
  if (!declared.ok) return sendError(res, declared.error, json, { close: true });
  readBody(res, maxBody, (body) =>
    answerLater(res, json, log, () => {
      if (!body.ok) return sendError(res, body.error, json, { close: true });
      answerUpdate(res, context, access, bodyFields(type.value, body.value), json);
    }),
  );
};

/**
 * Two `Content-Length`s, or one beside `Transfer-Encoding`: the server and a proxy in
 * front of it could read different bodies, and the rest would run as a hidden request.
 * uWS reads only the first header of a name, so the headers are counted here. Such a
 * request gets no answer: the connection is closed at once, because uWS runs whatever is
 * pipelined behind an answered request before it closes the connection.
 */
function ambiguousLength(req: HttpRequest): boolean {
  let lengths = 0;
  let chunked = false;
  req.forEach((name) => {
    if (name === 'content-length') lengths++;
    else if (name === 'transfer-encoding') chunked = true;
  });
  return lengths > 1 || (lengths > 0 && chunked);
}

/** The built-in paths (R-H4: they win over files of the same name). */
export const routes: readonly Route[] = [
  { path: '/parameters/*', get: readParameter },
  { path: '/parameters', get: listParameters },
  // Both carry what connections say of themselves, secrets included: masked here, once for every type.
  {
    path: '/connections',
    get: (res, _req, { connections }, access) =>
      sendOk(res, JSON_TYPE, JSON.stringify(redacted(connections().filter((c) => access.seesConnection(c.id))))),
  },
  {
    path: '/problems',
    get: (res, _req, { problems }, access) =>
      sendOk(res, JSON_TYPE, JSON.stringify(redacted(problems().filter((p) => visibleProblem(access, p))))),
  },
  {
    path: '/rules',
    get: (res, _req, { rules }, access) => sendOk(res, JSON_TYPE, JSON.stringify(rules().filter((r) => visibleRule(access, r)))),
  },
  { path: '/update', get: updateFromQuery, post: updateFromBody, changes: 'get' },
  ...operatingRoutes,
  ...flowRoutes,
  ...descriptionRoutes,
];

/** A scoped token sees the problems of the connections it sees; the rest (rules, code flows, state) only full access does. */
function visibleProblem(access: ClientAccess, problem: Problem): boolean {
  return access.full || (problem.source === 'connection' && access.seesConnection(problem.id));
}

/** A scoped token sees the rules whose every address it may read. */
function visibleRule(access: ClientAccess, rule: RuleListing): boolean {
  return access.full || [rule.source, ...rule.destinations].every((address) => access.canRead(address));
}

/** The `Allow` value of a built-in path. */
export const allowedMethods = (route: Route): string =>
  [
    ...(route.get ? (route.post ? ['GET'] : ['GET', 'HEAD']) : []),
    ...(route.post ? ['POST'] : []),
    ...(route.put ? ['PUT'] : []),
    'OPTIONS',
  ].join(', ');

/** Any other method on a built-in path: 405 with `Allow`. */
export const methodNotAllowed =
  (route: Route): Handler =>
  (res, req) => {
    const allowed = allowedMethods(route);
    sendError(res, { code: 'PB_METHOD_NOT_ALLOWED', message: `use ${allowed} for ${route.path}` }, jsonClient(req), {
      headers: [['Allow', allowed]],
    });
  };

/** GET on any other path: 426 for `/ws` without an upgrade, else a hosted file or 404 (R-H4). */
export const getOther: Handler = (res, req, { files, log }) => {
  const url = req.getUrl();
  const json = jsonClient(req);
  if (url === '/ws') return sendError(res, { code: 'PB_UPGRADE_REQUIRED', message: 'GET /ws upgrades to a WebSocket' }, json);
  if (!files) return sendError(res, nothingAt('GET', url), json);
  let aborted = false;
  res.onAborted(() => (aborted = true));
  const noFile: CodedError = { code: 'PB_NOT_FOUND', message: `no file at ${url}` };
  files
    .find(url)
    .then(async (file) => {
      if (!file) {
        if (!aborted) answerLater(res, json, log, () => sendError(res, noFile, json));
        return;
      }
      if (file.size <= FILE_CHUNK) {
        // One chunk: sent whole, with its Content-Length.
        const body = await readFile(file.path);
        if (!aborted) answerLater(res, json, log, () => sendOk(res, file.contentType, body));
        return;
      }
      const chunks = await fileChunks(file.path);
      if (aborted) return chunks.close();
      stream(res, file.contentType, chunks.next, log, chunks.close, file.size);
    })
    .catch((error: unknown) => {
      log.warn(`reading ${url} failed: ${reasonOf(error)}`);
      if (!aborted) answerLater(res, json, log, () => sendError(res, noFile, json));
    });
};

/** Any other method on any other path. */
export const notFound: Handler = (res, req) => {
  sendError(res, nothingAt(req.getMethod().toUpperCase(), req.getUrl()), jsonClient(req));
};

const nothingAt = (method: string, url: string): CodedError => ({ code: 'PB_NOT_FOUND', message: `nothing at ${method} ${url}` });
