/**
 * What each HTTP operation of a rest-api connection takes and answers, for the OpenAPI
 * description (`openapi.ts`, R-DS1): by path as the route table (`routes.ts`,
 * `flow-routes.ts`) and the server (`server.ts`) name it, and by method. The shapes are the
 * schemas of `core/api-shapes.ts`, the ones the hub and the console are checked against;
 * the error codes carry their statuses from the error table. `spec/http/descriptions.spec.ts`
 * fails when the server routes something this does not describe.
 */
import { Type } from '@sinclair/typebox';
import {
  ConnectionInfo,
  ErrorCodeSchema,
  FailoverAnswer,
  ParameterListing,
  Problem,
  RuleListing,
  Taken,
  ValueSchema,
} from '../core/api-shapes.ts';
import type { ErrorCode } from '../core/errors.ts';
import { FORM, JSON_TYPE, ok, type Operations, type Query, TEXT, takenAnswer } from './operation-shapes.ts';
import { flowOperations } from './flow-operations.ts';

const filter: Query = {
  description: 'A regular expression (RE2 syntax); only addresses any given one matches are listed (R-H9).',
  schema: Type.String(),
  repeats: true,
};

/** A value written: text from a query or a form, any JSON value from a JSON body (`null` fires a trigger). */
const update = Type.Object({
  parameter: Type.String({ description: 'The address, `<connection>/<parameter id>`.' }),
  value: Type.Unknown({ description: "The value, converted to the parameter's type (R-C); any value fires a trigger." }),
});

/** What a write through `/update` may be refused with, however its fields came. */
const updateErrors: readonly ErrorCode[] = [
  'PB_BAD_REQUEST',
  'PB_CONVERSION',
  'PB_READ_ONLY',
  'PB_FORBIDDEN',
  'PB_CROSS_ORIGIN',
  'PB_BAD_ADDRESS',
  'PB_UNKNOWN_CONNECTION',
  'PB_UNKNOWN_PARAMETER',
  'PB_BROKER_UNAVAILABLE',
];

