import { spawn } from 'node:child_process';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { open } from 'lmdb';
import { eventually } from '../helpers/eventually.ts';
import { StateStore } from '../../lib/state/store.ts';
import { stateFolder, storeWith } from '../helpers/state.ts';

test('values and records come back after the store is closed and opened again', async (t) => {
  const folder = await stateFolder();
  const first = StateStore.open(folder);
  if (!first.ok) return t.fail(first.error.message);
  first.value.setValue('vars/a', 42);
  first.value.setValue('vars/b', 'text with\ttab');
  first.value.setValue('vars/c', false);
  first.value.setRecord('clock', 'timer/1', { deadline: 5, duration: 3 });
  t.is(first.value.value('vars/a'), 42, 'read back before the commit');
  await first.value.close();
  const again = await storeWith(t, {}, folder);
  t.deepEqual(again.values(), [
    ['vars/a', 42],
    ['vars/b', 'text with\ttab'],
    ['vars/c', false],
  ]);
  t.deepEqual(again.record('clock', 'timer/1'), { deadline: 5, duration: 3 });
});

test("the journal of kept values, and a state folder the hub makes, are the hub's user's alone", async (t) => {
  const folder = join(await stateFolder(), 'made');
  const hub = StateStore.openOrWait(folder);
  t.teardown(() => hub.close());
  hub.setValue('vars/token', 'a secret a rule carried');
  await hub.settled();
  t.is((await stat(folder)).mode & 0o777, 0o700);
  const journals = (await readdir(folder)).filter((name) => name.startsWith('journal-'));
  t.true(journals.length > 0);
  for (const name of journals) t.is((await stat(join(folder, name))).mode & 0o777, 0o600, name);
});

test('a state folder whose name has a dot (studio.state, one made by mktemp -d) is a folder like any other', async (t) => {
  for (const name of ['studio.state', 'tmp.Y6qEYAJsiM']) {
    const folder = join(await stateFolder(), name);
    await mkdir(folder); // there already, as an operator or mktemp makes it
    const hub = StateStore.openOrWait(folder);
    t.deepEqual(hub.health, { ok: true }, name);
    hub.setValue('vars/a', 42);
    await hub.close();
    const again = await storeWith(t, {}, folder);
    t.deepEqual(again.values(), [['vars/a', 42]], name);
    t.deepEqual((await readdir(folder)).sort(), ['data.mdb', 'lock.mdb'], `${name}: the database is inside the folder`);
  }
});

test('a reset forgets the values and records of one connection only', async (t) => {
  const store = await storeWith(t, { 'vars/a': 1, 'vars/deep/b': 2, 'vars-2/a': 3, 'v/x': 4 });
  store.setRecord('vars', 'k', 1);
  store.setRecord('vars-2', 'k', 2);
  t.is(await store.reset('vars'), 2);
  t.deepEqual(store.values(), [
    ['v/x', 4],
    ['vars-2/a', 3],
  ]);
  t.is(store.record('vars', 'k'), undefined);
  t.is(store.record('vars-2', 'k'), 2);
});

test('two processes may hold the same state folder: the second sees what the first committed', async (t) => {
  const folder = await stateFolder();
  const writer = await storeWith(t, { 'vars/a': 1 }, folder);
  const reader = await storeWith(t, {}, folder);
  t.deepEqual(reader.values(), [['vars/a', 1]]);
  writer.setValue('vars/a', 2);
  await writer.settled();
  // The reader's snapshot is renewed once its turn is over, as another process's would be.
  await eventually(
    () => JSON.stringify(reader.values()) === JSON.stringify([['vars/a', 2]]),
    () => `the reader to see 2 (it sees ${JSON.stringify(reader.values())})`,
    5000,
  );
  t.deepEqual(reader.values(), [['vars/a', 2]]);
});

test('a hub journals its writes and the state command writes keys: both end in commit order, and a reset by the command stays', async (t) => {
  const folder = await stateFolder();
  // A running hub's store (it journals) beside the state command's (it writes keys).
  const hub = StateStore.openOrWait(folder);
  t.teardown(() => hub.close());
  for (const address of ['vars/a', 'vars/b', 'other/c']) hub.setValue(address, 1);
  await hub.settled();
  const command = await storeWith(t, {}, folder);
  t.deepEqual(
    command.values(),
    [
      ['other/c', 1],
      ['vars/a', 1],
      ['vars/b', 1],
    ],
    'the command reads what the hub journalled',
  );
  hub.setValue('vars/a', 5);
  await hub.settled();
  command.setValue('vars/a', 2); // later than the hub's 5, still in its journal
  await command.settled();
  t.is(await command.reset('other'), 1);
  hub.setValue('vars/b', 3); // later than everything before
  await hub.settled();
  t.is(hub.value('vars/a'), 2, 'the hub reads what the command wrote');
  hub.setValue('vars/a', 4);
  await hub.close();
  const again = await storeWith(t, {}, folder);
  t.deepEqual(again.values(), [
    ['vars/a', 4],
    ['vars/b', 3],
  ]);
});

