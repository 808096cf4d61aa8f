import test, { type ExecutionContext } from 'ava';
import { validateFlow } from '../../lib/config/flow-file.ts';
import { formatIssue } from '../../lib/core/issue.ts';
import type { RuleProblem } from '../../lib/rules/engine.ts';
import { Hub } from '../../lib/hub.ts';
import { flowOf, param, record } from '../helpers/hub.ts';
import { VirtualClock } from '../helpers/virtual-time.ts';

const studio = {
  type: 'dummy',
  parameters: ['level,F', 'count,I', 'title,S', 'onair,B,false', 'cue,T', 'a,I,0', 'b,I,0', 'log,S', 'text,S'],
};

/** Starts a hub on `document`, collecting rule problems from the very start (R-R4 reports them then). */
async function problemsHub(t: ExecutionContext, document: object, options: { loopLimit?: number; clock?: VirtualClock } = {}) {
  const hub = new Hub({
    flow: flowOf(document),
    ...(options.clock ? { scheduler: options.clock.scheduler } : {}),
    ...(options.loopLimit ? { loopLimit: options.loopLimit } : {}),
  });
  const problems: RuleProblem[] = [];
  hub.ruleProblems$.subscribe((p) => problems.push(p));
  t.teardown(() => hub.stop());
  await hub.start();
  return { hub, problems };
}

const ruleHub = (t: ExecutionContext, rules: unknown[], options: { loopLimit?: number; clock?: VirtualClock } = {}) =>
  problemsHub(t, { connections: { studio, clock: { type: 'timer', timers: [{}], pulses: [{ interval: 1000 }] } }, rules }, options);

test('each change of the source is converted and written to every destination', async (t) => {
  const { hub, problems } = await ruleHub(t, [{ source: 'studio/level', destinations: ['studio/count', 'studio/title', 'studio/onair'] }]);
  param(hub, 'studio/level').set(2.75);
  t.deepEqual(['count', 'title', 'onair'].map((id) => param(hub, `studio/${id}`).value), [2, '2.75', true]);
  param(hub, 'studio/level').set(0);
  t.deepEqual(['count', 'title', 'onair'].map((id) => param(hub, `studio/${id}`).value), [0, '0', false]);
  t.deepEqual(problems, []);
});

test('rules run on changes only, not on the value a source has at start', async (t) => {
  const { hub } = await ruleHub(t, [{ source: 'studio/onair', destinations: ['studio/title'] }]);
  t.is(param(hub, 'studio/title').value, undefined);
  param(hub, 'studio/onair').set(true);
  t.is(param(hub, 'studio/title').value, 'true');
});

test('a trigger source fires its destinations', async (t) => {
  const { hub } = await ruleHub(t, [{ source: 'studio/cue', destinations: ['studio/count', 'clock/timer/1/start'] }]);
  const fired = record(t, param(hub, 'studio/count'));
  param(hub, 'studio/cue').set(null);
  t.deepEqual(fired, [[0, 1]]);
  t.is(param(hub, 'clock/timer/1/start').value, 1000, 'the timer started with its configured duration');
});

test('for one change rules run top to bottom, depth first into folders; disabled ones do not run', async (t) => {
  const { hub } = await ruleHub(t, [
    { folder: 'first', rules: [{ source: 'studio/cue', destinations: ['studio/log'], pipe: [{ set: '1' }] }, { folder: 'deeper', rules: [{ source: 'studio/cue', destinations: ['studio/log'], pipe: [{ set: '2' }] }] }] },
    { source: 'studio/cue', destinations: ['studio/log'], pipe: [{ set: '3' }] },
    { folder: 'off', enabled: false, rules: [{ source: 'studio/cue', destinations: ['studio/log'], pipe: [{ set: 'disabled folder' }] }] },
    { source: 'studio/cue', destinations: ['studio/log'], enabled: false, pipe: [{ set: 'disabled rule' }] },
    { source: 'studio/cue', destinations: ['studio/log'], pipe: [{ set: '4' }] },
  ]);
  const log = record(t, param(hub, 'studio/log'));
  param(hub, 'studio/cue').set(null);
  t.deepEqual(log.map(([, v]) => v), ['1', '2', '3', '4']);
});

