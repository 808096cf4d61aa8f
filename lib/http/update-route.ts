/**
 * Writing a parameter over HTTP (R-H2): `/update` from a query, a form or JSON, answered once
 * the write is as safe as the hub promises — stored when kept (R-S4), on the broker on the
 * active hub of a group (R-B2), or answered by its owner when it answers later.
 */
import { Type } from '@sinclair/typebox';
import type { Parameter } from '../core/parameter.ts';
import type { ErrorCode, Result } from '../core/errors.ts';
import { namingOnce } from '../core/sparse-log.ts';
import { type ClientAccess, withStanding, writableFor } from './access.ts';
import { bodyFields, bodyTypeOf, checkSize, formFields, type UpdateFields } from './body.ts';
import { answerLater, clientAddress, readBody } from './handling.ts';
import { FORM, takenAnswer } from './operation-shapes.ts';
import { type CodedError, codesOf, JSON_TYPE, jsonClient, sendError, sendOk, TEXT } from './respond.ts';
import type { Handler, Route, RouteContext } from './route.ts';
import type { HttpRequest, HttpResponse } from './uws.ts';

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
  if (!found.ok) return refuse(context, res, address, withStanding(found.error, address, context.connections), json);
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
  `HTTP write from ${client} refused: ${namingOnce(address, error.message)} (${codesOf(error)})`;

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
  'PB_NOT_ACTIVE',
  'PB_OWNER_UNAVAILABLE',
  'PB_BAD_ANSWER',
  'PB_DEVICE_UNAVAILABLE',
  'PB_DEVICE_TIMEOUT',
];

export const updateRoute: Route = {
  path: '/update',
  get: {
    summary: 'Write a value (query)',
    description:
      'Converts and writes (R-H2): 200 `OK` (JSON clients: `{"ok":true}`); 400 missing field or unconvertible value; 403 read-only; 404 unknown. A kept value is stored first (R-S4); on the active hub of a redundancy group the answer also waits until the broker acknowledged the value, so a standby that takes over has it (R-B2): 503 `PB_BROKER_UNAVAILABLE` when the broker link closed first (with `hub.voters`, 200: the standby has it once the broker is back, R-AV1). A write a connection sends to its device is answered with the outcome the device gives (R-G1): 502 `PB_BAD_ANSWER`, or a code of the connection type (R-PK8), when the device refuses it; 503 `PB_DEVICE_UNAVAILABLE` while the device is away; 504 `PB_DEVICE_TIMEOUT` when it did not confirm in time; 503 `PB_NOT_ACTIVE` on a standby, `PB_OWNER_UNAVAILABLE` for a connection another hub runs that is away.',
    tag: 'values',
    changes: true,
    query: {
      parameter: { description: 'The address.', schema: Type.String(), required: true },
      value: { description: "The value, converted to the parameter's type.", schema: Type.String(), required: true },
    },
    answers: { 200: takenAnswer },
    errors: updateErrors,
    handle: updateFromQuery,
  },
  post: {
    summary: 'Write a value (form or JSON)',
    description:
      'The same two fields as `application/x-www-form-urlencoded` or a JSON object (`{"parameter": "studio/cue", "value": null}` fires a trigger; the arguments of a command (R-PK8) are the object itself or its text: `{"parameter": "router/route", "value": {"destination": 3, "input": 7}}`); also 413 for a body over 64 KiB and 415 for another content type.',
    tag: 'values',
    body: { [FORM]: update, [JSON_TYPE]: update },
    answers: { 200: takenAnswer },
    errors: [...updateErrors, 'PB_BODY_TOO_LARGE', 'PB_UNSUPPORTED_MEDIA_TYPE'],
    handle: updateFromBody,
  },
};
