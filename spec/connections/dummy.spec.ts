import test from 'ava';
import { validateFlow } from '../../lib/config/flow-file.ts';
import { formatIssue } from '../../lib/core/issue.ts';
import { flowOf, param, startHub } from '../helpers/hub.ts';

const dummyFlow = (parameters: unknown) => ({ connections: { vars: { type: 'dummy', parameters } } });

test('lines give id, type and default; whitespace trimmed, type case-insensitive, S by default', async (t) => {
  const hub = await startHub(
    t,
    dummyFlow(['  title  ', 'count , i , 42', 'level,F,0.5', 'on,b,yes', 'go,T', 'note,s,  a, b, and c  ', 'empty,S,']),
  );
  const view = (address: string) => {
    const p = param(hub, `vars/${address}`);
    return [p.type, p.access, p.value];
  };
  t.deepEqual(view('title'), ['S', 'read-write', undefined]);
  t.deepEqual(view('count'), ['I', 'read-write', 42]);
  t.deepEqual(view('level'), ['F', 'read-write', 0.5]);
  t.deepEqual(view('on'), ['B', 'read-write', true]);
  t.deepEqual(view('go'), ['T', 'read-write', undefined]);
  t.deepEqual(view('note'), ['S', 'read-write', 'a, b, and c'], 'everything after the second comma is the default');
  t.deepEqual(view('empty'), ['S', 'read-write', ''], 'a trailing comma gives an empty default');
});

test('the multi-line string form skips blank lines and comments', async (t) => {
  const hub = await startHub(t, dummyFlow('# header\n\na,I,1\r\n   # indented comment\nb/c,B\n'));
  t.deepEqual(
    hub.graph.byPrefix('vars/').map((p) => p.address),
    ['vars/a', 'vars/b/c'],
  );
});

test('every parameter is writable with its type and notifies on change', async (t) => {
  const hub = await startHub(t, dummyFlow(['n,I']));
  const n = param(hub, 'vars/n');
  const seen: unknown[] = [];
  n.changes$.subscribe((v) => seen.push(v));
  t.true(n.set('3.7').ok);
  t.true(n.set(3).ok);
  t.false(n.set('x').ok);
  t.deepEqual(seen, [3]);
});

test('among 100,000 lines, each repeat of an earlier id is reported at its own line, in line order', (t) => {
  const lines = Array.from({ length: 100_000 }, (_, i) => `bank/${i % 100}/p${i},I,${i}`);
  lines.push('bank/7/p7,S', 'bank/99999/p99999', 'bank/7/p7,F,1.5');
  const result = validateFlow({ connections: { vars: { type: 'dummy', parameters: lines } } }, '/virtual/flow.json5');
  t.false(result.ok);
  if (result.ok) return;
  t.deepEqual(result.issues.map(formatIssue), [
    'connections.vars.parameters[100000]: line 100001: "bank/7/p7" is defined twice (first on an earlier line)',
    'connections.vars.parameters[100002]: line 100003: "bank/7/p7" is defined twice (first on an earlier line)',
  ]);
});

test('bad lines are configuration errors naming the connection and the line', (t) => {
  const result = validateFlow(dummyFlow('ok,I,1\nbad id\nx,Q\ny,I,ten\nok,S\nz,T,1\n_secret\n'), '/virtual/flow.json5');
  t.false(result.ok);
  if (result.ok) return;
  t.deepEqual(result.issues.map(formatIssue), [
    'connections.vars.parameters: line 2: "bad id" is not a parameter id: use segments of 1–128 characters A-Z a-z 0-9 _ - . joined by /, none of them . or .. alone',
    'connections.vars.parameters: line 3: unknown type "Q": expected one of S, B, I, F, T',
    'connections.vars.parameters: line 4: default value of "y": cannot convert "ten" to integer: not a decimal number',
    'connections.vars.parameters: line 5: "ok" is defined twice (first on an earlier line)',
    'connections.vars.parameters: line 6: "z" is a trigger, which has no state and so no default value',
    'connections.vars.parameters: line 7: "_secret" begins with "_", which is reserved for the hub',
  ]);
});

