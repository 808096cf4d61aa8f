import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hostname } from 'node:os';
import test, { type ExecutionContext } from 'ava';
import { decode } from 'node-osc';
import WebSocket from 'ws';
import { IDLE_MS } from '../../../lib/connections/osc/oscquery.ts';
import type { Hub } from '../../../lib/hub/hub.ts';
import { eventually } from '../../helpers/eventually.ts';
import { param, type SpecHubOptions, startHub } from '../../helpers/hub.ts';
import { runHub } from '../../helpers/hub-process.ts';
import { VirtualClock } from '../../helpers/virtual-time.ts';
import { rawRequest, settle } from '../../helpers/http.ts';

/** A real hub process: a rest-api, a dummy, and an osc connection serving OSCQuery on a free port. */
async function oscQueryProcess(t: Parameters<typeof runHub>[0], oscQuery: object = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-oscquery-'));
  const flow = join(dir, 'flow.json5');
  await writeFile(
    flow,
    JSON.stringify({
      connections: {
        api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' },
        studio: { type: 'dummy', parameters: ['level,I,3', 'title,S,Morning'] },
        desk: { type: 'osc', port: 0, bindIp: '127.0.0.1', oscQuery: { port: 0, expose: ['studio/#'], write: ['studio/#'], ...oscQuery } },
      },
    }),
  );
  const hub = await runHub(t, flow, { args: ['--state', 'none'] });
  const [, port] = /OSCQuery on http:\/\/[\d.]+:(\d+)/.exec(hub.log()) ?? [];
  if (!port) throw new Error(`no OSCQuery port in the log: ${hub.log()}`);
  return { hub, queryPort: Number(port) };
}

