/**
 * The flow file over HTTP (R-ED2, R-ED3), on a real hub process and a real file: read with
 * its ETag, saved on top of what was read and applied by a live reload, refused with every
 * mistake at its path and nothing written, never saved over a change made since, kept in
 * versions that come back byte for byte, and only for logins that may.
 */
import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { eventually } from '../helpers/eventually.ts';
import { type HubProcess, runHub } from '../helpers/hub-process.ts';

const ops = { name: 'ops', token: 'ops-editing-token', read: ['#'], write: ['#'], admin: true };
const panel = { name: 'panel', token: 'panel-editing-token', read: ['#'], write: ['desk/#'] };

/** A flow as people write them: comments, unquoted keys, single quotes, a trailing comma. */
const original = `// Studio A: the desk and its clock
{
  connections: {
    api: {
      type: 'rest-api',
      port: 0,
      bindIp: '127.0.0.1',
      tokens: ${JSON.stringify([ops, panel])},
    },
    // What the presenter sees
    desk: { type: 'dummy', parameters: ['title,S,morning'] },
  },
}
`;

async function studio(t: ExecutionContext, text = original, folder?: string) {
  const dir = folder ?? (await mkdtemp(join(tmpdir(), 'patchbay-editing-')));
  const flow = join(dir, 'studio.json5');
  await writeFile(flow, text);
  const hub = await runHub(t, flow, { args: ['--state', join(dir, 'state')] });
  return { dir, flow, hub };
}

const as = (token: string) => ({ authorization: `Bearer ${token}` });

async function getFlow(hub: HubProcess, token = ops.token) {
  const response = await fetch(`${hub.base}/flow`, { headers: as(token) });
  return { status: response.status, etag: response.headers.get('etag') ?? '', text: await response.text(), headers: response.headers };
}

async function putFlow(hub: HubProcess, text: string, ifMatch: string | undefined, token = ops.token, note?: string) {
  const response = await fetch(`${hub.base}/flow`, {
    method: 'PUT',
    headers: {
      ...as(token),
      accept: 'application/json',
      ...(ifMatch === undefined ? {} : { 'if-match': ifMatch }),
      ...(note === undefined ? {} : { 'x-patchbay-note': encodeURIComponent(note) }),
    },
    body: text,
  });
  return {
    status: response.status,
    body: (await response.json()) as {
      ok: boolean;
      code?: string;
      etag?: string;
      version?: number;
      issues?: { path: unknown[]; message: string }[];
    },
  };
}

/** A parameter's value as text, read with the admin token, or `HTTP <status>`. */
async function valueOn(hub: HubProcess, address: string) {
  const response = await fetch(`${hub.base}/parameters/${address}`, { headers: as(ops.token) });
  return response.ok ? response.text() : `HTTP ${response.status}`;
}

/** The original as a browser is shown it: the tokens hidden. */
const shown = original.replaceAll(ops.token, '••••••').replaceAll(panel.token, '••••••');

const withCount = original.replace("parameters: ['title,S,morning'] },", "parameters: ['title,S,morning', 'count,I,7'] },");

test.serial(
  'GET /flow answers the file as written and its ETag; PUT /flow with If-Match saves it, applies it by a live reload, and logs who (R-ED3)',
  async (t) => {
    const { flow, hub } = await studio(t);
    const read = await getFlow(hub);
    t.is(read.status, 200);
    t.is(read.text, shown, 'comments, quoting and order as in the file; the tokens hidden');
    t.false(read.text.includes(ops.token), 'no secret leaves the hub');
    t.regex(read.etag, /^"[\w-]+"$/);
    t.is(read.headers.get('x-patchbay-read-only'), null);
    const head = await fetch(`${hub.base}/flow`, { method: 'HEAD', headers: as(ops.token) });
    t.is(head.status, 200, 'HEAD answers as GET does, without the text');
    t.is(head.headers.get('etag'), read.etag);

    // The editor changes one line of what it was shown and sends it all back.
    const edited = read.text.replace("parameters: ['title,S,morning'] },", "parameters: ['title,S,morning', 'count,I,7'] },");
    const saved = await putFlow(hub, edited, read.etag);
    t.is(saved.status, 200, JSON.stringify(saved.body));
    t.true(saved.body.ok);
    t.not(saved.body.etag, read.etag);
    t.is(await readFile(flow, 'utf8'), withCount, 'the file is the text sent, its hidden tokens as they were');
    t.is(await valueOn(hub, 'desk/count'), '7', 'applied: the new parameter runs');
    t.is((await getFlow(hub)).etag, saved.body.etag ?? '');
    await eventually(
      () => hub.messages().some((m) => /^flow file saved by token ops from 127\.0\.0\.1 \(version 2\): 1 line added, 1 removed$/.test(m)),
      () => `the save in the log: ${hub.messages().join('\n')}`,
    );
  },
);

