import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test, { type ExecutionContext } from 'ava';
import { eventually, startBound } from '../helpers/eventually.ts';
import { freePort } from '../helpers/ports.ts';

const bin = fileURLToPath(new URL('../../bin/patchbay.js', import.meta.url));
const demo = fileURLToPath(new URL('../../flows/demo.json5', import.meta.url));

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

function patchbay(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  cwd?: string,
): { child: ChildProcess; done: Promise<Finished>; stderrSoFar: () => string } {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env, ...(cwd ? { cwd } : {}) });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<Finished>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return { child, done, stderrSoFar: () => stderr };
}

/** `patchbay` with these arguments, once its hub runs; killed when the spec ends if it still does. */
async function running(t: ExecutionContext, args: string[], env: NodeJS.ProcessEnv = process.env, cwd?: string) {
  const run = patchbay(args, env, cwd);
  t.teardown(() => run.child.kill('SIGKILL'));
  await eventually(
    () => run.stderrSoFar().includes('running:'),
    () => `the hub to start (log so far: ${run.stderrSoFar()})`,
    startBound,
  );
  return run;
}

async function flowFile(text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-cli-'));
  const path = join(dir, 'flow.json5');
  await writeFile(path, text);
  return path;
}

test('validate accepts the demo flow with exit 0', async (t) => {
  const { code, stdout } = await patchbay(['validate', demo]).done;
  t.is(code, 0);
  t.regex(stdout, /demo\.json5: valid \(\d+ connections\)/);
});

test('validate prints all three mistakes of a flow file with their paths and exits 2', async (t) => {
  const path = await flowFile(`{
    connections: {
      vars: { type: 'dummy', parameters: ['a,I,abc'] },
      clock: { type: 'timer', pulses: [{ interval: 1 }] },
      api: { type: 'dummy', prot: 17011 },
    },
  }`);
  const { code, stderr } = await patchbay(['validate', path]).done;
  t.is(code, 2);
  t.true(stderr.includes(`${path}: 3 mistakes:`), stderr);
  t.true(stderr.includes('connections.clock.pulses[0].interval: expected an integer of at least 10'), stderr);
  t.true(stderr.includes('connections.api.prot: unknown key;'), stderr);
  t.true(stderr.includes('connections.vars.parameters[0]: line 1: default value of "a": cannot convert "abc" to integer'), stderr);
});

test('bad usage exits 2 with the usage text', async (t) => {
  const witnessWithoutState = ['witness', '--group', 'g', '--members', 'a,b', '--listen', '127.0.0.1:0', '--state', 'none'];
  for (const args of [['frobnicate'], ['validate'], ['run', 'a', 'b'], ['run', '--log-level', 'loud'], ['--nope'], witnessWithoutState]) {
    const { code, stderr } = await patchbay(args).done;
    t.is(code, 2, args.join(' '));
    t.regex(stderr, /Usage:/);
  }
});

test('run refuses a bad flow file with exit 2', async (t) => {
  const path = await flowFile('{ connections: { a: { type: "nope" } } }');
  const { code, stderr } = await patchbay(['run', path]).done;
  t.is(code, 2);
  t.regex(stderr, /connections\.a\.type: expected one of/);
});

test('run starts the hub, names connections in its log, and stops cleanly on SIGTERM with exit 0', async (t) => {
  const path = await flowFile(`{ connections: {
    first: { type: 'dummy', parameters: 'x,I,1' },
    second: { type: 'timer', pulses: [{ interval: 50 }] },
  } }`);
  const run = await running(t, ['run', path]);
  run.child.kill('SIGTERM');
  const { code, stderr } = await run.done;
  t.is(code, 0);
  t.regex(stderr, /INFO: \[first\] started \(dummy\)/);
  t.regex(stderr, /INFO: \[second\] started \(timer\)/);
  t.regex(stderr, /running: 2 connections, 2 parameters/);
  const stopping = stderr.indexOf('stopping (SIGTERM)');
  t.true(
    stopping > 0 && stderr.indexOf('[second] stopped') > stopping && stderr.indexOf('[first] stopped') > stderr.indexOf('[second] stopped'),
    stderr,
  );
});

