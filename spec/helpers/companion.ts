import { copyFile, mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The published `@companion-module/base` versions the fixture module is installed with (devDependencies under an alias each). */
export const BASES = {
  '1.4.3': 'companion-base-1-4',
  '1.11.3': 'companion-base-1-11',
  '1.13.6': 'companion-base-1-13',
  '1.14.1': 'companion-base-1-14',
} as const;
export type BaseVersion = keyof typeof BASES;

export interface FixtureOptions {
  /** The manifest's `runtime`, over the fixture's own. */
  readonly runtime?: Record<string, unknown>;
  /** The module's entry point instead of the fixture's (its source). */
  readonly main?: string;
}

/**
 * A module folder as a module author has it (a source folder with its node_modules): the
 * fixture module's main.cjs, a manifest, and `@companion-module/base` of `base` installed.
 */
export async function fixtureModule(base: BaseVersion, { runtime = {}, main }: FixtureOptions = {}): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'patchbay-companion-module-'));
  await mkdir(join(folder, 'companion'));
  await mkdir(join(folder, 'node_modules', '@companion-module'), { recursive: true });
  await symlink(join(root, 'node_modules', BASES[base]), join(folder, 'node_modules', '@companion-module', 'base'), 'dir');
  if (main === undefined) await copyFile(join(root, 'spec', 'fixtures', 'companion-module', 'main.cjs'), join(folder, 'main.cjs'));
  else await writeFile(join(folder, 'main.cjs'), main);
  const manifest = {
    id: 'fixture',
    name: 'Fixture',
    shortname: 'fixture',
    description: 'A fixture module',
    version: '1.0.0',
    license: 'MIT',
    repository: '',
    bugs: '',
    maintainers: [],
    legacyIds: [],
    runtime: { type: 'node22', api: 'nodejs-ipc', apiVersion: base, entrypoint: '../main.cjs', ...runtime },
    manufacturer: 'patchbay',
    products: ['Fixture'],
    keywords: [],
  };
  await writeFile(join(folder, 'companion', 'manifest.json'), JSON.stringify(manifest, null, 2));
  await writeFile(join(folder, 'package.json'), JSON.stringify({ name: 'fixture', version: '1.0.0', main: 'main.cjs' }));
  return folder;
}
