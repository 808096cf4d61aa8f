/**
 * The modules of a Bitfocus Companion installation on the machine, offered by the catalogue
 * (R-ST7): found where Companion keeps them (its desktop app's, headless Companion's, or
 * where COMPANION_CONFIG_BASEDIR puts them) or where the flow's `companionModules` says, and
 * run from there by a hub whose flow allows machine edits — the module Companion installed,
 * unmodified, answering as the connection's variables.
 */
import { mkdir, mkdtemp, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { connectionTypes } from '../../lib/config/connection-types.ts';
import { catalogueOf } from '../../lib/store/catalogue.ts';
import { companionModuleFolders } from '../../lib/store/companion-installation.ts';
import { fixtureModule } from '../helpers/companion.ts';
import { eventually } from '../helpers/eventually.ts';
import { runHub } from '../helpers/hub-process.ts';

/** A home folder with Companion's modules folders made at `where` (relative to it). */
async function homeWith(...where: string[]): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), 'patchbay-companion-home-'));
  for (const folder of where) await mkdir(join(home, folder, 'modules'), { recursive: true });
  return home;
}

test('Companion keeps its modules in its configuration folder: the desktop app’s, headless Companion’s, or where COMPANION_CONFIG_BASEDIR says; only those there are looked in', async (t) => {
  const linux = await homeWith('.config/companion', 'companion');
  t.deepEqual(companionModuleFolders({ env: {}, platform: 'linux', home: linux }), [
    join(linux, 'companion', 'modules'),
    join(linux, '.config', 'companion', 'modules'),
  ]);
  const headless = await homeWith('.config/companion-nodejs');
  t.deepEqual(companionModuleFolders({ env: {}, platform: 'linux', home: headless }), [
    join(headless, '.config', 'companion-nodejs', 'modules'),
  ]);
  const mac = await homeWith('Library/Application Support/companion');
  t.deepEqual(companionModuleFolders({ env: {}, platform: 'darwin', home: mac }), [
    join(mac, 'Library', 'Application Support', 'companion', 'modules'),
  ]);
  const windows = await homeWith('Roaming/companion');
  t.deepEqual(companionModuleFolders({ env: { APPDATA: join(windows, 'Roaming') }, platform: 'win32', home: windows }), [
    join(windows, 'Roaming', 'companion', 'modules'),
  ]);
  const based = await homeWith('elsewhere');
  t.deepEqual(
    companionModuleFolders({ env: { COMPANION_CONFIG_BASEDIR: join(based, 'elsewhere') }, platform: 'linux', home: linux }),
    [join(based, 'elsewhere', 'modules')],
    'moved as Companion is moved: its usual places are not looked in',
  );
  t.deepEqual(companionModuleFolders({ env: {}, platform: 'linux', home: await homeWith() }), [], 'no Companion here');
  const named = join(based, 'elsewhere', 'modules');
  t.is(companionModuleFolders({ env: {}, platform: 'linux', home: linux }, named)[0], named, "the flow's companionModules first");
});

test("a module Companion installed is offered where it is, marked as the installation's, and what is no module is left out", async (t) => {
  const home = await homeWith('.config/companion');
  const installed = join(home, '.config', 'companion', 'modules');
  await rename(await fixtureModule('1.14.1'), join(installed, 'fixture-1.0.0'));
  await mkdir(join(installed, 'not-a-module'));
  await writeFile(join(installed, 'README'), 'Companion writes this');
  const flow = join(await mkdtemp(join(tmpdir(), 'patchbay-catalogue-')), 'studio.json5');
  const { entries } = await catalogueOf(flow, connectionTypes, new Set(), [installed]);
  const modules = entries.filter((entry) => entry.kind === 'module');
  t.deepEqual(
    modules.map((entry) => [entry.name, entry.connection, entry.installation]),
    [['Fixture', { type: 'companion-module', module: join(installed, 'fixture-1.0.0') }, installed]],
  );
});

test('a hub on this machine alone runs a module from where Companion installed it, as Companion would: its config reaches it, its variables come back (R-ST7)', async (t) => {
  const home = await homeWith('.config/companion');
  const installed = join(home, '.config', 'companion', 'modules');
  await rename(await fixtureModule('1.14.1'), join(installed, 'fixture-1.0.0'));
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-installation-'));
  const flow = join(dir, 'studio.json5');
  const token = 'installation-admin-token';
  await writeFile(
    flow,
    JSON.stringify({
      machineEdits: true,
      connections: {
        api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1', tokens: [{ name: 'ops', token, read: ['#'], write: ['#'], admin: true }] },
      },
    }),
  );
  const hub = await runHub(t, flow, { args: ['--state', join(dir, 'state')], env: { HOME: home, XDG_CONFIG_HOME: '' } });
  const asked = (path: string, init: RequestInit = {}) =>
    fetch(`${hub.base}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...(init.headers as Record<string, string>) } });
  const catalogue = (await (await asked('/catalogue')).json()) as {
    entries: { installation?: string; connection: Record<string, string> }[];
  };
  const offered = catalogue.entries.find((entry) => entry.installation === installed);
  t.deepEqual(offered?.connection, { type: 'companion-module', module: join(installed, 'fixture-1.0.0') });

  // Added as the console's form adds it: the entry's connection, with the module's config.
  const read = await asked('/flow');
  const etag = read.headers.get('etag') ?? '';
  const document = JSON.parse(await read.text()) as { connections: Record<string, unknown> };
  document.connections['desk'] = { ...offered?.connection, config: { host: 'mixer.local', port: 9100, mode: 'tcp' } };
  const saved = await asked('/flow', {
    method: 'PUT',
    headers: { 'if-match': etag, 'content-type': 'application/json5' },
    body: JSON.stringify(document),
  });
  t.is(saved.status, 200, await saved.clone().text());
  await eventually(
    async () => (await (await asked('/parameters/desk/var/host')).text()) === 'mixer.local',
    () => `the module runs, its config reached it: ${hub.messages().slice(-6).join(' | ')}`,
  );
});
