import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import test, { type ExecutionContext } from 'ava';
import { flowFileJsonSchema, loadFlowFile } from '../../lib/config/flow-file.ts';
import { Hub } from '../../lib/hub/hub.ts';
import { main } from '../../lib/cli.ts';
import { Writable } from 'node:stream';

/** How a package's module reaches the public face here: the source, as the installed package's dist would be. */
const face = pathToFileURL(new URL('../../lib/sdk/index.ts', import.meta.url).pathname).href;

/** A module that exports a counter type named `type`: its `step` setting is checked by the schema and by its parser. */
const counterModule = (type: string) => `import { checked, defineConnectionType, Type, withDefault } from '${face}';
export default defineConnectionType({
  type: '${type}',
  summary: 'Counts up.',
  settings: Type.Object({ step: withDefault(Type.Integer({ minimum: 1, description: 'How much each pulse adds.' }), 1) }),
  parse: (settings, { id }) => checked(settings.step > 100 ? [{ path: ['step'], message: 'at most 100' }] : [], settings),
  create(context, settings) {
    return {
      start() {
        context.define('count', { type: 'I', access: 'read-only', initial: settings.step });
      },
      stop() {},
    };
  },
});
`;

interface PackageFiles {
  readonly name: string;
  readonly version?: string;
  /** The package.json's `patchbay` field; left out when undefined. */
  readonly patchbay?: unknown;
  readonly files?: Readonly<Record<string, string>>;
}

/** A studio folder: a flow file and packages installed in its node_modules, as npm would leave them. */
async function studio(flow: unknown, packages: readonly PackageFiles[]): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-plugins-'));
  for (const { name, version = '1.2.3', patchbay, files = {} } of packages) {
    const folder = join(dir, 'node_modules', name);
    await mkdir(folder, { recursive: true });
    await writeFile(
      join(folder, 'package.json'),
      JSON.stringify({ name, version, type: 'module', ...(patchbay === undefined ? {} : { patchbay }) }),
    );
    for (const [file, text] of Object.entries(files)) await writeFile(join(folder, file), text);
  }
  const file = join(dir, 'flow.json5');
  await writeFile(file, JSON.stringify(flow));
  return file;
}

const counterPackage = (name: string, type = 'counter', apiVersion: unknown = 1): PackageFiles => ({
  name,
  patchbay: { apiVersion, types: { [type]: './counter.js' } },
  files: { 'counter.js': counterModule(type) },
});

test('a type of a package named in plugins is used like a built-in one: its settings checked, its connection listed with its package', async (t) => {
  const flow = {
    plugins: ['studio-counter'],
    connections: { tally: { type: 'counter', step: 5 }, vars: { type: 'dummy', parameters: ['x,I,1'] } },
  };
  const file = await studio(flow, [counterPackage('studio-counter')]);
  const loaded = await loadFlowFile(file, {}, { start: true });
  if (!loaded.ok) return t.fail(loaded.error.message);
  t.deepEqual(
    loaded.flow.plugins.packages.map(({ name, version, types }) => ({ name, version, types })),
    [{ name: 'studio-counter', version: '1.2.3', types: ['counter'] }],
  );
  const hub = new Hub({ flow: loaded.flow });
  t.teardown(() => hub.stop());
  await hub.start();
  const tally = hub.listConnections().find((c) => c.id === 'tally');
  t.like(tally, { type: 'counter', status: 'ok', package: { name: 'studio-counter', version: '1.2.3' } });
  t.is(hub.graph.get('tally/count')?.value, 5);

  // Its settings as the schema and the type's parser see them, with paths.
  const bad = await studio(
    { plugins: ['studio-counter'], connections: { tally: { type: 'counter', step: 0 }, more: { type: 'counter', step: 500 } } },
    [counterPackage('studio-counter')],
  );
  const refused = await loadFlowFile(bad, {});
  t.false(refused.ok);
  if (refused.ok) return;
  t.deepEqual(
    refused.issues.map((issue) => issue.path.join('.')),
    ['connections.tally.step', 'connections.more.step'],
    refused.error.message,
  );
});

