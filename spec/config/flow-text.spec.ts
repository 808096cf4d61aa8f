/**
 * The flow file's text as an editor changes it (R-ED2): every file the project ships is
 * written back byte for byte; an edit changes only its own lines, and comments, quotes and
 * placeholders elsewhere stay as written.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { editFlowText, FlowDocument, syntaxPlace } from '../../lib/config/flow-text.ts';

const flows = new URL('../../flows/', import.meta.url).pathname;
const shipped = [
  join(flows, 'demo.json5'),
  ...readdirSync(join(flows, 'examples'))
    .filter((name) => name.endsWith('.json5'))
    .map((name) => join(flows, 'examples', name)),
];

/** What an edit changed, as `git diff` shows it: the lines removed (`-`) and added (`+`), by a longest common subsequence. */
function changed(before: string, after: string): string[] {
  const a = before.split('\n');
  const b = after.split('\n');
  const common = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      common[i]![j] = a[i] === b[j] ? common[i + 1]![j + 1]! + 1 : Math.max(common[i + 1]![j]!, common[i]![j + 1]!);
  const lines: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      i++;
      j++;
    } else if (i < a.length && (j === b.length || common[i + 1]![j]! >= common[i]![j + 1]!)) lines.push(`-${a[i++]}`);
    else lines.push(`+${b[j++]}`);
  }
  return lines;
}

test('every flow the project ships is read and written back byte for byte', (t) => {
  t.true(shipped.length > 15);
  for (const file of shipped) {
    const text = readFileSync(file, 'utf8');
    t.is(FlowDocument.parse(text)?.toString(), text, file);
  }
});

const studio = `// Studio A
{
  connections: {
    api: { type: 'rest-api', port: '\${PORT:-8080}' }, // the dashboards
    // The presenter's desk
    desk: {
      type: 'dummy',
      parameters: ['title,S,morning', 'html,S,<b class="x">'],
    },
  },
  rules: [
    { source: 'desk/title', destinations: ['desk/html'], pipe: [{ map: { true: 1, null: 0 } }] }, // kept
  ],
}
`;

test('a connection added, a rule added and a setting changed are the only lines that change', (t) => {
  const made = editFlowText(studio, [
    { op: 'set', path: ['connections', 'clock'], value: { type: 'timer', timers: 1 } },
    { op: 'add', path: ['rules'], value: { source: 'clock/timer/1/trigger', destinations: ['desk/title'], pipe: [{ set: 'go' }] } },
    { op: 'set', path: ['connections', 'desk', 'parameters', 0], value: 'title,S,evening' },
  ]);
  if (!made.ok) return t.fail(JSON.stringify(made.issues));
  t.deepEqual(changed(studio, made.text), [
    "-      parameters: ['title,S,morning', 'html,S,<b class=\"x\">'],",
    "+      parameters: ['title,S,evening', 'html,S,<b class=\"x\">'],",
    '+    clock: {',
    "+      type: 'timer',",
    '+      timers: 1,',
    '+    },',
    "+    { source: 'clock/timer/1/trigger', destinations: ['desk/title'], pipe: [{ set: 'go' }] },",
  ]);
  t.true(
    made.text.startsWith(
      "// Studio A\n{\n  connections: {\n    api: { type: 'rest-api', port: '${PORT:-8080}' }, // the dashboards\n    // The presenter's desk\n",
    ),
  );
});

test('a connection removed takes the comment lines above it with it, and nothing else', (t) => {
  const made = editFlowText(studio, [{ op: 'remove', path: ['connections', 'desk'] }]);
  if (!made.ok) return t.fail(JSON.stringify(made.issues));
  t.false(made.text.includes('presenter'));
  t.true(made.text.includes('// the dashboards'));
  t.is(made.text.split('\n').length, studio.split('\n').length - 5);
});

