import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { validateFlow } from '../../lib/config/flow-file.ts';
import { formatIssue } from '../../lib/core/issue.ts';
import type { RuleProblem } from '../../lib/rules/engine.ts';
import { Hub } from '../../lib/hub/hub.ts';
import { flowOf, param, record } from '../helpers/hub.ts';
import { VirtualClock } from '../helpers/virtual-time.ts';

const studio = {
  type: 'dummy',
  parameters: ['level,F', 'count,I', 'title,S', 'onair,B,false', 'cue,T', 'a,I,0', 'b,I,0', 'log,S', 'text,S', 'x,B,false', 'y,B'],
};

interface HubOptions {
  readonly loopLimit?: number;
  readonly clock?: VirtualClock;
  /** Code-flow modules by file name, written to a fresh folder the flow file stands in. */
  readonly flows?: Record<string, string>;
}

/** Starts a hub on `document`, collecting rule problems from the very start (R-R4 reports them then). */
async function problemsHub(t: ExecutionContext, document: object, options: HubOptions = {}) {
  let dir: string | undefined;
  if (options.flows) {
    dir = await mkdtemp(join(tmpdir(), 'patchbay-rules-'));
    for (const [name, source] of Object.entries(options.flows)) await writeFile(join(dir, name), source);
    document = { ...document, flows: Object.keys(options.flows) };
  }
  const hub = new Hub({
    flow: flowOf(document, dir),
    ...(options.clock ? { scheduler: options.clock.scheduler } : {}),
    ...(options.loopLimit ? { loopLimit: options.loopLimit } : {}),
  });
  const problems: RuleProblem[] = [];
  hub.ruleProblems$.subscribe((p) => problems.push(p));
  t.teardown(() => hub.stop());
  await hub.start();
  return { hub, problems };
}

const ruleHub = (t: ExecutionContext, rules: unknown[], options: HubOptions = {}) =>
  problemsHub(t, { connections: { studio, clock: { type: 'timer', timers: [{}], pulses: [{ interval: 1000 }] } }, rules }, options);

test('each change of the source is converted and written to every destination', async (t) => {
  const { hub, problems } = await ruleHub(t, [{ source: 'studio/level', destinations: ['studio/count', 'studio/title', 'studio/onair'] }]);
  param(hub, 'studio/level').set(2.75);
  t.deepEqual(
    ['count', 'title', 'onair'].map((id) => param(hub, `studio/${id}`).value),
    [2, '2.75', true],
  );
  param(hub, 'studio/level').set(0);
  t.deepEqual(
    ['count', 'title', 'onair'].map((id) => param(hub, `studio/${id}`).value),
    [0, '0', false],
  );
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
    {
      folder: 'first',
      rules: [
        { source: 'studio/cue', destinations: ['studio/log'], pipe: [{ set: '1' }] },
        { folder: 'deeper', rules: [{ source: 'studio/cue', destinations: ['studio/log'], pipe: [{ set: '2' }] }] },
      ],
    },
    { source: 'studio/cue', destinations: ['studio/log'], pipe: [{ set: '3' }] },
    { folder: 'off', enabled: false, rules: [{ source: 'studio/cue', destinations: ['studio/log'], pipe: [{ set: 'disabled folder' }] }] },
    { source: 'studio/cue', destinations: ['studio/log'], enabled: false, pipe: [{ set: 'disabled rule' }] },
    { source: 'studio/cue', destinations: ['studio/log'], pipe: [{ set: '4' }] },
  ]);
  const log = record(t, param(hub, 'studio/log'));
  param(hub, 'studio/cue').set(null);
  t.deepEqual(
    log.map(([, v]) => v),
    ['1', '2', '3', '4'],
  );
});

test('two rules on one source run in order, each with its own pipe', async (t) => {
  const { hub } = await ruleHub(t, [
    { source: 'studio/level', destinations: ['studio/text'], pipe: [{ format: 'first $VALUE' }] },
    { source: 'studio/level', destinations: ['studio/text'], pipe: [{ filter: { gt: 0.5 } }, { format: 'second $VALUE' }] },
  ]);
  const text = record(t, param(hub, 'studio/text'));
  param(hub, 'studio/level').set(0.25);
  param(hub, 'studio/level').set(0.75);
  t.deepEqual(
    text.map(([, v]) => v),
    ['first 0.25', 'first 0.75', 'second 0.75'],
  );
});

