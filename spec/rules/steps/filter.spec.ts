import test from 'ava';
import { expectStep } from '../../helpers/steps.ts';

const v = { a: 1, b: 5, c: '5', d: 'x', e: true, f: false, g: 10, h: '5.0' };

test('eq with a number compares numerically', (t) => expectStep(t, 'filter', { eq: 5 }, 'a-b-c-d-h|', '--b-c---h|', v));
test('eq with a string compares string forms', (t) => expectStep(t, 'filter', { eq: '5' }, 'a-b-c-h|', '--b-c--|', v));
test('eq with a boolean compares as booleans', (t) => expectStep(t, 'filter', { eq: true }, 'e-f-a-d|', 'e---a--|', v));
test('ne passes everything else', (t) => expectStep(t, 'filter', { ne: 5 }, 'a-b-d|', 'a---d|', v));
test('gt, gte, lt and lte compare numbers and drop non-numbers', (t) => {
  expectStep(t, 'filter', { gt: 5 }, 'a-b-g-d|', '----g--|', v);
  expectStep(t, 'filter', { gte: 5 }, 'a-b-g-d|', '--b-g--|', v);
  expectStep(t, 'filter', { lt: 5 }, 'a-b-g-d|', 'a------|', v);
  expectStep(t, 'filter', { lte: 5 }, 'a-b-c-d|', 'a-b-c--|', v);
});
test('matches tests a regular expression on the string form', (t) =>
  expectStep(t, 'filter', { matches: '^[0-9]+$' }, 'a-d-e-g|', 'a-----g|', v));
test('in passes values equal to any entry', (t) => expectStep(t, 'filter', { in: [1, 'x'] }, 'a-b-d-g|', 'a---d--|', v));