test('two rules on one source run in order, each with its own pipe', async (t) => {
  const { hub } = await ruleHub(t, [
    { source: 'studio/level', destinations: ['studio/text'], pipe: [{ format: 'first $VALUE' }] },
    { source: 'studio/level', destinations: ['studio/text'], pipe: [{ filter: { gt: 0.5 } }, { format: 'second $VALUE' }] },
  ]);
  const text = record(t, param(hub, 'studio/text'));
  param(hub, 'studio/level').set(0.25);
  param(hub, 'studio/level').set(0.75);
  t.deepEqual(text.map(([, v]) => v), ['first 0.25', 'first 0.75', 'second 0.75']);
});

test('a missing, unreadable or unwritable address is an error naming the rule; the other rules run', async (t) => {
  const { hub, problems } = await ruleHub(t, [
    { source: 'studio/nope', destinations: ['studio/log'], description: 'typo' },
    { source: 'nowhere/x', destinations: ['studio/log'] },
    { source: 'clock/timer/1/start', destinations: ['studio/log'] },
    { source: 'studio/level', destinations: ['clock/pulse/1'] },
    { folder: 'f', rules: [{ source: 'studio/level', destinations: ['studio/count', 'studio/missing'] }] },
    { source: 'studio/level', destinations: ['studio/count'] },
  ]);
  t.deepEqual(problems, [
    { rule: 'rules[0] "typo"', code: 'PB_UNKNOWN_PARAMETER', message: 'source studio/nope: connection "studio" has no parameter "nope"' },
    { rule: 'rules[1]', code: 'PB_UNKNOWN_CONNECTION', message: 'source nowhere/x: there is no connection "nowhere"' },
    { rule: 'rules[2]', code: 'PB_WRITE_ONLY', message: 'source clock/timer/1/start is write-only, so it cannot be read' },
    { rule: 'rules[3]', code: 'PB_READ_ONLY', message: 'destination clock/pulse/1 is read-only' },
    { rule: 'rules[4].rules[0]', code: 'PB_UNKNOWN_PARAMETER', message: 'destination studio/missing: connection "studio" has no parameter "missing"' },
  ]);
  param(hub, 'studio/level').set(4.2);
  t.is(param(hub, 'studio/count').value, 4);
});

test('rules that touch a disabled connection are idle, not errors', async (t) => {
  const { problems } = await problemsHub(t, {
    connections: { studio, off: { type: 'dummy', enabled: false, parameters: 'x,I' } },
    rules: [
      { source: 'off/x', destinations: ['studio/count'] },
      { source: 'studio/level', destinations: ['off/x'] },
    ],
  });
  t.deepEqual(problems, []);
});

test('a value a destination cannot take is reported with the rule; the destination keeps its value', async (t) => {
  const { hub, problems } = await ruleHub(t, [{ source: 'studio/title', destinations: ['studio/count'] }]);
  param(hub, 'studio/count').set(7);
  param(hub, 'studio/title').set('seven');
  t.is(param(hub, 'studio/count').value, 7);
  t.deepEqual(problems, [{ rule: 'rules[0]', code: 'PB_CONVERSION', message: 'studio/count: cannot convert "seven" to integer: not a decimal number' }]);
});