test('run starts a hub whose xml-file-output has a malformed template: that connection fails with line and column, the rest runs (R-X2); validate still refuses it', async (t) => {
  const path = await flowFile(`{ connections: {
    vars: { type: 'dummy', parameters: 'x,I,1' },
    out: { type: 'xml-file-output', filename: 'now.xml', template: '<show>\\n  <title>$Title</titel>\\n</show>' },
  } }`);
  const run = await running(t, ['run', path, '--state', 'none']);
  run.child.kill('SIGTERM');
  const { code, stderr } = await run.done;
  t.is(code, 0);
  t.regex(stderr, /WARN: connections\.out\.template: not well-formed XML: line 2, column 23/);
  t.regex(stderr, /ERROR: \[out\] failed: template is not well-formed XML: line 2, column 23/);
  t.regex(stderr, /INFO: \[vars\] started \(dummy\)/);
  t.regex(stderr, /running: 2 connections, 1 parameter, 0 rules, 1 failed/);
  const validated = await patchbay(['validate', path]).done;
  t.is(validated.code, 2);
  t.regex(validated.stderr, /connections\.out\.template: not well-formed XML: line 2, column 23/);
});

test('validate warns of an xml-file-output whose folder does not exist and accepts the file; run starts that connection degraded, saying which folder, and the file appears once the folder does (R-X5)', async (t) => {
  const path = await flowFile(`{ connections: {
    vars: { type: 'dummy', parameters: 'x,I,1' },
    out: { type: 'xml-file-output', filename: 'graphics/now.xml', template: '<show>$Title</show>' },
  } }`);
  const folder = join(dirname(path), 'graphics');
  const validated = await patchbay(['validate', path]).done;
  t.is(validated.code, 0, validated.stderr);
  t.is(
    validated.stdout,
    `${path}: valid (2 connections), with a warning:\n` +
      `  connections.out.filename: the folder ${folder} does not exist (yet); the file is written once it does\n`,
  );
  const run = await running(t, ['run', path, '--state', 'none']);
  await mkdir(folder);
  await eventually(async () => (await readFile(join(folder, 'now.xml'), 'utf8').catch(() => '')) === '<show></show>', 'the file');
  run.child.kill('SIGTERM');
  const { code, stderr } = await run.done;
  t.is(code, 0);
  t.true(stderr.includes(`WARN: connections.out.filename: the folder ${folder} does not exist (yet)`), stderr);
  t.true(stderr.includes(`[out] degraded: the folder ${folder} does not exist; the file is written once it does`), stderr);
  t.regex(stderr, /running: 2 connections, 2 parameters, 0 rules\n/);
  t.false(stderr.includes('failed'), stderr);
});

