/**
 * `rest-api`: the hub over HTTP and WebSocket on uWebSockets.js (R-H1–R-H7).
 *
 * Parameters: none of its own. It serves every parameter of the hub:
 *   GET  /parameters/<address>   the value (text, or JSON with Accept: application/json)
 *   GET  /parameters             [{p, type, access, v?}], ?filter=<regex>
 *   GET  /connections            [{id, type, status, reason, …}]
 *   GET  /problems               [{source, id, code, message}]
 *   GET  /rules                  [{path, folders, name, source, destinations, pipe}]
 *   GET  /update?parameter=&value=, POST /update (form or JSON)
 *   GET  /healthz, /readyz       liveness, and readiness of the connections
 *   GET  /metrics                Prometheus text format
 *   GET  /ws                     snapshot, then changes; client writes {p, v}; ?origins=1 adds by and at; ?events=1 adds reload notices
 *   GET  /console/               the operator console (R-U1), unless `console: false`
 *   GET  /<file>                 files below documentRoot
 *   OPTIONS *                     CORS preflights for allowedOrigins
 * With `cert` and `key` all of it is served over TLS (HTTPS, WSS) instead of plain HTTP.
 * Every request passes the edge first: foreign pages may not change anything (R-H10), and
 * credentials give the client its access (R-H5, R-H11, R-A1, R-A2).
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { Type } from '@sinclair/typebox';
import type { ClientAccess } from '../../http/access.ts';
import { Authenticator, type Credentials, type ScopedToken } from '../../http/auth.ts';
import { RestServer } from '../../http/server.ts';
import { StaticFiles } from '../../http/static-files.ts';
import type { TlsFiles } from '../../http/tls.ts';
import {
  checked,
  HubError,
  hostnamesSetting,
  type Issue,
  withDefault,
  AddressPatterns,
  compileRegex,
  originsSetting,
  listenAddressSetting,
  portSetting,
} from '../../sdk/index.ts';
import { defineServingType } from '../serving.ts';
import { nativeBinaryLoaded, nativeBinaryName, nativeBinaryProblem } from '../../http/uws.ts';

const settings = Type.Object({
  port: withDefault(portSetting('TCP port; 0 picks a free one, which is logged.', { anyFree: true }), 17011),
  bindIp: listenAddressSetting('A local address to listen on; "" for every interface.'),
  documentRoot: withDefault(
    Type.String({ onMachine: 'folder', description: 'A folder whose files are served under /; "" serves none.' }),
    '',
  ),
  username: withDefault(Type.String({ description: 'HTTP Basic user name.' }), ''),
  password: withDefault(Type.String({ description: 'HTTP Basic password.' }), ''),
  token: withDefault(Type.String({ description: 'Bearer token (also ?access_token= on the WebSocket upgrade).' }), ''),
  wsFilters: withDefault(
    Type.Array(Type.String(), {
      description: 'Regular expressions (RE2 syntax); the WebSocket streams addresses matching any of them.',
    }),
    [],
  ),
  allowedOrigins: withDefault(
    originsSetting(
      "Origins (scheme://host[:port]) besides the hub's own whose pages may write and open the WebSocket; they get CORS headers.",
    ),
    [],
  ),
  hostnames: withDefault(
    hostnamesSetting(
      "Host names (without port) clients use for this hub, besides IP addresses, localhost and the machine's own names; requests to any other name are refused (DNS rebinding).",
    ),
    [],
  ),
  cert: withDefault(
    Type.String({
      onMachine: 'file',
      description:
        'PEM file of the certificate (and any intermediates) to serve HTTPS and WSS with, relative to the flow file; "" serves plain HTTP.',
    }),
    '',
  ),
  key: withDefault(
    Type.String({ onMachine: 'file', description: "PEM file of the certificate's private key, relative to the flow file." }),
    '',
  ),
  passphraseEnv: withDefault(
    Type.String({
      pattern: '^([A-Za-z_][A-Za-z0-9_]*)?$',
      onMachine: 'environment',
      description: 'The name of an environment variable holding the passphrase of an encrypted key (never the passphrase itself).',
    }),
    '',
  ),
  tokens: withDefault(
    Type.Array(
      Type.Object(
        {
          name: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'Shown in logs; unique.' }),
          token: Type.String({ minLength: 1, description: 'The token, or sha256:<hex> of it.' }),
          read: Type.Array(Type.String(), { description: 'Address patterns with MQTT wildcards (studio/#, +/onair) this token may read.' }),
          write: withDefault(
            Type.Array(Type.String(), { description: 'Address patterns this token may write (they must be readable too).' }),
            [],
          ),
          metrics: withDefault(Type.Boolean({ description: 'May read /metrics.' }), false),
          admin: withDefault(
            Type.Boolean({
              description:
                'May read and change the flow file (GET and PUT /flow, R-ED3) and ask this hub to take over its redundancy group (POST /failover, R-B5).',
            }),
            false,
          ),
        },
        { additionalProperties: false },
      ),
      { description: 'Scoped tokens: each reads and writes only the addresses its patterns match.' },
    ),
    [],
  ),
  console: withDefault(Type.Boolean({ description: 'Serve the operator console at /console/ (R-U1).' }), true),
  required: withDefault(
    Type.Array(Type.String(), { description: 'Connection ids /readyz waits for; none: every enabled connection.' }),
    [],
  ),
  resumeWindow: withDefault(
    Type.Integer({
      minimum: 0,
      maximum: 600_000,
      description:
        'Milliseconds a ?resume=1 WebSocket client may be away and come back to exactly what it missed (R-W3); 0: never, it gets a snapshot.',
    }),
    30_000,
  ),
  resumeChanges: withDefault(
    Type.Integer({
      minimum: 0,
      maximum: 1_000_000,
      description: 'Messages kept per filter set for ?resume=1 clients; one further behind gets a snapshot (R-W3).',
    }),
    10_000,
  ),
});

/** The files of `cert` and `key` with the passphrase from the variable `passphraseEnv` names, read now. */
function tlsFiles({ cert, key, passphraseEnv }: { cert: string; key: string; passphraseEnv: string }): TlsFiles {
  if (!passphraseEnv) return { cert, key };
  const passphrase = process.env[passphraseEnv];
  if (passphrase === undefined) throw new HubError('PB_TLS', `the environment variable ${passphraseEnv} (passphraseEnv) is not set`);
  return { cert, key, passphrase };
}

