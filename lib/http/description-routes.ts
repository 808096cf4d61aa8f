/**
 * `GET /openapi.json` and `GET /asyncapi.json` (R-DS1): the descriptions of this rest-api
 * connection's HTTP API and WebSocket, made once per session cookie name (its port) and
 * served to any client the edge lets in: they describe the API. `/openapi.json?parameters=1`
 * describes the hub's parameters too, those the asking client may read, made for each request.
 */
import { readFileSync } from 'node:fs';
import { Type } from '@sinclair/typebox';
import { asyncApiDocument } from './asyncapi.ts';
import { openApiDocument, withParameters } from './openapi.ts';
import { ok } from './operation-shapes.ts';
import { filter, listedFor } from './parameter-routes.ts';
import { JSON_TYPE, jsonClient, sendError, sendOk } from './respond.ts';
import type { DescribedRoute, Handler, Route } from './route.ts';
import { stream } from './stream.ts';
import { flag, flagSchema } from './ws/upgrade-query.ts';

/** The hub's version, from its package.json (beside lib/ in a checkout, beside dist/ when installed). */
const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

type About = { version: string; cookie: string };

function serving(make: (about: About) => unknown): Handler {
  let made: { cookie: string; text: string } | undefined;
  return (res, _req, { sessionCookie }) => {
    const cookie = sessionCookie();
    if (made?.cookie !== cookie) made = { cookie, text: JSON.stringify(make({ version, cookie })) };
    sendOk(res, JSON_TYPE, made.text);
  };
}

/** The OpenAPI document, with the parameters the client may read when it asks for them. */
function servingOpenApi(served: () => readonly DescribedRoute[]): Handler {
  const make = (about: About) => openApiDocument(served(), about);
  const general = serving(make);
  return (res, req, context, access) => {
    const query = new URLSearchParams(req.getQuery() ?? '');
    const parameters = flag(query.get('parameters'));
    if (parameters === undefined)
      return sendError(res, { code: 'PB_BAD_REQUEST', message: 'parameters is 1 or 0 (true or false)' }, jsonClient(req));
    if (!parameters) return general(res, req, context, access);
    const listed = listedFor(access, query);
    if (!listed.ok) return sendError(res, listed.error, jsonClient(req));
    const document = make({ version, cookie: context.sessionCookie() });
    stream(res, JSON_TYPE, withParameters(document, context.graph.readings(), listed.value), context.log);
  };
}

/** The two descriptions, of the paths `served` lists (this list among them). */
export const descriptionRoutes = (served: () => readonly DescribedRoute[]): readonly Route[] => [
  {
    path: '/openapi.json',
    get: {
      summary: 'This description',
      description:
        'The OpenAPI 3.1 description of the HTTP API (R-DS1); with `?parameters=1`, also a path for each parameter the client may read (`GET /parameters/<address>`), its value typed, ranged and labelled as the parameter says of itself (R-PK6), narrowed by filters.',
      tag: 'descriptions',
      query: {
        parameters: {
          description: '`1`: a path for each parameter the client may read, with its own value schema.',
          schema: flagSchema(),
        },
        filter,
      },
      answers: { 200: ok('The description.', { [JSON_TYPE]: Type.Object({}, { additionalProperties: true }) }) },
      errors: ['PB_BAD_FILTER', 'PB_BAD_REQUEST'],
      handle: servingOpenApi(served),
    },
  },
  {
    path: '/asyncapi.json',
    get: {
      summary: 'The WebSocket description',
      description: 'The AsyncAPI 3.0 description of `/ws`: options, messages both ways, batches and resume (R-DS1).',
      tag: 'descriptions',
      answers: { 200: ok('The description.', { [JSON_TYPE]: Type.Object({}, { additionalProperties: true }) }) },
      errors: [],
      handle: serving(asyncApiDocument),
    },
  },
];
