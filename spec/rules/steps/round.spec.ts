import test from 'ava';
import { roundTo } from '../../../lib/rules/steps/round.ts';
import { expectStep } from '../../helpers/steps.ts';

test('round rounds to the given decimals, half away from zero', (t) =>
  expectStep(t, 'round', 2, 'a-b-c-d-x|', 'A-B-C-D--|', {
    a: 1.005,
    b: -2.345,
    c: '3.14159',
    d: 7,
    x: 'n/a',
    A: 1.01,
    B: -2.35,
    C: 3.14,
    D: 7,
  }));
test('round 0 gives integers', (t) => expectStep(t, 'round', 0, 'a-b|', 'A-B|', { a: 2.5, b: -0.4, A: 3, B: 0 }));
test('roundTo is exact for decimal inputs', (t) => {
  t.is(roundTo(1.005, 2), 1.01);
  t.is(roundTo(0.1 + 0.2, 2), 0.3);
  t.is(roundTo(-0.0001, 2), 0);
});
