import test from 'ava';
import { parseCombination } from '../../../lib/connections/keyboard/combination.ts';

const nameOf = (text: string) => {
  const r = parseCombination(text);
  return r.ok ? r.value.name : `error: ${r.error.message}`;
};

test('names are case-insensitive and modifiers come in one order', (t) => {
  t.is(nameOf('Shift-Ctrl-A'), 'ctrl-shift-a');
  t.is(nameOf('ctrl-shift-a'), 'ctrl-shift-a');
  t.is(nameOf('META-alt-shift-CTRL-F12'), 'ctrl-shift-alt-meta-f12');
  t.is(nameOf(' f1 '), 'f1');
  t.is(nameOf('ctrl-0'), 'ctrl-0');
});

test('every key of R-K1 is known', (t) => {
  const names = [
    ...'abcdefghijklmnopqrstuvwxyz0123456789',
    ...Array.from({ length: 24 }, (_, i) => `f${i + 1}`),
    'space',
    'enter',
    'tab',
    'escape',
    'up',
    'down',
    'left',
    'right',
    'home',
    'end',
    'pageup',
    'pagedown',
    'insert',
    'delete',
    'backspace',
  ];
  for (const name of names) t.is(nameOf(`ctrl-${name}`), `ctrl-${name}`);
});

test('common other spellings map to the canonical names', (t) => {
  t.is(nameOf('Control-Esc'), 'ctrl-escape');
  t.is(nameOf('cmd-return'), 'meta-enter');
  t.is(nameOf('option-ArrowUp'), 'alt-up');
  t.is(nameOf('win-del'), 'meta-delete');
});

test('each combination maps to the uiohook and nut-js key names', (t) => {
  const r = parseCombination('shift-ctrl-7');
  if (!r.ok) return t.fail();
  t.is(r.value.hookKey, '7');
  t.is(r.value.nutKey, 'Num7');
  t.deepEqual(r.value.nutModifiers, ['LeftControl', 'LeftShift']);
});

test('bad combinations say what is wrong', (t) => {
  t.regex(nameOf('ctrl-f25'), /unknown key name "f25"/);
  t.regex(nameOf('ctrl-ctrl-a'), /names ctrl twice/);
  t.regex(nameOf('a-b'), /two keys \(a, b\)/);
  t.regex(nameOf('ctrl-alt'), /no key besides its modifiers/);
  t.regex(nameOf(''), /unknown key name ""/);
});
