/**
 * What the node's HTTP APIs answer (R-NM1, R-NM2, R-NM3), as a pure function of a path: the
 * IS-04 Node API (`/x-nmos/node/v1.3/`: self, devices, sources, flows, senders, receivers), the
 * IS-07 Events API (`/x-nmos/events/v1.0/sources/{id}/state` and `/type`) and the IS-05
 * Connection API (`/x-nmos/connection/v1.1/`, connection-api.ts). Every path answers
 * with and without its trailing slash alike, as IS-04 asks of GET and HEAD; an unknown path
 * or id is a 404 in NMOS's error shape (`code`, `error`, `debug`).
 */
import { answerConnection, type ConnectionMethod, type ConnectionView } from './connection-api.ts';
import type { TypeDefinition } from './event-types.ts';
import type { Resources } from './resources.ts';
import type { SourceState, StateMessage } from './resource-shapes.ts';

export interface Answer {
  readonly status: 200 | 202 | 400 | 404 | 405 | 413 | 423 | 500;
  readonly body: unknown;
}

/** What the Events API reads of a source. */
export interface EventSourceView {
  state(): StateMessage;
  readonly definition: TypeDefinition;
}

export interface ApiView {
  readonly resources: Resources;
  eventSource(id: string): EventSourceView | undefined;
  readonly connection: ConnectionView;
}

const notFound = (path: string): Answer => ({
  status: 404,
  body: { code: 404, error: 'Not Found', debug: `nothing at ${path}` },
});
const ok = (body: unknown): Answer => ({ status: 200, body });
const notAllowed = (method: string, path: string): Answer => ({
  status: 405,
  body: { code: 405, error: 'Method Not Allowed', debug: `${method} is not served at ${path}` },
});

const NODE_LISTS = ['devices', 'sources', 'flows', 'senders', 'receivers'] as const;

/** The answer to a request at `path` (percent-decoded, its query left off): GET anywhere, PATCH and POST in the Connection API (`body` parsed JSON). */
export function answerRequest(method: ConnectionMethod, path: string, body: unknown, view: ApiView): Answer {
  const trimmed = path.replace(/^\//, '').replace(/\/$/, '');
  const segments = trimmed === '' ? [] : trimmed.split('/');
  if (segments.includes('')) return notFound(path);
  const [root, api, version, ...rest] = segments;
  if (api === 'connection' && version === 'v1.1') return answerConnection(method, rest, path, body, view.connection);
  if (method !== 'GET') return root === 'x-nmos' ? notAllowed(method, path) : notFound(path);
  if (root === undefined) return ok(['x-nmos/']);
  if (root !== 'x-nmos') return notFound(path);
  if (api === undefined) return ok(['node/', 'events/', 'connection/']);
  if (api === 'connection') return version === undefined ? ok(['v1.1/']) : notFound(path);
  if (api === 'node') {
    if (version === undefined) return ok(['v1.3/']);
    if (version !== 'v1.3') return notFound(path);
    return nodeApi(rest, path, view.resources);
  }
  if (api === 'events') {
    if (version === undefined) return ok(['v1.0/']);
    if (version !== 'v1.0') return notFound(path);
    return eventsApi(rest, path, view);
  }
  return notFound(path);
}

function nodeApi(rest: readonly string[], path: string, resources: Resources): Answer {
  const [list, id, more] = rest;
  if (list === undefined) return ok(['self/', ...NODE_LISTS.map((name) => `${name}/`)]);
  if (list === 'self') return rest.length === 1 ? ok(resources.node) : notFound(path);
  if (!(NODE_LISTS as readonly string[]).includes(list)) return notFound(path);
  const lists: Readonly<Record<(typeof NODE_LISTS)[number], readonly { id: string }[]>> = {
    devices: [resources.device],
    sources: resources.sources,
    flows: resources.flows,
    senders: resources.senders,
    receivers: resources.receivers,
  };
  const all = lists[list as (typeof NODE_LISTS)[number]];
  if (id === undefined) return ok(all);
  const found = all.find((resource) => resource.id === id);
  return found && more === undefined ? ok(found) : notFound(path);
}

/**
 * A source's state as the Events API gives it: without the flow, which only a message sent
 * through a sender carries (IS-07's message types: the state is the source's, whatever flow).
 */
function restState({ identity, ...state }: StateMessage): SourceState {
  return { ...state, identity: { source_id: identity.source_id } };
}

function eventsApi(rest: readonly string[], path: string, view: ApiView): Answer {
  const [list, id, part, more] = rest;
  if (list === undefined) return ok(['sources/']);
  if (list !== 'sources') return notFound(path);
  if (id === undefined) return ok(view.resources.sources.map((source) => `${source.id}/`));
  const source = view.eventSource(id);
  if (source === undefined || more !== undefined) return notFound(path);
  if (part === undefined) return ok(['state/', 'type/']);
  if (part === 'state') return ok(restState(source.state()));
  if (part === 'type') return ok(source.definition);
  return notFound(path);
}
