import test from 'ava';
import { validateFlow } from '../../../lib/config/flow-file.ts';
import { formatIssue } from '../../../lib/core/issue.ts';
import { VirtualClock } from '../../helpers/virtual-time.ts';
import { flowOf, param, record, startHub } from '../../helpers/hub.ts';
import { Hub } from '../../../lib/hub/hub.ts';

const issuesOf = (core: object) => {
  const result = validateFlow({ connections: { core: { type: 'virtual-core', ...core } } }, '/virtual/flow.json5');
  return result.ok ? [] : result.issues.map(formatIssue);
};

test('logics are a bank of read-write booleans starting false (64 by default)', async (t) => {
  const hub = await startHub(t, { connections: { core: { type: 'virtual-core' }, small: { type: 'virtual-core', logics: 3 } } });
  t.is(hub.graph.byPrefix('core/logic/').length, 64);
  t.deepEqual(
    hub.graph.byPrefix('small/').map((p) => [p.id, p.type, p.access, p.value]),
    [
      ['logic/1', 'B', 'read-write', false],
      ['logic/2', 'B', 'read-write', false],
      ['logic/3', 'B', 'read-write', false],
    ],
  );
  t.true(param(hub, 'small/logic/2').set('on').ok);
  t.is(param(hub, 'small/logic/2').value, true);
});

test('functions combine any parameters of the hub and update as soon as an input changes', async (t) => {
  const hub = await startHub(t, {
    connections: {
      core: {
        type: 'virtual-core',
        logics: 2,
        functions: [
          { id: 'any-mic', op: 'or', inputs: ['studio/mic/1', 'studio/mic/2'] },
          { id: 'onair', op: 'and', inputs: ['core/function/any-mic', 'core/logic/1'] },
          { id: 'quiet', op: 'not', inputs: ['core/function/onair'] },
          { id: 'fader', op: 'and', inputs: ['studio/level'] },
          { id: 'missing', op: 'or', inputs: ['nowhere/x', 'core/logic/2'] },
        ],
      },
      // Defined after the core: inputs are followed whenever they appear.
      studio: { type: 'dummy', parameters: ['mic/1,B,false', 'mic/2,S', 'level,F,0'] },
    },
  });
  const value = (id: string) => param(hub, `core/function/${id}`).value;
  t.is(param(hub, 'core/function/onair').access, 'read-only');
  t.deepEqual(['any-mic', 'onair', 'quiet', 'fader', 'missing'].map(value), [false, false, true, false, false]);
  param(hub, 'core/logic/1').set(true);
  param(hub, 'studio/mic/2').set('yes'); // a string input, converted to boolean
  t.deepEqual(['any-mic', 'onair', 'quiet'].map(value), [true, true, false], 'a function feeds another at once');
  param(hub, 'studio/mic/2').set('garbage');
  t.is(value('any-mic'), false, 'an unconvertible input counts as false');
  param(hub, 'studio/level').set(0.4);
  t.is(value('fader'), true, 'a non-zero number is true');
  param(hub, 'core/logic/2').set(true);
  t.is(value('missing'), true, 'a missing input counts as false');
});

test('timed functions run on the injected scheduler', async (t) => {
  const clock = new VirtualClock();
  const hub = await startHub(
    t,
    {
      connections: {
        core: {
          type: 'virtual-core',
          logics: 1,
          functions: [
            { id: 'on', op: 'delay-on', inputs: ['core/logic/1'], ms: 500 },
            { id: 'off', op: 'delay-off', inputs: ['core/logic/1'], ms: 300 },
            { id: 'blip', op: 'pulse', inputs: ['core/logic/1'], ms: 100 },
            { id: 'toggle', op: 'flipflop', inputs: ['keys/go'] },
            { id: 'held', op: 'latch', inputs: ['keys/set', 'keys/reset'] },
          ],
        },
        keys: { type: 'dummy', parameters: ['go,T', 'set,T', 'reset,B,false'] },
      },
    },
    { scheduler: clock.scheduler },
  );
  const seen = Object.fromEntries(['on', 'off', 'blip'].map((id) => [id, record(t, param(hub, `core/function/${id}`), () => clock.now)]));
  const logic = param(hub, 'core/logic/1');
  clock.advanceBy(1000);
  logic.set(true);
  clock.advanceBy(1000);
  logic.set(false);
  clock.advanceBy(1000);
  t.deepEqual(seen['on'], [
    [1500, true],
    [2000, false],
  ]);
  t.deepEqual(seen['off'], [
    [1000, true],
    [2300, false],
  ]);
  t.deepEqual(seen['blip'], [
    [1000, true],
    [1100, false],
  ]);

  param(hub, 'keys/go').set(null);
  t.is(param(hub, 'core/function/toggle').value, true, 'a trigger is a momentary input');
  param(hub, 'keys/go').set(null);
  t.is(param(hub, 'core/function/toggle').value, false);
  param(hub, 'keys/set').set(null);
  t.is(param(hub, 'core/function/held').value, true);
  param(hub, 'keys/reset').set(true);
  t.is(param(hub, 'core/function/held').value, false);
});

