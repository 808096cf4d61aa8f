import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { readdirSync } from 'node:fs';
import test from 'ava';
import { Ajv } from 'ajv';
import JSON5 from 'json5';
import { flowFileJsonSchema, loadFlowFile, validateFlow } from '../../lib/config/flow-file.ts';
import { connectionTypes } from '../../lib/config/connection-types.ts';
import { fingerprintOf } from '../../lib/connections/connection.ts';
import { formatIssue } from '../../lib/core/issue.ts';
import { substituteEnvironment } from '../../lib/config/environment.ts';

const messagesOf = (document: unknown) => {
  const result = validateFlow(document, '/virtual/flow.json5');
  return result.ok ? [] : result.issues.map(formatIssue);
};

async function tempFile(t: { teardown(f: () => void): void }, name: string, text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-flow-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

/** Every registered type, as the schema's messages list them. */
const typeNames = connectionTypes.map(({ type }) => `"${type}"`).join(', ');

test('every mistake is reported at once, each with its JSON path and what was expected', (t) => {
  t.deepEqual(
    messagesOf({
      connections: {
        clock: { type: 'timer', pulses: [{ interval: 'fast' }] },
        vars: { type: 'dummy', parameters: 42, colour: 'red' },
        Studio: { type: 'dummy' },
        x: { type: 'dumy' },
        y: {},
      },
      rules: [{ source: 'vars', destinations: [] }],
      extra: true,
    }),
    [
      'extra: unknown key; expected one of $schema, connections, rules, flows, plugins, outputFolder, companionModules, machineEdits, durability',
      'connections.Studio: "Studio" is not a valid connection id: 1–64 characters of a-z, 0-9 and -, starting with a letter or digit',
      'connections.clock.pulses[0].interval: expected an integer of at least 10',
      'connections.vars.colour: unknown key; expected one of type, enabled, description, location, group, debug, persist, statusParameters, isolate, maxMemoryMb, hangMs, parameters, describe',
      'connections.vars.parameters: expected a string or a list, each a string',
      `connections.x.type: expected one of ${typeNames}`,
      `connections.y.type: missing; expected one of ${typeNames}`,
      'rules[0].source: expected an address <connection id>/<parameter id>',
      'rules[0].destinations: expected a list of at least 1 entry, each an address <connection id>/<parameter id>',
    ],
  );
});

test('a list bounded on both sides says both bounds, whichever it broke', (t) => {
  t.deepEqual(messagesOf({ connections: { web: { type: 'http-client', requests: [] } } }), [
    'connections.web.requests: expected a list of 1 to 256 entries',
  ]);
});

test('the rule tree is checked to any depth', (t) => {
  t.deepEqual(
    messagesOf({
      rules: [
        { folder: 'studio', rules: [{ folder: 'deeper', enabled: 'no', rules: [{ source: 'a/b', destinations: ['c/d'], pipe: [{}] }] }] },
      ],
    }),
    [
      'rules[0].rules[0].enabled: expected true or false',
      'rules[0].rules[0].rules[0].pipe[0]: expected a step: an object with one key, one of filter, map, set, not, scale, round, format, debounce, throttle, delay, edge, toggle',
      'rules[0].rules[0].rules[0].source: no connection "a" in this flow file (connections: none)',
      'rules[0].rules[0].rules[0].destinations[0]: no connection "c" in this flow file (connections: none)',
    ],
  );
});

test('an empty document is a valid flow with nothing in it', (t) => {
  const result = validateFlow({}, '/virtual/flow.json5');
  t.true(result.ok);
  if (result.ok) t.deepEqual([result.flow.connections, result.flow.rules, result.flow.flows], [[], [], []]);
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
  if (!result.ok) t.is(result.error.message, '/nonexistent/flow.json5: no such file');
});

test('relative paths resolve against the flow file folder, and missing flows are reported', async (t) => {
  const path = await tempFile(t, 'flow.json5', "{ flows: ['./code.mjs', 'gone.mjs'] }");
  const dir = path.slice(0, -'/flow.json5'.length);
  await writeFile(join(dir, 'code.mjs'), 'export default () => {}\n');
  const result = await loadFlowFile(path);
  t.false(result.ok);
  if (!result.ok) t.deepEqual(result.issues.map(formatIssue), [`flows[1]: no such file: ${dir}/gone.mjs`]);
  await writeFile(join(dir, 'gone.mjs'), 'export default () => {}\n');
  const fixed = await loadFlowFile(path);
  t.true(fixed.ok);
  if (fixed.ok) t.deepEqual(fixed.flow.flows, [join(dir, 'code.mjs'), join(dir, 'gone.mjs')]);
});

test('the shipped flow files are valid', async (t) => {
  const result = await loadFlowFile(new URL('../../flows/demo.json5', import.meta.url).pathname);
  t.true(result.ok, result.ok ? '' : result.error.message);
});

/** The flow files the package ships: the demo and every example. */
function shippedFlows(): string[] {
  const examples = new URL('../../flows/examples/', import.meta.url).pathname;
  return [
    new URL('../../flows/demo.json5', import.meta.url).pathname,
    ...readdirSync(examples)
      .filter((name) => name.endsWith('.json5'))
      .map((name) => join(examples, name)),
  ];
}

test('the demo and every example with a rest-api listen on PORT when it is set, and on their own port when not', async (t) => {
  const shipped = shippedFlows();
  const { PORT: _, ...others } = process.env;
  const unset = { ...others, HUB_ID: 'a' }; // standby-pair names its hub
  // The examples with hubs on a broker read their site key from the process's environment (this spec file's own worker).
  process.env['PATCHBAY_SITE_KEY'] ??= 'ab'.repeat(32);
  let withApi = 0;
  for (const path of shipped) {
    const document = JSON5.parse(await readFile(path, 'utf8')) as { connections: Record<string, { type: string; port?: unknown }> };
    const apis = Object.keys(document.connections).filter((id) => document.connections[id]?.type === 'rest-api');
    if (apis.length === 0) continue;
    withApi++;
    const substituted = substituteEnvironment(document, { ...unset, PORT: '23456' }).document as typeof document;
    for (const id of apis) t.is(substituted.connections[id]?.port, '23456', `${path}: ${id}`);
    for (const env of [{ ...unset, PORT: '23456' }, unset] as NodeJS.ProcessEnv[]) {
      const result = await loadFlowFile(path, env);
      t.true(result.ok, `${path}${env['PORT'] ? ' with PORT' : ''}: ${result.ok ? '' : result.error.message}`);
    }
  }
  t.is(withApi, 22, 'the demo and 21 examples');
});

test('the demo and every example, as they ship, send to this machine only', async (t) => {
  // A user trying an example from its comment must not send a tally or a command into the
  // studio's network: a device's address is loopback until a variable (or an edit) sets it.
  const loopback = (host: string) => host === 'localhost' || host.startsWith('127.') || host === '[::1]';
  const elsewhere: string[] = [];
  const look = (value: unknown, path: string, key: string): void => {
    if (Array.isArray(value)) value.forEach((item, i) => look(item, `${path}[${i}]`, key));
    else if (typeof value === 'object' && value !== null)
      for (const [name, item] of Object.entries(value)) {
        // Who may connect (`allow`) and where the hub listens (`bindIp`) send nothing.
        if (name !== 'allow' && name !== 'bindIp') look(item, `${path}.${name}`, name);
      }
    else if (typeof value === 'string') {
      const hosts = new Set([
        ...(key === 'host' ? [value] : []),
        ...(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? [new URL(value).hostname] : []),
        ...(value.match(/\b\d{1,3}(?:\.\d{1,3}){3}\b/g) ?? []),
      ]);
      for (const host of hosts) if (!loopback(host)) elsewhere.push(`${path}: ${value}`);
    }
  };
  for (const path of shippedFlows()) {
    const document = JSON5.parse(await readFile(path, 'utf8'));
    look(substituteEnvironment(document, { HUB_ID: 'a' }).document, basename(path), '');
  }
  t.deepEqual(elsewhere, []);
});

test('flows/flow-file.schema.json is the schema the hub validates with', async (t) => {
  const committed = await readFile(new URL('../../flows/flow-file.schema.json', import.meta.url), 'utf8');
  t.is(committed, flowFileJsonSchema(), 'regenerate it with: npm run docs');
});

test('the exported schema works in a plain JSON Schema validator, as an editor would use it', async (t) => {
  const ajv = new Ajv({ strict: false });
  const validate = ajv.compile(JSON.parse(flowFileJsonSchema()) as object);
  const demo = JSON5.parse(await readFile(new URL('../../flows/demo.json5', import.meta.url), 'utf8'));
  t.true(validate(demo), JSON.stringify(validate.errors));
  const placeholders = { connections: { api: { type: 'rest-api', port: '${PORT:-17011}', console: '${CONSOLE}' } } };
  t.true(validate(placeholders), 'a placeholder where a number or a boolean is wanted, as the hub fills it in');
  t.false(validate({ connections: { api: { type: 'rest-api', port: 'http' } } }));
  t.false(validate({ connections: { a: { type: 'timer', pulses: [{ interval: 1 }] } } }));
});

test('schema mistakes and the checks beyond the schema are reported in one pass', (t) => {
  const messages = messagesOf({
    connections: {
      api: { type: 'rest-api', port: 'http', wsFilters: ['(', 'ok'] },
      core: {
        type: 'virtual-core',
        colour: 'red',
        functions: [
          { id: 'a', op: 'not', inputs: ['core/function/b'] },
          { id: 'b', op: 'not', inputs: ['core/function/a'] },
          { id: 'c', op: 'nope', inputs: ['x/y'] },
          { id: 'd', op: 'and', inputs: ['x/y'], ms: 10 },
        ],
      },
      vars: { type: 'dummy', parameters: ['a,Q'], extra: 1 },
      keys: { type: 'keyboard', inputKeys: ['ctrl-f25'], whenNoDisplay: 'sometimes' },
    },
    rules: [
      { source: 'vars/a', destinations: ['vars/a'], enabled: 'no' },
      { source: 'vars/a', destinations: ['vars/a'], pipe: [{ filter: { matches: '(' } }] },
    ],
  });
  t.deepEqual(messages, [
    'connections.api.port: expected an integer from 0 to 65535',
    'connections.core.colour: unknown key; expected one of type, enabled, description, location, group, debug, persist, statusParameters, isolate, maxMemoryMb, hangMs, logics, functions',
    'connections.core.functions[2].op: expected one of "and", "or", "xor", "nand", "nor", "not", "flipflop", "latch", "delay-on", "delay-off", "pulse"',
    'connections.vars.extra: unknown key; expected one of type, enabled, description, location, group, debug, persist, statusParameters, isolate, maxMemoryMb, hangMs, parameters, describe',
    'connections.keys.whenNoDisplay: expected one of "fail", "disable"',
    'rules[0].enabled: expected true or false',
    'connections.api.wsFilters[0]: not a regular expression the hub accepts (RE2 syntax): missing closing ): `(`',
    'connections.core.functions[3].ms: and takes no time; ms is for delay-on, delay-off, pulse',
    'connections.core.functions[0].inputs: cycle among functions: core/function/a → core/function/b → core/function/a',
    'connections.vars.parameters[0]: line 1: unknown type "Q": expected one of S, B, I, F, T',
    `connections.keys.inputKeys[0]: "ctrl-f25": unknown key name "f25"; expected ctrl, shift, alt, meta, a–z, 0–9, f1–f24, space, enter, tab, escape, up, down, left, right, home, end, pageup, pagedown, insert, delete, backspace`,
    'rules[1].pipe[0].filter.matches: not a regular expression the hub accepts (RE2 syntax): missing closing ): `(`',
  ]);
});

test('what a connection can only find out at start, the file already says: templates, folders and addresses', async (t) => {
  const path = await tempFile(t, 'flow.json5', '{}');
  const dir = path.slice(0, -'/flow.json5'.length);
  const result = validateFlow(
    {
      connections: {
        api: { type: 'rest-api', port: 0, documentRoot: 'www' },
        files: { type: 'rest-api', port: 0, documentRoot: path },
        out: { type: 'xml-file-output', filename: 'out.xml', template: '<a>\n  <b>$Title</c>\n</a>' },
        vars: { type: 'dummy', parameters: ['a'] },
      },
      rules: [
        { folder: 'f', rules: [{ source: 'vars/a', destinations: ['vars/a', 'studio/onair'] }] },
        { source: 'desk/fader', destinations: ['vars/a'] },
      ],
    },
    path,
  );
  t.false(result.ok);
  if (result.ok) return;
  t.deepEqual(result.issues.map(formatIssue), [
    `connections.api.documentRoot: no such folder: ${dir}/www`,
    `connections.files.documentRoot: not a folder: ${path}`,
    'connections.out.template: not well-formed XML: line 2, column 15: unexpected close tag.',
    'rules[0].rules[0].destinations[1]: no connection "studio" in this flow file (connections: api, files, out, vars)',
    'rules[1].source: no connection "desk" in this flow file (connections: api, files, out, vars)',
  ]);
  t.true(result.error.message.startsWith(`${path}: 5 mistakes:\n  connections.api.documentRoot: no such folder`), result.error.message);
});

test('rules may use the parameters of code flows, named after their files', async (t) => {
  const path = await tempFile(t, 'flow.json5', '{}');
  const dir = path.slice(0, -'/flow.json5'.length);
  await writeFile(join(dir, 'Peak_Hold.ts'), 'export default () => {}\n');
  const result = validateFlow(
    {
      connections: { vars: { type: 'dummy', parameters: ['a'] } },
      flows: ['Peak_Hold.ts'],
      rules: [{ source: 'peak-hold/peak', destinations: ['vars/a'] }],
    },
    path,
  );
  t.true(result.ok, result.ok ? '' : result.error.message);
});

test('environment placeholders: defaults, $${ for a literal, numbers where the schema wants one, mistakes with their paths', (t) => {
  const env = { PORT: '18000', PASS: '1234', EMPTY: '' };
  const valid = validateFlow(
    {
      connections: {
        api: {
          type: 'rest-api',
          port: '${PORT:-17011}',
          password: '${PASS}',
          username: 'u-${EMPTY:-x}',
          token: '$${TOKEN}',
          statusParameters: '${DEBUG:-true}',
        },
      },
    },
    '/virtual/flow.json5',
    env,
  );
  t.true(valid.ok, valid.ok ? '' : valid.error.message);
  if (valid.ok) {
    t.is(valid.flow.connections[0]?.plan.fingerprint, fingerprintOf({ port: 18000, password: '1234', username: 'u-x', token: '${TOKEN}' }));
    t.true(valid.flow.connections[0]?.common.statusParameters);
  }
  t.deepEqual(
    messagesOf({
      connections: { api: { type: 'rest-api', port: '${HTTP_PORT}', bindIp: 'a${b', description: '${PORT:-x} and ${PORT:-y}' } },
    }),
    [
      'connections.api.port: environment variable HTTP_PORT is not set (give a default with ${HTTP_PORT:-default})',
      'connections.api.bindIp: expected ${NAME} or ${NAME:-default} after "${" (write $${ for a literal "${")',
    ],
  );
  t.deepEqual(
    messagesOf({
      connections: { api: { type: 'rest-api', documentRoot: '${WWW_ROOT_UNSET}' } },
      rules: [{ source: '${SRC_UNSET}/x', destinations: ['api/x'] }],
    }),
    [
      'connections.api.documentRoot: environment variable WWW_ROOT_UNSET is not set (give a default with ${WWW_ROOT_UNSET:-default})',
      'rules[0].source: environment variable SRC_UNSET is not set (give a default with ${SRC_UNSET:-default})',
    ],
    'a setting whose placeholder cannot be filled in is reported once, not checked further',
  );
  const words = validateFlow({ connections: { api: { type: 'rest-api', port: '${PORT}' } } }, '/virtual/flow.json5', { PORT: 'http' });
  t.deepEqual(words.ok ? [] : words.issues.map(formatIssue), ['connections.api.port: expected an integer from 0 to 65535']);
});

test('two connections on one port, and code flows whose names clash, are mistakes of the file', async (t) => {
  const path = await tempFile(t, 'flow.json5', '{}');
  const dir = path.slice(0, -'/flow.json5'.length);
  for (const name of ['api.ts', 'meter.ts', 'Meter.mjs']) await writeFile(join(dir, name), 'export default () => {}\n');
  const result = validateFlow(
    {
      connections: {
        api: { type: 'rest-api', port: 18000 },
        local: { type: 'rest-api', port: 18000, bindIp: '127.0.0.1' },
        other: { type: 'rest-api', port: 18001, bindIp: '127.0.0.1' },
        off: { type: 'rest-api', port: 18001, enabled: false },
        free: { type: 'rest-api', port: 0 },
        free2: { type: 'rest-api', port: 0 },
      },
      flows: ['api.ts', 'meter.ts', 'Meter.mjs'],
    },
    path,
  );
  t.deepEqual(result.ok ? [] : result.issues.map(formatIssue), [
    'connections.local.port: TCP port 18000 is already claimed by connection "api" (connections.api.port); two connections cannot share it',
    `flows[0]: its id "api" (from the file name) is a connection's id; rename the file`,
    'flows[2]: its id "meter" (from the file name) is also the id of flows[1]; rename the file',
  ]);
});

test('connections with mistakes still take part in the checks across connections: cycles and ports', (t) => {
  t.deepEqual(
    messagesOf({
      connections: {
        api: { type: 'rest-api', port: 17011, wsFilters: ['('], prot: 1 },
        api2: { type: 'rest-api', port: 17011 },
        core: {
          type: 'virtual-core',
          logics: -1,
          functions: [
            { id: 'a', op: 'not', inputs: ['other/function/b'] },
            { id: 'c', op: 'pulse', inputs: ['x/y'] },
          ],
        },
        other: { type: 'virtual-core', functions: [{ id: 'b', op: 'or', inputs: ['core/function/a'] }] },
      },
    }),
    [
      'connections.api.prot: unknown key; expected one of type, enabled, description, location, group, debug, persist, statusParameters, port, bindIp, documentRoot, username, password, token, wsFilters, allowedOrigins, hostnames, cert, key, passphraseEnv, tokens, console, required, resumeWindow, resumeChanges',
      'connections.core.logics: expected an integer from 0 to 4096',
      'connections.api.wsFilters[0]: not a regular expression the hub accepts (RE2 syntax): missing closing ): `(`',
      'connections.core.functions[1].ms: missing; pulse needs a time in ms',
      'connections.core.functions[0].inputs: cycle among functions: core/function/a → other/function/b → core/function/a',
      'connections.api2.port: TCP port 17011 is already claimed by connection "api" (connections.api.port); two connections cannot share it',
    ],
  );
});

test('a site key given inline is one mistake that says what a key is, not a choice of two objects', (t) => {
  t.deepEqual(
    messagesOf({
      connections: { broker: { type: 'mqtt', url: 'mqtt://127.0.0.1', hub: { id: 'a', share: [], key: 'f'.repeat(64) } } },
    }),
    [
      'connections.broker.hub.key: expected { "file": "<path>" } or { "env": "<variable>" } that holds the site key, never the key itself (make one with: openssl rand -hex 32; see "Securing a site" in the README)',
    ],
  );
});