test('a package written for another API version is refused with PB_PLUGIN_INCOMPATIBLE naming both; run runs the rest', async (t) => {
  const flow = {
    plugins: ['old-counter'],
    connections: { tally: { type: 'counter', step: 5 }, vars: { type: 'dummy', parameters: ['x,I,1'] } },
  };
  const file = await studio(flow, [counterPackage('old-counter', 'counter', 7)]);
  const validated = await loadFlowFile(file, {});
  t.false(validated.ok);
  if (validated.ok) return;
  t.is(validated.issues.length, 1);
  t.deepEqual(validated.issues[0]?.path, ['plugins', 0]);
  t.regex(
    validated.issues[0]?.message ?? '',
    /^PB_PLUGIN_INCOMPATIBLE: package "old-counter" 1\.2\.3 is written for connection API 7 .*this hub speaks 1/,
  );

  const started = await loadFlowFile(file, {}, { start: true });
  if (!started.ok) return t.fail(started.error.message);
  const hub = new Hub({ flow: started.flow });
  t.teardown(() => hub.stop());
  await hub.start();
  t.like(
    hub.listConnections().find((c) => c.id === 'tally'),
    { status: 'failed', code: 'PB_PLUGIN_INCOMPATIBLE', package: { name: 'old-counter', version: '1.2.3' } },
    'the refused connection says which package it wanted',
  );
  t.like(
    hub.listConnections().find((c) => c.id === 'vars'),
    { status: 'ok' },
  );
  t.true(hub.problems().some((problem) => problem.id === 'tally' && problem.code === 'PB_PLUGIN_INCOMPATIBLE'));
});

test('a module that throws on load, one that exports no type, and a package not installed each give PB_PLUGIN_LOAD with the reason', async (t) => {
  const flow = {
    plugins: ['throws-on-load', 'exports-nothing', 'not-installed', './local-counter'],
    connections: {
      a: { type: 'boom' },
      b: { type: 'empty' },
      // Asked to run in a process of its own: nothing of a refused package runs anywhere.
      c: { type: 'missing-type', isolate: 'process' },
      d: { type: 'local', step: 2 },
    },
  };
  const file = await studio(flow, [
    {
      name: 'throws-on-load',
      patchbay: { apiVersion: 1, types: { boom: './boom.js' } },
      files: { 'boom.js': "throw new Error('no licence key');\n" },
    },
    {
      name: 'exports-nothing',
      patchbay: { apiVersion: 1, types: { empty: './empty.js' } },
      files: { 'empty.js': 'export const x = 1;\n' },
    },
  ]);
  // A package beside the flow file, by its relative path.
  const local = join(file, '..', 'local-counter');
  await mkdir(local);
  await writeFile(
    join(local, 'package.json'),
    JSON.stringify({
      name: 'local-counter',
      version: '0.0.1',
      type: 'module',
      patchbay: { apiVersion: 1, types: { local: './counter.js' } },
    }),
  );
  await writeFile(join(local, 'counter.js'), counterModule('local'));

  const validated = await loadFlowFile(file, {});
  t.false(validated.ok);
  if (validated.ok) return;
  const messages = validated.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  t.regex(
    messages.find((m) => m.startsWith('plugins.0')) ?? '',
    /PB_PLUGIN_LOAD: package "throws-on-load" 1\.2\.3: the module of type "boom" .* failed to load: no licence key/,
  );
  t.regex(messages.find((m) => m.startsWith('plugins.1')) ?? '', /PB_PLUGIN_LOAD: .*does not export a connection type as its default/);
  t.regex(messages.find((m) => m.startsWith('plugins.2')) ?? '', /PB_PLUGIN_LOAD: package "not-installed" is not installed/);
  t.false(
    messages.some((m) => m.startsWith('plugins.3') || m.startsWith('connections.d')),
    messages.join('\n'),
  );

  const started = await loadFlowFile(file, {}, { start: true });
  if (!started.ok) return t.fail(started.error.message);
  const hub = new Hub({ flow: started.flow });
  t.teardown(() => hub.stop());
  await hub.start();
  const status = Object.fromEntries(hub.listConnections().map((c) => [c.id, `${c.status} ${c.code ?? ''}`.trim()]));
  t.deepEqual(status, { a: 'failed PB_PLUGIN_LOAD', b: 'failed PB_PLUGIN_LOAD', c: 'failed PB_PLUGIN_LOAD', d: 'ok' });
  t.regex(hub.listConnections().find((c) => c.id === 'c')?.reason ?? '', /package "not-installed" is not installed/);
});