test('a malformed path (GET /%E0%A4%A) is answered 400 and the WebSocket texts null, 1, [] and "x" are ignored: the hub process lives on and serves (issue 60, 3)', async (t) => {
  const { hub, queryPort } = await oscQueryProcess(t);
  const raw = (path: string) => rawRequest(queryPort, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
  t.is((await raw('/%E0%A4%A')).status, 400, 'a path that does not decode');
  t.is((await raw('/%')).status, 400);
  t.is((await raw('/studio/level')).status, 200, 'the namespace is still served');

  const socket = new WebSocket(`ws://127.0.0.1:${queryPort}`);
  t.teardown(() => socket.terminate());
  const received: { address: string; args: { value: unknown }[] }[] = [];
  socket.on('message', (data: Buffer) => received.push(decode(data) as never));
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  for (const text of ['null', '1', '[]', '"x"', '{"COMMAND":"LISTEN","DATA":7}', '{"COMMAND":"LISTEN"}', 'not json']) socket.send(text);
  await settle(300);
  t.is(hub.child.exitCode, null, `the hub runs (log: ${hub.log().slice(-2000)})`);
  t.is(await (await fetch(`${hub.base}/healthz`)).text(), 'OK');
  // The same socket still works: it listens, and hears a change.
  socket.send(JSON.stringify({ COMMAND: 'LISTEN', DATA: '/studio/level' }));
  await eventually(async () => {
    await hub.write('studio/level', String(Math.floor(Math.random() * 1000) + 10));
    return received.some((message) => message.address === '/studio/level');
  }, 'a change after the malformed commands');
  t.is(hub.child.exitCode, null);
  t.true(
    hub.messages().some((message) => message.includes('malformed OSCQuery command')),
    'the malformed commands are logged',
  );
});

/** An in-process hub whose osc connection serves OSCQuery, with `extra` connections beside. */
async function oscQueryHub(t: ExecutionContext, oscQuery: object = {}, extra: object = {}, options: SpecHubOptions = {}) {
  const hub = await startHub(
    t,
    {
      connections: {
        api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' },
        studio: { type: 'dummy', parameters: ['level,I,3', 'title,S,Morning'] },
        desk: { type: 'osc', port: 0, bindIp: '127.0.0.1', oscQuery: { port: 0, expose: ['studio/#'], write: ['studio/#'], ...oscQuery } },
        ...extra,
      },
    },
    options,
  );
  const info = hub.connection('desk')?.info;
  if (info?.status !== 'ok') throw new Error(`osc did not start: ${info?.status} ${info?.reason}`);
  const details = info.details as { oscQuery: { port: number } };
  return { hub, queryPort: details.oscQuery.port };
}

/** Counts the readings walks through the graph meet from now on. */
function countReadings(hub: Hub): () => number {
  const { graph } = hub;
  const walk = graph.readings.bind(graph);
  let met = 0;
  graph.readings = function* counted() {
    for (const reading of walk()) {
      met++;
      yield reading;
    }
  };
  return () => met;
}

test('with 200,000 exposed parameters a GET of one parameter or of a small part of the namespace walks none of them, and GET / still lists them all (issue 60, 6)', async (t) => {
  const { hub, queryPort } = await oscQueryHub(
    t,
    { expose: ['studio/#', 'bulk/#', 'more/#'] },
    { bulk: { type: 'dummy', parameters: 'p/{1..100000},I,7' }, more: { type: 'dummy', parameters: 'p/{1..100000},I,9' } },
  );
  const met = countReadings(hub);
  const get = async (path: string) => (await fetch(`http://127.0.0.1:${queryPort}${path}`)).json() as Promise<Record<string, unknown>>;
  t.like(await get('/studio/level'), { FULL_PATH: '/studio/level', TYPE: 'i', VALUE: [3] });
  t.like(await get('/studio'), { FULL_PATH: '/studio', CONTENTS: { title: { VALUE: ['Morning'] } } });
  t.deepEqual(await get('/bulk/p/12345?VALUE'), { VALUE: [7] });
  t.is(met(), 0, 'no walk through the graph');
  // A parameter added or removed is in the next answer: the namespace follows the graph.
  t.true(hub.graph.remove('bulk/p/5'));
  t.is((await fetch(`http://127.0.0.1:${queryPort}/bulk/p/5`)).status, 404);
  param(hub, 'bulk/p/6').set(8);
  t.deepEqual(await get('/bulk/p/6?VALUE'), { VALUE: [8] }, 'a row made since is read as its parameter');
  type Rows = { CONTENTS: { p: { CONTENTS: Record<string, { VALUE: unknown[] }> } } };
  const whole = (await get('/')) as { CONTENTS: { bulk: Rows; more: Rows } };
  const [bulk, more] = [whole.CONTENTS.bulk.CONTENTS.p.CONTENTS, whole.CONTENTS.more.CONTENTS.p.CONTENTS];
  t.is(Object.keys(bulk).length + Object.keys(more).length, 199_999);
  t.deepEqual(more['100000']?.VALUE, [9]);
  t.deepEqual(bulk['6']?.VALUE, [8]);
  t.is(bulk['5'], undefined);
  t.is(met(), 0);
});

test('a WebSocket upgrade from a page of another origin is refused, as are requests sent to a name that is not this machine’s; native tools (no Origin) and allowed origins get in (issue 60, 12)', async (t) => {
  const { queryPort } = await oscQueryHub(t, { origins: ['http://console.studio.example'] });
  const upgrade = (headers: Record<string, string>) =>
    new Promise<number>((resolve) => {
      const socket = new WebSocket(`ws://127.0.0.1:${queryPort}`, { headers });
      socket.once('open', () => {
        socket.terminate();
        resolve(101);
      });
      socket.once('unexpected-response', (_request, response) => {
        resolve(response.statusCode ?? 0);
        socket.terminate();
      });
      socket.once('error', () => resolve(0));
    });
  t.is(await upgrade({}), 101, 'no Origin: a native tool');
  t.is(await upgrade({ Origin: 'http://evil.example' }), 403, 'a page of another site');
  t.is(await upgrade({ Origin: 'http://localhost:8080' }), 403, 'a page of another port of this machine');
  t.is(await upgrade({ Origin: 'http://console.studio.example' }), 101, 'an origin of oscQuery.origins');
  const raw = (headers: string) => rawRequest(queryPort, `GET /studio/title HTTP/1.1\r\n${headers}Connection: close\r\n\r\n`);
  t.is((await raw(`Host: 127.0.0.1:${queryPort}\r\n`)).status, 200);
  t.is((await raw(`Host: localhost:${queryPort}\r\n`)).status, 200);
  t.is((await raw(`Host: ${hostname()}:${queryPort}\r\n`)).status, 200, 'the machine’s own name');
  t.is((await raw(`Host: evil.example:${queryPort}\r\n`)).status, 403, 'a rebound name');
  t.is((await raw(`Host: 127.0.0.1:${queryPort}\r\nOrigin: http://evil.example\r\nSec-Fetch-Site: cross-site\r\n`)).status, 403);
  const allowed = await raw(`Host: 127.0.0.1:${queryPort}\r\nOrigin: http://console.studio.example\r\nSec-Fetch-Site: cross-site\r\n`);
  t.is(allowed.status, 200);
  t.regex(allowed.head, /access-control-allow-origin: http:\/\/console\.studio\.example/i);
});

test('one address holds at most 8 OSCQuery WebSockets, so another machine still gets in; a client that listens to nothing and says nothing for a minute is let go (issue 60, low)', async (t) => {
  const clock = new VirtualClock();
  const { hub, queryPort } = await oscQueryHub(t, {}, {}, { scheduler: clock.scheduler });
  const open = (localAddress: string) =>
    new Promise<WebSocket | number>((resolve) => {
      const socket = new WebSocket(`ws://127.0.0.1:${queryPort}`, { localAddress });
      t.teardown(() => socket.terminate());
      socket.once('open', () => resolve(socket));
      socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      socket.once('error', () => resolve(0));
    });
  const first: (WebSocket | number)[] = [];
  for (let n = 0; n < 10; n++) first.push(await open('127.0.0.1'));
  t.is(first.filter((socket) => socket instanceof WebSocket).length, 8, 'eight from 127.0.0.1');
  t.deepEqual(first.slice(8), [503, 503]);
  const other = await open('127.0.0.2');
  t.true(other instanceof WebSocket, 'another address gets in');
  const listener = first[0] as WebSocket;
  listener.send(JSON.stringify({ COMMAND: 'LISTEN', DATA: '/studio/level' }));
  await eventually(() => hub.connection('desk')?.info.details?.['oscQuery'] !== undefined, 'details');
  await settle(100);
  const closed: WebSocket[] = [];
  for (const socket of [...first, other]) if (socket instanceof WebSocket) socket.once('close', () => closed.push(socket));
  clock.advanceBy(IDLE_MS + 1);
  await eventually(
    () => closed.length === 8,
    () => `the idle ones close (${closed.length} so far)`,
  );
  t.false(closed.includes(listener), 'the one that listens stays');
  t.is(listener.readyState, WebSocket.OPEN);
  t.true((await open('127.0.0.1')) instanceof WebSocket, 'their slots are free again');
});

test('twenty clients asking for a namespace of 5,000 parameters at once each get all of it, or 503 PB_OVER_LIMIT past the ones streamed and waiting; the hub answers meanwhile (issue 60, 6)', async (t) => {
  const { hub, queryPort } = await oscQueryHub(t, { expose: ['bulk/#'] }, { bulk: { type: 'dummy', parameters: 'p/{1..5000},I,7' } });
  const base = `http://127.0.0.1:${hub.connection('api')?.info.details?.['port']}`;
  const answers = await Promise.all(
    Array.from({ length: 20 }, async () => {
      const response = await fetch(`http://127.0.0.1:${queryPort}/`);
      return { status: response.status, code: response.headers.get('x-patchbay-code'), body: await response.text() };
    }),
  );
  t.is(await (await fetch(`${base}/healthz`)).text(), 'OK');
  const whole = answers.filter((answer) => answer.status === 200);
  t.true(whole.length > 2, `more than the two streamed at once: the waiting ones get theirs (${whole.length})`);
  for (const { body } of whole) {
    const rows = (JSON.parse(body) as { CONTENTS: { bulk: { CONTENTS: { p: { CONTENTS: Record<string, unknown> } } } } }).CONTENTS.bulk
      .CONTENTS.p.CONTENTS;
    t.is(Object.keys(rows).length, 5000);
  }
  for (const answer of answers.filter(({ status }) => status !== 200)) t.like(answer, { status: 503, code: 'PB_OVER_LIMIT' });
});
