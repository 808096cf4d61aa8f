/**
 * Machines in the box (R-ST7): the device packages that come with the hub are offered by the
 * catalogue before any is installed, installed from the console with no upload and no
 * terminal (packed from the hub's own packages folder, taken as an upload is), then listed as
 * installed, added to the flow's plugins and run — a Videohub connection on a hub that had
 * none.
 */
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import test, { type ExecutionContext } from 'ava';
import { eventually } from '../helpers/eventually.ts';
import { runHub } from '../helpers/hub-process.ts';

const token = 'boxed-admin-token';

/**
 * A studio folder where patchbay-hub is installed, as a studio has it (its package.json names
 * it, so npm keeps it when it installs a package beside it): here a package whose
 * `patchbay-hub/connection` is this checkout's face.
 */
async function studioFolder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-boxed-'));
  const face = join(dir, 'hub-face');
  await mkdir(face);
  await writeFile(
    join(face, 'package.json'),
    JSON.stringify({ name: 'patchbay-hub', version: '0.1.0', type: 'module', exports: { './connection': './connection.js' } }),
  );
  await writeFile(
    join(face, 'connection.js'),
    `export * from '${pathToFileURL(fileURLToPath(new URL('../../lib/sdk/index.ts', import.meta.url))).href}';\n`,
  );
  await writeFile(join(dir, 'package.json'), JSON.stringify({ private: true, dependencies: { 'patchbay-hub': 'file:hub-face' } }));
  return dir;
}

async function hubWith(t: ExecutionContext, machineEdits: boolean) {
  const dir = await studioFolder();
  const flow = join(dir, 'studio.json5');
  await writeFile(
    flow,
    JSON.stringify({
      machineEdits,
      connections: {
        api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1', tokens: [{ name: 'ops', token, read: ['#'], write: ['#'], admin: true }] },
      },
    }),
  );
  const hub = await runHub(t, flow, { args: ['--state', join(dir, 'state')] });
  const asked = (path: string, init: RequestInit = {}) =>
    fetch(`${hub.base}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...(init.headers as Record<string, string>) },
    });
  return { dir, hub, asked };
}

type Entry = { name: string; package?: string; boxed?: boolean; listed?: boolean; connection: { type: string } };

test('the machines come with the hub: offered before any is installed, installed from the catalogue, added and run', async (t) => {
  const { dir, asked } = await hubWith(t, true);
  const catalogue = async () => ((await (await asked('/catalogue')).json()) as { entries: Entry[] }).entries;
  const boxed = (await catalogue()).filter((entry) => entry.boxed);
  t.deepEqual(boxed.map((entry) => [entry.package, entry.connection.type]).sort(), [
    ['patchbay-atem', 'atem'],
    ['patchbay-hyperdeck', 'hyperdeck'],
    ['patchbay-obs', 'obs'],
    ['patchbay-sacn', 'sacn'],
    ['patchbay-videohub', 'videohub'],
  ]);

  const installed = await asked('/catalogue/boxed/patchbay-videohub', { method: 'PUT' });
  t.is(installed.status, 200, await installed.clone().text());
  t.like(((await installed.json()) as Entry[])[0], { package: 'patchbay-videohub', listed: false, connection: { type: 'videohub' } });
  const now = (await catalogue()).filter((entry) => entry.package === 'patchbay-videohub');
  t.deepEqual(
    now.map((entry) => [entry.boxed ?? false, entry.listed]),
    [[false, false]],
    'listed once, as a package installed beside the flow',
  );
  t.true(JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')).dependencies['patchbay-videohub'].startsWith('file:packages/'));

  // Added to plugins with a connection, as the console's catalogue and form do, in one save.
  const read = await asked('/flow');
  const document = JSON.parse(await read.text()) as Record<string, unknown> & { connections: Record<string, unknown> };
  document['plugins'] = ['patchbay-videohub'];
  document.connections['router'] = { type: 'videohub', host: '127.0.0.1', port: 1 };
  const saved = await asked('/flow', {
    method: 'PUT',
    headers: { 'if-match': read.headers.get('etag') ?? '', 'content-type': 'application/json5' },
    body: JSON.stringify(document),
  });
  t.is(saved.status, 200, await saved.clone().text());
  await eventually(async () => {
    const listed = (await (await asked('/connections')).json()) as { id: string; package?: { name: string } }[];
    return listed.find((c) => c.id === 'router')?.package?.name === 'patchbay-videohub';
  }, 'the router connection runs on the package');
});

test('a package the hub does not bring is refused with what it brings; a hub without machine edits installs none', async (t) => {
  const { asked } = await hubWith(t, true);
  const unknown = await asked('/catalogue/boxed/patchbay-toaster', { method: 'PUT' });
  t.is(unknown.status, 400);
  t.regex(((await unknown.json()) as { error: string }).error, /^patchbay-toaster does not come with this hub: it brings patchbay-atem, /);
  const closed = await hubWith(t, false);
  const refused = await closed.asked('/catalogue/boxed/patchbay-videohub', { method: 'PUT' });
  t.is(refused.status, 403);
  t.is(((await refused.json()) as { code: string }).code, 'PB_FLOW_PROTECTED');
});