test('a whole connection set over itself with one setting changed changes that line alone', (t) => {
  const made = editFlowText(studio, [
    { op: 'set', path: ['connections', 'api'], value: { type: 'rest-api', port: '${PORT:-8080}', bindIp: '127.0.0.1' } },
  ]);
  if (!made.ok) return t.fail(JSON.stringify(made.issues));
  t.deepEqual(changed(studio, made.text), [
    "-    api: { type: 'rest-api', port: '${PORT:-8080}' }, // the dashboards",
    "+    api: { type: 'rest-api', port: '${PORT:-8080}', bindIp: '127.0.0.1' }, // the dashboards",
  ]);
});

test("a connection set whole, an object on one line inside it (a module's config) changed: that line written anew on one line", (t) => {
  const text = `{
  connections: {
    desk: {
      type: 'companion-module',
      module: './mixer', // from the module store
      config: { host: 'mixer.local', port: 9100 },
    },
  },
}
`;
  const made = editFlowText(text, [
    {
      op: 'set',
      path: ['connections', 'desk'],
      value: { type: 'companion-module', module: './mixer', config: { host: 'mixer.local', port: 9200, mode: 'tcp' } },
    },
  ]);
  if (!made.ok) return t.fail(JSON.stringify(made.issues));
  t.deepEqual(changed(text, made.text), [
    "-      config: { host: 'mixer.local', port: 9100 },",
    "+      config: { host: 'mixer.local', port: 9200, mode: 'tcp' },",
  ]);
});

test('an edit that cannot be made is refused at its path, and a mistake is placed where it stands', (t) => {
  t.deepEqual(editFlowText(studio, [{ op: 'remove', path: ['connections', 'nothing'] }]), {
    ok: false,
    issues: [{ path: ['connections', 'nothing'], message: 'edit 1 (remove): there is nothing at this path to remove' }],
  });
  const document = FlowDocument.parse(studio);
  const place = document?.place(['rules', 0, 'destinations', 0]);
  t.is(studio.slice(place?.from, place?.to), "'desk/html'");
  // A path further than the file: the nearest value there is.
  const further = document?.place(['connections', 'desk', 'port']);
  t.true(studio.slice(further?.from, further?.to).startsWith("{\n      type: 'dummy'"));
  const broken = '{\n  connections: {\n    a: { type: dummy },\n  },\n}\n';
  t.is(FlowDocument.parse(broken), undefined);
  t.is(broken.slice(syntaxPlace(broken)?.from), 'dummy },\n  },\n}\n');
});

test('a connection over lines set over itself changes only what differs: quotes, tokens and comments elsewhere in it stay', (t) => {
  const demo = readFileSync(join(flows, 'demo.json5'), 'utf8');
  const document = FlowDocument.parse(demo)?.root.toJSON() as { connections: Record<string, Record<string, unknown>> };
  const studio = document.connections['studio']!;
  const api = document.connections['api']!;
  const made = editFlowText(demo, [
    {
      op: 'set',
      path: ['connections', 'studio'],
      value: { ...studio, parameters: [...(studio['parameters'] as string[]), 'standby,B,false'] },
    },
    { op: 'set', path: ['connections', 'api'], value: { ...api, port: '${PORT:-17542}' } },
  ]);
  if (!made.ok) return t.fail(JSON.stringify(made.issues));
  t.deepEqual(changed(demo, made.text), [
    "-      port: '${PORT:-17011}',",
    "+      port: '${PORT:-17542}',",
    "+        'standby,B,false',",
  ]);
});

test('a one-line connection disabled and enabled again is its line as it was', (t) => {
  const disabled = editFlowText(studio, [{ op: 'set', path: ['connections', 'api', 'enabled'], value: false }]);
  if (!disabled.ok) return t.fail(JSON.stringify(disabled.issues));
  t.deepEqual(changed(studio, disabled.text), [
    "-    api: { type: 'rest-api', port: '${PORT:-8080}' }, // the dashboards",
    "+    api: { type: 'rest-api', port: '${PORT:-8080}', enabled: false }, // the dashboards",
  ]);
  const enabled = editFlowText(disabled.text, [{ op: 'remove', path: ['connections', 'api', 'enabled'] }]);
  t.deepEqual(enabled, { ok: true, text: studio, document: FlowDocument.parse(studio)?.root.toJSON() });
});
