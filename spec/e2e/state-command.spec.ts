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
