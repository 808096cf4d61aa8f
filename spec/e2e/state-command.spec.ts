import { spawnSync } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { storeWith } from '../helpers/state.ts';

const bin = fileURLToPath(new URL('../../bin/patchbay.js', import.meta.url));
const patchbay = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });

async function project() {
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-state-cmd-'));
  const flow = join(dir, 'flow.json5');
  await writeFile(
    flow,
    `{ connections: { vars: { type: 'dummy', parameters: ['a,I', 'title,S'] }, core: { type: 'virtual-core', logics: 1 } } }`,
  );
  return { dir, flow };
}

test('state list and export show what is kept; import stores a file; reset forgets a connection', async (t) => {
  const { dir, flow } = await project();
  const store = await storeWith(t, { 'vars/a': 42, 'vars/title': 'with\ttab', 'core/logic/1': true }, join(dir, '.patchbay'));
  await store.close();

  const list = patchbay('state', flow, 'list');
  t.is(list.status, 0, list.stderr);
  t.is(list.stdout, 'core/logic/1\ttrue\nvars/a\t42\nvars/title\twith\ttab\n');
  const exported = patchbay('state', flow, 'export');
  t.deepEqual(JSON.parse(exported.stdout), { values: { 'core/logic/1': true, 'vars/a': 42, 'vars/title': 'with\ttab' } });

  await writeFile(join(dir, 'in.json'), JSON.stringify({ values: { 'vars/a': 7 } }));
  const imported = patchbay('state', flow, 'import', join(dir, 'in.json'));
  t.is(imported.status, 0, imported.stderr);
  t.regex(imported.stderr, /1 value imported/);

  const reset = patchbay('state', flow, 'reset', 'vars');
  t.is(reset.status, 0, reset.stderr);
  t.regex(reset.stderr, /vars: 2 values forgotten/);
  t.is(patchbay('state', flow, 'list').stdout, 'core/logic/1\ttrue\n');
});

