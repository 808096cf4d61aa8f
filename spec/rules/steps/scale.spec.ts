import test from 'ava';
import { expectStep } from '../../helpers/steps.ts';

test('scale maps linearly and clamps to the output range', (t) =>
  expectStep(t, 'scale', [0, 100, 0, 1], 'a-b-c-d-e|', 'A-B-C-D-E|', {
    a: 50,
    b: 0,
    c: 100,
    d: 150,
    e: '-10',
    A: 0.5,
    B: 0,
    C: 1,
    D: 1,
    E: 0,
  }));
test('scale works with a reversed output range', (t) =>
  expectStep(t, 'scale', [0, 10, 100, 0], 'a-b-c|', 'A-B-C|', { a: 0, b: 2.5, c: 20, A: 100, B: 75, C: 0 }));
test('non-numbers are dropped', (t) => expectStep(t, 'scale', [0, 1, 0, 10], 'x|', '-|', { x: 'loud' }));
