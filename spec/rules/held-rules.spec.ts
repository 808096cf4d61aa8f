import test, { type ExecutionContext } from 'ava';
import { validateFlow } from '../../lib/config/flow-file.ts';
import { formatIssue } from '../../lib/core/issue.ts';
import { Hub } from '../../lib/hub/hub.ts';
import type { RuleProblem } from '../../lib/rules/engine.ts';
import { flowOf, param, record } from '../helpers/hub.ts';

const atem = { type: 'dummy', parameters: ['program,I', 'preview,I', 'override,B,false', 'fade,F'] };
const lamps = { type: 'dummy', parameters: ['cam1/red,B', 'cam1/green,B', 'cam2/red,B', 'label,S', 'sum,I', 'x,B,false', 'y,B,false'] };

async function heldHub(t: ExecutionContext, rules: unknown[], connections: Record<string, unknown> = { atem, lamps }) {
  const hub = new Hub({ flow: flowOf({ connections, rules }) });
  const problems: RuleProblem[] = [];
  hub.ruleProblems$.subscribe((problem) => problems.push(problem));
  t.teardown(() => hub.stop());
  await hub.start();
  return { hub, problems };
}

/** Lets the turn's microtasks run: a rule that holds state evaluates once the turn's changes landed. */
const settled = () => new Promise<void>((resolve) => setImmediate(resolve));

test('a rule of several named sources writes what its expression says of their latest values, once all have one (R-RS1)', async (t) => {
  const { hub, problems } = await heldHub(t, [
    { from: { prg: 'atem/program', pvw: 'atem/preview' }, to: 'lamps/cam1/red', expr: 'prg == 1' },
    { from: { prg: 'atem/program', pvw: 'atem/preview' }, to: ['lamps/cam1/green'], expr: 'pvw == 1 && prg != 1' },
    { from: { prg: 'atem/program' }, to: 'lamps/label', expr: "concat('CAM ', prg, $(atem/override) ? ' (override)' : '')" },
  ]);
  await settled();
  t.is(param(hub, 'lamps/cam1/red').value, undefined, 'nothing while a source is unknown');
  param(hub, 'atem/program').set(1);
  await settled();
  t.is(param(hub, 'lamps/cam1/red').value, undefined, 'a rule runs once every source has a value: the preview is unknown');
  t.is(param(hub, 'lamps/label').value, 'CAM 1');
  param(hub, 'atem/preview').set(1);
  await settled();
  t.deepEqual([param(hub, 'lamps/cam1/red').value, param(hub, 'lamps/cam1/green').value], [true, false]);
  param(hub, 'atem/program').set(2);
  await settled();
  t.deepEqual([param(hub, 'lamps/cam1/red').value, param(hub, 'lamps/cam1/green').value], [false, true]);
  param(hub, 'atem/override').set(true);
  await settled();
  t.is(param(hub, 'lamps/label').value, 'CAM 2 (override)', 'a parameter read as $(address) is followed too');
  t.deepEqual(problems, []);
  t.like(hub.rules()[0], {
    source: 'atem/program',
    destinations: ['lamps/cam1/red'],
    from: { prg: 'atem/program', pvw: 'atem/preview' },
    expr: 'prg == 1',
    on: 'state',
    status: 'running',
  });
});

test('one evaluation for the changes of one turn: a batch that changes two sources never shows a value mixing old and new (R-RS5)', async (t) => {
  const { hub } = await heldHub(t, [{ from: { a: 'atem/program', b: 'atem/preview' }, to: 'lamps/sum', expr: 'a * 10 + b' }]);
  param(hub, 'atem/program').set(1);
  param(hub, 'atem/preview').set(2);
  await settled();
  const seen = record(t, param(hub, 'lamps/sum'));
  // A cut as the switcher says it: program and preview swap in one message.
  param(hub, 'atem/program').set(2);
  param(hub, 'atem/preview').set(1);
  await settled();
  t.deepEqual(
    seen.map(([, value]) => value),
    [21],
    'one write, never 22 (the new program with the old preview)',
  );
});