/**
 * A running hub's store in a process of its own, which writes `turns` turns of ten values
 * (turn * 10 + i, or that number padded to `width` characters) and then waits to be
 * killed: what `kill -9` of a hub leaves in its folder.
 */
async function killedHubStore(folder: string, turns: number, width = 0): Promise<void> {
  const store = new URL('../../lib/state/store.ts', import.meta.url).href;
  const script = `
    const { StateStore } = await import(${JSON.stringify(store)});
    const store = StateStore.openOrWait(${JSON.stringify(folder)});
    if (!store.health.ok) throw new Error(store.health.reason);
    for (let turn = 0; turn < ${turns}; turn++) {
      for (let i = 0; i < 10; i++) store.setValue('vars/p' + i, ${width} ? String(turn * 10 + i).padStart(${width}) : turn * 10 + i);
      await store.settled();
    }
    process.stdout.write('written');
    setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the hub's store exited with ${code}`)));
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

test('a hub killed before its journal was folded leaves every committed write, and no lock: the next hub journals after them', async (t) => {
  const folder = await stateFolder();
  await killedHubStore(folder, 10);
  t.regex(await readFile(join(folder, 'hub.lock'), 'utf8'), /"pid":\d+/, 'the killed hub left its lock file');
  const second = StateStore.openOrWait(folder);
  t.teardown(() => second.close());
  t.deepEqual(second.health, { ok: true }, 'a lock whose process is gone holds nothing');
  t.is(second.value('vars/p9'), 99);
  second.setValue('vars/p0', -1);
  await second.settled();
  const reader = await storeWith(t, {}, folder);
  t.deepEqual(reader.values().slice(0, 2), [
    ['vars/p0', -1],
    ['vars/p1', 91],
  ]);
});

const journalFiles = async (folder: string) => (await readdir(folder)).filter((name) => name.startsWith('journal-'));

test('a journal cut short keeps its whole records; one that fails its checksum is where reading stops; the next hub writes after them', async (t) => {
  for (const damage of ['cut', 'checksum'] as const) {
    const folder = await stateFolder();
    await killedHubStore(folder, 10);
    const [file] = await journalFiles(folder);
    if (!file) return t.fail('the killed hub left no journal');
    const bytes = await readFile(join(folder, file));
    if (damage === 'cut') {
      // What a write the disk did not finish leaves: a record that says 100 bytes and has 10.
      const cut = Buffer.alloc(18, 0x20);
      cut.writeUInt32LE(100, 0);
      await writeFile(join(folder, file), Buffer.concat([bytes, cut]));
    } else {
      bytes.writeUInt8(bytes.readUInt8(bytes.length - 3) ^ 0xff, bytes.length - 3); // inside the last record: turn 9's values
      await writeFile(join(folder, file), bytes);
    }
    const hub = StateStore.openOrWait(folder);
    t.teardown(() => hub.close());
    const expected = damage === 'cut' ? 99 : 89;
    t.is(hub.value('vars/p9'), expected, `${damage}: the records before the damage`);
    t.deepEqual(hub.health, { ok: true });
    hub.setValue('vars/p0', -1);
    await hub.settled();
    const reader = await storeWith(t, {}, folder);
    t.deepEqual(reader.values().slice(0, 2), [
      ['vars/p0', -1],
      ['vars/p1', expected - 8],
    ]);
    t.false((await journalFiles(folder)).includes(file), `${damage}: the damaged file is gone once folded`);
  }
});

test('a running hub reads what it journalled from memory and other keys from the database: reads alone fold nothing', async (t) => {
  const folder = await stateFolder();
  const hub = StateStore.openOrWait(folder);
  t.teardown(() => hub.close());
  hub.setValue('vars/a', 1);
  await hub.settled();
  const files = await journalFiles(folder);
  t.is(files.length, 1);
  t.is(hub.value('vars/a'), 1);
  t.is(hub.value('vars/b'), undefined, 'a parameter never kept');
  await new Promise((resolve) => setImmediate(resolve));
  t.is(hub.value('vars/c'), undefined);
  t.deepEqual(await journalFiles(folder), files, 'the journal is where it was: not folded for reads');
  const command = await storeWith(t, {}, folder);
  command.setValue('vars/b', 2); // its commit folds what the hub journalled, then writes b
  await command.settled();
  command.setValue('vars/a', 3);
  await command.settled();
  t.is(hub.value('vars/b'), 2, 'a key the hub did not journal comes from the database');
  t.is(hub.value('vars/a'), 3, 'a key it journalled, once another process folded the journal, too');
});

test('a hub whose journal passes a megabyte folds it and starts the next file: a kill after three files loses nothing', async (t) => {
  const folder = await stateFolder();
  await killedHubStore(folder, 3000, 40); // ten 40-character values a turn: about 1.5 MB of records
  const files = await journalFiles(folder);
  t.is(files.length, 1, 'one journal file at a time');
  t.not(files[0], 'journal-2', 'a later file than the first a hub writes');
  const hub = StateStore.openOrWait(folder);
  t.teardown(() => hub.close());
  t.deepEqual(
    hub.values().map(([, value]) => Number(value)),
    Array.from({ length: 10 }, (_, i) => 29_990 + i),
  );
});