test('in the array form a bad line is named by its index too', (t) => {
  const result = validateFlow(dummyFlow(['a', '', 'b,X']), '/virtual/flow.json5');
  t.false(result.ok);
  if (!result.ok)
    t.deepEqual(result.issues.map(formatIssue), [
      'connections.vars.parameters[2]: line 3: unknown type "X": expected one of S, B, I, F, T',
    ]);
});

test('100,000 parameters start; each is found at its address with its default, and they list in line order', async (t) => {
  const lines = Array.from({ length: 100_000 }, (_, i) => `bank/${Math.floor(i / 1000)}/p${i},I,${i}`);
  const hub = await startHub(t, dummyFlow(lines));
  t.is(hub.graph.size, 100_000);
  // Far down the list first: parameters are found however few were looked at before.
  t.is(param(hub, 'vars/bank/99/p99999').value, 99_999);
  let wrong = 0;
  for (let i = 0; i < 100_000; i++) if (hub.graph.get(`vars/bank/${Math.floor(i / 1000)}/p${i}`)?.value !== i) wrong++;
  t.is(wrong, 0, 'every id found, hash collisions among 100,000 included');
  t.is(hub.graph.get('vars/bank/99/p100000'), undefined);
  t.is(hub.graph.get('vars/bank/0/p1000'), undefined, 'an id under another bank is not there');
  const listed = hub.graph.byPrefix('vars/');
  t.is(listed.length, 100_000);
  t.true(
    listed.every((p, i) => p.id === `bank/${Math.floor(i / 1000)}/p${i}`),
    'in line order',
  );
});

test('describe gives parameters a label, a unit, a range and choices (R-PK6): writes outside are refused; a reload that describes one anew keeps its value', async (t) => {
  const flow = (label: string) => ({
    connections: {
      vars: {
        type: 'dummy',
        parameters: ['fader/{1..2},F,-10', 'source,I,1', 'plain,S'],
        describe: {
          'fader/{1..2}': { label, unit: 'dB', minimum: -90, maximum: 10, step: 0.5 },
          source: {
            label: 'Source',
            choices: [
              { value: '1', label: 'Camera 1' },
              { value: 2, label: 'Camera 2' },
            ],
          },
        },
      },
    },
  });
  const hub = await startHub(t, flow('Fader'));
  t.deepEqual(param(hub, 'vars/fader/2').meta, { label: 'Fader', unit: 'dB', minimum: -90, maximum: 10, step: 0.5 });
  t.deepEqual(param(hub, 'vars/source').meta?.choices, [
    { value: 1, label: 'Camera 1' },
    { value: 2, label: 'Camera 2' },
  ]);
  t.is(param(hub, 'vars/plain').meta, undefined);
  t.false(param(hub, 'vars/fader/1').set(20).ok, 'over its maximum');
  t.false(param(hub, 'vars/source').set(3).ok, 'not one of its choices');
  t.true(param(hub, 'vars/fader/1').set(-3).ok);
  await hub.reload(flowOf(flow('Mic')));
  t.is(param(hub, 'vars/fader/1').meta?.label, 'Mic');
  t.is(param(hub, 'vars/fader/1').value, -3, 'described anew, it keeps its value');
});

test('describe naming a parameter the lines do not declare, or a choice not of its type, is a mistake at its path', (t) => {
  const result = validateFlow(
    {
      connections: {
        vars: {
          type: 'dummy',
          parameters: ['level,I,0'],
          describe: { levle: { label: 'Level' }, level: { choices: [{ value: 'loud', label: 'Loud' }] } },
        },
      },
    },
    '/virtual/flow.json5',
  );
  t.false(result.ok);
  if (result.ok) return;
  t.deepEqual(result.issues.map(formatIssue), [
    'connections.vars.describe.levle: there is no parameter "levle" in parameters',
    'connections.vars.describe.level: its choice Loud: cannot convert "loud" to integer: not a decimal number',
  ]);
});