test('the destination holds what the rule says: written when the rule starts, and again when its connection is back (R-RS3)', async (t) => {
  const connections = { atem: { ...atem, parameters: ['program,I,2', 'preview,I,1', 'override,B,false', 'fade,F'] }, lamps };
  const rules = [{ from: { prg: 'atem/program' }, to: ['lamps/cam1/red', 'lamps/cam2/red'], expr: 'prg == 2' }];
  const { hub } = await heldHub(t, rules, connections);
  await settled();
  t.is(param(hub, 'lamps/cam2/red').value, true, 'written at the start, with no change of the source');
  t.is(param(hub, 'lamps/cam1/red').value, true);
  // The lamps' connection starts again with other settings (a process restarted, a device back): its values are its defaults.
  await hub.reload(flowOf({ connections: { ...connections, lamps: { ...lamps, description: 'the tally box' } }, rules }));
  await settled();
  t.is(param(hub, 'lamps/cam2/red').value, true, 'written again once the connection is ok');
  t.is(param(hub, 'lamps/cam1/red').lastChange?.by, 'rule rules[0] (holding its state)', 'who wrote it, and why again');
});

test("a rule on 'change' writes only when a source changes: not at its start (R-RS3)", async (t) => {
  const connections = { atem: { ...atem, parameters: ['program,I,2', 'preview,I,1', 'override,B,false', 'fade,F'] }, lamps };
  const { hub } = await heldHub(t, [{ from: 'atem/program', to: 'lamps/sum', expr: 'value * 2', on: 'change' }], connections);
  await settled();
  t.is(param(hub, 'lamps/sum').value, undefined);
  param(hub, 'atem/program').set(3);
  await settled();
  t.is(param(hub, 'lamps/sum').value, 6);

  // A pulse on a change: a save of the flow that leaves it as it is fires nothing.
  const out = { type: 'dummy', parameters: ['pulse,T'] };
  const rules = [{ from: 'atem/program', to: 'out/pulse', on: 'change' }];
  const { hub: pulsing } = await heldHub(t, rules, { ...connections, out });
  const fires = record(t, param(pulsing, 'out/pulse'));
  param(pulsing, 'atem/program').set(4);
  await settled();
  t.is(fires.length, 1);
  await pulsing.reload(flowOf({ connections: { ...connections, out, notes: { type: 'dummy' } }, rules }));
  await settled();
  t.is(fires.length, 1, 'no fire from the save');
});

test('rules that hold state and feed back on each other are cut within the pass, and say so; 1,000 changes from outside in one turn are no loop', async (t) => {
  const { hub, problems } = await heldHub(t, [
    { from: 'lamps/x', to: 'lamps/y', expr: '!value' },
    { from: 'lamps/y', to: 'lamps/x', expr: 'value' },
  ]);
  await settled();
  await settled();
  t.true(
    problems.some((problem) => problem.code === 'PB_FEEDBACK_LOOP' && /evaluated more than 256 times in one pass/.test(problem.message)),
    JSON.stringify(problems.slice(0, 2)),
  );
  // A code flow counting in a loop that awaits: 1,000 changes of one source in one turn, each its own pass.
  const { hub: counting, problems: counted } = await heldHub(t, [{ from: 'atem/program', to: 'lamps/sum', expr: 'value * 2' }]);
  for (let n = 1; n <= 1000; n++) {
    param(counting, 'atem/program').set(n);
    await null;
  }
  await settled();
  t.is(param(counting, 'lamps/sum').value, 2000);
  t.deepEqual(counted, [], 'no loop');
  param(hub, 'atem/program').set(5);
  t.is(param(hub, 'atem/program').value, 5);
});

test('a mistake in an expression is found when the flow is read, at its path and column; an expression names only its sources (R-RS2)', (t) => {
  const result = validateFlow(
    {
      connections: { atem: { type: 'dummy' }, lamps: { type: 'dummy' } },
      rules: [
        { from: { prg: 'atem/program' }, to: 'lamps/red', expr: 'prg = 1' },
        { from: { prg: 'atem/program' }, to: 'lamps/red', expr: 'pgm == 1' },
        { from: { prg: 'atem/program' }, to: 'lamps/red', expr: 'prg.length' },
        { from: { prg: 'atem/program', pvw: 'atem/preview' }, to: 'lamps/red' },
        { from: { prg: 'atem/program' }, to: 'lamps/red', expr: 'prg == $(mixer/x)' },
        { folder: 'f', rules: [{ from: 'atem/program', to: 'lamps/red', expr: 'launch(value)' }] },
        { from: 'atem/input/+/program', to: 'lamps/{1}/red', expr: 'value && {2} > 0' },
        { from: 'atem/input/#', to: 'lamps/red' },
        { from: 'atem/input/+/program', to: ['lamps/{1}/red', 'lamps/{2}/green'] },
      ],
    },
    '/virtual/flow.json5',
  );
  t.false(result.ok);
  if (result.ok) return;
  t.deepEqual(result.issues.map(formatIssue), [
    'rules[7].from: expected an address <connection id>/<parameter id>, whose levels may be + (one for any) or an object',
    'rules[0].expr: column 5: Unexpected "="',
    'rules[1].expr: column 1: "pgm" names no source of this rule (prg); another parameter is $(<address>)',
    'rules[2].expr: column 4: reading a member (a.b, a[b]) is not part of expressions',
    'rules[3].expr: an expression over prg, pvw is needed: which of them goes to the destination?',
    'rules[4].expr: no connection "mixer" in this flow file (connections: atem, lamps)',
    'rules[5].rules[0].expr: column 1: "launch" is no function of expressions (round, floor, ceil, abs, min, max, clamp, toFixed, isNumber, number, string, bool, trim, strlen, substr, concat, toUpperCase, toLowerCase, replaceAll, includes, indexOf)',
    'rules[6].expr: column 10: {2} is no level its sources match ({1} to {1})',
    'rules[8].to[1]: {2} is no level its sources match ({1} to {1})',
  ]);
});

