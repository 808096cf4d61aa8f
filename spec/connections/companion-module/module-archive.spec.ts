import { existsSync } from 'node:fs';
import { chmod, readdir, stat, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import test from 'ava';
import { deskInfo, deskValue, fixtureArchive, runDesk } from '../../helpers/companion.ts';
import { eventually } from '../../helpers/eventually.ts';
import { storeWith } from '../../helpers/state.ts';

// A module as Companion's module store hands it out: a .tgz, unpacked by the hub (R-CM1).

const desk = (module: string) => ({ type: 'companion-module', module, config: { host: 'mixer.local', port: 9100, mode: 'tcp' } });

test.serial('a .tgz as Companion packs a module runs, unpacked once into the state folder and found there at the next start', async (t) => {
  const archive = await fixtureArchive('1.14.1');
  const store = await storeWith(t);
  const files = join(store.folder, 'files', 'companion-module');

  const { hub } = await runDesk(t, desk(archive), store);
  await eventually(
    () => deskInfo(hub)?.status === 'ok',
    () => `the module to be ok (${JSON.stringify(deskInfo(hub))})`,
  );
  t.is(deskValue(hub, 'var/host'), 'mixer.local', 'the config reached the unpacked module');
  // The unpacked modules (beside them, `definitions/`: what the module declared, kept when it stops).
  const modules = async () => (await readdir(files)).filter((name) => name !== 'definitions');
  const unpacked = await modules();
  t.is(unpacked.length, 1, 'one folder, named by the archive');
  const made = (await stat(join(files, unpacked[0]!))).mtimeMs;
  await hub.stop();

  const again = await runDesk(t, desk(archive), store);
  await eventually(() => deskInfo(again.hub)?.status === 'ok', 'the module ok again');
  t.deepEqual(await modules(), unpacked, 'the same folder serves');
  t.is((await stat(join(files, unpacked[0]!))).mtimeMs, made, 'not unpacked again');
});

test.serial('without a state folder a .tgz is unpacked into a folder of its own, removed when the connection stops', async (t) => {
  const archive = await fixtureArchive('1.13.6');
  const { hub } = await runDesk(t, desk(archive));
  await eventually(
    () => deskInfo(hub)?.status === 'ok',
    () => `the module to be ok (${JSON.stringify(deskInfo(hub))})`,
  );
  t.is(deskValue(hub, 'var/host'), 'mixer.local');
  const folder = String(deskInfo(hub)?.details?.['folder']);
  t.true(existsSync(join(folder, 'companion', 'manifest.json')), `unpacked to ${folder}`);
  t.regex(folder, /patchbay-module-[^/]+\/[0-9a-f]{24}\/pkg$/, 'a folder of its own, the archive in it by its hash');
  await hub.stop();
  t.false(existsSync(dirname(dirname(folder))), 'removed at the stop');
});

for (const [what, more, refusal] of [
  [
    'a path that leaves it (../)',
    async (folder: string) => {
      await writeFile(join(dirname(folder), 'escaped.txt'), 'outside');
      return ['../escaped.txt'];
    },
    /leaves it \(\.\.\/escaped\.txt\)/,
  ],
  [
    'a path twice (a manifest the catalogue reads, and another the hub would run)',
    async () => ['pkg/companion/manifest.json'],
    /holds pkg\/companion\/manifest\.json twice/,
  ],
  [
    'a link',
    async (folder: string) => {
      await symlink('/etc/passwd', join(folder, 'passwd'));
      return ['passwd'];
    },
    /holds a SymbolicLink \(passwd\)/,
  ],
] as const) {
  test.serial(`a .tgz holding ${what} is refused whole: nothing of it is unpacked or run`, async (t) => {
    const archive = await fixtureArchive('1.14.1', more);
    const store = await storeWith(t);
    const { hub } = await runDesk(t, desk(archive), store);
    await eventually(
      () => deskInfo(hub)?.status === 'failed',
      () => `the connection to fail (${JSON.stringify(deskInfo(hub))})`,
    );
    t.regex(deskInfo(hub)?.reason ?? '', refusal);
    t.regex(deskInfo(hub)?.reason ?? '', /nothing of it is unpacked/);
    t.is(deskInfo(hub)?.code, 'PB_START_FAILED');
    t.false(existsSync(join(store.folder, 'files')), 'nothing written to the state folder');
    t.false(existsSync(join(store.folder, '..', 'escaped.txt')), 'nothing written beside it');
  });
}

test.serial('a module unpacked has no set-uid bit and nothing others may write, whatever modes its archive says', async (t) => {
  const archive = await fixtureArchive('1.14.1', async (folder) => {
    await chmod(join(folder, 'pkg', 'companion', 'manifest.json'), 0o4777);
    await chmod(join(folder, 'pkg', 'companion'), 0o777);
    return [];
  });
  const { hub } = await runDesk(t, desk(archive), await storeWith(t));
  await eventually(
    () => deskInfo(hub)?.status === 'ok',
    () => `the module to be ok (${JSON.stringify(deskInfo(hub))})`,
  );
  const folder = String(deskInfo(hub)?.details?.['folder']);
  t.is((await stat(join(folder, 'companion', 'manifest.json'))).mode & 0o7777, 0o755);
  t.is((await stat(join(folder, 'companion'))).mode & 0o7777, 0o755);
});