test('a bad import, an unknown connection or a missing folder is refused and changes nothing', async (t) => {
  const { dir, flow } = await project();
  t.is(patchbay('state', flow, 'list').status, 1, 'no folder yet: nothing is created');
  t.regex(patchbay('state', flow, 'list').stderr, /no state folder at/);
  const store = await storeWith(t, { 'vars/a': 1 }, join(dir, '.patchbay'));
  await store.close();
  for (const [name, document, reason] of [
    ['not-an-address', { values: { 'vars/a': 2, 'Bad Id/x': 1 } }, /is not an address/],
    ['unknown-connection', { values: { 'vars/a': 2, 'nope/a': 1 } }, /the flow file has no connection "nope"/],
    ['object', { values: { 'vars/a': { deep: 1 } } }, /expected a string, a finite number or a boolean/],
    ['shape', [1, 2], /expected \{"values"/],
  ] as const) {
    await writeFile(join(dir, `${name}.json`), JSON.stringify(document));
    const result = patchbay('state', flow, 'import', join(dir, `${name}.json`));
    t.is(result.status, 2, name);
    t.regex(result.stderr, reason, name);
  }
  await writeFile(
    join(dir, 'many.json'),
    JSON.stringify({ values: { 'Bad Id/x': 1, 'vars/a': 2, 'nope/a': 1, 'vars/title': { deep: 1 } } }),
  );
  const many = patchbay('state', flow, 'import', join(dir, 'many.json'));
  t.is(many.status, 2);
  t.regex(many.stderr, /3 bad entries, nothing imported:/, 'every bad entry at once, as validate lists mistakes');
  for (const reason of [
    /values\["Bad Id\/x"\]: .*not an address/,
    /values\["nope\/a"\]: the flow file has no connection "nope"/,
    /values\["vars\/title"\]: expected a string/,
  ])
    t.regex(many.stderr, reason);
  const typo = patchbay('state', flow, 'reset', 'vras');
  t.is(typo.status, 2, 'a typo in the connection id');
  t.is(
    typo.stderr,
    'patchbay: the flow file has no connection "vras" (its connections: vars, core)\n',
    'one line that says what is wrong, not the usage',
  );
  t.is(patchbay('state', flow, 'list').stdout, 'vars/a\t1\n', 'nothing changed');
});

test('import stores only values of parameters the flow keeps: reserved, unknown, unkept and unconvertible entries are all named and nothing is stored', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-state-cmd-'));
  const flow = join(dir, 'flow.json5');
  await writeFile(
    flow,
    JSON.stringify({
      connections: {
        vars: { type: 'dummy', parameters: ['a,I', 'title,S', 'cue,T'] },
        core: { type: 'virtual-core', logics: 2, functions: [{ id: 'both', op: 'and', inputs: ['core/logic/1', 'core/logic/2'] }] },
        page: { type: 'xml-file-output', filename: 'page.xml', template: '<p>$Title</p>' },
        scratch: { type: 'dummy', persist: false, parameters: ['a,I'] },
        clock: { type: 'timer', timers: [{ duration: 1000 }] },
      },
    }),
  );
  const store = await storeWith(t, { 'vars/a': 1 }, join(dir, '.patchbay'));
  await store.close();
  const bad = {
    'vars/_status/connected': true,
    'vars/zzz': 1,
    'vars/cue': true,
    'vars/a': 'many',
    'core/logic/3': true,
    'core/function/both': true,
    'scratch/a': 5,
    'clock/timer/1/start': 1000,
  };
  const good = { 'vars/title': 'News', 'core/logic/2': true, 'page/Title': 'Hello', 'vars/a': '42' };
  await writeFile(join(dir, 'mixed.json'), JSON.stringify({ values: { ...good, ...bad } }));
  const mixed = patchbay('state', flow, 'import', join(dir, 'mixed.json'));
  t.is(mixed.status, 2, mixed.stderr);
  t.regex(mixed.stderr, /8 bad entries, nothing imported:/);
  for (const reason of [
    /values\["vars\/_status\/connected"\]: "_status\/connected" is one of the hub's own parameters, which are not kept/,
    /values\["vars\/zzz"\]: connection "vars" has no parameter "zzz"/,
    /values\["vars\/cue"\]: connection "vars" does not keep "cue"/,
    /values\["vars\/a"\]: cannot convert "many" to integer/,
    /values\["core\/logic\/3"\]: connection "core" has no parameter "logic\/3"/,
    /values\["core\/function\/both"\]: connection "core" does not keep "function\/both"/,
    /values\["scratch\/a"\]: connection "scratch" keeps no values \(persist: false\)/,
    /values\["clock\/timer\/1\/start"\]: a timer connection keeps no parameter values/,
  ])
    t.regex(mixed.stderr, reason);
  t.is(patchbay('state', flow, 'list').stdout, 'vars/a\t1\n', 'nothing was stored');

  await writeFile(join(dir, 'good.json'), JSON.stringify({ values: good }));
  const imported = patchbay('state', flow, 'import', join(dir, 'good.json'));
  t.is(imported.status, 0, imported.stderr);
  t.is(
    patchbay('state', flow, 'list').stdout,
    'core/logic/2\ttrue\npage/Title\tHello\nvars/a\t42\nvars/title\tNews\n',
    'converted to their types',
  );

  const ghosts = Object.fromEntries(Array.from({ length: 300_000 }, (_, i) => [`vars/ghost${i}`, i]));
  await writeFile(join(dir, 'ghosts.json'), JSON.stringify({ values: ghosts }));
  const haunted = patchbay('state', flow, 'import', join(dir, 'ghosts.json'));
  t.is(haunted.status, 2);
  t.regex(
    haunted.stderr,
    /300000 bad entries, nothing imported:\n {2}values\["vars\/ghost0"\]: connection "vars" has no parameter "ghost0"/,
  );
  t.regex(haunted.stderr, /\n {2}… and 299950 more\n$/, 'the first 50 named, then how many more');
  t.is(patchbay('state', flow, 'list').stdout.split('\n').length, 5, 'no ghost was stored');
});
