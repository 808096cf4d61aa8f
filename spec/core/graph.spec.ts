import test from 'ava';
import { Graph, type ParameterTable } from '../../lib/core/graph.ts';
import type { ParameterSpec } from '../../lib/core/parameter.ts';
import { TextIndex } from '../../lib/core/text-index.ts';

const rw = { type: 'S', access: 'read-write' } as const;

test('parameters are found by address and prefix', (t) => {
  const graph = new Graph();
  for (const id of ['mic/1/open', 'mic/2/open', 'onair']) graph.define('studio', id, rw);
  graph.define('clock', 'pulse/1', { type: 'T', access: 'read-only' });
  t.is(graph.get('studio/onair')?.id, 'onair');
  t.is(graph.get('studio/nope'), undefined);
  t.deepEqual(
    graph.byPrefix('studio/mic/').map((p) => p.address),
    ['studio/mic/1/open', 'studio/mic/2/open'],
  );
  t.is(graph.size, 4);
});

test('an address is defined once; bad and reserved ids are refused', (t) => {
  const graph = new Graph();
  t.true(graph.define('c', 'x', rw).ok);
  const twice = graph.define('c', 'x', rw);
  t.false(twice.ok);
  if (!twice.ok) t.is(twice.error.code, 'PB_DUPLICATE_PARAMETER');
  const bad = graph.define('c', 'a b', rw);
  if (!bad.ok) t.is(bad.error.code, 'PB_BAD_ADDRESS');
  const reserved = graph.define('c', '_mine', rw);
  if (!reserved.ok) t.is(reserved.error.code, 'PB_RESERVED_ID');
  t.true(graph.define('c', '_status/connected', rw, { reserved: true }).ok);
  t.is(graph.size, 2);
});

test('added and removed events follow every definition and removal', (t) => {
  const graph = new Graph();
  const events: string[] = [];
  graph.added$.subscribe((p) => events.push(`+${p.address}`));
  graph.removed$.subscribe((p) => events.push(`-${p.address}`));
  graph.define('a', 'x', rw);
  graph.define('a', '_status/connected', rw, { reserved: true });
  graph.define('b', 'y', rw);
  t.true(graph.remove('b/y'));
  t.false(graph.remove('b/y'));
  graph.removeParameters('a', (id) => id.startsWith('_'));
  t.deepEqual(events, ['+a/x', '+a/_status/connected', '+b/y', '-b/y', '-a/x']);
  t.deepEqual(
    graph.all().map((p) => p.address),
    ['a/_status/connected'],
  );
});

test('a lookup says whether the connection or the parameter is unknown', (t) => {
  const graph = new Graph();
  graph.registerConnection('api');
  graph.define('studio', 'onair', rw);
  graph.registerConnection('studio');
  const codeOf = (address: string) => {
    const r = graph.lookup(address);
    return r.ok ? 'found' : r.error.code;
  };
  t.is(codeOf('studio/onair'), 'found');
  t.is(codeOf('studio/offair'), 'PB_UNKNOWN_PARAMETER');
  t.is(codeOf('api/x'), 'PB_UNKNOWN_PARAMETER');
  t.is(codeOf('nope/x'), 'PB_UNKNOWN_CONNECTION');
  t.is(codeOf('not an address'), 'PB_BAD_ADDRESS');
});

/** A connection's parsed table, as a dummy makes it from its lines. */
const tableOf = (ids: readonly string[], spec: ParameterSpec = rw): ParameterTable => ({
  rows: ids.map((id) => ({ ...spec, id })),
  ids: new TextIndex(ids),
});

test('a table is defined as one: its parameters are found, listed in definition order and counted like the others', (t) => {
  const graph = new Graph();
  graph.registerConnection('vars');
  graph.define('a', 'x', rw);
  graph.define('vars', '_status/connected', rw, { reserved: true });
  t.true(graph.defineTable('vars', tableOf(['m/1', 'm/2', 'n'])).ok);
  graph.define('b', 'y', rw);
  t.deepEqual(
    graph.all().map((p) => p.address),
    ['a/x', 'vars/_status/connected', 'vars/m/1', 'vars/m/2', 'vars/n', 'b/y'],
  );
  t.is(graph.size, 6);
  t.deepEqual(
    [...graph.countsByConnection()],
    [
      ['a', 1],
      ['vars', 4],
      ['b', 1],
    ],
  );
  const m2 = graph.get('vars/m/2');
  t.is(m2?.id, 'm/2');
  t.is(graph.get('vars/m/2'), m2, 'made once');
  t.true(graph.write('vars/m/2', 'hello').ok);
  t.is(m2?.value, 'hello');
  t.deepEqual(
    graph.byPrefix('vars/m/').map((p) => p.address),
    ['vars/m/1', 'vars/m/2'],
  );
  t.deepEqual(
    graph.byPrefix('b/').map((p) => p.address),
    ['b/y'],
  );
  const missing = graph.lookup('vars/m/3');
  t.false(missing.ok);
  if (!missing.ok) t.is(missing.error.code, 'PB_UNKNOWN_PARAMETER');
});

