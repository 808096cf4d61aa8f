/**
 * The install lines and imports of the README, the docs and the packages' READMEs are true as
 * written (R-ST6): none installs by name a package of this repository that is not on the npm
 * registry (the registry's `patchbay` is another project's), and every import of patchbay's
 * faces names the package and one of its exports.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';

const root = fileURLToPath(new URL('../../', import.meta.url));

async function readme(folder: string): Promise<string[]> {
  return (await readdir(folder, { recursive: true })).filter((f) => f.endsWith('.md')).map((f) => join(folder, f));
}

async function documents(): Promise<{ file: string; text: string }[]> {
  const packages = (await readdir(join(root, 'packages'))).map((p) => join(root, 'packages', p, 'README.md'));
  const files = [join(root, 'README.md'), ...(await readme(join(root, 'docs'))), ...packages];
  return Promise.all(files.map(async (file) => ({ file: relative(root, file), text: await readFile(file, 'utf8') })));
}

async function manifest(folder: string): Promise<{ name: string; exports?: Record<string, unknown> }> {
  return JSON.parse(await readFile(join(folder, 'package.json'), 'utf8'));
}

test('no install line names by registry name a package of this repository, which the registry does not have (R-ST6)', async (t) => {
  const hub = await manifest(root);
  const ours = new Set(['patchbay', hub.name]);
  for (const folder of await readdir(join(root, 'packages'))) ours.add((await manifest(join(root, 'packages', folder))).name);
  const wrong: string[] = [];
  for (const { file, text } of await documents()) {
    for (const [line, args] of text.matchAll(/npm (?:install|i|add)((?: +[^\s`'"()|;&#]+)*)/g)) {
      const names = args!
        .trim()
        .split(/ +/)
        .filter((a) => a && !/^[-./~$]/.test(a) && !a.endsWith('.tgz'));
      for (const name of names) if (ours.has(name)) wrong.push(`${file}: ${line}`);
    }
  }
  t.deepEqual(wrong, []);
});

test("every import of patchbay's faces in the docs, the packages and the specs names the package and one of its exports (R-ST6)", async (t) => {
  const hub = await manifest(root);
  const faces = new Set(Object.keys(hub.exports ?? {}).map((path) => `${hub.name}${path.slice(1)}`));
  const sources = (await documents()).map((d) => d.file);
  for (const dir of ['packages', 'spec', 'flows']) {
    for (const f of await readdir(join(root, dir), { recursive: true })) {
      if (/\.(ts|js|mjs)$/.test(f) && !f.includes('node_modules')) sources.push(join(dir, f));
    }
  }
  const wrong: string[] = [];
  for (const file of sources) {
    const text = await readFile(join(root, file), 'utf8');
    for (const [, specifier] of text.matchAll(/from ['"](patchbay[^'"]*)['"]/g)) {
      if (!faces.has(specifier!)) wrong.push(`${file}: ${specifier}`);
    }
  }
  t.true(faces.has(`${hub.name}/connection`) && faces.has(`${hub.name}/flow`) && faces.has(`${hub.name}/testing`));
  t.deepEqual(wrong, []);
});
