/**
 * Every path no built-in route names (R-H4): a GET is a file below `documentRoot` when the
 * hub hosts one (`index.html` for a folder), 426 for `/ws` without an upgrade, else 404;
 * any other method but a preflight's OPTIONS is 404.
 */
import { readFile } from 'node:fs/promises';
import { Type } from '@sinclair/typebox';
import { reasonOf } from '../core/errors.ts';
import { answerLater } from './handling.ts';
import { ok } from './operation-shapes.ts';
import { type CodedError, jsonClient, sendError, sendOk } from './respond.ts';
import type { Handler, Route } from './route.ts';
import { FILE_CHUNK, fileChunks } from './static-files.ts';
import { stream } from './stream.ts';

/** GET on any other path: 426 for `/ws` without an upgrade, else a hosted file or 404 (R-H4). */
const hostedFile: Handler = (res, req, { files, log }) => {
  const url = req.getUrl();
  const json = jsonClient(req);
  if (url === '/ws') return sendError(res, { code: 'PB_UPGRADE_REQUIRED', message: 'GET /ws upgrades to a WebSocket' }, json);
  if (!files) return sendError(res, nothingAt('GET', url), json);
  let aborted = false;
  res.onAborted(() => (aborted = true));
  const noFile: CodedError = { code: 'PB_NOT_FOUND', message: `no file at ${url}` };
  files
    .find(url)
    .then(async (file) => {
      if (!file) {
        if (!aborted) answerLater(res, json, log, () => sendError(res, noFile, json));
        return;
      }
      if (file.size <= FILE_CHUNK) {
        // One chunk: sent whole, with its Content-Length.
        const body = await readFile(file.path);
        if (!aborted) answerLater(res, json, log, () => sendOk(res, file.contentType, body));
        return;
      }
      const chunks = await fileChunks(file.path);
      if (aborted) return chunks.close();
      stream(res, file.contentType, chunks.next, log, chunks.close, file.size);
    })
    .catch((error: unknown) => {
      log.warn(`reading ${url} failed: ${reasonOf(error)}`);
      if (!aborted) answerLater(res, json, log, () => sendError(res, noFile, json));
    });
};

/** Any other method on a path no built-in route names (and a console file that is not there). */
export const notFound: Handler = (res, req) => {
  sendError(res, nothingAt(req.getMethod().toUpperCase(), req.getUrl()), jsonClient(req));
};

const nothingAt = (method: string, url: string): CodedError => ({ code: 'PB_NOT_FOUND', message: `nothing at ${method} ${url}` });

/** Any path a built-in route does not name: its GET and HEAD; the server answers the other methods with `notFound`. */
export const hostedFilesRoute = {
  path: '/*',
  get: {
    summary: 'A hosted file',
    description: 'A file below `documentRoot` (R-H4); `index.html` for a folder.',
    tag: 'files',
    variable: { name: 'file', description: 'The path of the file below `documentRoot`.' },
    answers: { 200: ok('The file, with its type.', { 'application/octet-stream': Type.String({ contentEncoding: 'binary' }) }) },
    errors: ['PB_NOT_FOUND'],
    handle: hostedFile,
  },
} satisfies Route;
