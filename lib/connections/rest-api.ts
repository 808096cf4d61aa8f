/**
 * `rest-api`: the hub over HTTP and WebSocket on uWebSockets.js (R-H1–R-H7).
 *
 * Parameters: none of its own. It serves every parameter of the hub:
 *   GET  /parameters/<address>   the value (text, or JSON with Accept: application/json)
 *   GET  /parameters             [{p, type, access, v?}], ?filter=<regex>
 *   GET  /connections            [{id, type, status, reason, …}]
 *   GET  /problems               [{source, id, code, message}]
 *   GET  /update?parameter=&value=, POST /update (form or JSON)
 *   GET  /ws                     snapshot, then changes; client writes {p, v}
 *   GET  /<file>                 files below documentRoot
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { Type } from '@sinclair/typebox';
import { Authenticator } from '../http/auth.ts';
import { RestServer } from '../http/server.ts';
import { StaticFiles } from '../http/static-files.ts';
import { nativeBinaryLoaded, nativeBinaryName } from '../http/uws.ts';
import type { Issue } from '../core/issue.ts';
import { compileRegex } from '../core/regex.ts';
import { checked, defineConnectionType } from './connection.ts';

const settings = Type.Object({
  port: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535, default: 17011, description: 'TCP port; 0 picks a free one, which is logged.' })),
  bindIp: Type.Optional(Type.String({ default: '', description: 'A local address to listen on; "" for every interface.' })),
  documentRoot: Type.Optional(Type.String({ default: '', description: 'A folder whose files are served under /; "" serves none.' })),
  username: Type.Optional(Type.String({ default: '', description: 'HTTP Basic user name.' })),
  password: Type.Optional(Type.String({ default: '', description: 'HTTP Basic password.' })),
  token: Type.Optional(Type.String({ default: '', description: 'Bearer token (also ?access_token= on the WebSocket upgrade).' })),
  wsFilters: Type.Optional(
    Type.Array(Type.String(), { default: [], description: 'Regular expressions; the WebSocket streams addresses matching any of them.' }),
  ),
});

export const restApi = defineConnectionType({
  type: 'rest-api',
  summary: 'HTTP and WebSocket access to every parameter, with file hosting and authentication.',
  settings,
  parse({ port = 17011, bindIp = '', documentRoot = '', username = '', password = '', token = '', wsFilters = [] }, { baseDir }) {
    const issues: Issue[] = [];
    // Checked again at start (the folder may go meanwhile), but a file that names a missing
    // folder is a mistake `validate` shows, not a failure found only when the hub runs.
    if (documentRoot) {
      const root = resolve(baseDir, documentRoot);
      const found = statSync(root, { throwIfNoEntry: false });
      if (!found) issues.push({ path: ['documentRoot'], message: `no such folder: ${root}` });
      else if (!found.isDirectory()) issues.push({ path: ['documentRoot'], message: `not a folder: ${root}` });
    }
    const filters = wsFilters.flatMap((source, index) => {
      const compiled = compileRegex(source);
      if (compiled.ok) return [compiled.value];
      issues.push({ path: ['wsFilters', index], message: compiled.error.message });
      return [];
    });
    return checked(issues, { port, bindIp, documentRoot, credentials: { username, password, token }, wsFilters: filters });
  },
  // Two connections of one file on one port: the second would fail at start (R-H8).
  claims: ({ port, bindIp }) => (port === 0 ? [] : [{ what: `TCP port ${port}`, on: bindIp, path: ['port'] }]),
  create(context, { port, bindIp, documentRoot, credentials, wsFilters }) {
    let server: RestServer | undefined;
    let listeningOn = 0;
    return {
      async start() {
        if (nativeBinaryLoaded) context.log.info(`uWebSockets.js native binary ${nativeBinaryName} loaded`);
        else context.log.warn(`uWebSockets.js native binary ${nativeBinaryName} did not load: running on the slow JavaScript fallback`);
        const files = documentRoot ? await StaticFiles.open(resolve(context.baseDir, documentRoot)) : undefined;
        server = new RestServer({
          graph: context.graph,
          auth: new Authenticator(credentials),
          files,
          wsFilters,
          connections: context.connections,
          problems: context.problems,
          ...(context.settled ? { settled: context.settled } : {}),
          scheduler: context.scheduler,
          log: context.log,
        });
        listeningOn = await server.listen(bindIp, port);
        context.log.info(`listening on http://${bindIp || '0.0.0.0'}:${listeningOn}${files ? `, serving ${resolve(context.baseDir, documentRoot)}` : ''}`);
      },
      stop() {
        server?.stop();
        server = undefined;
      },
      details: () => ({ port: listeningOn, bindIp, webSockets: server?.webSockets.stats() }),
    };
  },
});