test('a type that declares an error code not its own (<TYPE>_<NAME>) or with a status a refusal cannot have is refused with PB_PLUGIN_LOAD saying why (R-PK8)', async (t) => {
  const withCodes = (type: string, errors: string) =>
    counterModule(type).replace("summary: 'Counts up.',", `summary: 'Counts up.',\n  errors: ${errors},`);
  const flow = {
    plugins: ['borrows', 'bad-status', 'own'],
    connections: { a: { type: 'borrows' }, b: { type: 'bad-status' }, c: { type: 'own-codes' } },
  };
  const file = await studio(flow, [
    {
      name: 'borrows',
      patchbay: { apiVersion: 1, types: { borrows: './c.js' } },
      files: { 'c.js': withCodes('borrows', "{ PB_NOT_ACTIVE: { status: 503, text: 'Mine.' } }") },
    },
    {
      name: 'bad-status',
      patchbay: { apiVersion: 1, types: { 'bad-status': './c.js' } },
      files: { 'c.js': withCodes('bad-status', "{ BAD_STATUS_OK: { status: 200, text: 'Fine.' } }") },
    },
    {
      name: 'own',
      patchbay: { apiVersion: 1, types: { 'own-codes': './c.js' } },
      files: { 'c.js': withCodes('own-codes', "{ OWN_CODES_BUSY: { status: 409, text: 'Busy.' } }") },
    },
  ]);
  const validated = await loadFlowFile(file, {});
  t.false(validated.ok);
  if (validated.ok) return;
  const messages = validated.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  t.regex(
    messages.find((m) => m.startsWith('plugins.0')) ?? '',
    /PB_PLUGIN_LOAD: .*declares the error code "PB_NOT_ACTIVE": a type's own code is BORROWS_<NAME>/,
  );
  t.regex(
    messages.find((m) => m.startsWith('plugins.1')) ?? '',
    /PB_PLUGIN_LOAD: package "bad-status" .*declares the error code "BAD_STATUS_OK" with the status 200: a refusal answers with one of 400, 403/,
  );
  t.false(
    messages.some((m) => m.startsWith('plugins.2')),
    messages.join('\n'),
  );
});