test('a cycle among functions is a configuration error naming the cycle', (t) => {
  t.deepEqual(
    issuesOf({
      functions: [
        { id: 'a', op: 'and', inputs: ['core/function/b', 'core/logic/1'] },
        { id: 'b', op: 'or', inputs: ['core/function/c'] },
        { id: 'c', op: 'not', inputs: ['core/function/a'] },
        { id: 'self', op: 'or', inputs: ['core/function/self'] },
        { id: 'ok', op: 'not', inputs: ['core/function/a'] },
      ],
    }),
    [
      'connections.core.functions[0].inputs: cycle among functions: core/function/a → core/function/b → core/function/c → core/function/a',
      'connections.core.functions[3].inputs: cycle among functions: core/function/self → core/function/self',
    ],
  );
});

test('input counts, times and ids are checked with their paths', (t) => {
  t.deepEqual(
    issuesOf({
      logics: 5000,
      functions: [
        { id: 'n', op: 'not', inputs: ['a/b', 'c/d'] },
        { id: 'l', op: 'latch', inputs: ['a/b'] },
        { id: 'd', op: 'delay-on', inputs: ['a/b'] },
        { id: 'x', op: 'and', inputs: ['a/b'], ms: 5 },
        { id: 'x', op: 'or', inputs: ['a/b'] },
        { id: 'bad id', op: 'maybe', inputs: [] },
      ],
    }),
    [
      'connections.core.logics: expected an integer from 0 to 4096',
      'connections.core.functions[5].id: expected an id of 1–128 characters A-Z a-z 0-9 _ - .',
      'connections.core.functions[5].op: expected one of "and", "or", "xor", "nand", "nor", "not", "flipflop", "latch", "delay-on", "delay-off", "pulse"',
      'connections.core.functions[5].inputs: expected a list of at least 1 entry, each a non-empty string',
      'connections.core.functions[0].inputs: not takes exactly 1 input',
      'connections.core.functions[1].inputs: latch takes exactly 2 inputs (set, reset)',
      'connections.core.functions[2].ms: missing; delay-on needs a time in ms',
      'connections.core.functions[3].ms: and takes no time; ms is for delay-on, delay-off, pulse',
      'connections.core.functions[4].id: "x" is defined twice',
    ],
    'the schema mistakes and the checks of the functions the schema accepted, in one pass',
  );
  t.deepEqual(
    issuesOf({
      functions: [
        { id: 'n', op: 'not', inputs: ['a/b', 'c/d'] },
        { id: 'l', op: 'latch', inputs: ['a/b'] },
        { id: 'd', op: 'delay-on', inputs: ['a/b'] },
        { id: 'x', op: 'and', inputs: ['a/b'], ms: 5 },
        { id: 'x', op: 'or', inputs: ['a/b'] },
      ],
    }),
    [
      'connections.core.functions[0].inputs: not takes exactly 1 input',
      'connections.core.functions[1].inputs: latch takes exactly 2 inputs (set, reset)',
      'connections.core.functions[2].ms: missing; delay-on needs a time in ms',
      'connections.core.functions[3].ms: and takes no time; ms is for delay-on, delay-off, pulse',
      'connections.core.functions[4].id: "x" is defined twice',
    ],
  );
});

test('two cores whose functions feed each other in a cycle are a flow-file mistake with its path (R-V3)', (t) => {
  const result = validateFlow(
    {
      connections: {
        a: { type: 'virtual-core', logics: 1, functions: [{ id: 'x', op: 'xor', inputs: ['b/function/y', 'a/logic/1'] }] },
        b: { type: 'virtual-core', logics: 0, functions: [{ id: 'y', op: 'or', inputs: ['c/function/z'] }] },
        c: { type: 'virtual-core', logics: 0, functions: [{ id: 'z', op: 'not', inputs: ['a/function/x'] }] },
      },
    },
    '/virtual/flow.json5',
  );
  t.deepEqual(result.ok ? [] : result.issues.map(formatIssue), [
    'connections.a.functions[0].inputs: cycle among functions: a/function/x → b/function/y → c/function/z → a/function/x',
  ]);
});

test('a cycle of functions that never settles is cut and reported; the hub runs on', async (t) => {
  // Each core alone is valid: the hub is built as it would be from a cycle the file
  // cannot show (through a code flow, or another hub).
  const a = flowOf({
    connections: { a: { type: 'virtual-core', logics: 1, functions: [{ id: 'x', op: 'xor', inputs: ['b/function/y', 'a/logic/1'] }] } },
  });
  const b = flowOf({
    connections: { b: { type: 'virtual-core', logics: 1, functions: [{ id: 'y', op: 'or', inputs: ['a/function/x'] }] } },
  });
  const hub = new Hub({ flow: { ...a, connections: [...a.connections, ...b.connections] } });
  t.teardown(() => hub.stop());
  await hub.start();
  t.true(param(hub, 'a/logic/1').set(true).ok, 'x = y xor true, y = x: the change chases itself');
  const statuses = hub.connections.map((c) => c.status);
  t.true(
    statuses.some(
      (s) =>
        s.status === 'degraded' && s.code === 'PB_FEEDBACK_LOOP' && /^feedback loop cut: function\/[xy] changed 256 times/.test(s.reason),
    ),
    JSON.stringify(statuses),
  );
  t.true(hub.problems().some((p) => p.code === 'PB_FEEDBACK_LOOP'));
  t.true(param(hub, 'a/logic/1').set(false).ok, 'the hub still answers');
});
