import test from 'ava';
import JSON5 from 'json5';
import { connectionTypes } from '../../lib/config/connection-types.ts';
import { validateFlow } from '../../lib/config/flow-file.ts';
import { machineEdits } from '../../lib/config/machine-edits.ts';

const context = { flowPath: '/srv/studio/studio.json5', types: new Map(connectionTypes.map((type) => [type.type, type])), untouchable: [] };

/** The issues of editing `before` into `after`, both as JSON5 texts, as the flow editor checks them. */
const edits = (before: string, after: string) => machineEdits(JSON5.parse(before), JSON5.parse(after), context);

const studio = (line: string) => `{ connections: { d: { type: 'dummy', parameters: [${line}] } } }`;

test('a placeholder is found where the loader fills it in: written plainly, as a JSON5 escape or across a line continuation', (t) => {
  for (const written of [
    "'key,S,${PATCHBAY_SITE_KEY}'",
    "'key,S,\\u0024{PATCHBAY_SITE_KEY}'",
    "'key,S,$\\\n{PATCHBAY_SITE_KEY}'",
    "'key,S,\\x24\\x7bPATCHBAY_SITE_KEY}'",
  ]) {
    const issues = edits(studio("'key,S,none'"), studio(written));
    t.is(issues.length, 1, written);
    t.regex(issues[0]?.message ?? '', /\$\{PATCHBAY_SITE_KEY\} would read the hub's environment/, written);
    t.deepEqual(issues[0]?.path, ['connections', 'd', 'parameters', 0], `at the text that reads it: ${written}`);
  }
});

test('a placeholder the file read before stays, however it is written now; $${ is a literal and reads nothing', (t) => {
  t.deepEqual(edits(studio("'port,I,${PORT}'"), studio("'port,I,\\u0024{PORT}', 'other,I,${PORT}'")), []);
  t.deepEqual(edits(studio("'a,S,x'"), studio("'a,S,$${HOME}'")), []);
});

test('keys listened to, a MIDI port and the name of an environment variable are the machine’s to change', (t) => {
  const keyboard = (keys: string) => `{ connections: { k: { type: 'keyboard', inputKeys: [${keys}] } } }`;
  t.deepEqual(
    edits(keyboard("'ctrl-f1'"), keyboard("'ctrl-f1', 'a'")).map((issue) => issue.path),
    [['connections', 'k', 'inputKeys']],
  );
  const midi = (port: string) => `{ connections: { m: { type: 'midi', input: '${port}' } } }`;
  t.deepEqual(
    edits(midi('desk'), midi('other')).map((issue) => issue.path),
    [['connections', 'm', 'input']],
  );
  const api = (name: string) => `{ connections: { api: { type: 'rest-api', port: 0, passphraseEnv: '${name}' } } }`;
  t.deepEqual(
    edits(api(''), api('PATCHBAY_SITE_KEY')).map((issue) => issue.path),
    [['connections', 'api', 'passphraseEnv']],
  );
});

test('machineEdits is the machine’s to change: an admin may neither turn it on nor off from the console (R-ST8)', (t) => {
  const flow = (on: string) => `{ ${on} connections: { api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' } } }`;
  t.deepEqual(
    edits(flow(''), flow('machineEdits: true,')).map((issue) => issue.path),
    [['machineEdits']],
  );
  t.deepEqual(
    edits(flow('machineEdits: true,'), flow('machineEdits: false,')).map((issue) => issue.path),
    [['machineEdits']],
  );
});

test('machineEdits holds while the hub is served on this machine alone; served on every interface it is off, and says why (R-ST8)', (t) => {
  const held = (bindIp: string, on = true) => {
    const checked = validateFlow(
      { ...(on ? { machineEdits: true } : {}), connections: { api: { type: 'rest-api', port: 0, bindIp }, vars: { type: 'dummy' } } },
      '/srv/studio/studio.json5',
    );
    if (!checked.ok) throw checked.error;
    return {
      held: checked.flow.machineEdits,
      warnings: checked.flow.warnings.filter((w) => w.path[0] === 'machineEdits').map((w) => w.message),
    };
  };
  t.deepEqual(held('127.0.0.1'), { held: true, warnings: [] });
  t.deepEqual(held('::1'), { held: true, warnings: [] });
  t.deepEqual(held('127.0.0.1', false), { held: false, warnings: [] });
  const open = held('');
  t.false(open.held);
  t.regex(open.warnings[0] ?? '', /^off while connection "api" serves the hub on every interface/);
  t.false(held('10.0.1.20').held);
});
