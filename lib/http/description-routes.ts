/**
 * `GET /openapi.json` and `GET /asyncapi.json` (R-DS1): the descriptions of this rest-api
 * connection's HTTP API and WebSocket, made once per session cookie name (its port) and
 * served to any client the edge lets in: they describe the API, not the hub's parameters.
 */
import { readFileSync } from 'node:fs';
import { Type } from '@sinclair/typebox';
import { asyncApiDocument } from './asyncapi.ts';
import { openApiDocument } from './openapi.ts';
import { ok } from './operation-shapes.ts';
import { JSON_TYPE, sendOk } from './respond.ts';
import type { DescribedRoute, Handler, Route } from './route.ts';

/** The hub's version, from its package.json (beside lib/ in a checkout, beside dist/ when installed). */
const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

function serving(make: (about: { version: string; cookie: string }) => unknown): Handler {
  let made: { cookie: string; text: string } | undefined;
  return (res, _req, { sessionCookie }) => {
    const cookie = sessionCookie();
    if (made?.cookie !== cookie) made = { cookie, text: JSON.stringify(make({ version, cookie })) };
    sendOk(res, JSON_TYPE, made.text);
  };
}

/** The two descriptions, of the paths `served` lists (this list among them). */
export const descriptionRoutes = (served: () => readonly DescribedRoute[]): readonly Route[] => [
  {
    path: '/openapi.json',
    get: {
      summary: 'This description',
      description: 'The OpenAPI 3.1 description of the HTTP API (R-DS1).',
      tag: 'descriptions',
      answers: { 200: ok('The description.', { [JSON_TYPE]: Type.Object({}, { additionalProperties: true }) }) },
      errors: [],
      handle: serving((about) => openApiDocument(served(), about)),
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