test.serial('a flow with mistakes is answered 422 with each at its path, and nothing is written or applied (R-ED2)', async (t) => {
  const { flow, hub } = await studio(t);
  const { etag } = await getFlow(hub);
  const wrong = withCount.replace("bindIp: '127.0.0.1'", "bindIp: '127.0.0.1', port: 70000").replace('port: 0,\n', '');
  const refused = await putFlow(hub, wrong, etag);
  t.is(refused.status, 422);
  t.is(refused.body.code, 'PB_FLOW_INVALID');
  t.deepEqual(refused.body.issues, [{ path: ['connections', 'api', 'port'], message: 'expected an integer from 0 to 65535' }]);
  const unreadable = await putFlow(hub, '{ connections: {', etag);
  t.is(unreadable.status, 422);
  t.regex(unreadable.body.issues?.[0]?.message ?? '', /studio\.json5:1:\d+: invalid end of input/);
  t.is(await readFile(flow, 'utf8'), original, 'the file is untouched');
  t.is(await valueOn(hub, 'desk/count'), 'HTTP 404', 'nothing applied');
});

test.serial(
  'a file changed since it was read is not saved over: 412 PB_FLOW_CHANGED with its tag now; without If-Match, 428 (R-ED3)',
  async (t) => {
    const { flow, hub } = await studio(t);
    const { etag } = await getFlow(hub);
    // Someone pulls a change from git meanwhile.
    const pulled = original.replace('morning', 'evening');
    await writeFile(flow, pulled);
    const refused = await putFlow(hub, withCount, etag);
    t.is(refused.status, 412);
    t.is(refused.body.code, 'PB_FLOW_CHANGED');
    t.is(refused.body.etag, (await getFlow(hub)).etag, 'the tag the file has now, to read it again');
    t.is(await readFile(flow, 'utf8'), pulled, 'the pulled change is not lost');
    const unconditional = await putFlow(hub, withCount, undefined);
    t.is(unconditional.status, 428);
    t.is(unconditional.body.code, 'PB_IF_MATCH_REQUIRED');
    t.is(await readFile(flow, 'utf8'), pulled);
  },
);

test.serial(
  'versions are kept in the state folder and one comes back byte for byte; each save and restore is a version (R-ED2)',
  async (t) => {
    const { dir, flow, hub } = await studio(t);
    // Named as the editor says what it changed (X-Patchbay-Note, URL-encoded): one line, at most 200 characters.
    const first = await putFlow(hub, withCount, (await getFlow(hub)).etag, ops.token, `the desk counts\nfor Zoë${'!'.repeat(300)}`);
    t.is(first.status, 200);
    const history = (await (await fetch(`${hub.base}/flow/history`, { headers: as(ops.token) })).json()) as {
      version: number;
      by: string;
      current: boolean;
      note?: string;
    }[];
    t.deepEqual(
      history.map(({ version, by, current, note }) => ({ version, by, current, note })),
      [
        { version: 1, by: 'on disk', current: false, note: undefined },
        { version: 2, by: 'token ops from 127.0.0.1', current: true, note: `the desk counts for Zoë${'!'.repeat(177)}` },
      ],
    );
    t.is(await (await fetch(`${hub.base}/flow/history/1`, { headers: as(ops.token) })).text(), shown, 'a version as shown: secrets hidden');
    const restored = await fetch(`${hub.base}/flow/restore/1`, {
      method: 'POST',
      headers: { ...as(ops.token), accept: 'application/json' },
    });
    t.is(restored.status, 200);
    t.is(await readFile(flow, 'utf8'), original, 'the first version, byte for byte');
    await eventually(async () => (await valueOn(hub, 'desk/count')) === 'HTTP 404', 'the restored flow to run');
    t.deepEqual((await readdir(join(dir, 'state', 'flow-history'))).sort(), ['1.json5', '2.json5', '3.json5', 'versions.json']);
    const missing = await fetch(`${hub.base}/flow/restore/9`, { method: 'POST', headers: as(ops.token) });
    t.is(missing.status, 404);
  },
);