test('a feedback loop is cut after a bounded number of rounds, reported with its chain, and the hub serves on', async (t) => {
  const { hub, problems } = await ruleHub(
    t,
    [
      // Each rule adds one, so the values never settle: a = 1, b = 2, a = 3, …
      { source: 'studio/a', destinations: ['studio/b'], pipe: [{ scale: [0, 100000, 1, 100001] }] },
      { source: 'studio/b', destinations: ['studio/a'], pipe: [{ scale: [0, 100000, 1, 100001] }] },
    ],
    { loopLimit: 50 },
  );
  param(hub, 'studio/a').set(1);
  t.is(problems.length, 1);
  t.is(problems[0]?.rule, 'rules[0]');
  t.is(problems[0]?.message, 'feedback loop cut: rules wrote studio/b 50 times in one turn; chain studio/b → studio/a → studio/b');
  await new Promise((resolve) => setImmediate(resolve));
  param(hub, 'studio/count').set(3);
  t.is(param(hub, 'studio/count').value, 3, 'the hub still takes writes');
});

test('a loop through another connection is cut too', async (t) => {
  const { hub, problems } = await problemsHub(
    t,
    {
      connections: {
        studio,
        core: { type: 'virtual-core', logics: 1, functions: [{ id: 'inverted', op: 'not', inputs: ['core/logic/1'] }] },
      },
      rules: [{ source: 'core/function/inverted', destinations: ['core/logic/1'] }],
    },
    { loopLimit: 20 },
  );
  param(hub, 'core/logic/1').set(true);
  t.is(problems.length, 1);
  t.regex(problems[0]?.message ?? '', /^feedback loop cut: rules wrote core\/logic\/1 20 times in one turn; chain … → core\/function\/inverted → core\/logic\/1$/);
});

test('timed steps run on the hub scheduler', async (t) => {
  const clock = new VirtualClock();
  const { hub } = await ruleHub(t, [{ source: 'studio/level', destinations: ['studio/text'], pipe: [{ throttle: 100 }, { round: 1 }] }], { clock });
  const text = record(t, param(hub, 'studio/text'), () => clock.now);
  for (let i = 1; i <= 10; i++) {
    param(hub, 'studio/level').set(i / 3);
    clock.advanceBy(20);
  }
  clock.advanceBy(500);
  t.deepEqual(text, [
    [0, '0.3'],
    [100, '1.7'],
    [200, '3.3'],
  ]);
});

test('steps are checked in the flow file with their paths', (t) => {
  const result = validateFlow(
    {
      rules: [
        { source: 'a/b', destinations: ['c/d'], pipe: [{ frobnicate: 1 }, { filter: { gt: 'x' } }, { scale: [0, 1, 2] }, { edge: 'up' }, { round: -1 }, { map: {} }] },
        { folder: 'f', rules: [{ source: 'a/b', destinations: ['c/d'], pipe: [{ filter: { matches: '(' } }, { scale: [5, 5, 0, 1] }] }] },
      ],
    },
    '/virtual/flow.json5',
  );
  t.false(result.ok);
  if (result.ok) return;
  t.deepEqual(result.issues.map(formatIssue), [
    'rules[0].pipe[0].frobnicate: unknown key; expected one of filter, map, set, not, scale, round, format, debounce, throttle, delay, edge, toggle',
    'rules[0].pipe[1].filter.gt: expected a number',
    'rules[0].pipe[2].scale: expected four numbers [inMin, inMax, outMin, outMax]',
    'rules[0].pipe[3].edge: expected one of "rising", "falling"',
    'rules[0].pipe[4].round: expected an integer from 0 to 15',
    'rules[0].pipe[5].map: expected a table { "<from>": <to>, … }',
  ]);
  const semantic = validateFlow(
    { rules: [{ folder: 'f', rules: [{ source: 'a/b', destinations: ['c/d'], pipe: [{ filter: { matches: '(' } }, { scale: [5, 5, 0, 1] }] }] }] },
    '/virtual/flow.json5',
  );
  t.false(semantic.ok);
  if (!semantic.ok) {
    t.deepEqual(semantic.issues.map(formatIssue), [
      'rules[0].rules[0].pipe[0].filter: not a regular expression: Invalid regular expression: /(/: Unterminated group',
      'rules[0].rules[0].pipe[1].scale: inMin and inMax must differ',
    ]);
  }
});
