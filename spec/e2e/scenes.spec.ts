import { spawnSync } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { bin, runHub } from '../helpers/hub-process.ts';

const patchbay = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });

async function showFlow() {
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-scenes-e2e-'));
  const flow = join(dir, 'flow.json5');
  await writeFile(
    flow,
    JSON.stringify({
      connections: {
        api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' },
        studio: { type: 'dummy', parameters: ['title,S,Morning', 'camera,I,1'] },
        show: { type: 'scenes', scenes: [{ id: 'news', members: ['studio/#'] }] },
      },
    }),
  );
  return { dir, flow };
}

test.serial('a stored scene survives the hub being killed (SIGKILL), and a recall after the restart writes it back', async (t) => {
  const { flow } = await showFlow();
  const first = await runHub(t, flow);
  await first.write('studio/title', 'Evening News');
  await first.write('studio/camera', '3');
  t.is(await first.write('show/news/store', ''), 'OK');
  first.child.kill('SIGKILL');
  await first.exited;

  const second = await runHub(t, flow);
  await second.write('studio/title', 'Sport');
  await second.write('studio/camera', '8');
  t.is(await second.read('show/news/dirty'), 'true');
  t.is(await second.write('show/news/recall', ''), 'OK');
  t.is(await second.read('studio/title'), 'Evening News');
  t.is(await second.read('studio/camera'), '3');
  t.is(await second.read('show/news/dirty'), 'false');
  t.is(await second.read('show/news/report'), '2 of 2 members recalled');
});

test.serial('state export holds the stored scenes, and an import into a fresh folder brings them back', async (t) => {
  const { dir, flow } = await showFlow();
  const hub = await runHub(t, flow);
  await hub.write('studio/title', 'Evening News');
  t.is(await hub.write('show/news/store', ''), 'OK');
  hub.child.kill('SIGKILL');
  await hub.exited;

  const exported = patchbay('state', flow, 'export');
  t.is(exported.status, 0, exported.stderr);
  const document = JSON.parse(exported.stdout) as { records?: Record<string, Record<string, { values: unknown }>> };
  t.deepEqual(document.records?.['show']?.['scene/news']?.values, { 'studio/title': 'Evening News', 'studio/camera': 1 });

  await writeFile(join(dir, 'export.json'), exported.stdout);
  const elsewhere = join(dir, 'elsewhere');
  const imported = patchbay('state', flow, 'import', join(dir, 'export.json'), '--state', elsewhere);
  t.is(imported.status, 0, imported.stderr);
  const moved = await runHub(t, flow, { args: ['--state', elsewhere] });
  await moved.write('studio/title', 'Sport');
  t.is(await moved.write('show/news/recall', ''), 'OK');
  t.is(await moved.read('studio/title'), 'Evening News');

  await writeFile(join(dir, 'stray.json'), JSON.stringify({ values: {}, records: { nowhere: { 'scene/x': {} } } }));
  const stray = patchbay('state', flow, 'import', join(dir, 'stray.json'), '--state', elsewhere);
  t.not(stray.status, 0);
  t.regex(stray.stderr, /records\["nowhere"\]: the flow file has no connection "nowhere"/);
});
