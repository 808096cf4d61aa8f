import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { Hub } from '../../lib/hub/hub.ts';
import { flowOf, param } from '../helpers/hub.ts';
import { rawRequest, serve } from '../helpers/http.ts';

const studio = {
  studio: {
    type: 'dummy',
    parameters: ['count,I,3', 'level,F,0.5', 'onair,B,true', 'title,S,Morning Show', 'note,S', 'cue,T', 'mic/1/open,B,false'],
  },
  clock: { type: 'timer', timers: [{ duration: 100000 }], pulses: [{ interval: 100000 }] },
};

test('GET /parameters/<address> answers the string form as text/plain', async (t) => {
  const { base } = await serve(t, {}, studio);
  for (const [address, body] of [
    ['studio/count', '3'],
    ['studio/level', '0.5'],
    ['studio/onair', 'true'],
    ['studio/title', 'Morning Show'],
    ['studio/mic/1/open', 'false'],
  ] as const) {
    const res = await fetch(`${base}/parameters/${address}`);
    t.is(res.status, 200, address);
    t.is(res.headers.get('content-type'), 'text/plain; charset=utf-8');
    t.is(await res.text(), body);
  }
});

test('with Accept: application/json the body is the JSON value', async (t) => {
  const { base } = await serve(t, {}, studio);
  for (const [address, value] of [
    ['studio/count', 3],
    ['studio/level', 0.5],
    ['studio/onair', true],
    ['studio/title', 'Morning Show'],
  ] as const) {
    const res = await fetch(`${base}/parameters/${address}`, { headers: { accept: 'application/json' } });
    t.is(res.headers.get('content-type'), 'application/json');
    t.deepEqual(await res.json(), value);
  }
});

