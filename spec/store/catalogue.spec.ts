import { copyFile, mkdir, mkdtemp, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import test from 'ava';
import { catalogueOf } from '../../lib/store/catalogue.ts';
import { connectionTypes } from '../../lib/config/connection-types.ts';
import { fixtureArchive } from '../helpers/companion.ts';

// What a studio can add (R-ST2): the modules folder read as data, what cannot be read left out, nothing run.

test("the catalogue lists the modules folder's readable modules and leaves out a corrupt .tgz, a manifest that is no JSON, a huge one and a folder without one", async (t) => {
  const folder = await mkdtemp(join(tmpdir(), 'patchbay-catalogue-'));
  const modules = join(folder, 'modules');
  const manifest = (name: string) => ({
    id: name,
    name: `The ${name}`,
    manufacturer: 'Acme',
    products: ['Mixer 1'],
    version: '1.0.0',
    runtime: { api: 'nodejs-ipc', apiVersion: '1.14.1', entrypoint: '../main.js' },
  });
  const moduleFolder = async (name: string, text: string) => {
    await mkdir(join(modules, name, 'companion'), { recursive: true });
    await writeFile(join(modules, name, 'companion', 'manifest.json'), text);
  };
  await moduleFolder('mixer', JSON.stringify(manifest('mixer')));
  await moduleFolder('broken', '{ "id": "broken", ');
  await moduleFolder('listed', '["not", "an", "object"]');
  await moduleFolder('huge', JSON.stringify({ ...manifest('huge'), description: 'x'.repeat(300 * 1024) }));
  await mkdir(join(modules, 'empty'));
  await writeFile(join(modules, 'noise.tgz'), Buffer.from('this is no gzip, nor a tar'));
  await writeFile(join(modules, 'truncated.tgz'), gzipSync(Buffer.alloc(700, 7)));
  await copyFile(await fixtureArchive('1.14.1'), join(modules, 'fixture-1.0.0.tgz'));
  // A module's code is never run to list it: a mark it would leave stays absent.
  await writeFile(join(modules, 'mixer', 'main.js'), `require('node:fs').writeFileSync(${JSON.stringify(join(folder, 'ran'))}, 'yes');`);

  const { entries, partial } = await catalogueOf(join(folder, 'studio.json5'), connectionTypes, new Set());
  const listed = entries.filter((entry) => entry.kind === 'module');
  t.deepEqual(
    listed.map((entry) => entry.connection),
    [
      { type: 'companion-module', module: './modules/fixture-1.0.0.tgz' },
      { type: 'companion-module', module: './modules/mixer' },
    ],
  );
  t.like(listed[1], { name: 'The mixer', manufacturer: 'Acme', products: ['Mixer 1'], api: '1.14.1' });
  t.false(partial);
  t.true(
    entries.some((entry) => entry.kind === 'built-in' && entry.name === 'osc'),
    'the built-in types too',
  );
  await t.throwsAsync(stat(join(folder, 'ran')));
});
