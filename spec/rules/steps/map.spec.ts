import test from 'ava';
import { expectStep } from '../../helpers/steps.ts';

const v = { a: 1, b: 2, c: 3, o: 'one', w: 'two', s: 'other', t: true, y: 'yes', n: null };

test('a table maps string forms; unmatched values are dropped', (t) =>
  expectStep(t, 'map', { '1': 'one', '2': 'two' }, 'a-b-c|', 'o-w--|', v));
test('"*" catches every unmatched value', (t) => expectStep(t, 'map', { '1': 'one', '*': 'other' }, 'a-b-c|', 'o-s-s|', v));
test('booleans match their string form and map to any scalar or null', (t) =>
  expectStep(t, 'map', { true: 'yes', false: null }, 't|', 'y|', v));
