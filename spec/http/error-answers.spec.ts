import { mkdtemp, writeFile } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import WebSocket from 'ws';
import { type ErrorCode, HubError, statusOf } from '../../lib/core/errors.ts';
import { Graph } from '../../lib/core/graph.ts';
import { realTime } from '../../lib/core/scheduler.ts';
import { Authenticator } from '../../lib/http/auth.ts';
import { RestServer } from '../../lib/http/server.ts';
import { capturedLog } from '../helpers/hub.ts';
import { Client, rawRequest, serve } from '../helpers/http.ts';
import { freePort } from '../helpers/ports.ts';

const studio = {
  studio: { type: 'dummy', parameters: ['count,I,3', 'note,S', 'cue,T'] },
  clock: { type: 'timer', timers: [{ duration: 100000 }] },
};

async function servedWithFiles(t: Parameters<typeof serve>[0], api: object = {}) {
  const root = await mkdtemp(join(tmpdir(), 'patchbay-errors-'));
  await writeFile(join(root, 'index.html'), 'home');
  return serve(t, { documentRoot: root, ...api }, studio);
}

const form = { 'content-type': 'application/x-www-form-urlencoded' };

/** [what, path, request, code, reason]: one of every kind of error answer over HTTP. */
const kinds: [string, string, RequestInit, ErrorCode, RegExp][] = [
  ['a missing field', '/update?value=1', {}, 'PB_BAD_REQUEST', /missing field "parameter"/],
  ['a value that does not convert', '/update?parameter=studio/count&value=lots', {}, 'PB_CONVERSION', /cannot convert "lots" to integer/],
  ['a bad ?filter=', '/parameters?filter=(', {}, 'PB_BAD_FILTER', /filter "\(": not a regular expression the hub accepts/],
  [
    'a body that is not a form',
    '/update',
    { method: 'POST', headers: form, body: new Uint8Array([0xff, 0xfe]) },
    'PB_BAD_REQUEST',
    /not valid UTF-8/,
  ],
  ['a read-only parameter', '/update?parameter=clock/timer/1/trigger&value=1', {}, 'PB_READ_ONLY', /is read-only/],
  ['an unknown parameter', '/parameters/studio/nope', {}, 'PB_UNKNOWN_PARAMETER', /has no parameter "nope"/],
  ['an unknown connection', '/update?parameter=nope/x&value=1', {}, 'PB_UNKNOWN_CONNECTION', /no connection "nope"/],
  ['a malformed address', '/parameters/Bad Id/x', {}, 'PB_BAD_ADDRESS', /not an address|not a parameter id/],
  ['bad percent-encoding in an address', '/parameters/studio/%ZZ', {}, 'PB_BAD_ADDRESS', /bad percent-encoding/],
  ['an unknown path', '/nothing-here', { method: 'POST' }, 'PB_NOT_FOUND', /nothing at POST \/nothing-here/],
  ['a missing hosted file', '/missing.html', {}, 'PB_NOT_FOUND', /no file at \/missing\.html/],
  ['a wrong method', '/parameters/studio/count', { method: 'DELETE' }, 'PB_METHOD_NOT_ALLOWED', /use GET/],
  ['a wrong method on /problems', '/problems', { method: 'PUT' }, 'PB_METHOD_NOT_ALLOWED', /use GET/],
  [
    'a body over 64 KiB',
    '/update',
    { method: 'POST', headers: form, body: `value=${'x'.repeat(70_000)}` },
    'PB_BODY_TOO_LARGE',
    /over 65536 bytes/,
  ],
  [
    'an unsupported body type',
    '/update',
    { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' },
    'PB_UNSUPPORTED_MEDIA_TYPE',
    /application\/json/,
  ],
  ['a plain GET of /ws', '/ws', {}, 'PB_UPGRADE_REQUIRED', /upgrades to a WebSocket/],
  ['a takeover asked of a hub in no group', '/failover', { method: 'POST' }, 'PB_BAD_REQUEST', /in no redundancy group/],
  ['a GET of /failover', '/failover', {}, 'PB_METHOD_NOT_ALLOWED', /use POST, OPTIONS for \/failover/],
  ['an unknown value', '/parameters/studio/note', {}, 'PB_STATE_UNKNOWN', /the value is unknown/],
  ['a trigger read', '/parameters/studio/cue', {}, 'PB_STATE_UNKNOWN', /a trigger has no state/],
];

test('text clients get the reason as text and the code in X-Patchbay-Code, with the status of the code', async (t) => {
  const { base } = await servedWithFiles(t);
  for (const [what, path, init, code, reason] of kinds) {
    const res = await fetch(`${base}${path}`, init);
    t.is(res.status, statusOf(code), what);
    t.is(res.headers.get('x-patchbay-code'), code, what);
    t.is(res.headers.get('content-type'), 'text/plain; charset=utf-8', what);
    t.regex(await res.text(), reason, what);
  }
});

test('JSON clients get {"ok":false,"error","code"} for every kind of error answer', async (t) => {
  const { base } = await servedWithFiles(t);
  for (const [what, path, init, code, reason] of kinds) {
    const res = await fetch(`${base}${path}`, { ...init, headers: { ...(init.headers as object), accept: 'application/json' } });
    t.is(res.status, statusOf(code), what);
    t.is(res.headers.get('content-type'), 'application/json', what);
    const body = (await res.json()) as { ok: boolean; error: string; code: string };
    t.like(body, { ok: false, code }, what);
    t.deepEqual(Object.keys(body), ['ok', 'error', 'code'], what);
    t.regex(body.error, reason, what);
  }
});

test('a client that sends JSON is a JSON client without saying so in Accept', async (t) => {
  const { base } = await servedWithFiles(t);
  const res = await fetch(`${base}/update`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[1]' });
  t.is(res.status, 400);
  t.like(await res.json(), { ok: false, code: 'PB_BAD_REQUEST' });
  const unknown = await fetch(`${base}/nothing-here`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  t.deepEqual(await unknown.json(), { ok: false, error: 'nothing at POST /nothing-here', code: 'PB_NOT_FOUND' });
});

test('an unknown value keeps the reason phrase State Unknown beside its code', async (t) => {
  const { port } = await servedWithFiles(t);
  const res = await rawRequest(port, 'GET /parameters/studio/note HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
  t.true(res.head.startsWith('HTTP/1.1 503 State Unknown\r\n'), res.head);
  t.regex(res.head, /\r\nX-Patchbay-Code: PB_STATE_UNKNOWN\r\n/i);
});

test("a parameter a connection does not have while it is not up says how the connection stands: a device's parameters may come once it answers", async (t) => {
  const closed = await freePort();
  const { base } = await serve(
    t,
    {},
    { ...studio, router: { type: 'tcp-client', host: '127.0.0.1', port: closed, parameters: ['route,S'] } },
  );
  const read = await fetch(`${base}/parameters/router/output/1/input`);
  t.is(read.status, 404);
  t.regex(
    await read.text(),
    /^router\/output\/1\/input: connection "router" has no parameter "output\/1\/input" \(it is degraded: .+; a device's parameters may come once it has answered\)$/,
  );
  const write = await fetch(`${base}/update?parameter=router/output/1/input&value=1`);
  t.is(write.status, 404);
  t.regex(await write.text(), /\(it is degraded: /);
  const up = await fetch(`${base}/parameters/studio/nope`);
  t.is(await up.text(), 'studio/nope: connection "studio" has no parameter "nope"', 'a connection that is up: no more than that');
});

test('405 answers name the allowed methods', async (t) => {
  const { base } = await servedWithFiles(t);
  for (const [path, allowed] of [
    ['/parameters/studio/count', 'GET, HEAD, OPTIONS'],
    ['/parameters', 'GET, HEAD, OPTIONS'],
    ['/connections', 'GET, HEAD, OPTIONS'],
    ['/problems', 'GET, HEAD, OPTIONS'],
    ['/update', 'GET, POST, OPTIONS'],
    ['/failover', 'POST, OPTIONS'],
  ] as const) {
    const res = await fetch(`${base}${path}`, { method: 'PATCH' });
    t.is(res.status, 405, path);
    t.is(res.headers.get('allow'), allowed, path);
    t.is(res.headers.get('x-patchbay-code'), 'PB_METHOD_NOT_ALLOWED', path);
  }
});

test('a refused request gets 401 with its challenges and PB_UNAUTHORIZED, as text or JSON', async (t) => {
  const { base } = await servedWithFiles(t, { token: 'tok' });
  for (const path of ['/parameters', '/nothing-here', '/index.html', '/problems']) {
    const text = await fetch(`${base}${path}`);
    t.is(text.status, 401, path);
    t.is(text.headers.get('www-authenticate'), 'Bearer realm="patchbay"');
    t.is(text.headers.get('x-patchbay-code'), 'PB_UNAUTHORIZED');
    t.is(await text.text(), 'authentication required');
    const json = await fetch(`${base}${path}`, { headers: { accept: 'application/json' } });
    t.is(json.status, 401);
    t.is(json.headers.get('www-authenticate'), 'Bearer realm="patchbay"');
    t.deepEqual(await json.json(), { ok: false, error: 'authentication required', code: 'PB_UNAUTHORIZED' });
  }
});

test('a refused WebSocket upgrade carries its code', async (t) => {
  const { port } = await servedWithFiles(t, { token: 'tok' });
  const upgrade = (path: string, extra = '') =>
    rawRequest(
      port,
      `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade, close\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n${extra}\r\n`,
    );
  const badFilter = await upgrade('/ws?access_token=tok&filter=(');
  t.is(badFilter.status, 400);
  t.regex(badFilter.head, /\r\nX-Patchbay-Code: PB_BAD_FILTER(\r\n|$)/i);
  const refused = await upgrade('/ws', 'Accept: application/json\r\n');
  t.is(refused.status, 401);
  t.like(JSON.parse(refused.body), { ok: false, code: 'PB_UNAUTHORIZED' });
});

test('a fault while answering is 500 PB_INTERNAL and logged; the server keeps serving', async (t) => {
  const { log, lines } = capturedLog();
  const server = new RestServer({
    graph: new Graph(),
    auth: new Authenticator({ username: '', password: '', token: '' }),
    files: undefined,
    wsFilters: [],
    connections: () => {
      throw new Error('listing exploded');
    },
    problems: () => [],
    rules: () => [],
    scheduler: realTime,
    log,
  });
  t.teardown(() => server.stop());
  const port = await server.listen('127.0.0.1', 0);
  const base = `http://127.0.0.1:${port}`;
  const text = await fetch(`${base}/connections`);
  t.is(text.status, 500);
  t.is(text.headers.get('x-patchbay-code'), 'PB_INTERNAL');
  t.is(await text.text(), 'internal error; see the hub log');
  const json = await fetch(`${base}/connections`, { headers: { accept: 'application/json' } });
  t.deepEqual(await json.json(), { ok: false, error: 'internal error; see the hub log', code: 'PB_INTERNAL' });
  t.true(lines().some((l) => /request failed: .*listing exploded/.test(l.msg)));
  t.deepEqual(await (await fetch(`${base}/problems`)).json(), []);
});

test('a port that cannot be had rejects with PB_PORT_UNAVAILABLE', async (t) => {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  t.teardown(() => blocker.close());
  const taken = (blocker.address() as AddressInfo).port;
  const server = new RestServer({
    graph: new Graph(),
    auth: new Authenticator({ username: '', password: '', token: '' }),
    files: undefined,
    wsFilters: [],
    connections: () => [],
    problems: () => [],
    rules: () => [],
    scheduler: realTime,
    log: capturedLog().log,
  });
  t.teardown(() => server.stop());
  await t.throwsAsync(server.listen('127.0.0.1', taken), {
    instanceOf: HubError,
    code: 'PB_PORT_UNAVAILABLE',
    message: `cannot listen on 127.0.0.1:${taken}: the port is in use by another process`,
  });
});

test('every bad WebSocket message is answered with {p, error, code}', async (t) => {
  const { port } = await servedWithFiles(t, { wsFilters: ['^none$'] });
  const client = await Client.open(t, `ws://127.0.0.1:${port}/ws`);
  const bad: [string | Buffer, string | null, ErrorCode][] = [
    ['not json', null, 'PB_BAD_REQUEST'],
    [Buffer.from([0xff, 0xfe, 0x7b]), null, 'PB_BAD_REQUEST'],
    ['{"v":1}', null, 'PB_BAD_REQUEST'],
    ['{"p":"studio/count"}', 'studio/count', 'PB_BAD_REQUEST'],
    ['{"p":"studio/nope","v":1}', 'studio/nope', 'PB_UNKNOWN_PARAMETER'],
    ['{"p":"nope/x","v":1}', 'nope/x', 'PB_UNKNOWN_CONNECTION'],
    ['{"p":"Bad Id","v":1}', 'Bad Id', 'PB_BAD_ADDRESS'],
    ['{"p":"clock/timer/1/trigger","v":1}', 'clock/timer/1/trigger', 'PB_READ_ONLY'],
    ['{"p":"studio/count","v":"many"}', 'studio/count', 'PB_CONVERSION'],
  ];
  for (const [message] of bad) client.socket.send(message);
  await client.untilCount(bad.length);
  t.deepEqual(
    (client.messages as { p: unknown; code: unknown }[]).map(({ p, code }) => [p, code]),
    bad.map(([, p, code]) => [p, code]),
  );
  for (const answer of client.messages) t.deepEqual(Object.keys(answer as object), ['p', 'error', 'code']);
  t.is(client.socket.readyState, WebSocket.OPEN);
});

test('a WebSocket message over 1 MiB closes the socket with 1009; the hub serves on (R-H12)', async (t) => {
  const { port, base } = await serve(t, {}, studio);
  for (const size of [1024 * 1024 + 1, 4 * 1024 * 1024]) {
    const client = await Client.open(t, `ws://127.0.0.1:${port}/ws`);
    const closed = new Promise<number>((resolve) => client.socket.once('close', (code) => resolve(code)));
    client.send(`"${'x'.repeat(size - 2)}"`);
    t.is(await closed, 1009, `${size} bytes`);
  }
  t.is((await fetch(`${base}/parameters`)).status, 200);
});

test('a batch of bad items gets back less than it sent: 32 answers, then one that counts the rest', async (t) => {
  const { port } = await serve(t, {}, studio);
  const client = await Client.open(t, `ws://127.0.0.1:${port}/ws`);
  await client.until((m) => m.length > 0, 'the snapshot');
  const snapshot = client.messages.length;
  const batch = JSON.stringify(Array.from({ length: 1000 }, (_, i) => ({ p: `nowhere/x${i}`, v: 1 })));
  let received = 0;
  client.socket.on('message', (data: Buffer) => (received += data.length));
  client.send(batch);
  await client.untilCount(snapshot + 33);
  await new Promise((resolve) => setTimeout(resolve, 200));
  const answers = client.messages.slice(snapshot) as { p: string | null; code: string; error: string }[];
  t.is(answers.length, 33);
  t.deepEqual(answers[0], { p: 'nowhere/x0', code: 'PB_UNKNOWN_CONNECTION', error: 'nowhere/x0: there is no connection "nowhere"' });
  t.deepEqual(answers[32], { p: null, code: 'PB_BAD_REQUEST', error: '968 more bad items in this message, not answered one by one' });
  t.true(received < batch.length / 5, `${received} bytes answered to ${batch.length} sent`);
});

test('a batch of more than 1,000 items is refused with PB_BATCH_TOO_LARGE, and none of it is written', async (t) => {
  const { port, hub } = await serve(t, {}, studio);
  const client = await Client.open(t, `ws://127.0.0.1:${port}/ws?filter=^$`);
  const items = [{ p: 'studio/count', v: 99 }, ...Array.from({ length: 1000 }, (_, i) => ({ p: `nowhere/x${i}`, v: 1 }))];
  client.send(items);
  await client.untilCount(1);
  t.deepEqual(client.messages, [
    {
      p: null,
      code: 'PB_BATCH_TOO_LARGE',
      error: 'a batch holds at most 1000 items; this one has more, so none of it was written',
    },
  ]);
  t.is(hub.graph.get('studio/count')?.value, 3, 'the good item was not written either');
  client.send(items.slice(0, 1000));
  await client.untilCount(1 + 33);
  t.is(hub.graph.get('studio/count')?.value, 99, 'a batch of 1,000 is applied');
});

test('a client that sends bad messages and never reads the answers is closed with 1008 before its answers pile up in the hub', async (t) => {
  const { port, hub } = await serve(t, {}, studio);
  const client = await Client.open(t, `ws://127.0.0.1:${port}/ws?filter=^$`);
  const closed = new Promise<[number, string]>((resolve) => client.socket.once('close', (code, reason) => resolve([code, String(reason)])));
  // It never reads: what the hub sends waits in the kernel's buffers, then in the hub's.
  const raw = (client.socket as unknown as { _socket: { pause(): void; resume(): void } })._socket;
  raw.pause();
  const sockets = () => hub.connection('api')?.info.details?.['webSockets'] as { clients: number; largestSendBuffer: number };
  let largest = 0;
  // Slowly enough that the hub applies them as they come: its answers are what piles up.
  for (let sent = 0; sockets().clients > 0 && sent < 1_000_000; sent += 200) {
    for (let i = 0; i < 200; i++) client.socket.send('x');
    await new Promise((resolve) => setTimeout(resolve, 5));
    largest = Math.max(largest, sockets().largestSendBuffer);
  }
  t.is(sockets().clients, 0, 'the hub closed it');
  t.true(largest < 8 * 1024 * 1024, `the hub held at most ${largest} bytes for it`);
  raw.resume();
  // On a loaded machine the hub may fall behind the sends first: then the writer's own bound closes it, as firmly.
  const [code, reason] = await closed;
  t.is(code, 1008);
  t.regex(reason, /^(not reading the answers to its messages|writing faster than the hub applies)$/);
  t.is((await fetch(`http://127.0.0.1:${port}/parameters/studio/count`)).status, 200, 'the hub serves on');
});

test('a duplicate Content-Length closes the connection, at once or after a 400, so no hidden request runs', async (t) => {
  const { port, hub } = await serve(t, {}, studio);
  const smuggled = 'GET /update?parameter=studio/count&value=99 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
  const body = `parameter=studio/count&value=5${smuggled}`;
  for (const lengths of [`Content-Length: 30\r\nContent-Length: ${body.length}`, `Content-Length: 30\r\nTransfer-Encoding: chunked`]) {
    const answer = await rawRequest(
      port,
      `POST /update HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n${lengths}\r\n\r\n${body}`,
    );
    // Closed at once, or after a 400 that says so (uWS decides by how the bytes arrive); never a second answer.
    if (answer.head !== '') t.regex(answer.head, /^HTTP\/1\.1 400 [\s\S]*\r\nConnection: close/i, lengths);
    t.false(`${answer.head}${answer.body}`.includes('HTTP/1.1 200'), 'the hidden request got no answer');
  }
  t.is(hub.graph.get('studio/count')?.value, 3);
});

test('HEAD answers carry the headers of GET and no body', async (t) => {
  const { port } = await servedWithFiles(t);
  for (const path of ['/parameters/studio/count', '/parameters', '/index.html', '/parameters/studio/nope']) {
    const answer = await rawRequest(port, `HEAD ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    const get = await fetch(`http://127.0.0.1:${port}${path}`);
    t.is(answer.status, get.status, path);
    t.is(answer.body, '', path);
    t.is(
      /\r\ncontent-length: (\d+)/i.exec(answer.head)?.[1],
      get.headers.get('content-length') ?? undefined,
      `${path}: the length of the GET answer`,
    );
  }
});
