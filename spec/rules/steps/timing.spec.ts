import test from 'ava';
import { expectStep } from '../../helpers/steps.ts';

const v = { a: 1, b: 2, c: 3, d: 4 };

test('debounce passes a value once no newer one came for ms', (t) => expectStep(t, 'debounce', 5, 'a-b 10ms c|', '7ms b 6ms (c|)', v));
test('throttle passes the first at once and the last of a burst at the end of the window', (t) =>
  expectStep(t, 'throttle', 5, 'abc 10ms d|', 'a----c 7ms d|', v));
test('delay passes every value, ms later', (t) => expectStep(t, 'delay', 3, 'a-b|', '---a-(b|)', v));
