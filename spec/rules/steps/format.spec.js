import test from 'ava';
import { expectStep } from "../../helpers/steps.js";
test('format fills $VALUE, $SOURCE and $TIMESTAMP', (t) => expectStep(t, 'format', '$SOURCE is $VALUE at $TIMESTAMP', 'a--b|', 'A--B|', {
    a: 0.5,
    b: true,
    A: 'studio/x is 0.5 at 1970-01-01T00:00:00.000Z',
    B: 'studio/x is true at 1970-01-01T00:00:00.003Z',
}));
