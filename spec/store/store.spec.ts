import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { connectionTypes } from '../../lib/config/connection-types.ts';
import { silentLogger } from '../../lib/core/log.ts';
import { Store } from '../../lib/store/store.ts';
import { fixtureArchive } from '../helpers/companion.ts';

// What a studio adds (R-ST2), without a hub: a module's archive is checked as the type that runs modules says, found in the list of types.

async function storeIn(machineEdits: 'allowed' | 'refused') {
  const folder = await mkdtemp(join(tmpdir(), 'patchbay-store-'));
  const store = new Store({
    path: join(folder, 'studio.json5'),
    machineEdits: () => machineEdits,
    types: () => connectionTypes,
    log: silentLogger,
  });
  const modules = () => readdir(join(folder, 'modules')).catch(() => []);
  return { store, modules };
}

test("a module's archive is kept in the modules folder and listed as a connection of the type that runs modules", async (t) => {
  const { store, modules } = await storeIn('allowed');
  const archive = await readFile(await fixtureArchive('1.14.1'));
  const entry = await store.addModule('desk.tgz', archive, 'a spec');
  t.deepEqual(entry.connection, { type: 'companion-module', module: './modules/desk.tgz' });
  t.deepEqual(await modules(), ['desk.tgz']);
  const { entries } = await store.catalogue();
  t.true(entries.some((listed) => listed.connection.module === './modules/desk.tgz'));
});

test("an archive the module type's start would refuse, or of a base it does not speak, is refused with why, and nothing is kept", async (t) => {
  const { store, modules } = await storeIn('allowed');
  const escaping = await fixtureArchive('1.14.1', async (folder) => {
    await writeFile(join(folder, '..', 'escaped.txt'), 'outside');
    return ['../escaped.txt'];
  });
  await t.throwsAsync(store.addModule('escaping.tgz', await readFile(escaping), 'a spec'), {
    message: /leaves it \(\.\.\/escaped\.txt\)/,
  });
  const future = await fixtureArchive('1.14.1', async (folder) => {
    const manifest = join(folder, 'pkg', 'companion', 'manifest.json');
    const read = JSON.parse(await readFile(manifest, 'utf8'));
    await writeFile(manifest, JSON.stringify({ ...read, runtime: { ...read.runtime, apiVersion: '3.0.0' } }));
    return [];
  });
  await t.throwsAsync(store.addModule('future.tgz', await readFile(future), 'a spec'), {
    message: /built for nodejs-ipc 3\.0\.0; this hub speaks @companion-module\/base 1\.2/,
  });
  t.deepEqual(await modules(), [], 'no archive, no half-written file');
});

test('a store of a hub without machine edits refuses modules and packages before reading them', async (t) => {
  const { store } = await storeIn('refused');
  t.like(store.uploadRefusal('module'), { code: 'PB_FLOW_PROTECTED' });
  t.like(store.uploadRefusal('package'), { code: 'PB_FLOW_PROTECTED' });
  t.false((await store.catalogue()).machineEdits);
});
