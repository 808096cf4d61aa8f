import { cp, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const checkout = fileURLToPath(new URL('../..', import.meta.url));

/**
 * A studio folder with the package in `packages/<folder>` installed as npm installs it (its
 * package.json and the files it lists, copied into `node_modules/<name>`), beside a
 * `patchbay` whose `patchbay/connection` is this checkout's face: the sources, as an
 * installed patchbay's `dist/` would be. The package reaches patchbay as it would in a
 * studio, by its name; `spec/e2e/package.spec.ts` packs and installs both for real.
 */
export async function studioWith(folder: string): Promise<string> {
  const source = join(checkout, 'packages', folder);
  const manifest = JSON.parse(await readFile(join(source, 'package.json'), 'utf8')) as { name: string; files: string[] };
  const dir = await mkdtemp(join(tmpdir(), `patchbay-studio-${folder}-`));
  const installed = join(dir, 'node_modules', manifest.name);
  await mkdir(installed, { recursive: true });
  for (const file of ['package.json', ...manifest.files]) await cp(join(source, file), join(installed, file), { recursive: true });
  const patchbay = join(dir, 'node_modules', 'patchbay');
  await mkdir(patchbay);
  await writeFile(
    join(patchbay, 'package.json'),
    JSON.stringify({ name: 'patchbay', version: '0.0.0-checkout', type: 'module', exports: { './connection': './connection.js' } }),
  );
  await writeFile(join(patchbay, 'connection.js'), `export * from '${pathToFileURL(join(checkout, 'lib/sdk/index.ts')).href}';\n`);
  return dir;
}
