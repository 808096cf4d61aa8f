import test from 'ava';
import { expectStep } from "../../helpers/steps.js";
const v = { a: 1, b: 2, c: 3, d: 4 };
test('debounce passes a value once no newer one came for ms', (t) => expectStep(t, 'debounce', 5, 'a-b 10ms c|', '7ms b 6ms (c|)', v));
