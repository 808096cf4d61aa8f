import test from 'ava';
import { convert, toWire } from "../../lib/core/value.js";
const show = (raw) => (typeof raw === 'number' || raw === undefined ? String(raw) : JSON.stringify(raw));
const converts = (raw, type, expected) => test(`${show(raw)} converts to ${type} as ${JSON.stringify(expected)}`, (t) => {
    t.deepEqual(convert(raw, type), { ok: true, value: expected });
});
const rejects = (raw, type) => test(`${show(raw)} is rejected for ${type} with a reason naming type and value`, (t) => {
    const result = convert(raw, type);
    if (result.ok)
        return t.fail(`converted to ${JSON.stringify(result.value)}`);
    t.is(result.error.code, 'PB_CONVERSION');
    t.regex(result.error.message, /cannot convert .* to (string|integer|float|boolean|trigger)/);
});
// To S: strings as is, numbers as shortest round-trip decimals, booleans as words.
converts('  x ', 'S', '  x ');
converts(1, 'S', '1');
converts(0.5, 'S', '0.5');
converts(-3, 'S', '-3');
converts(0.1 + 0.2, 'S', '0.30000000000000004');
converts(true, 'S', 'true');
converts(false, 'S', 'false');
// To I: trimmed decimals, truncated toward zero.
converts(' 42 ', 'I', 42);
converts('3.9', 'I', 3);
converts('-3.9', 'I', -3);
converts('-0.4', 'I', 0);
converts('+7', 'I', 7);
converts('1e3', 'I', 1000);
converts(3.9, 'I', 3);
converts(-3.9, 'I', -3);
converts(true, 'I', 1);
converts(false, 'I', 0);
converts(9007199254740991, 'I', 9007199254740991);
rejects('abc', 'I');
rejects('', 'I');
rejects('0x10', 'I');
rejects('1,5', 'I');
rejects('Infinity', 'I');
rejects('9007199254740993', 'I');
rejects(2 ** 60, 'I');
rejects(Number.NaN, 'I');
rejects(null, 'I');
// To F: decimals with a "." separator, finite only.
converts(' 2.5 ', 'F', 2.5);
converts('.5', 'F', 0.5);
converts(-0.25, 'F', -0.25);
converts(true, 'F', 1);
converts(false, 'F', 0);
rejects('2,5', 'F');
rejects('NaN', 'F');
rejects('1e400', 'F');
rejects(Number.POSITIVE_INFINITY, 'F');
rejects(Number.NEGATIVE_INFINITY, 'F');
rejects(null, 'F');
// To B: words, numbers, booleans.
for (const word of ['true', ' TRUE ', '1', 'on', 'Yes'])
    converts(word, 'B', true);
for (const word of ['false', 'False', '0', 'OFF', ' no'])
    converts(word, 'B', false);
converts(2, 'B', true);
converts(-0.5, 'B', true);
converts(0, 'B', false);
converts(true, 'B', true);
converts(false, 'B', false);
rejects('maybe', 'B');
rejects('', 'B');
rejects(Number.NaN, 'B');
rejects(null, 'B');
// To T: everything fires, null included.
for (const raw of ['x', '', 0, 12.5, true, false, null])
    converts(raw, 'T', true);
// Neither objects, arrays nor missing values convert to anything.
for (const type of ['S', 'B', 'I', 'F', 'T']) {
    rejects({}, type);
    rejects([1], type);
    rejects(undefined, type);
}
rejects(null, 'S');
test('a trigger fire converts like the trigger column of the table', (t) => {
    const fire = convert(null, 'T');
    if (!fire.ok)
        return t.fail();
    t.deepEqual(convert(fire.value, 'S'), { ok: true, value: 'true' });
    t.deepEqual(convert(fire.value, 'I'), { ok: true, value: 1 });
    t.deepEqual(convert(fire.value, 'F'), { ok: true, value: 1 });
    t.deepEqual(convert(fire.value, 'B'), { ok: true, value: true });
});
test('the wire form of a value is its string form', (t) => {
    t.is(toWire('a b'), 'a b');
    t.is(toWire(0.5), '0.5');
    t.is(toWire(-3), '-3');
    t.is(toWire(false), 'false');
    t.is(toWire(true), 'true');
});
