/**
 * What the node's Connection API answers (R-NM3, IS-05 v1.1 at `/x-nmos/connection/v1.1/`),
 * as a pure function of a method, a path and a parsed body: the listings, each sender's and
 * receiver's `constraints`, `staged`, `active` and `transporttype` (a WebSocket sender has no
 * transport file: its `transportfile` is the 404 IS-05 asks of that transport), a PATCH of
 * `staged`, and the bulk interface — a POST of many PATCHes, each answered with the status it
 * would have had alone. A path that exists but not for the method is a 405, as IS-05 asks of
 * a GET of `bulk/senders`.
 */
import { type ConnectionAnswer, type ConnectionEndpoint, refusal } from './connection-endpoint.ts';

export interface ConnectionView {
  readonly senders: readonly ConnectionEndpoint[];
  readonly receivers: readonly ConnectionEndpoint[];
}

export type ConnectionMethod = 'GET' | 'PATCH' | 'POST';

const TRANSPORT = 'urn:x-nmos:transport:websocket';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const ok = (body: unknown): ConnectionAnswer => ({ status: 200, body });
const notFound = (path: string) => refusal(404, `nothing at ${path}`, 'PB_NOT_FOUND');
const notAllowed = (method: string, path: string) => refusal(405, `${method} is not served at ${path}`, 'PB_METHOD_NOT_ALLOWED');

/** The answer at `rest`: the path's segments after `/x-nmos/connection/v1.1/`. */
export function answerConnection(
  method: ConnectionMethod,
  rest: readonly string[],
  path: string,
  body: unknown,
  view: ConnectionView,
): ConnectionAnswer {
  const [mode, kind, id, part, more] = rest;
  const only = (allowed: ConnectionMethod, answer: () => ConnectionAnswer) => (method === allowed ? answer() : notAllowed(method, path));
  if (mode === undefined) return only('GET', () => ok(['bulk/', 'single/']));
  if (mode !== 'bulk' && mode !== 'single') return notFound(path);
  if (kind === undefined) return only('GET', () => ok(['senders/', 'receivers/']));
  if (kind !== 'senders' && kind !== 'receivers') return notFound(path);
  const endpoints = kind === 'senders' ? view.senders : view.receivers;
  if (mode === 'bulk') return id !== undefined ? notFound(path) : only('POST', () => bulk(kind, body, endpoints));
  if (id === undefined) return only('GET', () => ok(endpoints.map((endpoint) => `${endpoint.id}/`)));
  const endpoint = endpoints.find((one) => one.id === id);
  if (endpoint === undefined || more !== undefined) return notFound(path);
  const sender = kind === 'senders';
  if (part === undefined) {
    return only('GET', () => ok(['constraints/', 'staged/', 'active/', ...(sender ? ['transportfile/'] : []), 'transporttype/']));
  }
  switch (part) {
    case 'constraints':
      return only('GET', () => ok(endpoint.constraints()));
    case 'staged':
      if (method === 'PATCH') return endpoint.patch(body);
      return only('GET', () => ok(endpoint.staged()));
    case 'active':
      return only('GET', () => ok(endpoint.activeBody()));
    case 'transporttype':
      return only('GET', () => ok(TRANSPORT));
    case 'transportfile':
      return sender ? only('GET', () => refusal(404, 'a WebSocket sender has no transport file (IS-05)', 'PB_NOT_FOUND')) : notFound(path);
    default:
      return notFound(path);
  }
}

/** A bulk POST: each `{ id, params }` staged as one PATCH would be; 400 only when the list itself is malformed. */
function bulk(kind: 'senders' | 'receivers', body: unknown, endpoints: readonly ConnectionEndpoint[]): ConnectionAnswer {
  if (!Array.isArray(body)) return refusal(400, `a bulk POST is a list of { id, params }`, 'PB_BAD_REQUEST');
  for (const [index, item] of body.entries()) {
    const entry = item as { id?: unknown; params?: unknown } | null;
    const keys = typeof entry === 'object' && entry !== null && !Array.isArray(entry) ? Object.keys(entry) : undefined;
    if (
      keys === undefined ||
      keys.some((key) => key !== 'id' && key !== 'params') ||
      typeof entry?.id !== 'string' ||
      !UUID.test(entry.id) ||
      entry.params === undefined
    ) {
      return refusal(400, `item ${index} of the bulk POST is not { id: <uuid>, params: {…} }`, 'PB_BAD_REQUEST');
    }
  }
  const answers = (body as { id: string; params: unknown }[]).map(({ id, params }) => {
    const endpoint = endpoints.find((one) => one.id === id);
    const answer = endpoint ? endpoint.patch(params) : refusal(404, `no ${kind.slice(0, -1)} ${id}`, 'PB_NOT_FOUND');
    if (answer.status < 400) return { id, code: answer.status };
    const { error, debug } = answer.body as { error: string; debug: string };
    return { id, code: answer.status, error, debug };
  });
  return ok(answers);
}
