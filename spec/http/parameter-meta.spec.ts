import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import type { ParameterListing } from '../../lib/core/api-shapes.ts';
import { startHub } from '../helpers/hub.ts';

/** A code flow whose parameters say what they are (R-PK6), beside a dummy's that say nothing. */
const desk = `export default ({ define }) => {
  define('level', { type: 'F', meta: { label: 'Programme level', unit: 'dB', minimum: -60, maximum: 10, step: 0.5 } });
  define('source', { type: 'I', initial: 1, meta: { label: 'Source', choices: [{ value: 1, label: 'Camera 1' }, { value: 2, label: 'Camera 2' }] } });
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
