/**
 * The operator console's paths (R-U1): `/console` sends a browser to `/console/`, and
 * `/console/*` serves the console's files from memory, each answer with the console's
 * Content-Security-Policy. Built in, they win over `documentRoot` files of the same paths.
 */
import { Type } from '@sinclair/typebox';
import { consoleFiles, consolePolicy } from './console.ts';
import { notFound } from './hosted-routes.ts';
import { ok } from './operation-shapes.ts';
import { sendEmpty, sendOk, withPolicy } from './respond.ts';
import type { Handler, Route } from './route.ts';

const toSlash: Handler = (res) => sendEmpty(res, 303, [['Location', '/console/']]);

const serveFile: Handler = (res, req, context, access) => {
  withPolicy(res, consolePolicy());
  const file = consoleFiles().get(req.getUrl().slice('/console/'.length));
  if (!file) return notFound(res, req, context, access);
  sendOk(res, file.contentType, file.body);
};

/** `/console`: its GET alone. */
export const consoleRedirect = {
  path: '/console',
  get: {
    summary: 'The console',
    description: 'Redirects to `/console/` (R-U1).',
    tag: 'files',
    answers: { 303: { description: 'To `/console/`.', headers: { Location: '`/console/`' } } },
    errors: [],
    handle: toSlash,
  },
} satisfies Route;

/** `/console/*`: its GET and HEAD. */
export const consoleFilesRoute = {
  path: '/console/*',
  get: {
    summary: "The console's files",
    description: 'The operator console (R-U1), built in; `console: false` leaves the path to `documentRoot`.',
    tag: 'files',
    variable: { name: 'file', description: 'A file of the console; empty for its page.' },
    answers: { 200: ok('The file.', { 'text/html; charset=utf-8': Type.String(), 'text/javascript; charset=utf-8': Type.String() }) },
    errors: ['PB_NOT_FOUND'],
    handle: serveFile,
  },
} satisfies Route;
