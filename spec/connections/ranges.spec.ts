import test from 'ava';
import { parseParameterLines } from '../../lib/sdk/parameter-lines.ts';
import { expandRanges, fillRangeNumbers, unknownRangeReference } from '../../lib/sdk/ranges.ts';

const texts = (text: string) => {
  const names = expandRanges(text, 1000);
  return typeof names === 'string' ? names : names.map((name) => name.text);
};

test('a range stands for each of its numbers; a bound written with a leading zero pads them all, as a shell does', (t) => {
  t.deepEqual(texts('out/{8..11}'), ['out/8', 'out/9', 'out/10', 'out/11']);
  t.deepEqual(texts('out/{08..11}'), ['out/08', 'out/09', 'out/10', 'out/11']);
  t.deepEqual(texts('in/{1..2}/ch/{01..02}'), ['in/1/ch/01', 'in/1/ch/02', 'in/2/ch/01', 'in/2/ch/02'], 'the last range counts fastest');
  t.deepEqual(texts('take'), ['take']);
});

test('a range past the bound is refused before anything is made', (t) => {
  t.regex(texts('p/{1..1000000000}/{1..1000000000}') as string, /makes 1,000,000,000,000,000,000 names, more than the 100,000/);
  t.true((expandRanges('p/{1..3}', 2) as string).startsWith('"p/{1..3}" makes 3 names'), 'the bound is what is left of it');
});

test('a frame takes the numbers of its parameter’s ranges as $1, $2; $$ and a frame without ranges keep their dollars', (t) => {
  t.is(fillRangeNumbers('ROUTE $1.$2 $VALUE $$1\r\n', ['07', '3']), 'ROUTE 07.3 $VALUE $$1\r\n');
  t.is(unknownRangeReference('ROUTE $1 $3 $$4', 2), '$3');
  t.is(unknownRangeReference('ROUTE $0', 1), '$0');
  t.is(unknownRangeReference('ROUTE $2 $$9', 2), undefined);
});

test('parameter lines with ranges declare each parameter with the line’s type and default (R-D1)', (t) => {
  const parsed = parseParameterLines('gain/{01..03},F,-6\nmute/{1..2},B');
  t.true(parsed.ok);
  if (!parsed.ok) return;
  t.deepEqual(
    parsed.value.rows.map(({ id, type, initial }) => `${id},${type},${initial ?? ''}`),
    ['gain/01,F,-6', 'gain/02,F,-6', 'gain/03,F,-6', 'mute/1,B,', 'mute/2,B,'],
  );
  const repeated = parseParameterLines(['mute/{1..2},B', 'mute/2,B']);
  t.deepEqual(repeated.ok ? [] : repeated.issues.map((issue) => issue.message), [
    'line 2: "mute/2" is defined twice (first on an earlier line)',
  ]);
});