test('two sources of one type name: a built-in name and a second package are refused with PB_TYPE_TAKEN naming the other owner', async (t) => {
  const flow = {
    plugins: ['first-counter', 'second-counter', 'fake-dummy', 'greedy', 'first-counter'],
    connections: {
      tally: { type: 'counter' },
      vars: { type: 'dummy', parameters: ['x,I,1'] },
      extra: { type: 'greedy-counter' },
    },
  };
  const file = await studio(flow, [
    counterPackage('first-counter'),
    counterPackage('second-counter'),
    counterPackage('fake-dummy', 'dummy'),
    {
      name: 'greedy',
      patchbay: { apiVersion: 1, types: { timer: './counter.js', 'greedy-counter': './counter.js', counter: './counter.js' } },
      files: { 'counter.js': counterModule('greedy-counter') },
    },
  ]);
  const validated = await loadFlowFile(file, {});
  t.false(validated.ok);
  if (validated.ok) return;
  t.deepEqual(
    validated.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`),
    [
      'plugins.1: PB_TYPE_TAKEN: package "second-counter" 1.2.3 declares the connection type "counter", which package "first-counter" 1.2.3 has already',
      'plugins.2: PB_TYPE_TAKEN: package "fake-dummy" 1.2.3 declares the connection type "dummy", which patchbay (built in) has already',
      'plugins.3: PB_TYPE_TAKEN: package "greedy" 1.2.3 declares the connection types "timer", which patchbay (built in) has already; and "counter", which package "first-counter" 1.2.3 has already',
      'plugins.4: PB_TYPE_TAKEN: package "first-counter" 1.2.3 is listed twice: plugins[0] already brings its types, which run from there; remove this entry',
    ],
    'every clash of a package is named, not only its first',
  );
  const started = await loadFlowFile(file, {}, { start: true });
  if (!started.ok) return t.fail(started.error.message);
  const hub = new Hub({ flow: started.flow });
  t.teardown(() => hub.stop());
  await hub.start();
  t.like(
    hub.listConnections().find((c) => c.id === 'tally'),
    { status: 'ok', package: { name: 'first-counter', version: '1.2.3' } },
  );
  t.like(
    hub.listConnections().find((c) => c.id === 'vars'),
    { status: 'ok', type: 'dummy' },
  );
  t.is(hub.listConnections().find((c) => c.id === 'vars')?.package, undefined);
  t.like(
    hub.listConnections().find((c) => c.id === 'extra'),
    { status: 'failed', code: 'PB_TYPE_TAKEN', package: { name: 'greedy', version: '1.2.3' } },
    'a type of the refused package fails with its refusal, naming the package',
  );
});

test('validate exits 2 naming the refused package; schema with the flow file knows the package types and their settings', async (t) => {
  const file = await studio({ plugins: ['studio-counter', 'old-counter'], connections: { tally: { type: 'counter' } } }, [
    counterPackage('studio-counter'),
    counterPackage('old-counter', 'old', 2),
  ]);
  const out = collected();
  const err = collected();
  t.is(await main(['validate', file], out.stream, err.stream), 2);
  t.regex(err.text(), /plugins\[1\]: PB_PLUGIN_INCOMPATIBLE: package "old-counter"/);

  const plugins = await loadFlowFile(file, {}, { start: true }).then((result) => (result.ok ? result.flow.plugins : undefined));
  const schema = flowFileJsonSchema(plugins);
  t.true(
    schema.includes('"const": "counter"') && schema.includes('How much each pulse adds.'),
    'the schema has the package type and its settings',
  );
  t.false(flowFileJsonSchema().includes('How much each pulse adds.'), 'the schema without a flow file has the built-in types alone');

  const printed = collected();
  t.is(await main(['schema', file], printed.stream, collected().stream), 0);
  t.true(printed.text().includes('How much each pulse adds.'), 'patchbay schema <flow file> has the package type');
});

/** A stream a command writes to, as to standard output, and what it wrote. */
function collected(): { stream: NodeJS.WritableStream; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
}

/** A studio of one package `name` whose module is `module` (type `type`), a rest-api, a dummy and a connection of the type. */
async function hubOfPackage(t: ExecutionContext, name: string, type: string, module: string) {
  const flow = {
    plugins: [name],
    connections: {
      api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' },
      device: { type, step: 2 },
      vars: { type: 'dummy', parameters: ['x,I,1'] },
    },
  };
  const file = await studio(flow, [
    { name, patchbay: { apiVersion: 1, types: { [type]: './module.js' } }, files: { 'module.js': module } },
  ]);
  const started = await loadFlowFile(file, {}, { start: true });
  if (!started.ok) throw started.error;
  const hub = new Hub({ flow: started.flow });
  t.teardown(() => hub.stop());
  await hub.start();
  const port = hub.listConnections().find((c) => c.id === 'api')?.details?.['port'] as number;
  const healthz = async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).status;
  return { file, hub, healthz, status: (id: string) => hub.listConnections().find((c) => c.id === id) };
}

test.serial('a package whose module starts a timer that throws 100 ms after import: the hub stays up and serves', async (t) => {
  const late = `setTimeout(() => { throw new Error('a late bug'); }, 100);\n${counterModule('late')}`;
  const { hub, healthz, status } = await hubOfPackage(t, 'late-bug', 'late', late);
  // Long enough for the timer to fire wherever the module was imported, and again in a second.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  t.is(await healthz(), 200, 'the hub answers');
  t.like(status('vars'), { status: 'ok' });
  t.like(status('api'), { status: 'ok' });
  t.like(hub.graph.get('vars/x')?.set('5', 'spec'), { ok: true });
  t.is(hub.graph.get('vars/x')?.value, 5, 'and takes writes');
});

test.serial(
  'a package whose parse() loops forever: the hub serves, that connection fails with a reason naming the deadline, others run',
  async (t) => {
    t.timeout(60_000);
    const stuck = counterModule('stuck').replace(
      /parse: \(settings, \{ id \}\) =>/,
      'parse: (settings) => { for (;;) {} },\n  unused: (settings) =>',
    );
    t.true(stuck.includes('for (;;)'));
    const { file, healthz, status } = await hubOfPackage(t, 'stuck-parser', 'stuck', stuck);
    t.is(await healthz(), 200, 'the hub answers');
    t.like(status('device'), { status: 'failed', code: 'PB_PLUGIN_LOAD' });
    t.regex(status('device')?.reason ?? '', /package "stuck-parser" 1\.2\.3: type "stuck": did not answer within 2000 ms/);
    t.like(status('vars'), { status: 'ok' });
    // Read to validate, the same reason is a mistake at the connection.
    const validated = await loadFlowFile(file, {});
    t.false(validated.ok);
    if (validated.ok) return;
    t.deepEqual(
      validated.issues.map((issue) => issue.path.join('.')),
      ['connections.device'],
    );
    t.regex(validated.issues[0]?.message ?? '', /^PB_PLUGIN_LOAD: .*did not answer within 2000 ms/);
  },
);

test.serial(
  'a package whose module loops forever when imported: refused with PB_PLUGIN_LOAD naming the deadline, the hub serves the rest',
  async (t) => {
    t.timeout(60_000);
    const { healthz, status } = await hubOfPackage(t, 'loops-on-load', 'looping', `for (;;) {}\n${counterModule('looping')}`);
    t.is(await healthz(), 200, 'the hub answers');
    t.like(status('device'), { status: 'failed', code: 'PB_PLUGIN_LOAD' });
    t.regex(
      status('device')?.reason ?? '',
      /package "loops-on-load" 1\.2\.3: the module of type "looping" .* did not answer within 10000 ms/,
    );
    t.like(status('vars'), { status: 'ok' });
  },
);

test('validate warns of a package type run in the hub process (isolate "none"), and not of one run in its own', async (t) => {
  const flow = {
    plugins: ['studio-counter'],
    connections: { inside: { type: 'counter', isolate: 'none' }, outside: { type: 'counter' }, vars: { type: 'dummy', isolate: 'none' } },
  };
  const validated = await loadFlowFile(await studio(flow, [counterPackage('studio-counter')]), {});
  if (!validated.ok) return t.fail(validated.error.message);
  t.deepEqual(
    validated.flow.warnings.map((warning) => warning.path.join('.')),
    ['connections.inside.isolate'],
  );
  t.regex(validated.flow.warnings[0]?.message ?? '', /runs the code of package "studio-counter" in the hub's own process/);
});

test.serial(
  'a package module read for its types sees no variable of the hub environment beyond PATH, HOME, locale and temporary folder',
  async (t) => {
    process.env['PATCHBAY_SPEC_TOKEN'] = 'a token of the hub';
    t.teardown(() => delete process.env['PATCHBAY_SPEC_TOKEN']);
    const nosy = counterModule('nosy').replace(
      "summary: 'Counts up.'",
      'summary: JSON.stringify({ token: process.env.PATCHBAY_SPEC_TOKEN ?? null, path: Boolean(process.env.PATH) })',
    );
    t.true(nosy.includes('PATCHBAY_SPEC_TOKEN'));
    const flow = { plugins: ['nosy-counter'], connections: { tally: { type: 'nosy' } } };
    const file = await studio(flow, [
      { name: 'nosy-counter', patchbay: { apiVersion: 1, types: { nosy: './nosy.js' } }, files: { 'nosy.js': nosy } },
    ]);
    const loaded = await loadFlowFile(file, {});
    if (!loaded.ok) return t.fail(loaded.error.message);
    const type = loaded.flow.plugins.types.find((candidate) => candidate.type === 'nosy');
    t.deepEqual(JSON.parse(type?.summary ?? 'null'), { token: null, path: true });
  },
);
