import test from 'ava';
import { compileFilters } from "../../lib/http/filters.js";
test('every filter compiles, and none means an empty list', (t) => {
    const compiled = compileFilters(['^studio/', 'open$']);
    t.true(compiled.ok && compiled.value.every((f) => f instanceof RegExp) && compiled.value.length === 2);
    t.deepEqual(compileFilters([]), { ok: true, value: [] });
});
test('one filter that is not a regular expression refuses them all with PB_BAD_FILTER, naming it', (t) => {
    const compiled = compileFilters(['^studio/', '(']);
    t.false(compiled.ok);
    if (!compiled.ok) {
        t.is(compiled.error.code, 'PB_BAD_FILTER');
        t.regex(compiled.error.message, /^filter "\(": not a regular expression: /);
    }
});
