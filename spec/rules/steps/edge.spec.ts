import test from 'ava';
import { expectStep } from '../../helpers/steps.ts';

const v = { t: true, f: false, o: 'on', x: 'maybe' };

test('rising passes only false→true transitions (a first true counts)', (t) =>
  expectStep(t, 'edge', 'rising', 't-t-f-x-o-f-t|', 't-------o---t|', v));
test('falling passes only true→false transitions (a first false counts)', (t) =>
  expectStep(t, 'edge', 'falling', 't-f-f-t-f|', '--f-----f|', v));
