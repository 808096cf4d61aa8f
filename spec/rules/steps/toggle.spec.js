import test from 'ava';
import { expectStep } from "../../helpers/steps.js";
test('each value that arrives flips a stored boolean, which is sent', (t) => expectStep(t, 'toggle', true, 'a-b-a-c|', 't-f-t-f|', { a: 1, b: 'x', c: null, t: true, f: false }));