test.serial('only full access or an admin token reads or changes the flow: 403 PB_FORBIDDEN for others (R-ED1, R-ED3)', async (t) => {
  const { flow, hub } = await studio(t);
  const asPanel = await getFlow(hub, panel.token);
  t.is(asPanel.status, 403);
  t.is(asPanel.headers.get('x-patchbay-code'), 'PB_FORBIDDEN');
  const { etag } = await getFlow(hub);
  const refused = await putFlow(hub, withCount, etag, panel.token);
  t.is(refused.status, 403);
  t.is(refused.body.code, 'PB_FORBIDDEN');
  t.is((await fetch(`${hub.base}/flow/history`, { headers: as(panel.token) })).status, 403);
  t.is((await fetch(`${hub.base}/flow/restore/1`, { method: 'POST', headers: as(panel.token) })).status, 403);
  t.is((await fetch(`${hub.base}/flow/schema`, { headers: as(panel.token) })).status, 403);
  t.is((await fetch(`${hub.base}/flow/draft`, { method: 'POST', headers: as(panel.token), body: '{"text":""}' })).status, 403);
  t.is((await fetch(`${hub.base}/flow`)).status, 401, 'no credentials at all');
  t.is(await readFile(flow, 'utf8'), original);
});

test.serial(
  'a flow inside an installed package (the demo) says it is read-only and refuses to save: 409 PB_FLOW_READ_ONLY (R-ED3)',
  async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'patchbay-editing-'));
    const packaged = join(dir, 'node_modules', 'some-studio');
    await mkdir(packaged, { recursive: true });
    const { flow, hub } = await studio(t, original, packaged);
    const read = await getFlow(hub);
    t.regex(decodeURIComponent(read.headers.get('x-patchbay-read-only') ?? ''), /inside an installed package/);
    const refused = await putFlow(hub, withCount, read.etag);
    t.is(refused.status, 409);
    t.is(refused.body.code, 'PB_FLOW_READ_ONLY');
    t.is(await readFile(flow, 'utf8'), original);
  },
);

test.serial(
  'a save whose reload the hub refuses (its running code flow no longer loads) puts the file back as it was: 422 (R-ED2)',
  async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'patchbay-editing-'));
    const clock = join(dir, 'clock.js');
    await writeFile(clock, "export default (hub) => { hub.define('ticks', { type: 'I', access: 'read-only' }).report(1); };\n");
    const withFlow = original.replace('  connections: {', "  flows: ['clock.js'],\n  connections: {");
    const { flow, hub } = await studio(t, withFlow, dir);
    t.is(await valueOn(hub, 'clock/ticks'), '1');
    // Someone breaks the running code flow on disk; the next save reloads it.
    await writeFile(clock, 'export default (hub) => { this is not JavaScript };\n');
    const refused = await putFlow(hub, withFlow.replace('morning', 'evening'), (await getFlow(hub)).etag);
    t.is(refused.status, 422);
    t.is(refused.body.code, 'PB_FLOW_INVALID');
    t.regex(refused.body.issues?.[0]?.message ?? '', /^the hub refused the reload, the file is as it was: .*clock/);
    t.is(await readFile(flow, 'utf8'), withFlow, 'the file as it was');
    t.is(await valueOn(hub, 'desk/title'), 'morning', 'the running flow as it was');
  },
);

