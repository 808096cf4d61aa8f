/**
 * `GET /openapi.json` and `GET /asyncapi.json` (R-DS1): the descriptions of this rest-api
 * connection's HTTP API and WebSocket, made once per session cookie name (its port) and
 * served to any client the edge lets in: they describe the API, not the hub's parameters.
 */
import { readFileSync } from 'node:fs';
import { asyncApiDocument } from './asyncapi.ts';
import { openApiDocument } from './openapi.ts';
import { JSON_TYPE, sendOk } from './respond.ts';
import type { Handler, Route } from './route.ts';

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

export const descriptionRoutes: readonly Route[] = [
  { path: '/openapi.json', get: serving(openApiDocument) },
  { path: '/asyncapi.json', get: serving(asyncApiDocument) },
];