test('`patchbay` alone in a folder without a flow file makes studio.json5, a rest-api on 127.0.0.1 with an admin token, says where and how to open the console, and runs it; again, it runs the file as it is (R-ST1)', async (t) => {
  const folder = await mkdtemp(join(tmpdir(), 'patchbay-first-'));
  const port = await freePort();
  const env = { ...process.env, PORT: String(port) };
  const first = await running(t, [], env, folder);
  const said = first.stderrSoFar();
  t.true(
    said.startsWith(`patchbay: made ${join(folder, 'studio.json5')}: a rest-api on this machine (127.0.0.1), and nothing else yet.`),
    said,
  );
  const address = /http:\/\/127\.0\.0\.1:(\d+)\/console\/\?access_token=([A-Za-z0-9_-]+)/.exec(said);
  t.is(address?.[1], String(port), 'the console where the hub is');
  const token = address?.[2] ?? '';
  const text = await readFile(join(folder, 'studio.json5'), 'utf8');
  t.false(text.includes(token), 'the file holds the token only as its sha256');
  const bearer = { headers: { authorization: `Bearer ${token}` } };
  t.is((await fetch(`http://127.0.0.1:${port}/healthz`, bearer)).status, 200);
  const anonymous = await fetch(`http://127.0.0.1:${port}/flow`);
  t.is(anonymous.status, 401, `nobody without the token: ${await anonymous.text()}`);
  const flow = await fetch(`http://127.0.0.1:${port}/flow`, bearer);
  t.is(flow.status, 200, 'the token may edit the flow: the console can add devices');
  t.is(await flow.text(), text);
  t.deepEqual(
    (
      (await (await fetch(`http://127.0.0.1:${port}/connections`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
        id: string;
      }[]
    ).map((c) => c.id),
    ['api'],
  );
  first.child.kill('SIGINT');
  t.is((await first.done).code, 0);
  t.is((await patchbay(['validate', join(folder, 'studio.json5')]).done).code, 0, 'patchbay validate takes it');

  const again = await running(t, ['run'], env, folder);
  t.false(again.stderrSoFar().includes('made'), 'made once');
  t.false(again.stderrSoFar().includes('access_token'), 'the token is said once');
  t.is(await readFile(join(folder, 'studio.json5'), 'utf8'), text);
  again.child.kill('SIGINT');
  t.is((await again.done).code, 0);
});

test('npm start runs the demo flow on the PORT it is given; SIGINT stops it with exit 0', async (t) => {
  const port = await freePort();
  const run = await running(t, ['run', demo, '--log-format', 'json'], { ...process.env, PORT: String(port) });
  t.is((await fetch(`http://127.0.0.1:${port}/healthz`)).status, 200);
  run.child.kill('SIGINT');
  const { code, stderr } = await run.done;
  t.is(code, 0);
  const lines = stderr
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { msg: string; connection?: string });
  t.true(lines.some((l) => l.connection === 'studio' && l.msg === 'started (dummy)'));
  t.true(lines.some((l) => l.msg.includes('demo.json5')));
});

test('run --watch reloads an edited flow file and refuses one with mistakes, keeping the running flow', async (t) => {
  const path = await flowFile(`{ connections: { vars: { type: 'dummy', parameters: 'a,I,1' } } }`);
  const run = patchbay(['run', path, '--watch', '--log-format', 'json']);
  t.teardown(() => run.child.kill('SIGKILL'));
  const messages = () =>
    run
      .stderrSoFar()
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { msg: string }).msg);
  await eventually(
    () => messages().some((m) => m.startsWith('watching ')),
    () => `the watcher (log so far: ${run.stderrSoFar()})`,
    startBound,
  );
  await writeFile(path, `{ connections: { vars: { type: 'dummy', parameters: 'a,Q,1' } } }`);
  // A save may reach the watcher half written first (refused as it stands): the refusal that counts names the mistake.
  await eventually(
    () => messages().some((m) => m.startsWith('reload refused') && m.includes('connections.vars.parameters: line 1: unknown type "Q"')),
    () => `the refusal naming the mistake (log so far: ${run.stderrSoFar()})`,
    30_000,
  );
  await writeFile(path, `{ connections: { vars: { type: 'dummy', parameters: 'a,I,1' }, more: { type: 'dummy', parameters: 'b,S,x' } } }`);
  await eventually(
    () => messages().includes('reloaded: 1 kept (0 updated in place), 0 restarted, 1 added, 0 removed, 0 rules'),
    () => `the reload (log so far: ${run.stderrSoFar()})`,
    30_000,
  );
  run.child.kill('SIGTERM');
  t.is((await run.done).code, 0);
});

test('run --watch says a refusal once, though one save reaches it as two changes; SIGHUP is answered again', async (t) => {
  const path = await flowFile(`{ connections: { vars: { type: 'dummy', parameters: 'a,I,1' } } }`);
  const run = patchbay(['run', path, '--watch', '--log-level', 'debug', '--log-format', 'json']);
  t.teardown(() => run.child.kill('SIGKILL'));
  const messages = () =>
    run
      .stderrSoFar()
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { msg: string }).msg);
  const refusals = () => messages().filter((m) => m.startsWith('reload refused, the running flow is kept')).length;
  await eventually(
    () => messages().some((m) => m.startsWith('watching ')),
    () => `the watcher (log so far: ${run.stderrSoFar()})`,
    startBound,
  );
  const mistaken = `{ connections: { vars: { type: 'dummy', parameters: 'a,I,abc' } } }`;
  // Written whole (a new file renamed over the old): on a loaded machine the hub could read a
  // file truncated and not yet written, a mistake of its own.
  const save = async (text: string) => {
    await writeFile(`${path}.saving`, text);
    await rename(`${path}.saving`, path);
  };
  await save(mistaken);
  await eventually(
    () => refusals() === 1,
    () => `the refusal (log so far: ${run.stderrSoFar()})`,
    30_000,
  );
  // The same text once more, as an editor that saves in two steps writes it.
  await save(mistaken);
  await eventually(
    () => refusals() > 1 || messages().includes('reload refused again for the same mistakes, said above'),
    () => `the second reload (log so far: ${run.stderrSoFar()})`,
    30_000,
  );
  t.is(refusals(), 1, run.stderrSoFar());
  run.child.kill('SIGHUP');
  await eventually(
    () => refusals() === 2,
    () => `the answer to SIGHUP (log so far: ${run.stderrSoFar()})`,
    30_000,
  );
  run.child.kill('SIGTERM');
  t.is((await run.done).code, 0);
});

