import { copyFile, mkdir, mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ExecutionContext } from 'ava';
import { create } from 'tar';
import { loadFlowFile } from '../../lib/config/flow-file.ts';
import { Hub } from '../../lib/hub/hub.ts';
import type { Logger } from '../../lib/core/log.ts';
import type { StateStore } from '../../lib/state/store.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The published `@companion-module/base` versions the fixture module is installed with (devDependencies under an alias each). */
export const BASES = {
  '1.4.3': 'companion-base-1-4',
  '1.11.3': 'companion-base-1-11',
  '1.13.6': 'companion-base-1-13',
  '1.14.1': 'companion-base-1-14',
  '2.0.4': 'companion-base-2-0',
} as const;
export type BaseVersion = keyof typeof BASES;

export interface FixtureOptions {
  /** The manifest's `runtime`, over the fixture's own. */
  readonly runtime?: Record<string, unknown>;
  /** The module's entry point instead of the fixture's (its source). */
  readonly main?: string;
  /** The module's version (2.x: the fixture's version 2, with one more upgrade script). */
  readonly version?: string;
}

/**
 * A module folder as a module author has it (a source folder with its node_modules): the
 * fixture module (module.cjs, and its entry point for the base's line: main.cjs for 1.x,
 * main.mjs for 2.x), a manifest, and `@companion-module/base` of `base` installed.
 */
export async function fixtureModule(base: BaseVersion, { runtime = {}, main, version = '1.0.0' }: FixtureOptions = {}): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'patchbay-companion-module-'));
  await mkdir(join(folder, 'companion'));
  await mkdir(join(folder, 'node_modules', '@companion-module'), { recursive: true });
  await symlink(join(root, 'node_modules', BASES[base]), join(folder, 'node_modules', '@companion-module', 'base'), 'dir');
  const entry = base.startsWith('2.') ? 'main.mjs' : 'main.cjs';
  for (const file of ['module.cjs', 'main.cjs', 'main.mjs'])
    await copyFile(join(root, 'spec', 'fixtures', 'companion-module', file), join(folder, file));
  if (main !== undefined) await writeFile(join(folder, entry), main);
  const manifest = {
    id: 'fixture',
    name: 'Fixture',
    shortname: 'fixture',
    description: 'A fixture module',
    version,
    license: 'MIT',
    repository: '',
    bugs: '',
    maintainers: [],
    legacyIds: [],
    runtime: { type: 'node22', api: 'nodejs-ipc', apiVersion: base, entrypoint: `../${entry}`, ...runtime },
    manufacturer: 'patchbay',
    products: ['Fixture'],
    keywords: [],
  };
  await writeFile(join(folder, 'companion', 'manifest.json'), JSON.stringify(manifest, null, 2));
  await writeFile(join(folder, 'package.json'), JSON.stringify({ name: 'fixture', version, main: 'main.cjs' }));
  return folder;
}

/**
 * The fixture module as Companion's module build packs it: a `.tgz` whose one folder `pkg/`
 * holds the module, with its base inside (a stand-in that loads the installed one).
 * `more` may add to the folder the archive is made in (`<staging>/in`, beside `pkg`) and
 * return more paths to pack, as written: `../x` goes in as `../x`.
 */
export async function fixtureArchive(base: BaseVersion, more?: (folder: string) => Promise<string[]>): Promise<string> {
  const folder = await fixtureModule(base);
  const shim = join(folder, 'node_modules', '@companion-module', 'base');
  await rm(shim);
  await mkdir(shim);
  await writeFile(join(shim, 'package.json'), JSON.stringify({ name: '@companion-module/base', version: base, main: 'index.js' }));
  await writeFile(join(shim, 'index.js'), `module.exports = require(${JSON.stringify(join(root, 'node_modules', BASES[base]))});\n`);
  const staging = await mkdtemp(join(tmpdir(), 'patchbay-companion-archive-'));
  await mkdir(join(staging, 'in'));
  await rename(folder, join(staging, 'in', 'pkg'));
  const extra = more ? await more(join(staging, 'in')) : [];
  const file = join(staging, 'fixture-1.0.0.tgz');
  await create({ file, gzip: true, cwd: join(staging, 'in'), portable: true, preservePaths: true }, ['pkg', ...extra]);
  return file;
}

/** Another connection whose values a module connection's options may name. */
const VARS = { type: 'dummy', parameters: ['threshold,I,80'] };

/** A hub of a flow file with a rest-api and the connection `desk`, started as `patchbay run` starts it (with `state`, when given); the rest-api's base URL. */

export async function runDesk(
  t: ExecutionContext,
  desk: Record<string, unknown>,
  state?: StateStore,
  {
    more = {},
    log,
    api = {},
    rules,
  }: {
    /** More connections. */
    readonly more?: Record<string, unknown>;
    readonly log?: Logger;
    /** More settings of the rest-api (its tokens). */
    readonly api?: Record<string, unknown>;
    readonly rules?: readonly unknown[];
  } = {},
): Promise<{ hub: Hub; base: string }> {
  const file = join(await mkdtemp(join(tmpdir(), 'patchbay-companion-')), 'flow.json5');
  await writeFile(
    file,
    JSON.stringify({
      connections: { api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1', statusParameters: true, ...api }, vars: VARS, desk, ...more },
      ...(rules ? { rules } : {}),
    }),
  );
  const loaded = await loadFlowFile(file, {}, { start: true });
  if (!loaded.ok) throw loaded.error;
  const hub = new Hub({ flow: loaded.flow, ...(state ? { state } : {}), ...(log ? { log } : {}) });
  t.teardown(() => hub.stop());
  await hub.start();
  return { hub, base: `http://127.0.0.1:${hub.connection('api')?.info.details?.['port'] as number}` };
}

/** How `/connections` shows `desk`. */
export const deskInfo = (hub: Hub) => hub.listConnections().find((connection) => connection.id === 'desk');

/** The value of `desk/<id>`. */
export const deskValue = (hub: Hub, id: string) => hub.graph.get(`desk/${id}`)?.value;
