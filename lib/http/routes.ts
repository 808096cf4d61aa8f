/**
 * Every path a rest-api connection serves (R-H4, R-DS1), in the order the server routes them:
 * each declared once, with its handler and its description, where its handlers are. The
 * descriptions (`/openapi.json`, docs/reference/http.md) are made from this list, and a spec
 * checks it against what the server routes.
 */
import { Type } from '@sinclair/typebox';
import { consoleFilesRoute, consoleRedirect } from './console-routes.ts';
import { descriptionRoutes } from './description-routes.ts';
import { flowHistoryRoutes } from './flow-history-routes.ts';
import { flowRoutes } from './flow-routes.ts';
import { hostedFilesRoute } from './hosted-routes.ts';
import { listingRoutes } from './listing-routes.ts';
import { operatingRoutes } from './operating-routes.ts';
import { parameterRoutes } from './parameter-routes.ts';
import { jsonClient, sendError } from './respond.ts';
import type { DescribedRoute, Handler, Route } from './route.ts';
import { storeRoutes } from './store-routes.ts';
import { updateRoute } from './update-route.ts';

/** The built-in paths (R-H4: they win over files of the same name). */
export const routes: readonly Route[] = [
  ...parameterRoutes,
  updateRoute,
  ...listingRoutes,
  ...operatingRoutes,
  ...flowRoutes,
  ...flowHistoryRoutes,
  ...storeRoutes,
  ...descriptionRoutes(() => servedRoutes),
];

/** The upgrade to the value stream, which the WebSocket side routes; a GET without one is answered 426 with the hosted paths. */
const webSocketRoute: DescribedRoute = {
  path: '/ws',
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
};

/** Every path served, described. */
export const servedRoutes: readonly DescribedRoute[] = [...routes, webSocketRoute, consoleRedirect, consoleFilesRoute, hostedFilesRoute];

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