test('a table takes no address twice: not its own twice, not one defined already, and not again once defined', (t) => {
  const graph = new Graph();
  graph.define('vars', 'taken', rw);
  const codeOf = (result: { ok: boolean; error?: { code: string; message: string } }) =>
    result.ok ? 'ok' : `${result.error?.code} ${result.error?.message}`;
  t.is(codeOf(graph.defineTable('vars', tableOf(['free', 'taken']))), 'PB_DUPLICATE_PARAMETER vars/taken is already defined');
  t.is(codeOf(graph.defineTable('vars', tableOf(['a', 'b', 'a']))), 'PB_DUPLICATE_PARAMETER vars/a is already defined');
  t.is(graph.size, 1);
  t.is(codeOf(graph.defineTable('vars', tableOf(['a', 'b']))), 'ok');
  t.is(codeOf(graph.define('vars', 'b', rw)), 'PB_DUPLICATE_PARAMETER vars/b is already defined');
  t.is(codeOf(graph.defineTable('vars', tableOf(['c']))), 'PB_DUPLICATE_PARAMETER vars has its table of parameters already');
  t.is(graph.size, 3);
});

test('a table parameter is removed alone, or the table with its connection: events name the parameters anyone has seen', (t) => {
  const graph = new Graph();
  const events: string[] = [];
  graph.removed$.subscribe((p) => events.push(`-${p.address}`));
  graph.tables$.subscribe((change) =>
    events.push(`${change.added ? '+' : '-'}${change.connectionId}: ${[...change.parameters()].map((p) => p.id).join(' ')}`),
  );
  graph.define('vars', '_status/connected', rw, { reserved: true });
  graph.defineTable('vars', tableOf(['a', 'b', 'c', 'd']));
  t.true(graph.remove('vars/b'));
  t.false(graph.remove('vars/b'));
  t.is(graph.get('vars/b'), undefined);
  t.true(graph.define('vars', 'b', rw).ok, 'a removed row leaves its address free');
  graph.get('vars/c');
  graph.removeParameters('vars', (id) => id.startsWith('_'));
  t.deepEqual(events, ['+vars: a b c d', '-vars/b', '-vars: a c d', '-vars/b']);
  t.deepEqual(
    graph.all().map((p) => p.address),
    ['vars/_status/connected'],
  );
  t.is(graph.size, 1);
  t.true(graph.defineTable('vars', tableOf(['a'])).ok, 'the connection may define its table again');
});

test('a table parameter is unmade until used: a removed table leaves only the parameters that were made to be told of', (t) => {
  const graph = new Graph();
  const told: string[] = [];
  graph.defineTable('vars', tableOf(['a', 'b', 'c']));
  graph.tables$.subscribe((change) => told.push(...[...change.parameters()].map((p) => p.address)));
  graph.get('vars/c');
  graph.removeParameters('vars');
  t.deepEqual(told, ['vars/c']);
  t.is(graph.size, 0);
  t.deepEqual(graph.all(), []);
});

test('watching a table parameter follows it through the removal of its table and a new one', (t) => {
  const graph = new Graph();
  const seen: unknown[] = [];
  graph.defineTable('vars', tableOf(['a'], { type: 'I', access: 'read-write', initial: 1 }));
  graph.watch('vars/a').subscribe((value) => seen.push(value));
  graph.write('vars/a', 2);
  graph.removeParameters('vars');
  graph.defineTable('vars', tableOf(['a'], { type: 'I', access: 'read-write', initial: 7 }));
  graph.defineTable('other', tableOf(['a']));
  t.deepEqual(seen, [1, 2, undefined, 7]);
});

test('iterating the graph is live across tables: rows removed meanwhile are not met, a table removed ends its part', (t) => {
  const graph = new Graph();
  graph.defineTable('vars', tableOf(['a', 'b', 'c']));
  graph.defineTable('more', tableOf(['x', 'y']));
  graph.define('z', 'last', rw);
  const met: string[] = [];
  for (const parameter of graph.values()) {
    met.push(parameter.address);
    if (parameter.address === 'vars/a') graph.remove('vars/b');
    if (parameter.address === 'more/x') graph.removeParameters('more');
  }
  t.deepEqual(met, ['vars/a', 'vars/c', 'more/x', 'z/last']);
});