test('an unknown value and a trigger answer 503 State Unknown', async (t) => {
  const { port } = await serve(t, {}, studio);
  for (const address of ['studio/note', 'studio/cue', 'clock/timer/1/trigger']) {
    const res = await rawRequest(port, `GET /parameters/${address} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    t.true(res.head.startsWith('HTTP/1.1 503 State Unknown\r\n'), res.head);
  }
});

test('an unknown connection or parameter answers 404 with the reason', async (t) => {
  const { base } = await serve(t, {}, studio);
  const unknownParameter = await fetch(`${base}/parameters/studio/nope`);
  t.is(unknownParameter.status, 404);
  t.is(await unknownParameter.text(), 'studio/nope: connection "studio" has no parameter "nope"');
  const unknownConnection = await fetch(`${base}/parameters/nope/x`);
  t.is(unknownConnection.status, 404);
  t.regex(await unknownConnection.text(), /no connection "nope"/);
  t.is((await fetch(`${base}/parameters/`)).status, 404);
  t.is((await fetch(`${base}/parameters/studio`)).status, 404);
});

test('a write-only parameter reads back the last value written', async (t) => {
  const { base } = await serve(t, {}, studio);
  t.is((await fetch(`${base}/parameters/clock/timer/1/start`)).status, 503);
  t.is((await fetch(`${base}/update?parameter=clock/timer/1/start&value=2500`)).status, 200);
  t.is(await (await fetch(`${base}/parameters/clock/timer/1/start`)).text(), '2500');
});

test('GET /update converts and writes, answering OK', async (t) => {
  const { hub, base } = await serve(t, {}, studio);
  const res = await fetch(`${base}/update?parameter=studio/count&value=%2042.9%20`);
  t.is(res.status, 200);
  t.is(await res.text(), 'OK');
  t.is(param(hub, 'studio/count').value, 42);
  t.is((await fetch(`${base}/update?parameter=studio/title&value=News+%26+Weather`)).status, 200);
  t.is(param(hub, 'studio/title').value, 'News & Weather');
});

test('POST /update takes form and JSON bodies; JSON clients get {"ok":true}', async (t) => {
  const { hub, base } = await serve(t, {}, studio);
  const form = await fetch(`${base}/update`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'parameter=studio%2Ftitle&value=Late+Show',
  });
  t.is(form.status, 200);
  t.is(await form.text(), 'OK');
  t.is(param(hub, 'studio/title').value, 'Late Show');

  const json = await fetch(`${base}/update`, {
    method: 'POST',
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify({ parameter: 'studio/level', value: 0.75 }),
  });
  t.is(json.status, 200);
  t.is(json.headers.get('content-type'), 'application/json');
  t.deepEqual(await json.json(), { ok: true });
  t.is(param(hub, 'studio/level').value, 0.75);
});

test('a JSON null fires a trigger and is refused by a state parameter', async (t) => {
  const { hub, base } = await serve(t, {}, studio);
  const fires: unknown[] = [];
  param(hub, 'studio/cue').changes$.subscribe((v) => fires.push(v));
  const post = (body: object) =>
    fetch(`${base}/update`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  t.is((await post({ parameter: 'studio/cue', value: null })).status, 200);
  t.deepEqual(fires, [true]);
  const refused = await post({ parameter: 'studio/count', value: null });
  t.is(refused.status, 400);
  t.deepEqual(await refused.json(), { ok: false, error: 'studio/count: cannot convert null to integer', code: 'PB_CONVERSION' });
});

test('/update answers 400, 403, 404, 413 and 415 with the reason in the body', async (t) => {
  const { hub, base } = await serve(t, {}, studio);
  const cases: [string, RequestInit | undefined, number, RegExp][] = [
    ['/update?value=1', undefined, 400, /missing field "parameter"/],
    ['/update?parameter=studio/count', undefined, 400, /missing field "value"/],
    ['/update?parameter=studio/count&value=lots', undefined, 400, /cannot convert "lots" to integer/],
    ['/update?parameter=studio/onair&value=maybe', undefined, 400, /cannot convert "maybe" to boolean/],
    ['/update?parameter=clock/timer/1/trigger&value=1', undefined, 403, /read-only/],
    ['/update?parameter=studio/nope&value=1', undefined, 404, /no parameter "nope"/],
    ['/update?parameter=nope/x&value=1', undefined, 404, /no connection "nope"/],
    [
      '/update',
      { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' },
      415,
      /x-www-form-urlencoded or application\/json/,
    ],
    ['/update', { method: 'POST', body: new Uint8Array(10) }, 415, /x-www-form-urlencoded/],
    ['/update', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"parameter":' }, 400, /not JSON/],
    ['/update', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[1,2]' }, 400, /expected a JSON object/],
    [
      '/update',
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"parameter":"studio/count"}' },
      400,
      /missing field "value"/,
    ],
    [
      '/update',
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"parameter":5,"value":1}' },
      400,
      /missing field "parameter"/,
    ],
    [
      '/update',
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `parameter=studio/title&value=${'x'.repeat(70_000)}`,
      },
      413,
      /over 65536 bytes/,
    ],
  ];
  for (const [path, init, status, reason] of cases) {
    const res = await fetch(`${base}${path}`, init);
    t.is(res.status, status, `${init?.method ?? 'GET'} ${path}`);
    const json = res.headers.get('content-type') === 'application/json';
    t.regex(json ? ((await res.json()) as { error: string }).error : await res.text(), reason);
  }
  t.is(param(hub, 'studio/count').value, 3, 'no refused write changed anything');
  t.is(param(hub, 'studio/title').value, 'Morning Show');
});

test('a body streamed past 64 KiB without a length is refused with 413', async (t) => {
  const { base } = await serve(t, {}, studio);
  const chunks = new ReadableStream({
    start(controller) {
      for (let i = 0; i < 20; i++) controller.enqueue(new Uint8Array(8192).fill(97));
      controller.close();
    },
  });
  const res = await fetch(`${base}/update`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: chunks,
    duplex: 'half',
  } as RequestInit);
  t.is(res.status, 413);
});

test('GET /parameters lists every parameter with type, access and known value, narrowed by ?filter=', async (t) => {
  const { base } = await serve(t, {}, studio);
  const all = (await (await fetch(`${base}/parameters`)).json()) as { p: string }[];
  t.deepEqual(all.filter((p) => p.p.startsWith('studio/')).slice(0, 6), [
    { p: 'studio/count', type: 'I', access: 'read-write', v: 3 },
    { p: 'studio/level', type: 'F', access: 'read-write', v: 0.5 },
    { p: 'studio/onair', type: 'B', access: 'read-write', v: true },
    { p: 'studio/title', type: 'S', access: 'read-write', v: 'Morning Show' },
    { p: 'studio/note', type: 'S', access: 'read-write' },
    { p: 'studio/cue', type: 'T', access: 'read-write' },
  ]);
  t.true(all.some((p) => p.p === 'clock/pulse/1'));
  const filtered = (await (await fetch(`${base}/parameters?filter=${encodeURIComponent('^clock/')}&filter=open$`)).json()) as {
    p: string;
  }[];
  t.deepEqual(
    filtered.map((p) => p.p),
    ['studio/mic/1/open', 'clock/timer/1/trigger', 'clock/timer/1/start', 'clock/timer/1/left', 'clock/pulse/1'],
  );
  const bad = await fetch(`${base}/parameters?filter=(`);
  t.is(bad.status, 400);
  t.regex(await bad.text(), /not a regular expression/);
});

test('GET /connections lists every connection with type, status and reason', async (t) => {
  const { base, port } = await serve(t, {}, { ...studio, off: { type: 'dummy', enabled: false, description: 'spare', group: 'g' } });
  const list = (await (await fetch(`${base}/connections`)).json()) as object[];
  t.deepEqual(list, [
    {
      id: 'api',
      type: 'rest-api',
      status: 'ok',
      reason: '',
      description: '',
      location: '',
      group: '',
      details: { port, bindIp: '127.0.0.1', tls: false, webSockets: { clients: 0, lagging: 0, largestSendBuffer: 0 } },
    },
    { id: 'studio', type: 'dummy', status: 'ok', reason: '', description: '', location: '', group: '' },
    { id: 'clock', type: 'timer', status: 'ok', reason: '', description: '', location: '', group: '' },
    { id: 'off', type: 'dummy', status: 'disabled', reason: '', description: 'spare', location: '', group: 'g' },
  ]);
});

test("GET /problems answers the hub's problems as a JSON array", async (t) => {
  const { base } = await serve(t, {}, studio);
  const res = await fetch(`${base}/problems`);
  t.is(res.status, 200);
  t.is(res.headers.get('content-type'), 'application/json');
  t.deepEqual(await res.json(), []);
});

test('GET /problems lists a failed connection and a rule that cannot run, with their codes', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-problems-'));
  await mkdir(join(dir, 'www'));
  const flow = flowOf(
    {
      connections: {
        api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' },
        files: { type: 'rest-api', port: 0, bindIp: '127.0.0.1', documentRoot: 'www' },
      },
      rules: [{ source: 'api/nothing', destinations: ['api/y'] }],
    },
    dir,
  );
  await rm(join(dir, 'www'), { recursive: true }); // gone between validation and start
  const hub = new Hub({ flow });
  t.teardown(() => hub.stop());
  await hub.start();
  const port = hub.connection('api')?.info.details?.['port'] as number;
  const problems = (await (await fetch(`http://127.0.0.1:${port}/problems`)).json()) as {
    source: string;
    id: string;
    code: string;
    message: string;
  }[];
  t.like(problems, [
    { source: 'connection', id: 'files', code: 'PB_DOCUMENT_ROOT' },
    { source: 'rule', id: 'rules[0]', code: 'PB_WAITING' },
  ]);
  t.regex(problems[0]?.message ?? '', /^failed: documentRoot .* does not exist/);
});

test('GET /rules lists the enabled rules in the order they run, with their folders and pipes; a scoped token sees those whose addresses it reads', async (t) => {
  const flow = flowOf({
    connections: {
      api: {
        type: 'rest-api',
        port: 0,
        bindIp: '127.0.0.1',
        tokens: [{ name: 'panel', token: 'p', read: ['studio/#'], write: [] }],
        token: 'admin',
      },
      studio: { type: 'dummy', parameters: ['a,F,0', 'b,F,0', 'c,S'] },
      backstage: { type: 'dummy', parameters: ['d,F,0'] },
    },
    rules: [
      { source: 'studio/a', destinations: ['studio/b'], pipe: [{ scale: [0, 1, 0, 100] }, { round: 0 }] },
      { folder: 'off', enabled: false, rules: [{ source: 'studio/b', destinations: ['studio/c'] }] },
      { folder: 'to the back', rules: [{ source: 'studio/b', destinations: ['backstage/d'], description: 'level to the back' }] },
    ],
  });
  const hub = new Hub({ flow });
  t.teardown(() => hub.stop());
  await hub.start();
  const port = hub.connection('api')?.info.details?.['port'] as number;
  const list = (token: string) =>
    fetch(`http://127.0.0.1:${port}/rules`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.json() as Promise<unknown[]>);
  t.deepEqual(await list('admin'), [
    {
      path: 'rules[0]',
      folders: [],
      name: 'rules[0]',
      source: 'studio/a',
      destinations: ['studio/b'],
      pipe: [{ scale: [0, 1, 0, 100] }, { round: 0 }],
      status: 'running',
    },
    {
      path: 'rules[2].rules[0]',
      folders: ['to the back'],
      name: 'rules[2].rules[0] "level to the back"',
      source: 'studio/b',
      destinations: ['backstage/d'],
      pipe: [],
      status: 'running',
    },
  ]);
  t.deepEqual(await list('p'), [(await list('admin'))[0]], 'the panel cannot read backstage/d');
});

test('GET /rules lists two writers of what a rule holds under both (R-RS4), to full access: a scoped token sees the rules without them', async (t) => {
  const flow = flowOf({
    connections: {
      api: {
        type: 'rest-api',
        port: 0,
        bindIp: '127.0.0.1',
        tokens: [{ name: 'panel', token: 'p', read: ['studio/#'], write: [] }],
        token: 'admin',
      },
      studio: { type: 'dummy', parameters: ['a,B,false', 'b,B,false', 'lamp,B'] },
    },
    rules: [
      { from: 'studio/a', to: 'studio/lamp' },
      { source: 'studio/b', destinations: ['studio/lamp'] },
    ],
  });
  const hub = new Hub({ flow });
  t.teardown(() => hub.stop());
  await hub.start();
  const port = hub.connection('api')?.info.details?.['port'] as number;
  const list = (token: string) =>
    fetch(`http://127.0.0.1:${port}/rules`, { headers: { authorization: `Bearer ${token}` } }).then(
      (r) => r.json() as Promise<{ path: string; conflicts?: string[] }[]>,
    );
  const said =
    'rules[1].destinations: studio/lamp is written by rules[0] too: a rule that holds state should be its one writer (the last write would win); give them one rule with an expression over both, or say how they join with the same `combine` on each';
  t.deepEqual(
    (await list('admin')).map(({ path, conflicts }) => ({ path, conflicts })),
    [
      { path: 'rules[0]', conflicts: [said] },
      { path: 'rules[1]', conflicts: [said] },
    ],
  );
  t.deepEqual(
    (await list('p')).map(({ path, conflicts }) => ({ path, conflicts })),
    [
      { path: 'rules[0]', conflicts: undefined },
      { path: 'rules[1]', conflicts: undefined },
    ],
  );
});

test('wrong methods on built-in paths answer 405 with Allow; unknown paths 404', async (t) => {
  const { base } = await serve(t, {}, studio);
  const del = await fetch(`${base}/parameters/studio/count`, { method: 'DELETE' });
  t.is(del.status, 405);
  t.is(del.headers.get('allow'), 'GET, HEAD, OPTIONS');
  const put = await fetch(`${base}/update`, { method: 'PUT' });
  t.is(put.status, 405);
  t.is(put.headers.get('allow'), 'GET, POST, OPTIONS');
  t.is((await fetch(`${base}/nothing-here`)).status, 404);
  t.is((await fetch(`${base}/nothing-here`, { method: 'POST' })).status, 404);
});
