import test from 'ava';
import { expectStep } from "../../helpers/steps.js";
test('set sends the constant instead of each value', (t) => expectStep(t, 'set', 'GO', 'a-b|', 'g-g|', { a: 1, b: 'x', g: 'GO' }));
test('set null sends a trigger fire', (t) => expectStep(t, 'set', null, 'a|', 'n|', { a: 1, n: null }));