test('a text index finds each of 300,000 texts at its position, hash collisions included, and nothing else', (t) => {
  const texts = Array.from({ length: 300_000 }, (_, i) => `bank/${i % 1000}/p${i}`);
  const index = new TextIndex(texts);
  let wrong = 0;
  for (let i = 0; i < texts.length; i++) if (index.indexOf(texts[i] as string) !== i) wrong++;
  t.is(wrong, 0);
  t.is(index.indexOf('bank/0/p1'), -1);
  t.is(index.indexOf(''), -1);
  t.deepEqual(index.repeats(), []);
  t.deepEqual(new TextIndex(['a', 'b', 'a', 'c', 'b', 'a']).repeats(), [2, 4, 5]);
  t.is(new TextIndex(['a', 'b', 'a']).indexOf('a'), 0, 'the first of equal texts');
});

test('a walk of readings reads a table row as the parameter it would be, and makes none', (t) => {
  const graph = new Graph();
  graph.defineTable('vars', tableOf(['a', 'b', 'go'], { type: 'I', access: 'read-write', initial: 3 }));
  graph.write('vars/b', 4);
  const read = (reading: { address: string; type: string; access: string; value: unknown }) =>
    `${reading.address} ${reading.type} ${reading.access} ${String(reading.value)}`;
  t.deepEqual([...graph.readings()].map(read), ['vars/a I read-write 3', 'vars/b I read-write 4', 'vars/go I read-write 3']);
  const [a, , go] = graph.readings();
  graph.write('vars/go', 5);
  t.is(go && graph.current(go)?.value, 5, 'a reading kept for later reads the row as it is now');
  t.is(a && graph.current(a), a, 'and a row still unmade as itself');
  const made: string[] = [];
  graph.tables$.subscribe((change) => made.push(...[...change.parameters()].map((p) => p.address)));
  graph.removeParameters('vars');
  t.deepEqual(made, ['vars/b', 'vars/go'], 'only the parameters written were made');
  t.is(a && graph.current(a), undefined, 'a reading of a removed row is gone');
  t.is(go && graph.current(go), undefined, 'and so is a removed parameter');
});

test('following an address tells what is there now and each time a parameter comes, goes or replaces it, tables included (R-G2)', (t) => {
  const graph = new Graph();
  const seen: (string | undefined)[] = [];
  const tell = (parameter: { readonly address: string; readonly type: string } | undefined) =>
    seen.push(parameter && `${parameter.address} ${parameter.type}`);
  const stop = graph.follow('vars/a/b', tell);
  const quiet: unknown[] = [];
  const other = graph.follow('vars/zzz', (parameter) => quiet.push(parameter));
  t.true(graph.define('vars', 'a/b', { type: 'F', access: 'read-write' }).ok);
  t.true(graph.define('vars', 'a/c', rw).ok);
  graph.remove('vars/a/b');
  t.true(graph.defineTable('vars', tableOf(['x', 'a/b'])).ok);
  graph.remove('vars/a/b');
  t.true(graph.define('vars', 'a/b', rw).ok);
  graph.removeParameters('vars');
  t.true(graph.defineTable('vars', tableOf(['a/b'])).ok);
  graph.removeParameters('vars');
  stop();
  t.true(graph.define('vars', 'a/b', rw).ok);
  other();
  t.deepEqual(quiet, [undefined], 'an address no one defines is told once, that nothing is there');
  t.deepEqual(seen, [undefined, 'vars/a/b F', undefined, 'vars/a/b S', undefined, 'vars/a/b S', undefined, 'vars/a/b S', undefined]);
});

test('everyParameter lists the graph, then follows it: parameters and tables that come are present, those that go are gone, until unsubscribed', (t) => {
  const graph = new Graph();
  graph.define('a', 'x', rw);
  graph.registerConnection('vars');
  const seen: string[] = [];
  const watching = graph.everyParameter(
    (parameter) => seen.push(`+${parameter.address}`),
    (parameter) => seen.push(`-${parameter.address}`),
  );
  graph.define('b', 'y', rw);
  graph.defineTable('vars', tableOf(['m']));
  graph.get('vars/m');
  graph.remove('b/y');
  graph.removeParameters('vars');
  watching.unsubscribe();
  graph.define('c', 'z', rw);
  t.deepEqual(seen, ['+a/x', '+b/y', '+vars/m', '-b/y', '-vars/m']);
});
