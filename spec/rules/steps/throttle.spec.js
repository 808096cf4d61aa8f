import test from 'ava';
import { expectStep } from "../../helpers/steps.js";
const v = { a: 1, b: 2, c: 3, d: 4 };
test('throttle passes the first at once and the last of a burst at the end of the window', (t) => expectStep(t, 'throttle', 5, 'abc 10ms d|', 'a----c 7ms d|', v));
