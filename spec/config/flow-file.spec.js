import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { Ajv } from 'ajv';
import JSON5 from 'json5';
import { flowFileJsonSchema, loadFlowFile, validateFlow } from "../../lib/config/flow-file.js";
import { formatIssue } from "../../lib/core/issue.js";
const messagesOf = (document) => {
    const result = validateFlow(document, '/virtual/flow.json5');
    return result.ok ? [] : result.issues.map(formatIssue);
};
async function tempFile(t, name, text) {
    const dir = await mkdtemp(join(tmpdir(), 'patchbay-flow-'));
    const path = join(dir, name);
    await writeFile(path, text);
    return path;
}
test('every mistake is reported at once, each with its JSON path and what was expected', (t) => {
    t.deepEqual(messagesOf({
        connections: {
            clock: { type: 'timer', pulses: [{ interval: 'fast' }] },
            vars: { type: 'dummy', parameters: 42, colour: 'red' },
            Studio: { type: 'dummy' },
            x: { type: 'dumy' },
            y: {},
        },
        rules: [{ source: 'vars', destinations: [] }],
        extra: true,
    }), [
        'extra: unknown key; expected one of connections, rules, flows, durability',
        'connections.Studio: "Studio" is not a valid connection id: 1–64 characters of a-z, 0-9 and -, starting with a letter or digit',
        'connections.clock.pulses[0].interval: expected an integer of at least 10',
        'connections.vars.colour: unknown key; expected one of type, enabled, description, location, group, debug, persist, statusParameters, parameters',
        'connections.vars.parameters: expected a string or a list, each a string',
        'connections.x.type: expected one of "dummy", "timer", "rest-api", "xml-file-output", "keyboard", "virtual-core"',
        'connections.y.type: missing; expected one of "dummy", "timer", "rest-api", "xml-file-output", "keyboard", "virtual-core"',
        'rules[0].source: expected an address <connection id>/<parameter id>',
        'rules[0].destinations: expected a list of at least 1 entry, each an address <connection id>/<parameter id>',
    ]);
});
test('the rule tree is checked to any depth', (t) => {
    t.deepEqual(messagesOf({
        rules: [{ folder: 'studio', rules: [{ folder: 'deeper', enabled: 'no', rules: [{ source: 'a/b', destinations: ['c/d'], pipe: [{}] }] }] }],
    }), [
        'rules[0].rules[0].enabled: expected true or false',
        'rules[0].rules[0].rules[0].pipe[0]: expected a step: an object with one key, one of filter, map, set, not, scale, round, format, debounce, throttle, delay, edge, toggle',
    ]);
});
test('an empty document is a valid flow with nothing in it', (t) => {
    const result = validateFlow({}, '/virtual/flow.json5');
    t.true(result.ok);
    if (result.ok)
        t.deepEqual([result.flow.connections, result.flow.rules, result.flow.flows], [[], [], []]);
    t.deepEqual(messagesOf([]), ['(document): expected an object']);
});
test('JSON5 syntax errors give the file, line and column', async (t) => {
    const path = await tempFile(t, 'broken.json5', "{\n  connections: {\n    a: { type: 'dummy' }\n  ,,\n}\n");
    const result = await loadFlowFile(path);
    t.false(result.ok);
    if (!result.ok) {
        t.is(result.error.code, 'PB_FLOW_FILE_READ');
        t.is(result.error.message, `${path}:4:4: invalid character ','`);
    }
});
test('a missing flow file is named', async (t) => {
    const result = await loadFlowFile('/nonexistent/flow.json5');
    t.false(result.ok);
    if (!result.ok)
        t.is(result.error.message, '/nonexistent/flow.json5: no such file');
});
test('relative paths resolve against the flow file folder, and missing flows are reported', async (t) => {
    const path = await tempFile(t, 'flow.json5', "{ flows: ['./code.mjs', 'gone.mjs'] }");
    const dir = path.slice(0, -'/flow.json5'.length);
    await writeFile(join(dir, 'code.mjs'), 'export default () => {}\n');
    const result = await loadFlowFile(path);
    t.false(result.ok);
    if (!result.ok)
        t.deepEqual(result.issues.map(formatIssue), [`flows[1]: no such file: ${dir}/gone.mjs`]);
    await writeFile(join(dir, 'gone.mjs'), 'export default () => {}\n');
    const fixed = await loadFlowFile(path);
    t.true(fixed.ok);
    if (fixed.ok)
        t.deepEqual(fixed.flow.flows, [join(dir, 'code.mjs'), join(dir, 'gone.mjs')]);
});
test('the shipped flow files are valid', async (t) => {
    const result = await loadFlowFile(new URL('../../flows/demo.json5', import.meta.url).pathname);
    t.true(result.ok, result.ok ? '' : result.error.message);
});
test('flows/flow-file.schema.json is the schema the hub validates with', async (t) => {
    const committed = await readFile(new URL('../../flows/flow-file.schema.json', import.meta.url), 'utf8');
    t.is(committed, flowFileJsonSchema(), 'regenerate it with: node bin/patchbay.js schema > flows/flow-file.schema.json');
});
test('the exported schema works in a plain JSON Schema validator, as an editor would use it', async (t) => {
    const ajv = new Ajv({ strict: false });
    const validate = ajv.compile(JSON.parse(flowFileJsonSchema()));
    const demo = JSON5.parse(await readFile(new URL('../../flows/demo.json5', import.meta.url), 'utf8'));
    t.true(validate(demo));
    t.false(validate({ connections: { a: { type: 'timer', pulses: [{ interval: 1 }] } } }));
});
