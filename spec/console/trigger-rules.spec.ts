/**
 * The console's triggers as the flow holds them (R-ST5, R-RS2, R-RS3), without a browser:
 * the edits the trigger form makes, read back as the form made them, and each expression it
 * writes checked by the hub's own parser — a form that wrote what the hub refuses would be
 * caught here, not in a studio.
 */
import test from 'ava';
import { changedTriggerEdits, triggerAt, triggerEdits } from '../../console/trigger-rules.js';
import { validateFlow } from '../../lib/config/flow-file.ts';
import { compileExpression } from '../../lib/core/expression.ts';
import type { FlowEdit } from '../../lib/core/flow-shapes.ts';

type Trigger = Parameters<typeof triggerEdits>[0];
const trigger = (over: Partial<Trigger>): Trigger => ({
  name: 'camera 2 red',
  when: 'condition',
  time: '06:00',
  days: '*',
  date: '',
  source: 'atem/program',
  compare: 'eq',
  than: '2',
  destination: 'umd/red',
  value: 'true',
  otherwise: 'false',
  ...over,
});

/** The document the edits make of `document` (set, add, remove by path, as the hub's draft does). */
function applied(document: Record<string, unknown>, edits: readonly FlowEdit[]): Record<string, unknown> {
  const next = structuredClone(document);
  for (const edit of edits) {
    type Node = Record<string | number, unknown>;
    const parent = edit.path.slice(0, -1).reduce<Node>((node, step) => node[step] as Node, next);
    const last = edit.path.at(-1) as string | number;
    if (edit.op === 'set') parent[last] = edit.value;
    else if (edit.op === 'remove') Array.isArray(parent) ? parent.splice(last as number, 1) : delete parent[last];
    else (parent[last] as unknown[]).push(edit.value);
  }
  return next;
}

const studio = { connections: { atem: { type: 'dummy', parameters: ['program,I,1'] }, umd: { type: 'dummy', parameters: ['red,B'] } } };

test('a condition with what to write otherwise is one rule that holds state, whose expression the hub takes, read back as written (R-RS3)', (t) => {
  for (const [compare, than] of [
    ['eq', '2'],
    ['gte', '-1.5'],
    ['ne', 'Camera "2"'],
  ] as const) {
    const made = applied(studio, triggerEdits(trigger({ compare, than }), studio));
    const rules = made['rules'] as Record<string, unknown>[];
    t.is(rules.length, 1);
    const rule = rules[0] as { from: string; to: string; expr: string };
    t.like(rule, { from: 'atem/program', to: 'umd/red', description: 'camera 2 red' });
    t.notThrows(() => compileExpression(rule.expr, ['value']), rule.expr);
    t.true(validateFlow(made, '/virtual/flow.json5').ok, `the hub takes ${rule.expr}`);
    t.deepEqual(triggerAt(made, ['rules', 0])?.trigger, trigger({ compare, than }), 'read back as the form wrote it');
  }
});

test('a trigger on a change, and one at a time of day: a rule with a set step, and a schedule entry it fires from', (t) => {
  const onChange = applied(studio, triggerEdits(trigger({ when: 'change', otherwise: '', value: 'true' }), studio));
  t.deepEqual(onChange['rules'], [
    { source: 'atem/program', destinations: ['umd/red'], pipe: [{ set: true }], description: 'camera 2 red' },
  ]);
  const daily = trigger({ name: 'morning show', when: 'daily', time: '06:30', days: 'MON-FRI', source: '', than: '', otherwise: '' });
  const made = applied(studio, triggerEdits(daily, studio));
  t.like((made['connections'] as Record<string, unknown>)['schedule'], {
    type: 'schedule',
    entries: [{ id: 'morning-show', cron: '0 30 6 * * MON-FRI' }],
  });
  t.true(validateFlow(made, '/virtual/flow.json5').ok);
  t.deepEqual(triggerAt(made, ['rules', 0])?.trigger, daily);
});

test('a trigger changed where it stands keeps what the form does not say, and its schedule entry', (t) => {
  const daily = trigger({ name: 'morning show', when: 'daily', time: '06:30', days: 'MON-FRI', source: '', than: '', otherwise: '' });
  const made = applied(studio, triggerEdits(daily, studio));
  (made['rules'] as Record<string, unknown>[])[0]!['enabled'] = false;
  const found = triggerAt(made, ['rules', 0]);
  if (!found) return t.fail('read back');
  const changed = applied(made, changedTriggerEdits({ ...daily, time: '07:15' }, found.place, made));
  t.like((changed['rules'] as Record<string, unknown>[])[0], { enabled: false, source: 'schedule/morning-show/fire' });
  const schedule = (changed['connections'] as Record<string, { entries: unknown[] }>)['schedule'];
  t.like(schedule?.entries, [{ id: 'morning-show', cron: '0 15 7 * * MON-FRI' }]);
});
