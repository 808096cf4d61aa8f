/**
 * The key designer's form and the flow's `keys` entry (R-ST4, R-RS2), without a browser:
 * what the form makes is an entry the satellite type takes as written, with only what
 * differs from the defaults, and read back into the same form.
 */
import test from 'ava';
import { entryOf, formOf } from '../../console/key-entries.js';
import { validateFlow } from '../../lib/config/flow-file.ts';
import { formatIssue } from '../../lib/core/issue.ts';

const flowWith = (keys: unknown[]) => ({
  connections: {
    router: { type: 'dummy', parameters: ['output/1,I,1'] },
    desk: { type: 'satellite', port: 0, bindIp: '127.0.0.1', keys },
  },
});

test('a routed key: the entry holds what differs from the defaults, the satellite type takes it, and it reads back', (t) => {
  const form = {
    ...formOf(undefined),
    text: 'OUT 1\n$(router/output/1)',
    press: 'set',
    target: 'router/output/1',
    value: '3',
    show: 'router/output/1',
    is: '3',
    on: '#00a000',
  };
  const entry = entryOf('deck', 2, form);
  t.deepEqual(entry, {
    device: 'deck',
    key: 2,
    text: 'OUT 1\n$(router/output/1)',
    press: 'set',
    target: 'router/output/1',
    value: 3,
    show: 'router/output/1',
    is: 3,
    on: '#00a000',
  });
  const checked = validateFlow(flowWith([entry]), '/virtual/flow.json5');
  t.true(checked.ok, checked.ok ? '' : checked.issues.map(formatIssue).join('\n'));
  t.deepEqual(formOf(entry as Parameters<typeof formOf>[0]), form);
});

test("a text expression's mistake is the hub's to find, at the text: the form writes it as typed", (t) => {
  const entry = entryOf('deck', 0, { ...formOf(undefined), text: "$(router/output/1) == 3 ? 'LIVE'", textExpression: true });
  t.like(entry, { textExpression: true });
  const checked = validateFlow(flowWith([entry]), '/virtual/flow.json5');
  t.false(checked.ok);
  if (!checked.ok)
    t.regex(checked.issues.map(formatIssue).join('\n'), /^connections\.desk\.keys\[0\]\.text: not an expression: column \d+: /);
  t.false('textExpression' in entryOf('deck', 0, formOf(undefined)), 'off by default, not written');
});
