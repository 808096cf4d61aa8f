import test from 'ava';
import { expectStep } from "../../helpers/steps.js";
test('not negates booleans and boolean words; others are dropped', (t) => expectStep(t, 'not', true, 't-f-o-x-z|', 'f-t-f---t|', { t: true, f: false, o: 'on', x: 'maybe', z: 0 }));
