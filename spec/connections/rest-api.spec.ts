import { Agent, get } from 'node:http';
import { createServer, type Socket } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import { validateFlow } from '../../lib/config/flow-file.ts';
import { formatIssue } from '../../lib/core/issue.ts';
import { Hub } from '../../lib/hub/hub.ts';
import { Client, freePort } from '../helpers/http.ts';
import { capturedLog, flowOf, startHub } from '../helpers/hub.ts';

async function loggedHub(t: ExecutionContext, connections: object) {
  const { log, lines } = capturedLog();
  return { hub: await startHub(t, { connections }, { log }), lines };
}

const portOf = (hub: Hub) => hub.connection('api')?.info.details?.['port'] as number;

test('port 0 picks a free port, which is logged along with the native binary check', async (t) => {
  const { hub, lines } = await loggedHub(t, { api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' } });
  const port = portOf(hub);
  t.true(port > 0);
  t.true(lines().some((l) => l.connection === 'api' && l.msg === `listening on http://127.0.0.1:${port}`));
  t.true(lines().some((l) => l.connection === 'api' && /uWebSockets\.js native binary uws_.*\.node loaded/.test(l.msg)));
  t.is((await fetch(`http://127.0.0.1:${port}/parameters`)).status, 200);
});

test('bindIp binds one local address only', async (t) => {
  const { hub } = await loggedHub(t, { api: { type: 'rest-api', port: 0, bindIp: '127.0.0.2' } });
  const port = portOf(hub);
  t.is((await fetch(`http://127.0.0.2:${port}/parameters`)).status, 200);
  await t.throwsAsync(fetch(`http://127.0.0.1:${port}/parameters`));
});

test('a port in use fails that connection with the reason; the rest of the hub runs', async (t) => {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  t.teardown(() => blocker.close());
  const taken = (blocker.address() as { port: number }).port;
  const { hub } = await loggedHub(t, {
    api: { type: 'rest-api', port: taken, bindIp: '127.0.0.1' },
    other: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' },
    vars: { type: 'dummy', parameters: 'x,I,1' },
  });
  t.like(hub.connection('api')?.status, {
    status: 'failed',
    code: 'PB_PORT_UNAVAILABLE',
    reason: `cannot listen on 127.0.0.1:${taken}: the port is in use by another process`,
  });
  t.is(hub.connection('vars')?.status.status, 'ok');
  const other = hub.connection('other')?.info.details?.['port'] as number;
  const connections = (await (await fetch(`http://127.0.0.1:${other}/connections`)).json()) as {
    id: string;
    status: string;
    reason: string;
  }[];
  t.like(connections[0], { id: 'api', status: 'failed' });
});

test('two hubs never share a port: the second fails its connection with the reason (R-H8)', async (t) => {
  const { hub: first } = await loggedHub(t, { api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' } });
  const port = portOf(first);
  const { hub: second } = await loggedHub(t, {
    api: { type: 'rest-api', port, bindIp: '127.0.0.1' },
    mine: { type: 'dummy', parameters: 'only,I,2' },
  });
  t.like(second.connection('api')?.status, {
    status: 'failed',
    code: 'PB_PORT_UNAVAILABLE',
    reason: `cannot listen on 127.0.0.1:${port}: the port is in use by another process`,
  });
  // Every request reaches the first hub, which has no parameter `mine/only`.
  for (let i = 0; i < 20; i++) t.is((await fetch(`http://127.0.0.1:${port}/parameters/mine/only`)).status, 404);
});

test("an address that is not this machine's fails with that reason", async (t) => {
  const { hub } = await loggedHub(t, { api: { type: 'rest-api', port: 0, bindIp: '192.0.2.1' } });
  t.like(hub.connection('api')?.status, {
    status: 'failed',
    code: 'PB_PORT_UNAVAILABLE',
    reason: 'cannot listen on 192.0.2.1:0: 192.0.2.1 is not an address of this machine',
  });
});

test('stopping frees the port for the next start', async (t) => {
  const first = new Hub({ flow: flowOf({ connections: { api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' } } }) });
  await first.start();
  const port = portOf(first);
  await first.stop();
  const second = new Hub({ flow: flowOf({ connections: { api: { type: 'rest-api', port, bindIp: '127.0.0.1' } } }) });
  t.teardown(() => second.stop());
  await second.start();
  t.is(second.connection('api')?.status.status, 'ok');
  t.is((await fetch(`http://127.0.0.1:${port}/connections`)).status, 200);
});

/** A GET on a keep-alive agent: the status and the socket that carried it. */
function getOn(agent: Agent, url: string, token: string): Promise<{ status: number; socket: Socket }> {
  return new Promise((resolve, reject) => {
    get(url, { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
      const socket = res.socket;
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, socket }));
    }).on('error', reject);
  });
}

test('a reload that replaces a rest-api closes its open connections: kept-alive HTTP ones, and WebSockets with 1012', async (t) => {
  // A name it answers under changes too: new credentials alone are taken in place (the next test).
  const connections = (token: string, port: number) => ({
    api: { type: 'rest-api', port, bindIp: '127.0.0.1', token, hostnames: token === 'new-token' ? ['studio.example'] : [] },
    studio: { type: 'dummy', parameters: ['onair,B,false'] },
  });
  const port = await freePort();
  const hub = await startHub(t, { connections: connections('removed-by-reload', port) });
  const url = `http://127.0.0.1:${port}/parameters/studio/onair`;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  t.teardown(() => agent.destroy());
  const first = await getOn(agent, url, 'removed-by-reload');
  t.is(first.status, 200);
  t.is((await getOn(agent, url, 'removed-by-reload')).socket, first.socket, 'the connection is kept alive');
  const socketClosed = new Promise<void>((resolve) => first.socket.once('close', () => resolve()));
  const client = await Client.open(t, `ws://127.0.0.1:${port}/ws?access_token=removed-by-reload`);
  const closed = new Promise<[number, string]>((resolve) =>
    client.socket.on('close', (code, reason) => resolve([code, reason.toString()])),
  );

  await hub.reload(flowOf({ connections: connections('new-token', port) }));
  t.deepEqual(await closed, [1012, 'service restart']);
  await socketClosed;
  t.is((await getOn(agent, url, 'removed-by-reload')).status, 401, 'the removed token opens nothing');
  t.is((await getOn(agent, url, 'new-token')).status, 200);
});

test('a reload that changes credentials alone takes them in place: the port and kept-alive connections stay, sockets of changed logins close with 1008', async (t) => {
  const connections = (token: string, port: number) => ({
    api: {
      type: 'rest-api',
      port,
      bindIp: '127.0.0.1',
      token,
      tokens: [{ name: 'wall', token: 'wall-token', read: ['studio/#'], write: [] }],
    },
    studio: { type: 'dummy', parameters: ['onair,B,false'] },
  });
  const port = await freePort();
  const hub = await startHub(t, { connections: connections('old-token', port) });
  const url = `http://127.0.0.1:${port}/parameters/studio/onair`;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  t.teardown(() => agent.destroy());
  const first = await getOn(agent, url, 'old-token');
  const full = await Client.open(t, `ws://127.0.0.1:${port}/ws?access_token=old-token`);
  const wall = await Client.open(t, `ws://127.0.0.1:${port}/ws?access_token=wall-token`);
  const closed = new Promise<[number, string]>((resolve) => full.socket.on('close', (code, reason) => resolve([code, reason.toString()])));

  await hub.reload(flowOf({ connections: connections('new-token', port) }));
  t.deepEqual(await closed, [1008, 'signed out: its credentials changed']);
  const again = await getOn(agent, url, 'old-token');
  t.is(again.socket, first.socket, 'the same kept-alive connection');
  t.is(again.status, 401, 'the old token opens nothing');
  t.is((await getOn(agent, url, 'new-token')).status, 200);
  t.is(wall.socket.readyState, wall.socket.OPEN, 'a login whose credentials stayed keeps its socket');
});

test('settings are checked with their paths', (t) => {
  const result = validateFlow(
    { connections: { api: { type: 'rest-api', port: 70000, wsFilters: ['ok', '(broken'], token: 5, realm: 'x' } } },
    '/virtual/flow.json5',
  );
  t.false(result.ok);
  if (!result.ok) {
    t.deepEqual(result.issues.map(formatIssue).sort(), [
      'connections.api.port: expected an integer from 0 to 65535',
      'connections.api.realm: unknown key; expected one of type, enabled, description, location, group, debug, persist, statusParameters, port, bindIp, documentRoot, username, password, token, wsFilters, allowedOrigins, hostnames, cert, key, passphraseEnv, tokens, console, required, resumeWindow, resumeChanges',
      'connections.api.token: expected a string',
      'connections.api.wsFilters[1]: not a regular expression the hub accepts (RE2 syntax): missing closing ): `(broken`',
    ]);
  }
  const filters = validateFlow({ connections: { api: { type: 'rest-api', wsFilters: ['ok', '(broken'] } } }, '/virtual/flow.json5');
  t.false(filters.ok);
  if (!filters.ok)
    t.deepEqual(filters.issues.map(formatIssue), [
      'connections.api.wsFilters[1]: not a regular expression the hub accepts (RE2 syntax): missing closing ): `(broken`',
    ]);
});

test('a hub that listens on every interface without credentials says so once, as a warning; a bound or protected one does not', async (t) => {
  const warnings = (lines: () => { msg: string; level: number }[]) =>
    lines().filter((l) => l.level === 40 && l.msg.includes('every interface without credentials'));
  const open = await loggedHub(t, { api: { type: 'rest-api', port: 0, bindIp: '' } });
  t.is(warnings(open.lines).length, 1);
  t.regex(warnings(open.lines)[0]?.msg ?? '', /set bindIp \(such as 127\.0\.0\.1\) or a token/);
  const bound = await loggedHub(t, { api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' } });
  t.is(warnings(bound.lines).length, 0);
  const locked = await loggedHub(t, { api: { type: 'rest-api', port: 0, bindIp: '', token: 'secret' } });
  t.is(warnings(locked.lines).length, 0);
});
