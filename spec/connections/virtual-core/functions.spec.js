import test from 'ava';
import { TestScheduler } from 'rxjs/testing';
import { Graph } from "../../../lib/core/graph.js";
import { asBoolean, levelOf, logicFunction } from "../../../lib/connections/virtual-core/functions.js";
const levels = { t: true, f: false };
/** Runs `op` over cold input marbles and checks its output marble, in virtual time. */
function marble(op, inputs, expected, ms = 0) {
    test(`${op}: ${inputs.join(' | ')} → ${expected}`, (t) => {
        const scheduler = new TestScheduler((actual, wanted) => t.deepEqual(actual, wanted));
        scheduler.run(({ cold, expectObservable }) => {
            const streams = inputs.map((m) => cold(m, levels));
            expectObservable(logicFunction(op, streams, ms, scheduler)).toBe(expected, levels);
        });
    });
}
// Gates: the output follows the inputs, emitting only changes.
marble('and', ['f-t---f', 't---f-t'], 'f-t-f---');
marble('or', ['f-t---f', 'f---t--'], 'f-t-----');
marble('xor', ['f-t-f', 'f--t-'], 'f-tft');
marble('nand', ['t-f', 't--'], 'f-t');
marble('nor', ['f-t', 'f--'], 't-f');
marble('not', ['f-t-f'], 't-f-t');
// flipflop toggles on each rising edge of any input; the first level is a baseline.
marble('flipflop', ['t-f-t-f-t'], 'f---t---f');
marble('flipflop', ['f-t-f', 'f---t'], 'f-t-f');
// latch: set and reset are levels, reset wins.
marble('latch', ['f-t-f---t', 'f-----t-t'], 'f-t---f--');
// delay-on: true only after the input has been true for ms; false at once.
marble('delay-on', ['f-t 9ms f-t 20ms f'], 'f 23ms t 10ms f', 10);
marble('delay-on', ['f-t 3ms f'], 'f', 10);
// delay-off: true at once; false only after the input has been false for ms.
marble('delay-off', ['f-t-f 20ms t'], 'f-t 11ms f 10ms t', 10);
marble('delay-off', ['t-f 3ms t-f'], 't 17ms f', 10);
// pulse: true for ms after each rising input; a new rise restarts the window.
marble('pulse', ['f-t-f 20ms t-f'], 'f-t 9ms f 12ms t 9ms f', 10);
marble('pulse', ['f-t-f-t'], 'f-t 13ms f', 10);
test('an input that is unknown, missing or unconvertible counts as false', (t) => {
    t.false(asBoolean(undefined));
    t.false(asBoolean('maybe'));
    t.true(asBoolean('on'));
    t.true(asBoolean(3));
    t.false(asBoolean(0));
});
test('a parameter as a level follows it through removal, redefinition with another type, and triggers', (t) => {
    const graph = new Graph();
    const seen = [];
    levelOf(graph, 'a/x').subscribe((level) => seen.push(level));
    t.deepEqual(seen, [false], 'missing: false');
    const first = graph.define('a', 'x', { type: 'S', access: 'read-write' });
    if (!first.ok)
        return t.fail();
    first.value.set('yes');
    first.value.set('nonsense');
    graph.remove('a/x');
    const second = graph.define('a', 'x', { type: 'T', access: 'read-write' });
    if (!second.ok)
        return t.fail();
    second.value.set(null);
    t.deepEqual(seen, [false, false, true, false, false, false, true, false]);
});
