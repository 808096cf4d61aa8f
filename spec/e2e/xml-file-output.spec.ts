import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { eventually } from '../helpers/eventually.ts';
import { bin, runHub, terminate } from '../helpers/hub-process.ts';

// An XML output as a graphics system reads it, across restarts of a real hub process and
// the state command between them.

const api = { type: 'rest-api', port: 0, bindIp: '127.0.0.1' };

async function studio(renderAtStart?: boolean): Promise<{ dir: string; flow: string; file: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-xml-e2e-'));
  await mkdir(join(dir, 'graphics'));
  const flow = join(dir, 'flow.json5');
  const np = { type: 'xml-file-output', filename: 'graphics/now.xml', template: '<now><title>$Title</title><by>$Artist</by></now>' };
  await writeFile(flow, JSON.stringify({ connections: { api, np: renderAtStart === undefined ? np : { ...np, renderAtStart } } }));
  return { dir, flow, file: join(dir, 'graphics', 'now.xml') };
}

test.serial('after a state import and a restart the output file shows the restored values before any write (renderAtStart)', async (t) => {
  const { dir, flow, file } = await studio();
  const first = await runHub(t, flow);
  await first.write('np/Title', 'Blue Train');
  await first.write('np/Artist', 'John Coltrane');
  t.is(await terminate(first), 0);
  t.is(await readFile(file, 'utf8'), '<now><title>Blue Train</title><by>John Coltrane</by></now>');

  await writeFile(join(dir, 'next.json'), JSON.stringify({ values: { 'np/Title': 'Kind of Blue', 'np/Artist': 'Miles Davis' } }));
  const imported = spawnSync(process.execPath, [bin, 'state', flow, 'import', join(dir, 'next.json')], { encoding: 'utf8' });
  t.is(imported.status, 0, imported.stderr);

  const second = await runHub(t, flow);
  await eventually(
    async () => (await readFile(file, 'utf8')) === '<now><title>Kind of Blue</title><by>Miles Davis</by></now>',
    () => `the file rendered at start (it holds ${readFileSync(file, 'utf8')}; log: ${second.log()})`,
  );
  t.is(await terminate(second), 0);
});

test.serial('renderAtStart: false leaves the file as it was until the first write', async (t) => {
  const { dir, flow, file } = await studio(false);
  const first = await runHub(t, flow);
  await first.write('np/Title', 'Blue Train');
  t.is(await terminate(first), 0);
  await writeFile(join(dir, 'next.json'), JSON.stringify({ values: { 'np/Title': 'Kind of Blue' } }));
  t.is(spawnSync(process.execPath, [bin, 'state', flow, 'import', join(dir, 'next.json')]).status, 0);
  const second = await runHub(t, flow);
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.is(await readFile(file, 'utf8'), '<now><title>Blue Train</title><by></by></now>');
  await second.write('np/Artist', 'Miles Davis');
  t.is(await terminate(second), 0);
  t.is(await readFile(file, 'utf8'), '<now><title>Kind of Blue</title><by>Miles Davis</by></now>');
});

test.serial('the state command lists and imports the values of an output whose folder is not on this machine', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-xml-e2e-'));
  const flow = join(dir, 'flow.json5');
  await writeFile(
    flow,
    JSON.stringify({ connections: { np: { type: 'xml-file-output', filename: 'mnt/gfx/now.xml', template: '<now>$Title</now>' } } }),
  );
  await writeFile(join(dir, 'next.json'), JSON.stringify({ values: { 'np/Title': 'Kind of Blue' } }));
  const imported = spawnSync(process.execPath, [bin, 'state', flow, 'import', join(dir, 'next.json')], { encoding: 'utf8' });
  t.is(imported.status, 0, imported.stderr);
  const listed = spawnSync(process.execPath, [bin, 'state', flow, 'list'], { encoding: 'utf8' });
  t.is(listed.stdout, 'np/Title\tKind of Blue\n', listed.stderr);
});
