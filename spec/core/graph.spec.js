import test from 'ava';
import { Graph } from "../../lib/core/graph.js";
const rw = { type: 'S', access: 'read-write' };
test('parameters are found by address, prefix and regular expression', (t) => {
    const graph = new Graph();
    for (const id of ['mic/1/open', 'mic/2/open', 'onair'])
        graph.define('studio', id, rw);
    graph.define('clock', 'pulse/1', { type: 'T', access: 'read-only' });
    t.is(graph.get('studio/onair')?.id, 'onair');
    t.is(graph.get('studio/nope'), undefined);
    t.deepEqual(graph.byPrefix('studio/mic/').map((p) => p.address), ['studio/mic/1/open', 'studio/mic/2/open']);
    t.deepEqual(graph.match(/open$/g).map((p) => p.address), ['studio/mic/1/open', 'studio/mic/2/open']);
    t.deepEqual(graph.match(/^clock\//).map((p) => p.address), ['clock/pulse/1']);
    t.is(graph.size, 4);
});
test('an address is defined once; bad and reserved ids are refused', (t) => {
    const graph = new Graph();
    t.true(graph.define('c', 'x', rw).ok);
    const twice = graph.define('c', 'x', rw);
    t.false(twice.ok);
    if (!twice.ok)
        t.is(twice.error.code, 'PB_DUPLICATE_PARAMETER');
    const bad = graph.define('c', 'a b', rw);
    if (!bad.ok)
        t.is(bad.error.code, 'PB_BAD_ADDRESS');
    const reserved = graph.define('c', '_mine', rw);
    if (!reserved.ok)
        t.is(reserved.error.code, 'PB_RESERVED_ID');
    t.true(graph.define('c', '_status/connected', rw, { reserved: true }).ok);
    t.is(graph.size, 2);
});
test('added and removed events follow every definition and removal', (t) => {
    const graph = new Graph();
    const events = [];
    graph.added$.subscribe((p) => events.push(`+${p.address}`));
    graph.removed$.subscribe((p) => events.push(`-${p.address}`));
    graph.define('a', 'x', rw);
    graph.define('a', '_status/connected', rw, { reserved: true });
    graph.define('b', 'y', rw);
    t.true(graph.remove('b/y'));
    t.false(graph.remove('b/y'));
    graph.removeParameters('a', (id) => id.startsWith('_'));
    t.deepEqual(events, ['+a/x', '+a/_status/connected', '+b/y', '-b/y', '-a/x']);
    t.deepEqual(graph.all().map((p) => p.address), ['a/_status/connected']);
});
test('a lookup says whether the connection or the parameter is unknown', (t) => {
    const graph = new Graph();
    graph.registerConnection('api');
    graph.define('studio', 'onair', rw);
    graph.registerConnection('studio');
    const codeOf = (address) => {
        const r = graph.lookup(address);
        return r.ok ? 'found' : r.error.code;
    };
    t.is(codeOf('studio/onair'), 'found');
    t.is(codeOf('studio/offair'), 'PB_UNKNOWN_PARAMETER');
    t.is(codeOf('api/x'), 'PB_UNKNOWN_PARAMETER');
    t.is(codeOf('nope/x'), 'PB_UNKNOWN_CONNECTION');
    t.is(codeOf('not an address'), 'PB_BAD_ADDRESS');
});