test('a hub whose log reader went away still stops cleanly on SIGTERM', async (t) => {
  const path = await flowFile(
    `{ connections: { vars: { type: 'dummy', parameters: 'a,I,1' }, tick: { type: 'timer', pulses: [{ interval: 10 }] } } }`,
  );
  const run = await running(t, ['run', path, '--log-level', 'debug', '--log-format', 'json']);
  run.child.stderr?.destroy(); // the reading end of the log pipe closes
  await new Promise((resolve) => setTimeout(resolve, 200));
  run.child.kill('SIGTERM');
  const exited = await Promise.race([
    run.done.then((d) => d.code),
    new Promise((resolve) => setTimeout(() => resolve('still running'), 10_000)),
  ]);
  t.is(exited, 0);
});

test('environment variables fill in ${NAME} placeholders; a whole placeholder in a number setting becomes a number', async (t) => {
  const path = await flowFile(`{ connections: {
    vars: { type: 'dummy', parameters: ['title,S,\${TITLE:-Morning Show}', 'price,S,$\${literal}'] },
    api: { type: 'rest-api', bindIp: '127.0.0.1', port: '\${PORT:-17011}', token: '\${TOKEN}' },
  } }`);
  const invalid = await patchbay(['validate', path], { ...process.env, TOKEN: undefined }).done;
  t.is(invalid.code, 2);
  t.true(
    invalid.stderr.includes(
      `${path}: 1 mistake:\n  connections.api.token: environment variable TOKEN is not set (give a default with \${TOKEN:-default})`,
    ),
    invalid.stderr,
  );
  const run = await running(t, ['run', path, '--state', 'none'], { ...process.env, PORT: '0', TOKEN: 'secret', TITLE: 'Evening News' });
  const port = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(run.stderrSoFar())?.[1];
  t.truthy(port, run.stderrSoFar());
  const read = (address: string) =>
    fetch(`http://127.0.0.1:${port}/parameters/${address}`, { headers: { authorization: 'Bearer secret' } }).then((r) => r.text());
  t.is(await read('vars/title'), 'Evening News');
  t.is(await read('vars/price'), '${literal}');
  run.child.kill('SIGTERM');
  t.is((await run.done).code, 0);
});

test('SIGHUP reloads the flow file once, refuses an edit with mistakes and keeps the running flow', async (t) => {
  const path = await flowFile(`{ connections: { vars: { type: 'dummy', parameters: 'a,I,1' } } }`);
  const run = patchbay(['run', path, '--state', 'none', '--log-format', 'json']);
  t.teardown(() => run.child.kill('SIGKILL'));
  const messages = () =>
    run
      .stderrSoFar()
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { msg: string }).msg);
  await eventually(
    () => messages().some((m) => m.startsWith('running:')),
    () => `the hub to start (log so far: ${run.stderrSoFar()})`,
    startBound,
  );
  await writeFile(path, `{ connections: { vars: { type: 'dummy', parameters: 'a,Q,1' } } }`);
  run.child.kill('SIGHUP');
  // A save may reach the watcher half written first (refused as it stands): the refusal that counts names the mistake.
  await eventually(
    () => messages().some((m) => m.startsWith('reload refused') && m.includes('connections.vars.parameters: line 1: unknown type "Q"')),
    () => `the refusal naming the mistake (log so far: ${run.stderrSoFar()})`,
    30_000,
  );
  await writeFile(path, `{ connections: { vars: { type: 'dummy', parameters: 'a,I,1' }, more: { type: 'dummy', parameters: 'b,S,x' } } }`);
  run.child.kill('SIGHUP');
  await eventually(
    () => messages().some((m) => m.startsWith('reloaded:')),
    () => `the reload (log so far: ${run.stderrSoFar()})`,
    30_000,
  );
  t.true(messages().includes('SIGHUP: reloading the flow file'), messages().join('\n'));
  t.true(messages().includes('reloaded: 1 kept (0 updated in place), 0 restarted, 1 added, 0 removed, 0 rules'));
  run.child.kill('SIGTERM');
  t.is((await run.done).code, 0);
});