/** The `bindIp` values that listen on every interface. */
const everyInterface = new Set(['', '0.0.0.0', '::', '[::]']);

export const restApiType = defineServingType({
  type: 'rest-api',
  // Clients reach a standby hub too (a read, the console's group view).
  runsOnStandby: true,
  summary: 'HTTP and WebSocket access to every parameter, with file hosting and authentication.',
  settings,
  parse(
    {
      port,
      bindIp,
      documentRoot,
      username,
      password,
      token,
      wsFilters,
      allowedOrigins,
      hostnames,
      cert,
      key,
      passphraseEnv,
      tokens,
      required,
      console,
      resumeWindow,
      resumeChanges,
    },
    { baseDir },
  ) {
    const issues: Issue[] = [];
    // The files themselves are read at start: a certificate missing then fails this connection, not the hub.
    if (cert && !key) issues.push({ path: ['key'], message: 'a cert needs its key' });
    if (key && !cert) issues.push({ path: ['cert'], message: 'a key needs its cert' });
    if (passphraseEnv && !key) issues.push({ path: ['passphraseEnv'], message: 'a passphrase is for a key: set cert and key too' });
    const tls = cert && key ? { cert: resolve(baseDir, cert), key: resolve(baseDir, key), passphraseEnv } : undefined;
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
    const scoped = tokens.flatMap(({ name, token: secret, read, write, metrics, admin }, index): ScopedToken[] => {
      if (tokens.findIndex((other) => other.name === name) < index)
        issues.push({ path: ['tokens', index, 'name'], message: `"${name}" names another token too` });
      if (secret.startsWith('sha256:') && !/^sha256:[0-9a-f]{64}$/i.test(secret))
        issues.push({ path: ['tokens', index, 'token'], message: 'expected sha256: and 64 hex digits' });
      const patterns = (list: string[], key: string) => {
        const compiled = AddressPatterns.compile(list);
        if (!compiled.ok) issues.push({ path: ['tokens', index, key], message: compiled.error.message });
        return compiled.ok ? compiled.value : undefined;
      };
      const [readable, writable] = [patterns(read, 'read'), patterns(write, 'write')];
      return readable && writable ? [{ name, token: secret, read: readable, write: writable, metrics, admin }] : [];
    });
    const credentials = { username, password, token, tokens: scoped };
    return checked(issues, {
      port,
      bindIp,
      documentRoot,
      credentials,
      wsFilters: filters,
      allowedOrigins,
      hostnames,
      tls,
      required,
      console,
      resume: { window: resumeWindow, changes: resumeChanges },
    });
  },
  // An open door `validate` names: the flow editor is off, and anyone who reaches the port writes.
  warn: ({ credentials: { username, password, token, tokens }, bindIp }) =>
    username || password || token || tokens.length > 0
      ? []
      : [
          {
            path: [],
            message: `no credentials: ${everyInterface.has(bindIp) ? 'every machine that reaches this one' : `anyone who reaches ${bindIp}`} may read and write every parameter, and the flow editor is off; give it a token`,
          },
        ],
  // Two connections of one file on one port: the second would fail at start (R-H8).
  claims: ({ port, bindIp }) => (port === 0 ? [] : [{ what: `TCP port ${port}`, on: bindIp, path: ['port'] }]),
  // It serves the whole hub: the graph with writes, connections, problems, rules and counts.
  create(context, settings) {
    const { port, bindIp, documentRoot, credentials, wsFilters, allowedOrigins, hostnames, tls, required, console, resume } = settings;
    let server: RestServer | undefined;
    let listeningOn = 0;
    let credentialsNow = credentials;
    const authenticator = (given: Credentials) => new Authenticator(given, { key: () => context.hub.signInKey(), scope: context.id });
    return {
      async start() {
        if (nativeBinaryProblem) throw new HubError('PB_START_FAILED', nativeBinaryProblem);
        if (nativeBinaryLoaded) context.log.info(`uWebSockets.js native binary ${nativeBinaryName} loaded`);
        else context.log.warn(`uWebSockets.js native binary ${nativeBinaryName} did not load: running on a slow JavaScript stand-in`);
        const files = documentRoot ? await StaticFiles.open(resolve(context.baseDir, documentRoot)) : undefined;
        const auth = authenticator(credentials);
        const flowFile = context.hub.flowFile();
        const store = context.hub.store();
        server = new RestServer({
          ...(tls ? { tls: tlsFiles(tls) } : {}),
          graph: context.hub.graph,
          auth,
          files,
          wsFilters,
          allowedOrigins,
          hostnames,
          required,
          console,
          resume,
          connections: context.hub.connections,
          connectionChanges$: context.hub.connectionChanges$,
          problems: context.hub.problems,
          rules: context.hub.rules,
          counts: context.hub.counts,
          connectionMetrics: context.hub.connectionMetrics(),
          ...(context.settled ? { settled: context.settled } : {}),
          whenServing: context.hub.whenServing,
          group: () => context.hub.redundancy.current,
          ...(flowFile ? { flow: flowFile } : {}),
          ...(store ? { store } : {}),
          scheduler: context.scheduler,
          log: context.log,
        });
        listeningOn = await server.listen(bindIp, port);
        context.log.info(
          `listening on ${tls ? 'https' : 'http'}://${bindIp || '0.0.0.0'}:${listeningOn}${files ? `, serving ${resolve(context.baseDir, documentRoot)}` : ''}`,
        );
        // Anyone who reaches this machine may read and write every parameter: worth one line.
        if (!auth.required && everyInterface.has(bindIp)) {
          context.log.warn(
            'open to every machine that reaches this one: listening on every interface without credentials; set bindIp (such as 127.0.0.1) or a token',
          );
        }
      },
      /**
       * New credentials are taken in place (a token changed in the console): the save that
       * changed them is answered by this server, and only the sockets of logins whose
       * credentials changed are closed. Anything else needs a restart.
       */
      update(next) {
        if (!server || !isDeepStrictEqual({ ...next, credentials: undefined }, { ...settings, credentials: undefined })) return false;
        server.useCredentials(authenticator(next.credentials), changedLogins(credentialsNow, next.credentials));
        credentialsNow = next.credentials;
        return true;
      },
      stop(reason) {
        server?.stop(reason);
        server = undefined;
      },
      details: () => ({ port: listeningOn, bindIp, tls: tls !== undefined, webSockets: server?.webSockets.stats() }),
    };
  },
});

/**
 * Which logins new credentials change: a scoped token by its name when its entry changed or
 * went; full access when the token or the user name and password changed; everyone on a hub
 * that had no credentials and has some now.
 */
function changedLogins(before: Credentials, after: Credentials): (access: ClientAccess) => boolean {
  const fullChanged = before.token !== after.token || before.username !== after.username || before.password !== after.password;
  const scoped = new Map((after.tokens ?? []).map((token) => [token.name, token]));
  const scopedChanged = new Set(
    (before.tokens ?? []).filter((token) => !isDeepStrictEqual(token, scoped.get(token.name))).map((token) => token.name),
  );
  return (access) =>
    !access.signedIn ? fullChanged || (after.tokens ?? []).length > 0 : access.full ? fullChanged : scopedChanged.has(access.name);
}