test('a parameter that a rule holding state and another rule or a key both write is a warning at the later rule, or at the key (R-RS4)', (t) => {
  const result = validateFlow(
    {
      connections: {
        atem: { type: 'dummy' },
        desk: { type: 'dummy' },
        lamps: { type: 'dummy' },
        deck: {
          type: 'satellite',
          bindIp: '127.0.0.1',
          keys: [
            { device: 'd', key: 0, press: 'toggle', show: 'lamps/green' },
            { device: 'd', key: 1, press: 'set', target: 'lamps/cam/3/red', value: true },
            { device: 'd', key: 2, press: 'set', target: 'lamps/other', value: true },
          ],
        },
        off: {
          type: 'satellite',
          enabled: false,
          port: 16623,
          bindIp: '127.0.0.1',
          keys: [{ device: 'd', key: 0, press: 'toggle', show: 'lamps/green' }],
        },
      },
      rules: [
        { folder: 'old', rules: [{ source: 'desk/override', destinations: ['lamps/red', 'lamps/other'] }] },
        { from: { prg: 'atem/program' }, to: ['lamps/green', 'lamps/red'], expr: 'prg == 1' },
        { source: 'desk/a', destinations: ['lamps/other'] },
        { from: 'desk/b', to: 'lamps/pulse', on: 'change' },
        { source: 'desk/c', destinations: ['lamps/pulse'] },
        { from: 'atem/input/+/program', to: 'lamps/cam/{1}/red', combine: 'any' },
        { from: 'desk/cam2', to: 'lamps/cam/2/red' },
      ],
    },
    '/virtual/flow.json5',
  );
  t.true(result.ok);
  if (!result.ok) return;
  t.deepEqual(result.flow.warnings.map(formatIssue), [
    'rules[1].to: lamps/red is written by rules[0].rules[0] too: a rule that holds state should be its one writer (the last write would win); give them one rule with an expression over both, or say how they join with the same `combine` on each',
    'rules[6].to: lamps/cam/2/red is written by rules[5] too (as lamps/cam/{1}/red): a rule that holds state should be its one writer (the last write would win); give them one rule with an expression over both, or say how they join with the same `combine` on each',
    'connections.deck.keys[0].show: lamps/green is held by rules[1]: what this writes lasts only until that rule writes again; let the rule read it instead (a source of its expression), or write another parameter',
    'connections.deck.keys[1].target: lamps/cam/3/red is held by rules[5] (as lamps/cam/{1}/red): what this writes lasts only until that rule writes again; let the rule read it instead (a source of its expression), or write another parameter',
  ]);
});

test('a source pattern makes one rule of every parameter it matches, now and later; {1} is the matched level in to and expr (R-RS1)', async (t) => {
  const switcher = {
    type: 'dummy',
    parameters: ['input/1/tally/program,B,true', 'input/2/tally/program,B,false', 'input/3/tally/program,B,false'],
  };
  const umd = { type: 'dummy', parameters: ['display/1/red,B', 'display/2/red,B', 'display/1/text,S', 'display/2/text,S'] };
  const { hub, problems } = await heldHub(
    t,
    [
      { from: 'atem/input/+/tally/program', to: 'umd/display/{1}/red' },
      { from: { on: 'atem/input/+/tally/program' }, to: 'umd/display/{1}/text', expr: "concat('CAM ', {1}, on ? ' ON AIR' : '')" },
    ],
    { atem: switcher, umd },
  );
  await settled();
  t.deepEqual(
    ['display/1/red', 'display/2/red', 'display/1/text', 'display/2/text'].map((id) => param(hub, `umd/${id}`).value),
    [true, false, 'CAM 1 ON AIR', 'CAM 2'],
  );
  param(hub, 'atem/input/2/tally/program').set(true);
  param(hub, 'atem/input/1/tally/program').set(false);
  await settled();
  t.deepEqual([param(hub, 'umd/display/1/red').value, param(hub, 'umd/display/2/red').value], [false, true]);
  // A camera with no display is no problem; a display that comes later is driven at once.
  t.deepEqual(problems, []);
  t.deepEqual(
    hub.problems().filter((problem) => problem.source === 'rule'),
    [],
  );
  const later = hub.graph.define('umd', 'display/3/red', { type: 'B', access: 'read-write' });
  t.true(later.ok);
  await settled();
  t.is(param(hub, 'umd/display/3/red').value, false, 'input 3 drives the display that appeared');
  t.like(hub.rules()[0], { from: { value: 'atem/input/+/tally/program' }, status: 'running' });
});