test.serial(
  'a hidden secret with none to put back (a connection renamed) is refused at its path: 422, nothing written (R-ED2)',
  async (t) => {
    const { flow, hub } = await studio(t);
    const read = await getFlow(hub);
    const renamed = read.text.replace('    api: {', '    web: {');
    const refused = await putFlow(hub, renamed, read.etag);
    t.is(refused.status, 422);
    t.deepEqual(
      refused.body.issues?.map((issue) => issue.path),
      [
        ['connections', 'web', 'tokens', 0, 'token'],
        ['connections', 'web', 'tokens', 1, 'token'],
      ],
    );
    t.is(await readFile(flow, 'utf8'), original);
  },
);

async function draft(hub: HubProcess, body: unknown) {
  const response = await fetch(`${hub.base}/flow/draft`, {
    method: 'POST',
    headers: { ...as(ops.token), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    body: (await response.json()) as {
      text: string;
      issues: { path: unknown[]; message: string; from: number; to: number }[];
      document?: { connections?: Record<string, unknown> };
      code?: string;
    },
  };
}

test.serial(
  'POST /flow/draft makes edits in the text as the editor has it and checks them, each mistake placed in the text; nothing is written (R-ED1, R-ED2)',
  async (t) => {
    const { flow, hub } = await studio(t);
    const { text, etag } = await getFlow(hub);
    const added = await draft(hub, {
      text,
      edits: [{ op: 'set', path: ['connections', 'clock'], value: { type: 'timer', timers: [{ duration: 5000 }] } }],
    });
    t.is(added.status, 200);
    t.deepEqual(added.body.issues, []);
    t.true(added.body.text.startsWith(text.slice(0, text.lastIndexOf('  },\n}'))), 'the text before the new entry is as it was');
    // Written as the file writes (its neighbour api over lines, its strings mostly in double quotes).
    t.true(added.body.text.includes('    clock: {\n      type: "timer",\n      timers: [{ duration: 5000 }],\n    },\n'), added.body.text);
    t.deepEqual(Object.keys(added.body.document?.connections ?? {}), ['api', 'desk', 'clock']);
    t.false(added.body.text.includes(ops.token), 'the secrets stay hidden');

    const wrong = await draft(hub, { text, edits: [{ op: 'set', path: ['connections', 'api', 'port'], value: 70000 }] });
    t.is(wrong.status, 200);
    const [issue] = wrong.body.issues;
    t.deepEqual(issue?.path, ['connections', 'api', 'port']);
    t.regex(issue?.message ?? '', /integer from 0 to 65535/);
    t.is(wrong.body.text.slice(issue?.from, issue?.to), '70000', 'the mark is on the value');

    const nowhere = await draft(hub, { text, edits: [{ op: 'remove', path: ['connections', 'nothing'] }] });
    t.deepEqual(
      nowhere.body.issues.map((i) => i.path),
      [['connections', 'nothing']],
    );
    t.is(nowhere.body.text, text);

    const broken = await draft(hub, { text: text.replace("type: 'dummy'", 'type: dummy'), edits: [] });
    t.is(broken.body.issues.length, 1);
    t.true(broken.body.text.slice(broken.body.issues[0]?.from).startsWith('dummy'), 'a syntax mistake is placed where it stands');

    const bad = await draft(hub, { text, edits: [{ op: 'replace', path: ['x'] }] });
    t.is(bad.status, 400);
    t.is(bad.body.code, 'PB_BAD_REQUEST');
    t.is(await readFile(flow, 'utf8'), original, 'nothing written');
    t.is((await getFlow(hub)).etag, etag);

    const schema = (await (await fetch(`${hub.base}/flow/schema`, { headers: as(ops.token) })).json()) as { title?: string };
    t.is(schema.title, 'patchbay flow file');
  },
);
