import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import type { ParameterListing } from '../../lib/core/api-shapes.ts';
import { startHub } from '../helpers/hub.ts';
import { Client, settle } from '../helpers/http.ts';
import { storeWith } from '../helpers/state.ts';

test('a hub listening on every address names an IPv4 client as one, not as IPv6', async (t) => {
  const hub = await startHub(t, { connections: { api: { type: 'rest-api', port: 0 }, studio: { type: 'dummy', parameters: ['a,S'] } } });
  const port = hub.connection('api')?.info.details?.['port'] as number;
  await fetch(`http://127.0.0.1:${port}/update?parameter=studio/a&value=1`);
  const [listed] = (await (await fetch(`http://127.0.0.1:${port}/parameters?filter=studio/a`)).json()) as ParameterListing[];
  t.is(listed?.by, 'http 127.0.0.1');
});

test('every parameter says who changed it last and when: REST with the client address, WebSocket, rule, code flow, connection, restore (R-O2)', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-origins-'));
  await writeFile(
    join(dir, 'echo.js'),
    "export default ({ watch, write }) => watch('studio/a').subscribe((v) => v !== undefined && write('studio/fromFlow', v));\n",
  );
  const state = await storeWith(t, { 'studio/kept': 'from yesterday' });
  const hub = await startHub(
    t,
    {
      connections: {
        api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' },
        studio: { type: 'dummy', parameters: ['a,S', 'b,S', 'c,S', 'fromRule,S', 'fromFlow,S', 'kept,S', 'untouched,S,default'] },
        logic: { type: 'virtual-core', logics: 1, functions: [{ id: 'out', op: 'not', inputs: ['logic/logic/1'] }] },
      },
      rules: [{ description: 'copy b', source: 'studio/b', destinations: ['studio/fromRule'] }],
      flows: ['echo.js'],
    },
    { dir, state },
  );
  const port = hub.connection('api')?.info.details?.['port'] as number;
  const base = `http://127.0.0.1:${port}`;
  const before = Date.now();
  await fetch(`${base}/update?parameter=studio/a&value=1`);
  await fetch(`${base}/update`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ parameter: 'studio/b', value: '2' }),
  });
  const client = await Client.open(t, `ws://127.0.0.1:${port}/ws`);
  client.send({ p: 'studio/c', v: '3' });
  client.send({ p: 'logic/logic/1', v: true });
  await settle(100);
  const list = (await (await fetch(`${base}/parameters`)).json()) as ParameterListing[];
  const by = Object.fromEntries(list.map((p) => [p.p, p.by]));
  t.like(by, {
    'studio/a': 'http 127.0.0.1',
    'studio/b': 'http 127.0.0.1',
    'studio/c': 'ws 127.0.0.1',
    'studio/fromRule': 'rule rules[0]',
    'studio/fromFlow': 'flow echo',
    'logic/logic/1': 'ws 127.0.0.1',
    'logic/function/out': 'connection',
    'studio/kept': 'restore',
  });
  t.false('by' in (list.find((p) => p.p === 'studio/untouched') ?? {}), 'a default is no change');
  const at = Date.parse(list.find((p) => p.p === 'studio/c')?.at ?? '');
  t.true(at >= before && at <= Date.now());
});
