/**
 * How the console's parameters tab writes a parameter that holds no value, and what a command's
 * text box shows before anything is typed (R-PK8), without a browser.
 */
import test from 'ava';
import { catalogueId, commandHint, noValue } from '../../console/format.js';

test('a write-only parameter, as a trigger, shows a dash, never "unknown": it holds no value to wait for', (t) => {
  t.is(noValue('S', 'write-only'), '—');
  t.is(noValue('T', 'write-only'), '—');
  t.is(noValue('I', 'read-write'), 'unknown');
  t.is(noValue('S', 'read-only'), 'unknown');
});

test("a command's text box shows the JSON object its arguments make, the optional ones marked", (t) => {
  t.is(
    commandHint({
      arguments: {
        destination: { type: 'I' },
        input: { type: 'I', optional: true },
        ignoreLock: { type: 'B', optional: true },
      },
    }),
    '{"destination": …, "input"?: …, "ignoreLock"?: …}',
  );
  t.is(commandHint({ label: 'Route' }), undefined, 'a parameter without arguments has no hint');
  t.is(commandHint(undefined), undefined);
});

test("a connection added from the catalogue is offered its package's type as id, not the package's name; a module's or a type's name as before", (t) => {
  const entry = (kind: 'built-in' | 'package' | 'module', name: string, type: string) => ({
    kind,
    name,
    description: '',
    connection: { type },
  });
  t.is(catalogueId(entry('package', 'patchbay-videohub', 'videohub'), []), 'videohub');
  t.is(catalogueId(entry('package', 'patchbay-videohub', 'videohub'), ['videohub']), 'videohub-2', 'a second router');
  t.is(catalogueId(entry('module', 'Blackmagic Videohub', 'companion-module'), []), 'blackmagic-videohub');
  t.is(catalogueId(entry('built-in', 'dummy', 'dummy'), []), 'dummy');
});