test('a rule naming a missing address waits for it (R-G2), an unreadable or unwritable one is an error naming the rule; the other rules run', async (t) => {
  const { hub, problems } = await ruleHub(t, [
    { source: 'studio/nope', destinations: ['studio/log'], description: 'typo' },
    { source: 'clock/timer/1/start', destinations: ['studio/log'] },
    { source: 'studio/level', destinations: ['clock/pulse/1'] },
    { folder: 'f', rules: [{ source: 'studio/level', destinations: ['studio/count', 'studio/missing'] }] },
    { source: 'studio/level', destinations: ['studio/count'] },
  ]);
  t.deepEqual(problems, [
    {
      rule: 'rules[0] "typo"',
      code: 'PB_WAITING',
      message: 'waiting for source studio/nope: connection "studio" has no parameter "nope"',
      lasting: true,
    },
    { rule: 'rules[1]', code: 'PB_WRITE_ONLY', message: 'source clock/timer/1/start is write-only, so it cannot be read', lasting: true },
    { rule: 'rules[2]', code: 'PB_READ_ONLY', message: 'destination clock/pulse/1 is read-only', lasting: true },
    {
      rule: 'rules[3].rules[0]',
      code: 'PB_WAITING',
      message: 'waiting for destination studio/missing: connection "studio" has no parameter "missing"',
      lasting: true,
    },
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

test('a value a destination cannot take is reported with the rule and listed until a later write there is taken; the destination keeps its value (R-RS6)', async (t) => {
  const { hub, problems } = await ruleHub(t, [{ source: 'studio/title', destinations: ['studio/count'] }]);
  param(hub, 'studio/count').set(7);
  param(hub, 'studio/title').set('seven');
  t.is(param(hub, 'studio/count').value, 7);
  const refusal = {
    rule: 'rules[0]',
    code: 'PB_CONVERSION',
    message: 'studio/count: cannot convert "seven" to integer: not a decimal number',
  };
  t.deepEqual(problems, [{ ...refusal, lasting: true }]);
  t.deepEqual(
    hub.problems().filter((problem) => problem.source === 'rule'),
    [{ source: 'rule', id: 'rules[0]', code: refusal.code, message: refusal.message }],
    'listed while it stays failed, once',
  );
  param(hub, 'studio/title').set('8');
  t.is(param(hub, 'studio/count').value, 8);
  t.deepEqual(
    hub.problems().filter((problem) => problem.source === 'rule'),
    [],
    'gone once a write there is taken',
  );
});

test('1,000 writes to one source in one synchronous turn all reach the destination', async (t) => {
  const { hub, problems } = await ruleHub(t, [{ source: 'studio/a', destinations: ['studio/b'] }]);
  const b = record(t, param(hub, 'studio/b'));
  for (let i = 1; i <= 1000; i++) param(hub, 'studio/a').set(i);
  t.is(b.length, 1000);
  t.is(param(hub, 'studio/b').value, 1000);
  t.deepEqual(problems, []);
});

test('a code flow writing in a loop reaches every destination, also when a rule set it going', async (t) => {
  const burst = `
    export default (hub) => {
      const { filter, tap } = hub.rx;
      return hub.watch('studio/cue').pipe(
        filter((v) => v !== undefined),
        tap(() => { for (let i = 1; i <= 1000; i++) hub.write('studio/a', i); }),
      );
    };`;
  const { hub, problems } = await ruleHub(
    t,
    [
      { source: 'studio/onair', destinations: ['studio/cue'] },
      { source: 'studio/a', destinations: ['studio/b', 'studio/title'] },
    ],
    { flows: { 'burst.mjs': burst } },
  );
  const b = record(t, param(hub, 'studio/b'));
  const title = record(t, param(hub, 'studio/title'));
  param(hub, 'studio/onair').set(true);
  t.is(b.length, 1000);
  t.is(title.length, 1000);
  t.deepEqual([param(hub, 'studio/b').value, param(hub, 'studio/title').value], [1000, '1000']);
  t.deepEqual(problems, []);
});

test('a two-rule loop that never settles is cut after the set number of rounds, reported once with its chain, and the hub serves on', async (t) => {
  const { hub, problems } = await ruleHub(
    t,
    [
      { source: 'studio/x', destinations: ['studio/y'], pipe: [{ not: true }] },
      { source: 'studio/y', destinations: ['studio/x'] },
    ],
    { loopLimit: 50 },
  );
  const y = record(t, param(hub, 'studio/y'));
  param(hub, 'studio/x').set(true);
  t.deepEqual(problems, [
    {
      rule: 'rules[1]',
      code: 'PB_FEEDBACK_LOOP',
      message: 'feedback loop cut: a change came back to studio/x 50 times; chain studio/x → studio/y → studio/x',
    },
  ]);
  t.is(y.length, 51, 'the outside change and each of the 50 rounds reached studio/y');
  param(hub, 'studio/count').set(3);
  t.is(param(hub, 'studio/count').value, 3, 'the hub still takes writes');
  param(hub, 'studio/x').set(!param(hub, 'studio/x').value);
  t.is(problems.length, 2, 'the next change from outside goes round again and is cut again');
});

test('a loop that never settles is cut after 256 rounds by default', async (t) => {
  const { hub, problems } = await ruleHub(t, [
    { source: 'studio/a', destinations: ['studio/b'], pipe: [{ scale: [0, 100000, 1, 100001] }] },
    { source: 'studio/b', destinations: ['studio/a'], pipe: [{ scale: [0, 100000, 1, 100001] }] },
  ]);
  param(hub, 'studio/a').set(1);
  t.deepEqual(problems, [
    {
      rule: 'rules[1]',
      code: 'PB_FEEDBACK_LOOP',
      message: 'feedback loop cut: a change came back to studio/a 256 times; chain studio/a → studio/b → studio/a',
    },
  ]);
  t.is(param(hub, 'studio/a').value, 1 + 2 * 256, 'each round added two');
});

test('a loop through a virtual-core function is cut, and its chain shows the function', async (t) => {
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
  t.deepEqual(problems, [
    {
      rule: 'rules[0]',
      code: 'PB_FEEDBACK_LOOP',
      message: 'feedback loop cut: a change came back to core/logic/1 20 times; chain core/logic/1 → core/function/inverted → core/logic/1',
    },
  ]);
});

test("a loop through a code flow that writes from its subscription is cut at the flow's write", async (t) => {
  const plusOne = `
    export default (hub) => {
      const { filter, tap } = hub.rx;
      return hub.watch('studio/a').pipe(filter((v) => v !== undefined), tap((v) => hub.write('studio/b', Number(v) + 1)));
    };`;
  const { hub, problems } = await ruleHub(t, [{ source: 'studio/b', destinations: ['studio/a'] }], {
    loopLimit: 30,
    flows: { 'plus-one.mjs': plusOne },
  });
  param(hub, 'studio/a').set(1);
  // The flow's writes pass the same guard as the rules', and the flow's write comes first each round.
  t.deepEqual(problems, []);
  t.like(hub.problems(), [{ source: 'code-flow', id: 'plus-one', code: 'PB_FEEDBACK_LOOP' }]);
  t.regex(
    hub.problems()[0]?.message ?? '',
    /plus-one\.mjs: feedback loop cut: a change came back to studio\/b 30 times; chain studio\/b → studio\/a → studio\/b$/,
  );
  t.is(param(hub, 'studio/a').value, 32, 'the rule wrote studio/a once, then 30 rounds more');
});

test('loops that branch are cut before their chains multiply, each reported once', async (t) => {
  // Each round doubles the values in flight and none repeats, so without a bound for the
  // whole cascade 256 rounds would be 2^256 writes.
  const { hub, problems } = await ruleHub(t, [
    { source: 'studio/title', destinations: ['studio/log'], pipe: [{ format: 'x$VALUE' }] },
    { source: 'studio/title', destinations: ['studio/text'], pipe: [{ format: 'y$VALUE' }] },
    { source: 'studio/log', destinations: ['studio/title'] },
    { source: 'studio/text', destinations: ['studio/title'] },
  ]);
  param(hub, 'studio/title').set('0');
  const branching = 'feedback loop cut: changes came back round their own chains 16384 times in all (loops that branch)';
  t.deepEqual(
    problems,
    [
      { rule: 'rules[2]', code: 'PB_FEEDBACK_LOOP', message: `${branching}; chain studio/title → studio/log → studio/title` },
      { rule: 'rules[1]', code: 'PB_FEEDBACK_LOOP', message: `${branching}; chain studio/text → studio/title → studio/text` },
    ],
    'each of the two loops is reported once',
  );
});

test('a loop that waits between hops is left alone', async (t) => {
  const clock = new VirtualClock();
  const { hub, problems } = await ruleHub(
    t,
    [
      { source: 'studio/x', destinations: ['studio/y'], pipe: [{ not: true }, { delay: 10 }] },
      { source: 'studio/y', destinations: ['studio/x'] },
    ],
    { clock, loopLimit: 5 },
  );
  const y = record(t, param(hub, 'studio/y'));
  param(hub, 'studio/x').set(true);
  clock.advanceBy(1000);
  t.is(y.length, 100, 'a blinker: one change every 10 ms');
  t.deepEqual(problems, []);
});

test('timed steps run on the hub scheduler', async (t) => {
  const clock = new VirtualClock();
  const { hub } = await ruleHub(t, [{ source: 'studio/level', destinations: ['studio/text'], pipe: [{ throttle: 100 }, { round: 1 }] }], {
    clock,
  });
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
      connections: { a: { type: 'dummy' }, c: { type: 'dummy' } },
      rules: [
        {
          source: 'a/b',
          destinations: ['c/d'],
          pipe: [{ frobnicate: 1 }, { filter: { gt: 'x' } }, { scale: [0, 1, 2] }, { edge: 'up' }, { round: -1 }, { map: {} }],
        },
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
    'rules[1].rules[0].pipe[0].filter.matches: not a regular expression the hub accepts (RE2 syntax): missing closing ): `(`',
    'rules[1].rules[0].pipe[1].scale: inMin and inMax must differ',
  ]);
  const semantic = validateFlow(
    {
      connections: { a: { type: 'dummy' }, c: { type: 'dummy' } },
      rules: [
        { folder: 'f', rules: [{ source: 'a/b', destinations: ['c/d'], pipe: [{ filter: { matches: '(' } }, { scale: [5, 5, 0, 1] }] }] },
      ],
    },
    '/virtual/flow.json5',
  );
  t.false(semantic.ok);
  if (!semantic.ok) {
    t.deepEqual(semantic.issues.map(formatIssue), [
      'rules[0].rules[0].pipe[0].filter.matches: not a regular expression the hub accepts (RE2 syntax): missing closing ): `(`',
      'rules[0].rules[0].pipe[1].scale: inMin and inMax must differ',
    ]);
  }
});
