/**
 * The routes of the people who run a hub on air (R-O1, R-B5): `/healthz` (the process
 * serves), `/readyz` (its connections are ok), `/metrics` (Prometheus) and `/failover` (a
 * standby asked to take over).
 */
import { Type } from '@sinclair/typebox';
import { type ConnectionInfo, ErrorCodeSchema, FailoverAnswer, Taken } from '../core/api-shapes.ts';
import { answerFault, answerLater, clientAddress } from './handling.ts';
import { ok } from './operation-shapes.ts';
import { redacted } from './redact.ts';
import { acceptsJson, JSON_TYPE, jsonClient, sendError, sendOk, TEXT } from './respond.ts';
import type { Handler, Route } from './route.ts';

/** R-O1: 200 while the process serves. */
const healthz: Handler = (res, req) => {
  if (acceptsJson(req)) sendOk(res, JSON_TYPE, '{"ok":true}');
  else sendOk(res, TEXT, 'OK');
};

/** A connection `/readyz` waits for, or `missing` for a required id that no connection has. */
type Readiness = Pick<ConnectionInfo, 'id' | 'reason' | 'code'> & { readonly status: ConnectionInfo['status'] | 'missing' };

/**
 * R-O1: 200 when every connection it waits for (`required`, else every enabled one) is
 * `ok`; otherwise 503 `PB_NOT_READY` with each one that is not, as JSON for any client.
 */
const readyz: Handler = (res, _req, context, access) => {
  const { connections, required } = context;
  // A scoped token learns only of the connections it sees, here as in /connections.
  const all = connections().filter((c) => access.seesConnection(c.id));
  if (all.length === 0 && connections().length > 0) {
    return sendError(res, { code: 'PB_FORBIDDEN', message: 'this token reads no connection, so /readyz has nothing to tell it' }, true);
  }
  // Another hub's connections are its readiness, not this one's: waited for only when named.
  const waitedFor: readonly Readiness[] =
    required.length > 0
      ? required.map((id) => all.find((c) => c.id === id) ?? { id, status: 'missing', reason: 'no connection has this id' })
      : all.filter((c) => c.status !== 'disabled' && c.owner === undefined);
  const notReady = waitedFor
    .filter((c) => c.status !== 'ok')
    .map(({ id, status, reason, code }) => ({ id, status, reason, ...(code ? { code } : {}) }));
  // A standby is ready (R-B1): it serves reads and forwards writes; its role says what it is.
  // A hub of a group on etcd that cannot reach etcd is not: it could not take over (R-EG4).
  const group = context.group?.();
  const role = group?.role();
  const unready = group?.unready?.();
  if (unready !== undefined) notReady.push({ id: 'coordinator', status: 'degraded', reason: unready });
  if (notReady.length === 0)
    return sendOk(res, JSON_TYPE, JSON.stringify({ ok: true, connections: waitedFor.length, ...(role ? { role } : {}) }));
  const error = `${notReady.length} of ${waitedFor.length} connections not ok: ${notReady.map((c) => `${c.id} ${c.status}`).join(', ')}`;
  sendError(res, { code: 'PB_NOT_READY', message: error }, true, { extra: { connections: redacted(notReady) } });
};

/**
 * R-B5: asks this standby to take over its redundancy group now — the operator's confirmation
 * under `failover: "manual"`, or a planned move of the active role. Full access or an `admin` token.
 */
const failover: Handler = (res, req, { group, log }, access) => {
  const json = jsonClient(req);
  if (!access.full && !access.admin)
    return sendError(res, { code: 'PB_FORBIDDEN', message: 'this token may not ask for a takeover: it needs `admin`' }, json);
  const view = group?.();
  if (!view)
    return sendError(
      res,
      { code: 'PB_BAD_REQUEST', message: 'this hub is in no redundancy group (`hub.group` of its mqtt connection)' },
      json,
    );
  const asked = view.failover();
  if (!asked.ok) return sendError(res, asked.error, json);
  log.warn(`takeover asked by ${clientAddress(res)} (${access.full ? 'full access' : `token ${access.name}`}): ${asked.value}`);
  sendOk(res, JSON_TYPE, JSON.stringify({ ok: true, message: asked.value } satisfies FailoverAnswer));
};

/** R-O1: the Prometheus text format, read from the hub now; for full access or tokens given `metrics`. */
const metrics: Handler = (res, req, { metrics: registry, log }, access) => {
  if (!access.metrics) return sendError(res, { code: 'PB_FORBIDDEN', message: 'this token may not read /metrics' }, jsonClient(req));
  let aborted = false;
  res.onAborted(() => (aborted = true));
  registry.metrics().then(
    (text) => {
      if (!aborted) answerLater(res, false, log, () => sendOk(res, registry.contentType, text));
    },
    (error: unknown) => {
      if (!aborted) answerLater(res, false, log, () => answerFault(res, false, log, error));
    },
  );
};

export const operatingRoutes: readonly Route[] = [
  {
    path: '/healthz',
    get: {
      summary: 'Liveness',
      description: '200 while the process serves (R-O1).',
      tag: 'hub',
      answers: { 200: ok('Alive.', { [TEXT]: Type.Literal('OK'), [JSON_TYPE]: Taken }) },
      errors: [],
      handle: healthz,
    },
  },
  {
    path: '/readyz',
    get: {
      summary: 'Readiness',
      description:
        'Whether every connection it waits for (`required`, else every enabled one) is ok (R-O1); in a redundancy group, the role. A hub of a group on etcd that no etcd member answered for a lease is not ready, its standby included: it could not take over (`coordinator` in the list, R-EG4).',
      tag: 'hub',
      answers: {
        200: ok('Ready.', {
          [JSON_TYPE]: Type.Object({
            ok: Type.Literal(true),
            connections: Type.Integer({ minimum: 0, description: 'How many it waited for.' }),
            role: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('standby')])),
          }),
        }),
      },
      errors: ['PB_NOT_READY', 'PB_FORBIDDEN'],
      errorFields: {
        connections: Type.Array(
          Type.Object({ id: Type.String(), status: Type.String(), reason: Type.String(), code: Type.Optional(ErrorCodeSchema) }),
          { description: 'With PB_NOT_READY: each connection it waits for that is not ok.' },
        ),
      },
      handle: readyz,
    },
  },
  {
    path: '/metrics',
    get: {
      summary: 'Prometheus metrics',
      description: 'The Prometheus text format, read now (R-O1): full access or a token with `metrics: true`.',
      tag: 'hub',
      answers: { 200: ok('The metrics.', { 'text/plain; version=0.0.4; charset=utf-8': Type.String() }) },
      errors: ['PB_FORBIDDEN'],
      handle: metrics,
    },
  },
  {
    path: '/failover',
    post: {
      summary: 'Take over the redundancy group',
      description:
        'In a redundancy group (R-B5): asks this standby to take over now — 200 `{"ok":true,"message"}`; 409 `PB_ALREADY_ACTIVE` on the active hub; 403 for a token without `admin: true`; 400 on a hub in no group; 503 `PB_BROKER_UNAVAILABLE` without the broker (see [Staying on air](../guides/standby.md)).',
      tag: 'hub',
      answers: { 200: ok('The takeover asked for, in words.', { [JSON_TYPE]: FailoverAnswer }) },
      errors: ['PB_FORBIDDEN', 'PB_BAD_REQUEST', 'PB_ALREADY_ACTIVE', 'PB_BROKER_UNAVAILABLE', 'PB_CROSS_ORIGIN'],
      handle: failover,
    },
  },
];
