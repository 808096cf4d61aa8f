import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import type { ParameterListing } from '../../lib/core/api-shapes.ts';
import { eventually } from '../helpers/eventually.ts';
import { startHub } from '../helpers/hub.ts';
import { Client, settle } from '../helpers/http.ts';

/** A code flow whose parameters say what they are (R-PK6), beside a dummy's that say nothing. */
const desk = `export default ({ define }) => {
  define('level', { type: 'F', meta: { label: 'Programme level', unit: 'dB', minimum: -60, maximum: 10, step: 0.5 } });
  const source = define('source', { type: 'I', initial: 1, meta: { label: 'Source', choices: [{ value: 1, label: 'Camera 1' }, { value: 2, label: 'Camera 2' }] } });
  // A camera renamed: the source says anew what its choices are.
  define('rename', { type: 'S', access: 'write-only', onWrite: (name) => {
    source.describe({ label: 'Source', choices: [{ value: 1, label: name }, { value: 2, label: 'Camera 2' }] });
    return { ok: true, value: true };
  } });
};
`;

test('GET /parameters?meta=1 lists what each parameter says of itself; a write outside it is 400 PB_CONVERSION naming it (R-PK6)', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-meta-'));
  await writeFile(join(dir, 'desk.js'), desk);
  const hub = await startHub(
    t,
    {
      connections: { api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' }, studio: { type: 'dummy', parameters: ['a,S'] } },
      flows: ['desk.js'],
    },
    { dir },
  );
  const base = `http://127.0.0.1:${hub.connection('api')?.info.details?.['port'] as number}`;
  const list = async (query: string) =>
    Object.fromEntries(((await (await fetch(`${base}/parameters${query}`)).json()) as ParameterListing[]).map((p) => [p.p, p]));

  const plain = await list('');
  t.is(plain['desk/level']?.meta, undefined, 'only when asked');
  const described = await list('?meta=1');
  t.deepEqual(described['desk/level']?.meta, { label: 'Programme level', unit: 'dB', minimum: -60, maximum: 10, step: 0.5 });
  t.deepEqual(described['desk/source']?.meta?.choices, [
    { value: 1, label: 'Camera 1' },
    { value: 2, label: 'Camera 2' },
  ]);
  t.false('meta' in (described['studio/a'] ?? {}), 'a parameter that says nothing has no meta');

  const bad = await fetch(`${base}/parameters?meta=yes`, { headers: { accept: 'application/json' } });
  t.is(bad.status, 400);
  t.like(await bad.json(), { code: 'PB_BAD_REQUEST', error: 'meta is 1 or 0 (true or false)' });

  const above = await fetch(`${base}/update?parameter=desk/level&value=12`, { headers: { accept: 'application/json' } });
  t.is(above.status, 400);
  t.like(await above.json(), { code: 'PB_CONVERSION', error: 'desk/level: 12 is outside its range, -60 to 10' });
  const other = await fetch(`${base}/update?parameter=desk/source&value=3`, { headers: { accept: 'application/json' } });
  t.is(other.status, 400);
  t.like(await other.json(), { code: 'PB_CONVERSION', error: 'desk/source: 3 is not one of its choices: 1 (Camera 1), 2 (Camera 2)' });
  t.is((await fetch(`${base}/update?parameter=desk/source&value=2`)).status, 200);
  t.is(hub.graph.get('desk/source')?.value, 2);
});

test('a parameter that says anew what it is tells ?events=1 clients to list again, and the listing has the new words (R-PK6, R-U1)', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-meta-'));
  await writeFile(join(dir, 'desk.js'), desk);
  const hub = await startHub(t, { connections: { api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' } }, flows: ['desk.js'] }, { dir });
  const port = hub.connection('api')?.info.details?.['port'] as number;
  const client = await Client.open(t, `ws://127.0.0.1:${port}/ws?events=1`);
  await settle(150);
  const before = client.messages.length;
  t.is((await fetch(`http://127.0.0.1:${port}/update?parameter=desk/rename&value=Jib`)).status, 200);
  await eventually(() => client.messages.slice(before).some((m) => (m as { event?: string }).event === 'parameters'), 'told to list again');
  const [source] = (await (await fetch(`http://127.0.0.1:${port}/parameters?meta=1&filter=^desk/source$`)).json()) as ParameterListing[];
  t.deepEqual(source?.meta?.choices?.[0], { value: 1, label: 'Jib' });
});

test("a ?meta=1 WebSocket client's snapshot carries what each parameter says of itself; its changes and other clients' snapshots do not (R-PK6)", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-meta-'));
  await writeFile(join(dir, 'desk.js'), desk);
  const hub = await startHub(
    t,
    {
      connections: { api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' }, studio: { type: 'dummy', parameters: ['a,S,x'] } },
      flows: ['desk.js'],
    },
    { dir },
  );
  const ws = `ws://127.0.0.1:${hub.connection('api')?.info.details?.['port'] as number}/ws`;
  const described = await Client.open(t, `${ws}?meta=1`);
  const plain = await Client.open(t, ws);
  const byAddress = (client: Client) => Object.fromEntries((client.messages as { p: string }[]).map((m) => [m.p, m]));
  await described.until((m) => m.some((x) => (x as { p?: string }).p === 'desk/source'), 'the snapshot');
  await plain.until((m) => m.some((x) => (x as { p?: string }).p === 'desk/source'), 'the snapshot');
  t.deepEqual(byAddress(described)['desk/source'], {
    p: 'desk/source',
    v: '1',
    meta: {
      label: 'Source',
      choices: [
        { value: 1, label: 'Camera 1' },
        { value: 2, label: 'Camera 2' },
      ],
    },
  });
  t.deepEqual(byAddress(described)['studio/a'], { p: 'studio/a', v: 'x' }, 'a parameter that says nothing has no meta');
  t.deepEqual(byAddress(plain)['desk/source'], { p: 'desk/source', v: '1' }, 'only when asked');
  const from = described.messages.length;
  hub.graph.get('desk/source')?.set(2, 'spec');
  await described.until((m) => m.length > from, 'the change');
  t.deepEqual(described.messages.slice(from), [{ p: 'desk/source', v: '2' }], 'a change is its value alone');
});
