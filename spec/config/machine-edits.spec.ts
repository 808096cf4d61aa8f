import test from 'ava';
import JSON5 from 'json5';
import { connectionTypes } from '../../lib/config/connection-types.ts';
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
