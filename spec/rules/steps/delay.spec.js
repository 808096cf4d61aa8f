import test from 'ava';
import { expectStep } from "../../helpers/steps.js";
const v = { a: 1, b: 2, c: 3, d: 4 };
test('delay passes every value, ms later', (t) => expectStep(t, 'delay', 3, 'a-b|', '---a-(b|)', v));