test('rules that say combine the same way join at the lamp they share: any, all, priority; validate says nothing of them (R-RS4)', async (t) => {
  const desk = { type: 'dummy', parameters: ['program,B,false', 'override,B,false', 'armed,B,true', 'first,S,', 'second,S,standby'] };
  const out = { type: 'dummy', parameters: ['red,B', 'gate,B', 'label,S'] };
  const rules = [
    { from: 'desk/program', to: 'out/red', combine: 'any' },
    { from: 'desk/override', to: 'out/red', combine: 'any' },
    { from: 'desk/program', to: 'out/gate', combine: 'all' },
    { from: 'desk/armed', to: 'out/gate', combine: 'all' },
    { from: 'desk/first', to: 'out/label', combine: 'priority' },
    { from: 'desk/second', to: 'out/label', combine: 'priority' },
  ];
  const checked = validateFlow({ connections: { desk, out }, rules }, '/virtual/flow.json5');
  t.true(checked.ok);
  if (checked.ok) t.deepEqual(checked.flow.warnings, []);
  const { hub, problems } = await heldHub(t, rules, { desk, out });
  await settled();
  const shown = () => ['red', 'gate', 'label'].map((id) => param(hub, `out/${id}`).value);
  t.deepEqual(shown(), [false, false, 'standby']);
  param(hub, 'desk/override').set(true);
  await settled();
  t.deepEqual(shown(), [true, false, 'standby'], 'red while the override says so, though the program does not');
  param(hub, 'desk/program').set(true);
  param(hub, 'desk/override').set(false);
  param(hub, 'desk/first').set('ON AIR');
  await settled();
  t.deepEqual(shown(), [true, true, 'ON AIR']);
  param(hub, 'desk/armed').set(false);
  param(hub, 'desk/first').set('');
  await settled();
  t.deepEqual(shown(), [true, false, 'standby']);
  t.deepEqual(problems, []);
});

test('any and all join booleans as a write to a boolean converts them; what does not convert is a refused write with its trace (R-RS4, R-RS6)', async (t) => {
  const desk = { type: 'dummy', parameters: ['name,S,off', 'override,B,false'] };
  const out = { type: 'dummy', parameters: ['lamp,B'] };
  const { hub, problems } = await heldHub(
    t,
    [
      { from: 'desk/name', to: 'out/lamp', combine: 'any' },
      { from: 'desk/override', to: 'out/lamp', combine: 'any' },
    ],
    { desk, out },
  );
  await settled();
  t.is(param(hub, 'out/lamp').value, false, '"off" is false, as a write of it to a boolean');
  param(hub, 'desk/name').set('Cam One');
  await settled();
  t.is(param(hub, 'out/lamp').value, false, 'text that is no boolean does not light the lamp');
  t.like(problems.at(-1), { rule: 'rules[0]', code: 'PB_CONVERSION', lasting: true });
  t.true(hub.problems().some((problem) => problem.source === 'rule' && problem.code === 'PB_CONVERSION'));
});

test('an expression that makes no number a parameter takes (a division by zero) fails with the reason, and writes nothing (R-RS2)', async (t) => {
  const desk = { type: 'dummy', parameters: ['n,I,2'] };
  const out = { type: 'dummy', parameters: ['count,I,7'] };
  const { hub, problems } = await heldHub(t, [{ from: 'desk/n', to: 'out/count', expr: 'value / 0' }], { desk, out });
  await settled();
  t.is(param(hub, 'out/count').value, 7);
  t.like(problems[0], { rule: 'rules[0]', code: 'PB_RULE_FAILED' });
  t.regex(problems[0]?.message ?? '', /its expression: it made Infinity, which no parameter takes/);
});