test('journal records an earlier version kept in the database are folded before anything newer', async (t) => {
  const folder = await stateFolder();
  const db = open<string, string>({ path: folder, encoding: 'msgpack' });
  await db.put('j 0000000000000001', JSON.stringify({ p: ['vars/a', 1, 'vars/b', 'old'], r: [] }));
  await db.put('j 0000000000000002', JSON.stringify({ p: ['vars/a', 2], r: ['vars/b'] }));
  await db.close();
  const hub = StateStore.openOrWait(folder);
  t.teardown(() => hub.close());
  t.is(hub.value('vars/a'), 2);
  t.is(hub.value('vars/b'), undefined);
  hub.setValue('vars/a', 3);
  await hub.settled();
  const reader = await storeWith(t, {}, folder);
  t.deepEqual(reader.values(), [['vars/a', 3]]);
});

test('a journal that cannot be written keeps the values in memory, says why, and saves them once it can', async (t) => {
  const folder = await stateFolder();
  await mkdir(join(folder, 'journal-2')); // where the first file of a hub goes
  const hub = StateStore.openOrWait(folder);
  t.teardown(() => hub.close());
  hub.setValue('vars/a', 1);
  await hub.settled();
  t.like(hub.health, { ok: false, code: 'PB_STATE_UNAVAILABLE' });
  t.regex(hub.health.ok ? '' : hub.health.reason, /not saved: .*journal-2/);
  t.is(hub.value('vars/a'), 1, 'the value works in memory');
  await rm(join(folder, 'journal-2'), { recursive: true });
  hub.retry();
  await hub.settled();
  t.deepEqual(hub.health, { ok: true });
  const reader = await storeWith(t, {}, folder);
  t.deepEqual(reader.values(), [['vars/a', 1]]);
});

test('one state folder serves one running hub: a second fails with PB_STATE_LOCKED and the reason, and takes the folder once the first closes', async (t) => {
  const folder = await stateFolder();
  const first = StateStore.openOrWait(folder);
  t.teardown(() => first.close());
  first.setValue('vars/a', 1);
  await first.settled();
  const second = StateStore.openOrWait(folder);
  t.teardown(() => second.close());
  t.like(second.health, { ok: false, code: 'PB_STATE_LOCKED' });
  t.regex(
    second.health.ok ? '' : second.health.reason,
    new RegExp(`the state folder ${folder} is in use by another hub \\(pid ${process.pid}, since .+\\)`),
  );
  t.is(second.value('vars/a'), undefined, 'it reads nothing of the folder it does not hold');
  second.setValue('vars/a', 2);
  const command = await storeWith(t, {}, folder);
  t.deepEqual(command.values(), [['vars/a', 1]], 'the state command reads beside the hub, and the second hub wrote nothing');
  second.retry();
  t.false(second.health.ok, 'still held');
  await first.close();
  second.retry();
  await second.settled();
  t.deepEqual(second.health, { ok: true }, 'free once the first hub closed its store');
  t.is(second.value('vars/a'), 2, 'what it held in memory is saved now');
});

test('a folder that cannot be opened keeps values in memory, reports why, and saves them once it can', async (t) => {
  const parent = await stateFolder();
  const folder = join(parent, 'state');
  await writeFile(folder, 'a file stands where the folder should be');
  t.false(StateStore.open(folder).ok, 'open refuses it with the reason');
  const store = StateStore.openOrWait(folder);
  t.teardown(() => store.close());
  t.false(store.health.ok);
  t.regex(store.health.ok ? '' : store.health.reason, /kept in memory only.*cannot open the state folder/);
  store.setValue('vars/a', 7);
  t.is(store.value('vars/a'), 7, 'the value works in memory');
  store.retry();
  t.false(store.health.ok, 'still in the way');

  await rm(folder);
  store.retry();
  await store.settled();
  t.true(store.health.ok);
  const other = await storeWith(t, {}, folder);
  t.deepEqual(other.values(), [['vars/a', 7]], 'the value held in memory was saved');
});

test('with durability "power" a write is settled once synced, and answers waiting together share the commit', async (t) => {
  const folder = await stateFolder();
  const opened = StateStore.open(folder, { durability: 'power' });
  if (!opened.ok) return t.fail(opened.error.message);
  const store = opened.value;
  const told: string[] = [];
  store.setValue('vars/a', 1);
  store.whenSettled(() => told.push('first'));
  store.setValue('vars/b', 2);
  store.whenSettled(() => told.push('second'));
  t.deepEqual(told, [], 'nobody is told before the commit');
  await store.settled();
  t.deepEqual(told, ['first', 'second']);
  let now = false;
  store.whenSettled(() => (now = true));
  t.true(now, 'with nothing waiting, at once');
  await store.close();
  const again = await storeWith(t, {}, folder);
  t.deepEqual(again.values(), [
    ['vars/a', 1],
    ['vars/b', 2],
  ]);
});
