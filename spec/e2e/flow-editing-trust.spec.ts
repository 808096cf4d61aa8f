/**
 * What the flow editor lets a login do to the machine the hub runs on (issue "Trust IV"): a
 * hub without credentials lets nobody edit; an `admin` login changes the studio, never what
 * names code, a file or a device of the machine, unless the hub was started with
 * `--allow-machine-edits`; a hidden secret is not put back for a new destination; kept
 * versions are readable by the hub's user alone. Real hub processes, real files.
 */
import { lstat, mkdir, mkdtemp, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import WebSocket from 'ws';
import { eventually } from '../helpers/eventually.ts';
import { type HubProcess, runHub } from '../helpers/hub-process.ts';

/** An admin token scoped to the studio's parameters: it may edit the flow, and write nothing. */
const admin = { name: 'ops', token: 'ops-trust-token', read: ['studio/#'], write: [], admin: true };

const flowWith = (extra = '', top = '') => `// the studio
{
${top}  connections: {
    api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1', tokens: ${JSON.stringify([admin])} },
    studio: { type: 'dummy', parameters: ['title,S,morning'] },
${extra}  },
}
`;

async function studio(t: ExecutionContext, text: string, args: string[] = []) {
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-trust-'));
  const flow = join(dir, 'studio.json5');
  await writeFile(flow, text);
  const hub = await runHub(t, flow, { args: ['--state', join(dir, 'state'), ...args] });
  return { dir, flow, hub };
}

const as = (token: string) => ({ authorization: `Bearer ${token}` });

async function getFlow(hub: HubProcess, headers: Record<string, string> = as(admin.token)) {
  const response = await fetch(`${hub.base}/flow`, { headers: { ...headers, accept: 'application/json' } });
  return { status: response.status, etag: response.headers.get('etag') ?? '', text: await response.text() };
}

async function putFlow(hub: HubProcess, text: string, ifMatch: string, headers: Record<string, string> = as(admin.token)) {
  const response = await fetch(`${hub.base}/flow`, {
    method: 'PUT',
    headers: { ...headers, accept: 'application/json', 'if-match': ifMatch },
    body: text,
  });
  return {
    status: response.status,
    body: (await response.json()) as { ok: boolean; code?: string; issues?: { path: unknown[]; message: string }[] },
  };
}

/** Saves `text` over what the hub serves now, as the admin. */
async function save(hub: HubProcess, text: string) {
  return putFlow(hub, text, (await getFlow(hub)).etag);
}

test('a hub without credentials lets nobody read or change its flow, and says so at start: 403 PB_CREDENTIALS_REQUIRED', async (t) => {
  const open = `{ connections: { api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' }, studio: { type: 'dummy', parameters: ['title,S,morning'] } } }\n`;
  const { flow, hub } = await studio(t, open);
  const read = await getFlow(hub, {});
  t.is(read.status, 403);
  t.is((JSON.parse(read.text) as { code: string }).code, 'PB_CREDENTIALS_REQUIRED');
  const changed = open.replace('morning', 'evening');
  const refused = await putFlow(hub, changed, '"anything"', {});
  t.is(refused.status, 403);
  t.is(refused.body.code, 'PB_CREDENTIALS_REQUIRED');
  for (const [method, path] of [
    ['POST', '/flow/draft'],
    ['GET', '/flow/history'],
    ['GET', '/flow/schema'],
    ['POST', '/flow/restore/1'],
  ] as const)
    t.is((await fetch(`${hub.base}${path}`, { method, body: method === 'POST' ? '{"text":""}' : null })).status, 403, path);
  t.is(await readFile(flow, 'utf8'), open, 'nothing written');
  t.true(
    hub.messages().some((m) => /connections\.api: no credentials: .* the flow editor is off/.test(m)),
    hub.log(),
  );
  // The parameters stay open, as they were: only the editor is closed.
  t.is(await hub.read('studio/title'), 'morning');
});

test('an admin login cannot add a code flow or a package, and the package it names is never loaded: 403 PB_FLOW_PROTECTED', async (t) => {
  const { dir, flow, hub } = await studio(t, flowWith());
  const marker = join(dir, 'imported');
  await mkdir(join(dir, 'evil'));
  await writeFile(
    join(dir, 'evil', 'package.json'),
    JSON.stringify({ name: 'evil', version: '1.0.0', type: 'module', patchbay: { apiVersion: 1, types: { evil: './index.js' } } }),
  );
  await writeFile(
    join(dir, 'evil', 'index.js'),
    `import { writeFileSync } from 'node:fs'; writeFileSync(${JSON.stringify(marker)}, 'ran');\n`,
  );
  await writeFile(
    join(dir, 'clock.js'),
    `import { writeFileSync } from 'node:fs'; writeFileSync(${JSON.stringify(`${marker}-flow`)}, 'ran');\n`,
  );
  const original = await readFile(flow, 'utf8');

  const withPlugin = await save(hub, flowWith('', "  plugins: ['./evil'],\n"));
  t.is(withPlugin.status, 403);
  t.is(withPlugin.body.code, 'PB_FLOW_PROTECTED');
  t.deepEqual(withPlugin.body.issues?.[0]?.path, ['plugins', 0]);
  const withFlow = await save(hub, flowWith('', "  flows: ['clock.js'],\n"));
  t.is(withFlow.status, 403);
  t.deepEqual(withFlow.body.issues?.[0]?.path, ['flows', 0]);
  await t.throwsAsync(lstat(marker), undefined, "the package's module was never imported");
  t.is(await readFile(flow, 'utf8'), original, 'nothing written');
  await t.throwsAsync(lstat(`${marker}-flow`), undefined, 'the code flow was never imported');
});

test('an admin login cannot make the hub write a file outside outputFolder, nor through a link out of it, nor into the state folder', async (t) => {
  const xml = (filename: string) =>
    `    out: { type: 'xml-file-output', filename: ${JSON.stringify(filename)}, template: '<a>$Title</a>', renderAtStart: true },\n`;
  const { dir, flow, hub } = await studio(t, flowWith('', "  outputFolder: 'graphics',\n"));
  await mkdir(join(dir, 'graphics'));
  await symlink(dir, join(dir, 'graphics', 'up'));
  const victim = join(dir, 'victim.conf');
  await writeFile(victim, 'kept\n');
  const top = "  outputFolder: 'graphics',\n";

  for (const filename of [
    victim,
    '../victim.conf',
    'victim.conf',
    'graphics/up/victim.conf',
    'graphics/../victim.conf',
    'state/x.xml',
    'clock.ts',
  ]) {
    const refused = await save(hub, flowWith(xml(filename), top));
    t.is(refused.status, 403, filename);
    t.deepEqual(refused.body.issues?.[0]?.path, ['connections', 'out', 'filename'], filename);
  }
  const stateInside = await save(
    hub,
    flowWith(xml('graphics/s/x.xml'), top).replace("outputFolder: 'graphics'", "outputFolder: 'graphics/s'"),
  );
  t.is(stateInside.status, 403, 'outputFolder itself is the machine’s to change');
  t.deepEqual(stateInside.body.issues?.[0]?.path, ['outputFolder']);

  const allowed = await save(hub, flowWith(xml('graphics/now.xml'), top));
  t.is(allowed.status, 200, JSON.stringify(allowed.body));
  await eventually(
    async () => (await readFile(join(dir, 'graphics', 'now.xml'), 'utf8').catch(() => '')).includes('<a>'),
    'the file written',
  );
  t.is(await readFile(victim, 'utf8'), 'kept\n');
  t.regex(await readFile(flow, 'utf8'), /graphics\/now\.xml/);
});

test('an admin login cannot change a serial port, keystrokes, a certificate or read a new environment variable; a change elsewhere in the same connection is fine', async (t) => {
  const serial = (path: string, baud = 9600) =>
    `    line: { type: 'serial', path: ${JSON.stringify(path)}, baudRate: ${baud}, enabled: false },\n`;
  const { hub } = await studio(t, flowWith(serial('/dev/ttyUSB0')));
  const port = await save(hub, flowWith(serial('/dev/sda')));
  t.is(port.status, 403);
  t.deepEqual(port.body.issues?.[0]?.path, ['connections', 'line', 'path']);
  const baud = await save(hub, flowWith(serial('/dev/ttyUSB0', 19200)));
  t.is(baud.status, 200, 'another setting of the same connection');

  const keys = await save(
    hub,
    flowWith(`${serial('/dev/ttyUSB0', 19200)}    keys: { type: 'keyboard', outputKeys: ['ctrl-alt-t'], whenNoDisplay: 'disable' },\n`),
  );
  t.is(keys.status, 403);
  t.deepEqual(keys.body.issues?.[0]?.path, ['connections', 'keys', 'outputKeys']);

  const environment = await save(hub, flowWith(serial('/dev/ttyUSB0', 19200)).replace("'title,S,morning'", "'title,S,${HOME}'"));
  t.is(environment.status, 403);
  t.regex(environment.body.issues?.[0]?.message ?? '', /\$\{HOME\} would read the hub's environment/);
  const title = await fetch(`${hub.base}/parameters/studio/title`, { headers: as(admin.token) });
  t.is(await title.text(), 'morning');
});

test("an admin login cannot read the hub's environment through a JSON5 escape or a line continuation, which read as ${NAME} once parsed", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-trust-'));
  const flow = join(dir, 'studio.json5');
  await writeFile(flow, flowWith());
  const siteKey = 'f'.repeat(64);
  const hub = await runHub(t, flow, { args: ['--state', join(dir, 'state')], env: { PATCHBAY_SITE_KEY: siteKey } });
  for (const written of ["'title,S,\\u0024{PATCHBAY_SITE_KEY}'", "'title,S,$\\\n{PATCHBAY_SITE_KEY}'"]) {
    const saved = await save(hub, flowWith().replace("'title,S,morning'", written));
    t.is(saved.status, 403, written);
    t.regex(saved.body.issues?.[0]?.message ?? '', /\$\{PATCHBAY_SITE_KEY\} would read the hub's environment/, written);
    t.deepEqual(saved.body.issues?.[0]?.path, ['connections', 'studio', 'parameters', 0], 'at its field');
  }
  const title = await fetch(`${hub.base}/parameters/studio/title`, { headers: as(admin.token) });
  t.is(await title.text(), 'morning');
  t.false((await readFile(flow, 'utf8')).includes('PATCHBAY_SITE_KEY'), 'the file is as it was');
});

test('an admin login cannot make the hub listen to keys typed on its desktop (a key logger); a listening connection may go', async (t) => {
  const { hub } = await studio(t, flowWith("    keys: { type: 'keyboard', inputKeys: ['ctrl-f1'], whenNoDisplay: 'disable' },\n"));
  const logger = await save(
    hub,
    flowWith("    keys: { type: 'keyboard', inputKeys: ['ctrl-f1', 'h', 'u', 'n'], whenNoDisplay: 'disable' },\n"),
  );
  t.is(logger.status, 403);
  t.deepEqual(logger.body.issues?.[0]?.path, ['connections', 'keys', 'inputKeys']);
  const removed = await save(hub, flowWith());
  t.is(removed.status, 200, 'a listening connection may go');
});

test("an admin login cannot make a Companion module connection run code outside the flow's modules folder; one inside it is fine (R-ST2)", async (t) => {
  const { dir, hub } = await studio(t, flowWith());
  // Code anywhere on the machine: a folder that looks like a module, whose entry point leaves a mark.
  const marker = join(dir, 'ran');
  const elsewhere = join(dir, 'elsewhere');
  await mkdir(join(elsewhere, 'companion'), { recursive: true });
  await writeFile(
    join(elsewhere, 'companion', 'manifest.json'),
    JSON.stringify({ id: 'x', runtime: { api: 'nodejs-ipc', apiVersion: '1.14.1', entrypoint: '../main.cjs' } }),
  );
  await writeFile(join(elsewhere, 'main.cjs'), `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'yes');\n`);
  const module = (path: string) => `    mixer: { type: 'companion-module', module: ${JSON.stringify(path)} },\n`;
  for (const path of ['./elsewhere', elsewhere, './modules/../elsewhere']) {
    const refused = await save(hub, flowWith(module(path)));
    t.is(refused.status, 403, path);
    t.deepEqual(refused.body.issues?.[0]?.path, ['connections', 'mixer', 'module']);
    t.regex(refused.body.issues?.[0]?.message ?? '', /names code on the hub's machine outside the flow's modules folder/);
  }
  // A link inside the modules folder that leads out of it is outside too.
  await mkdir(join(dir, 'modules'));
  await symlink(elsewhere, join(dir, 'modules', 'linked'));
  t.is((await save(hub, flowWith(module('./modules/linked')))).status, 403);
  await new Promise((resolve) => setTimeout(resolve, 500));
  t.is(await readFile(marker, 'utf8').catch(() => 'never ran'), 'never ran');

  // What an admin added to the modules folder is theirs to name.
  await mkdir(join(dir, 'modules', 'mixer', 'companion'), { recursive: true });
  await writeFile(
    join(dir, 'modules', 'mixer', 'companion', 'manifest.json'),
    JSON.stringify({ id: 'mixer', runtime: { api: 'nodejs-ipc', apiVersion: '1.14.1', entrypoint: '../main.cjs' } }),
  );
  await writeFile(join(dir, 'modules', 'mixer', 'main.cjs'), 'process.exit(0);\n');
  const inside = await save(hub, flowWith(module('./modules/mixer')));
  t.is(inside.status, 200, JSON.stringify(inside.body));
});

test('a hub started with --allow-machine-edits takes what names the machine from an admin, and says so at start', async (t) => {
  const { dir, hub } = await studio(t, flowWith(), ['--allow-machine-edits']);
  const marker = join(dir, 'ran');
  await writeFile(
    join(dir, 'clock.js'),
    `import { writeFileSync } from 'node:fs';\nexport default () => { writeFileSync(${JSON.stringify(marker)}, 'yes'); };\n`,
  );
  const saved = await save(hub, flowWith('', "  flows: ['clock.js'],\n"));
  t.is(saved.status, 200, JSON.stringify(saved.body));
  t.true(hub.messages().some((m) => m.startsWith('--allow-machine-edits: admin logins may change')));
  await eventually(async () => (await readFile(marker, 'utf8').catch(() => '')) === 'yes', 'the code flow to run');
});

test('a hidden secret is not put back when the destination beside it changed: type it again (422 at the secret)', async (t) => {
  const mqtt = (url: string) => `    site: { type: 'mqtt', url: ${JSON.stringify(url)}, username: 'hub', password: 'broker-password' },\n`;
  const { flow, hub } = await studio(t, flowWith(mqtt('mqtt://127.0.0.1:1')));
  const { text, etag } = await getFlow(hub);
  t.false(text.includes('broker-password'));
  const redirected = await putFlow(hub, text.replace('mqtt://127.0.0.1:1', 'mqtt://attacker.example:1883'), etag);
  t.is(redirected.status, 422);
  t.deepEqual(redirected.body.issues?.[0]?.path, ['connections', 'site', 'password']);
  t.regex(redirected.body.issues?.[0]?.message ?? '', /url changed/);
  t.true((await readFile(flow, 'utf8')).includes('mqtt://127.0.0.1:1'), 'nothing written');
  const elsewhere = await putFlow(hub, text.replace("username: 'hub'", "username: 'hub2'"), etag);
  t.is(elsewhere.status, 200, 'the secret goes back when its destination stays');
  t.true((await readFile(flow, 'utf8')).includes('broker-password'));
});

test('kept versions of the flow are readable by the hub’s user alone, as the flow file is', async (t) => {
  const { dir, hub } = await studio(t, flowWith());
  t.is((await save(hub, flowWith().replace('morning', 'evening'))).status, 200);
  const history = join(dir, 'state', 'flow-history');
  t.is((await stat(history)).mode & 0o777, 0o700);
  for (const file of ['1.json5', '2.json5', 'versions.json']) t.is((await stat(join(history, file))).mode & 0o777, 0o600, file);
});

test('a text nested 100,000 deep is a mistake (422), not a fault, and one over 2 MiB is refused before it is read (413); the hub serves on', async (t) => {
  const { flow, hub } = await studio(t, flowWith());
  const original = await readFile(flow, 'utf8');
  const deep = `{ rules: ${'['.repeat(100_000)}${']'.repeat(100_000)} }`;
  const refused = await save(hub, deep);
  t.is(refused.status, 422);
  t.is(refused.body.code, 'PB_FLOW_INVALID');
  t.regex(refused.body.issues?.[0]?.message ?? '', /nested deeper than 64 levels/);
  const drafted = await fetch(`${hub.base}/flow/draft`, {
    method: 'POST',
    headers: { ...as(admin.token), 'content-type': 'application/json' },
    body: JSON.stringify({ text: deep, edits: [] }),
  });
  t.is(drafted.status, 200);
  const large = flowWith().replace('// the studio', `// ${'x'.repeat(3 * 1024 * 1024)}`);
  const tooLarge = await fetch(`${hub.base}/flow`, {
    method: 'PUT',
    headers: { ...as(admin.token), accept: 'application/json', 'if-match': (await getFlow(hub)).etag },
    body: large,
  }).catch(() => undefined);
  t.true(tooLarge === undefined || tooLarge.status === 413, `answered ${tooLarge?.status}`);
  t.is(await readFile(flow, 'utf8'), original);
  t.is(await (await fetch(`${hub.base}/parameters/studio/title`, { headers: as(admin.token) })).text(), 'morning');
});

test('a 412 names a tag the hub never gives rather than echoing its bytes garbled', async (t) => {
  const { hub } = await studio(t, flowWith());
  const refused = await putFlow(hub, flowWith().replace('morning', 'evening'), '"caf\u00e9"');
  t.is(refused.status, 412);
  t.is(refused.body.code, 'PB_FLOW_CHANGED');
  const { error } = refused.body as { error?: string };
  t.regex(error ?? '', /not a tag this hub never gives\)$/);
  t.false((error ?? '').includes('\uFFFD'));
});

test('a token changed in the console is taken in place: the save is answered, the port stays, and only that token’s sockets are closed', async (t) => {
  const wall = { name: 'wall', token: 'wall-trust-token', read: ['studio/#'], write: [] };
  const withWall = (read: string[]) => flowWith().replace(JSON.stringify([admin]), JSON.stringify([admin, { ...wall, read }]));
  const { hub } = await studio(t, withWall(['studio/#']));
  const socketOf = async (token: string) => {
    const socket = new WebSocket(`ws://127.0.0.1:${hub.port}/ws?access_token=${token}`);
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    t.teardown(() => socket.terminate());
    return { socket, closed };
  };
  const [ops, display] = [await socketOf(admin.token), await socketOf(wall.token)];
  const saved = await save(hub, withWall(['studio/title']));
  t.is(saved.status, 200, JSON.stringify(saved.body));
  t.is(await display.closed, 1008, "the changed token's socket is closed");
  t.is(ops.socket.readyState, WebSocket.OPEN, 'the others stay');
  t.is(hub.messages().filter((m) => m.startsWith('listening on')).length, 1, 'the server was not started again');
  const narrowed = await fetch(`${hub.base}/parameters/studio/title`, { headers: as(wall.token) });
  t.is(narrowed.status, 200, 'the new patterns hold');
});
