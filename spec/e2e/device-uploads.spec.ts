/**
 * Devices added over HTTP (R-ST2), on a hub that takes machine edits alone: `PUT
 * /catalogue/modules/<file>` keeps a Companion module's `.tgz` in the flow's modules folder
 * after the checks a start makes, and a connection made from it runs; `PUT
 * /catalogue/packages/<file>` keeps a patchbay package's `.tgz` (packed by npm) in its
 * packages folder and installs it with npm, and the catalogue lists its types; `PUT
 * /catalogue/registry/<name>` installs one by its name from the registry npm is set to (here
 * one the spec serves on 127.0.0.1, as a studio's own registry would: npm itself fetches
 * from it).
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request as httpRequest } from 'node:http';
import test from 'ava';
import { fixtureArchive } from '../helpers/companion.ts';
import { eventually } from '../helpers/eventually.ts';
import { runHub } from '../helpers/hub-process.ts';
import { registry } from '../helpers/registry.ts';

const ADMIN = { authorization: 'Bearer admin-upload-token' };
const OPERATOR = { authorization: 'Bearer operator-upload-token' };

async function studio(t: Parameters<typeof runHub>[0], machineEdits: boolean, env: Record<string, string> = {}) {
  const folder = await mkdtemp(join(tmpdir(), 'patchbay-module-upload-'));
  const flow = join(folder, 'studio.json5');
  await writeFile(
    flow,
    `{
  connections: {
    api: {
      type: 'rest-api',
      port: 0,
      bindIp: '127.0.0.1',
      tokens: [
        { name: 'admin', token: 'admin-upload-token', read: ['#'], write: ['#'], admin: true },
        { name: 'operator', token: 'operator-upload-token', read: ['#'], write: ['#'] },
      ],
    },
  },
}
`,
  );
  const hub = await runHub(t, flow, { args: ['--state', join(folder, 'state'), ...(machineEdits ? ['--allow-machine-edits'] : [])], env });
  const put = async (file: string, body: Uint8Array, headers = ADMIN, kind = 'modules') => {
    const answer = await fetch(`${hub.base}/catalogue/${kind}/${encodeURIComponent(file)}`, {
      method: 'PUT',
      headers: { ...headers, 'content-type': 'application/gzip', accept: 'application/json' },
      body,
    });
    // An error's { error, code }, a module's entry, or a package's entries.
    return { status: answer.status, body: (await answer.json()) as Record<string, unknown> & { error: string } & Record<number, unknown> };
  };
  const modules = async () => (await readdir(join(folder, 'modules')).catch(() => [] as string[])).sort();
  return { folder, flow, hub, put, modules };
}

test('on a hub without machine edits a module upload is refused, and nothing is kept', async (t) => {
  const { put, modules } = await studio(t, false);
  const refused = await put('fixture-1.0.0.tgz', await readFile(await fixtureArchive('1.14.1')));
  t.is(refused.status, 403);
  t.like(refused.body, { code: 'PB_FLOW_PROTECTED' });
  t.regex(refused.body.error, /--allow-machine-edits/);
  t.deepEqual(await modules(), []);

  // One that says it is 120 MiB and sends a little: refused before the rest is read.
  const { hub } = await studio(t, false);
  const early = await new Promise<number>((resolve, reject) => {
    const request = httpRequest(`${hub.base}/catalogue/packages/huge.tgz`, {
      method: 'PUT',
      headers: { ...ADMIN, 'content-type': 'application/gzip', 'content-length': String(120 * 1024 * 1024) },
    });
    request.on('response', (answer) => resolve(answer.statusCode ?? 0));
    request.on('error', reject);
    request.write(Buffer.alloc(1024 * 1024));
  });
  t.is(early, 403, 'answered with 119 MiB still to come');
});

test("an admin adds a module's .tgz: kept in modules/, listed, its connection runs; unsafe, foreign or repeated archives are refused with why, nothing written", async (t) => {
  const { flow, hub, put, modules } = await studio(t, true);
  const archive = await readFile(await fixtureArchive('1.14.1'));

  t.is((await put('fixture-1.0.0.tgz', archive, OPERATOR)).status, 403, 'a login without admin may not');
  const added = await put('fixture-1.0.0.tgz', archive);
  t.is(added.status, 200, JSON.stringify(added.body));
  t.like(added.body, {
    kind: 'module',
    name: 'Fixture',
    version: '1.0.0',
    connection: { type: 'companion-module', module: './modules/fixture-1.0.0.tgz' },
  });
  t.deepEqual(await modules(), ['fixture-1.0.0.tgz']);
  t.deepEqual(await readFile(join(dirname(flow), 'modules', 'fixture-1.0.0.tgz')), archive, 'kept byte for byte');
  const catalogue = (await (await fetch(`${hub.base}/catalogue`, { headers: ADMIN })).json()) as {
    entries: { connection: { module?: string } }[];
  };
  t.true(
    catalogue.entries.some((entry) => entry.connection.module === './modules/fixture-1.0.0.tgz'),
    'listed',
  );

  const again = await put('fixture-1.0.0.tgz', archive);
  t.is(again.status, 400);
  t.regex(again.body.error, /has fixture-1\.0\.0\.tgz already/);

  const escaping = await put(
    'escaping.tgz',
    await readFile(
      await fixtureArchive('1.14.1', async (folder) => {
        await writeFile(join(dirname(folder), 'escaped.txt'), 'outside');
        return ['../escaped.txt'];
      }),
    ),
  );
  t.is(escaping.status, 400);
  t.regex(escaping.body.error, /leaves it \(\.\.\/escaped\.txt\)/);
  const noise = await put('noise.tgz', Buffer.from('not an archive at all'));
  t.is(noise.status, 400);
  t.regex(noise.body.error, /not a readable \.tgz/);
  const foreign = await put(
    'future.tgz',
    await readFile(
      await fixtureArchive('1.14.1', async (folder) => {
        const manifest = join(folder, 'pkg', 'companion', 'manifest.json');
        const read = JSON.parse(await readFile(manifest, 'utf8'));
        await writeFile(manifest, JSON.stringify({ ...read, runtime: { ...read.runtime, apiVersion: '3.0.0' } }));
        return [];
      }),
    ),
  );
  t.is(foreign.status, 400);
  t.regex(foreign.body.error, /built for nodejs-ipc 3\.0\.0; this hub speaks @companion-module\/base 1\.2/);
  t.is((await put('../outside.tgz', archive)).status, 400, 'a name that leaves the folder');
  t.is((await put('module.zip', archive)).status, 400, 'not a .tgz by its name');
  t.deepEqual(await modules(), ['fixture-1.0.0.tgz'], 'nothing else kept, no half-written file left');

  // A connection made from it runs.
  const current = await fetch(`${hub.base}/flow`, { headers: ADMIN });
  const draft = (await (
    await fetch(`${hub.base}/flow/draft`, {
      method: 'POST',
      headers: { ...ADMIN, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        text: await current.text(),
        edits: [
          { op: 'set', path: ['connections', 'desk'], value: { ...(added.body['connection'] as object), config: { host: 'mixer.local' } } },
        ],
      }),
    })
  ).json()) as { text: string };
  const text = draft.text;
  const saved = await fetch(`${hub.base}/flow`, {
    method: 'PUT',
    headers: { ...ADMIN, 'if-match': current.headers.get('etag') ?? '', 'content-type': 'application/json5' },
    body: text,
  });
  t.is(saved.status, 200, await saved.text());
  await eventually(async () => {
    const listed = (await (await fetch(`${hub.base}/connections`, { headers: ADMIN })).json()) as { id: string; status: string }[];
    return listed.find((connection) => connection.id === 'desk')?.status === 'ok';
  }, 'the uploaded module runs');
});

test("an admin adds a patchbay package's .tgz: kept in packages/, installed with npm, its types listed; a package without patchbay types is refused and nothing installed", async (t) => {
  const { folder, hub, put } = await studio(t, true);
  const packed = await mkdtemp(join(tmpdir(), 'patchbay-packed-'));
  const pack = (source: string) =>
    execFileSync('npm', ['pack', '--silent', '--pack-destination', packed, source], { encoding: 'utf8' }).trim();
  const videohub = pack(fileURLToPath(new URL('../../packages/videohub', import.meta.url)));
  const plain = join(packed, 'plain');
  await mkdir(plain);
  await writeFile(join(plain, 'package.json'), JSON.stringify({ name: 'plain-thing', version: '1.0.0' }));
  const notOurs = pack(plain);

  const refused = await put(notOurs, await readFile(join(packed, notOurs)), ADMIN, 'packages');
  t.is(refused.status, 400);
  t.regex(refused.body.error, /not a patchbay package: its package.json declares no `patchbay.types`/);
  t.is(await readdir(join(folder, 'node_modules')).catch(() => 'none'), 'none', 'nothing installed');

  const added = await put(videohub, await readFile(join(packed, videohub)), ADMIN, 'packages');
  t.is(added.status, 200, JSON.stringify(added.body));
  t.like(added.body[0], { kind: 'package', name: 'patchbay-videohub', listed: false, connection: { type: 'videohub' } });
  t.deepEqual(await readdir(join(folder, 'packages')), [videohub]);
  const manifest = JSON.parse(await readFile(join(folder, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  t.is(manifest.dependencies['patchbay-videohub'], `file:packages/${videohub}`, 'the flow folder names it, for a later npm install');
  const catalogue = (await (await fetch(`${hub.base}/catalogue`, { headers: ADMIN })).json()) as { entries: { package?: string }[] };
  t.true(catalogue.entries.some((entry) => entry.package === 'patchbay-videohub'));
  t.is((await put(videohub, await readFile(join(packed, videohub)), ADMIN, 'packages')).status, 400, 'not twice');
});

test('an admin installs a patchbay package by its name from the registry npm reaches; a package without patchbay types, an unknown name and what is no name are refused, nothing installed', async (t) => {
  const packed = await mkdtemp(join(tmpdir(), 'patchbay-packed-'));
  const source = fileURLToPath(new URL('../../packages/videohub', import.meta.url));
  const videohub = join(
    packed,
    execFileSync('npm', ['pack', '--silent', '--pack-destination', packed, source], { encoding: 'utf8' }).trim(),
  );
  const plain = join(packed, 'plain');
  await mkdir(plain);
  await writeFile(join(plain, 'package.json'), JSON.stringify({ name: 'plain-thing', version: '1.0.0' }));
  const plainArchive = join(
    packed,
    execFileSync('npm', ['pack', '--silent', '--pack-destination', packed, plain], { encoding: 'utf8' }).trim(),
  );
  // A registry that lies: its manifest declares patchbay types, its archive a program named patchbay.
  const liar = join(packed, 'liar');
  await mkdir(liar);
  await writeFile(join(liar, 'package.json'), JSON.stringify({ name: 'liar-thing', version: '1.0.0', bin: { patchbay: 'take.js' } }));
  await writeFile(join(liar, 'take.js'), '#!/usr/bin/env node\nconsole.log("taken");\n');
  const liarArchive = join(
    packed,
    execFileSync('npm', ['pack', '--silent', '--pack-destination', packed, liar], { encoding: 'utf8' }).trim(),
  );
  const served = await registry(t, {
    'patchbay-videohub': { manifest: JSON.parse(await readFile(join(source, 'package.json'), 'utf8')), file: videohub },
    'plain-thing': { manifest: { name: 'plain-thing', version: '1.0.0' }, file: plainArchive },
    'liar-thing': {
      manifest: { name: 'liar-thing', version: '1.0.0', patchbay: { apiVersion: 1, types: { x: './x.js' } } },
      file: liarArchive,
    },
  });
  const cache = await mkdtemp(join(tmpdir(), 'patchbay-npm-cache-'));
  const { folder, hub } = await studio(t, true, { npm_config_registry: served.url, npm_config_cache: cache });
  const install = async (spec: string, headers = ADMIN) => {
    const answer = await fetch(`${hub.base}/catalogue/registry/${encodeURIComponent(spec)}`, {
      method: 'PUT',
      headers: { ...headers, accept: 'application/json' },
    });
    return {
      status: answer.status,
      body: (await answer.json()) as Record<string, unknown> & { error: string; code: string } & Record<number, unknown>,
    };
  };

  const notOurs = await install('plain-thing');
  t.is(notOurs.status, 400);
  t.regex(notOurs.body.error, /plain-thing 1.0.0 is not a patchbay package/);
  t.false(
    served.asked.some((path) => path.endsWith('.tgz')),
    'its archive was never fetched',
  );
  t.regex(
    (await install('no-such-package')).body.error,
    /^no-such-package is not on the registry this machine reaches \(http:\/\/127\.0\.0\.1:\d+\/no-such-package answered 404\): check its name/,
    'said in words, not as npm says it',
  );
  const lied = await install('liar-thing');
  t.is(lied.status, 400);
  t.regex(
    lied.body.error,
    /the archive of liar-thing@1\.0\.0 is not the patchbay package the registry described: its package.json declares no `patchbay.types`/,
  );
  for (const notAName of ['./packages/x.tgz', 'https://example.com/x.tgz', 'git+ssh://host/x', '--global', 'Capital'])
    t.like(await install(notAName), { status: 400, body: { code: 'PB_BAD_REQUEST' } }, notAName);
  t.is((await install('patchbay-videohub', OPERATOR)).status, 403, 'an operator may not');
  t.is(await readdir(join(folder, 'node_modules')).catch(() => 'none'), 'none', 'nothing installed');

  const added = await install('patchbay-videohub@^1');
  t.is(added.status, 200, JSON.stringify(added.body));
  t.like(added.body[0], { kind: 'package', name: 'patchbay-videohub', listed: false, connection: { type: 'videohub' } });
  const manifest = JSON.parse(await readFile(join(folder, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  t.is(manifest.dependencies['patchbay-videohub'], '^1.0.0', 'the flow folder names it, for a later npm install');
});