/** Every HTTP operation, by route path and method. */
export const operations: Operations = {
  '/parameters/*': {
    get: {
      summary: 'Read a value',
      description:
        'The string form (`text/plain; charset=utf-8`), or the JSON value with `Accept: application/json` (R-H1); **503 State Unknown** while unknown (a trigger always); 404 for an unknown connection or parameter, with the reason.',
      tag: 'values',
      variable: { name: 'address', description: 'The address, `<connection>/<parameter id>` (percent-encoded where needed).' },
      answers: { 200: ok('The value.', { [TEXT]: Type.String(), [JSON_TYPE]: ValueSchema }) },
      errors: ['PB_BAD_ADDRESS', 'PB_UNKNOWN_CONNECTION', 'PB_UNKNOWN_PARAMETER', 'PB_STATE_UNKNOWN'],
    },
  },
  '/parameters': {
    get: {
      summary: 'List the parameters',
      description:
        '`[{"p", "type", "access", "v"?, "by"?, "at"?}]` for every parameter (R-H7): `v`, the JSON value, absent while unknown; `by` and `at`, who made the last change and when (R-O2); `access` as the asking token has it (`read-only` where a scoped token may not write); narrowed by filters (any may match). Above 2,000 parameters it is sent in slices of about a millisecond, so a list of 100,000 holds no other client.',
      tag: 'values',
      query: { filter },
      answers: { 200: ok('The parameters, in definition order.', { [JSON_TYPE]: Type.Array(ParameterListing) }) },
      errors: ['PB_BAD_FILTER'],
    },
  },
  '/update': {
    get: {
      summary: 'Write a value (query)',
      description:
        'Converts and writes (R-H2): 200 `OK` (JSON clients: `{"ok":true}`); 400 missing field or unconvertible value; 403 read-only; 404 unknown. A kept value is stored first (R-S4); on the active hub of a redundancy group the answer also waits until the broker acknowledged the value, so a standby that takes over has it (R-B2): 503 `PB_BROKER_UNAVAILABLE` when the broker link closed first (with `hub.voters`, 200: the standby has it once the broker is back, R-AV1).',
      tag: 'values',
      changes: true,
      query: {
        parameter: { description: 'The address.', schema: Type.String(), required: true },
        value: { description: "The value, converted to the parameter's type.", schema: Type.String(), required: true },
      },
      answers: { 200: takenAnswer },
      errors: updateErrors,
    },
    post: {
      summary: 'Write a value (form or JSON)',
      description:
        'The same two fields as `application/x-www-form-urlencoded` or a JSON object (`{"parameter": "studio/cue", "value": null}` fires a trigger); also 413 for a body over 64 KiB and 415 for another content type.',
      tag: 'values',
      body: { [FORM]: update, [JSON_TYPE]: update },
      answers: { 200: takenAnswer },
      errors: [...updateErrors, 'PB_BODY_TOO_LARGE', 'PB_UNSUPPORTED_MEDIA_TYPE'],
    },
  },
  '/connections': {
    get: {
      summary: 'List the connections',
      description:
        '`[{"id", "type", "status", "reason", "code"?, "owner"?, "description", "location", "group", "details"?}]` (R-L2); `code` while failed or degraded; `owner` names the hub that runs a connection shown from another hub (R-M5); a rest-api\'s details hold its port, `tls` and WebSocket client counts; secrets and absolute paths are masked (below).',
      tag: 'hub',
      answers: { 200: ok('The connections this login sees.', { [JSON_TYPE]: Type.Array(ConnectionInfo) }) },
      errors: [],
    },
  },
  '/problems': {
    get: {
      summary: 'List the problems',
      description:
        'The hub\'s current problems: failed or degraded connections, failed code flows, rules with problems, a state folder that cannot be written; each `{ source: "connection" | "code-flow" | "rule" | "state", id, code, message }`.',
      tag: 'hub',
      answers: { 200: ok('The problems now.', { [JSON_TYPE]: Type.Array(Problem) }) },
      errors: [],
    },
  },
  '/rules': {
    get: {
      summary: 'List the rules',
      description:
        "The flow's enabled rules in the order they run: `[{ path, folders, name, source, destinations, pipe, status, code?, reason? }]` (`folders` the names of the folders the rule stands in, outermost first, R-R2; `pipe` as written in the flow file; `status` `running`, `waiting` for a parameter it names (`PB_WAITING`, R-G2), `failed` or `idle`); a scoped token sees the rules whose every address it may read.",
      tag: 'hub',
      answers: { 200: ok('The rules.', { [JSON_TYPE]: Type.Array(RuleListing) }) },
      errors: [],
    },
  },
  '/healthz': {
    get: {
      summary: 'Liveness',
      description: '200 while the process serves (R-O1).',
      tag: 'hub',
      answers: { 200: ok('Alive.', { [TEXT]: Type.Literal('OK'), [JSON_TYPE]: Taken }) },
      errors: [],
    },
  },
  '/readyz': {
    get: {
      summary: 'Readiness',
      description:
        'Whether every connection it waits for (`required`, else every enabled one) is ok (R-O1); in a redundancy group, the role.',
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
    },
  },
  '/metrics': {
    get: {
      summary: 'Prometheus metrics',
      description: 'The Prometheus text format, read now (R-O1): full access or a token with `metrics: true`.',
      tag: 'hub',
      answers: { 200: ok('The metrics.', { 'text/plain; version=0.0.4; charset=utf-8': Type.String() }) },
      errors: ['PB_FORBIDDEN'],
    },
  },
  '/failover': {
    post: {
      summary: 'Take over the redundancy group',
      description:
        'In a redundancy group (R-B5): asks this standby to take over now — 200 `{"ok":true,"message"}`; 409 `PB_ALREADY_ACTIVE` on the active hub; 403 for a token without `admin: true`; 400 on a hub in no group; 503 `PB_BROKER_UNAVAILABLE` without the broker (see [Staying on air](../guides/standby.md)).',
      tag: 'hub',
      answers: { 200: ok('The takeover asked for, in words.', { [JSON_TYPE]: FailoverAnswer }) },
      errors: ['PB_FORBIDDEN', 'PB_BAD_REQUEST', 'PB_ALREADY_ACTIVE', 'PB_BROKER_UNAVAILABLE', 'PB_CROSS_ORIGIN'],
    },
  },
  ...flowOperations,
  '/openapi.json': {
    get: {
      summary: 'This description',
      description: 'The OpenAPI 3.1 description of the HTTP API (R-DS1).',
      tag: 'descriptions',
      answers: { 200: ok('The description.', { [JSON_TYPE]: Type.Object({}, { additionalProperties: true }) }) },
      errors: [],
    },
  },
  '/asyncapi.json': {
    get: {
      summary: 'The WebSocket description',
      description: 'The AsyncAPI 3.0 description of `/ws`: options, messages both ways, batches and resume (R-DS1).',
      tag: 'descriptions',
      answers: { 200: ok('The description.', { [JSON_TYPE]: Type.Object({}, { additionalProperties: true }) }) },
      errors: [],
    },
  },
  '/ws': {
    get: {
      summary: 'The WebSocket',
      description:
        'The upgrade to the value stream (R-H3): a snapshot, then every change; writes `{p, v}`. Its options and messages are in `/asyncapi.json`. A plain GET answers 426.',
      tag: 'values',
      query: {
        access_token: { description: 'The token, for clients that cannot send a header (R-H5).', schema: Type.String() },
      },
      answers: { 101: { description: 'Switching to the WebSocket protocol.' } },
      errors: ['PB_BAD_REQUEST', 'PB_BAD_FILTER', 'PB_FORBIDDEN', 'PB_CROSS_ORIGIN', 'PB_RESUME_REFUSED', 'PB_UPGRADE_REQUIRED'],
    },
  },
  '/console': {
    get: {
      summary: 'The console',
      description: 'Redirects to `/console/` (R-U1).',
      tag: 'files',
      answers: { 303: { description: 'To `/console/`.', headers: { Location: '`/console/`' } } },
      errors: [],
    },
  },
  '/console/*': {
    get: {
      summary: "The console's files",
      description: 'The operator console (R-U1), built in; `console: false` leaves the path to `documentRoot`.',
      tag: 'files',
      variable: { name: 'file', description: 'A file of the console; empty for its page.' },
      answers: { 200: ok('The file.', { 'text/html; charset=utf-8': Type.String(), 'text/javascript; charset=utf-8': Type.String() }) },
      errors: ['PB_NOT_FOUND'],
    },
  },
  '/*': {
    get: {
      summary: 'A hosted file',
      description: 'A file below `documentRoot` (R-H4); `index.html` for a folder.',
      tag: 'files',
      variable: { name: 'file', description: 'The path of the file below `documentRoot`.' },
      answers: { 200: ok('The file, with its type.', { 'application/octet-stream': Type.String({ contentEncoding: 'binary' }) }) },
      errors: ['PB_NOT_FOUND'],
    },
  },
};
