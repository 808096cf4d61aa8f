/**
 * A change to the flow as the console makes one (R-ED1–R-ED3, R-ST4), without a browser: the
 * console's own modules, their requests sent to a real hub process and a real file. What the
 * forms' edits do to the file (comments kept, the rules that name a removed connection gone
 * with it), what refuses them, and what a save's answer means, in the words the console shows.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { draftOf, readFlow, saveFlow } from '../../console/api.js';
import { connectionEdits, removalEdits, ruleEdits } from '../../console/flow-document.js';
import { drafted, reloadFlow, saveAtOnce, saveOutcome, unsavedText } from '../../console/flow-edits.js';
import { eventually } from '../helpers/eventually.ts';
import { type HubProcess, runHub } from '../helpers/hub-process.ts';

const token = 'console-edits-token';
const original = `// Studio B
{
  connections: {
    api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1', tokens: [{ name: 'ops', token: '${token}', read: ['#'], write: ['#'], admin: true }] },
    // the presenter's desk
    desk: { type: 'dummy', parameters: ['title,S,morning', 'lamp,B,false'] },
    studio: { type: 'dummy', parameters: ['onair,B,false'] },
  },
  rules: [
    { source: 'studio/onair', destinations: ['desk/lamp'] },
    { folder: 'titles', rules: [{ source: 'desk/title', destinations: ['desk/title'], enabled: false }] },
  ],
}
`;

let hub: HubProcess;
let flow: string;

// The console's modules ask with relative paths and the browser's session; here they reach
// the hub by its address with the admin's token, as one console at a time (the specs run serially).
// One hub for the file, stopped after its last spec (a hook has no teardown of its own).
const stops: (() => void)[] = [];
test.after.always(() => {
  for (const stop of stops) stop();
});
test.before(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-console-edits-'));
  flow = join(dir, 'studio.json5');
  await writeFile(flow, original);
  const life = { teardown: (stop: () => void) => stops.push(stop) } as unknown as ExecutionContext;
  hub = await runHub(life, flow, { args: ['--state', join(dir, 'state')] });
  const hubFetch = globalThis.fetch;
  globalThis.fetch = (path, init = {}) =>
    hubFetch(new URL(String(path), hub.base), {
      ...init,
      headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}` },
    });
});

const valueOn = async (address: string) => (await hubFetchText(`/parameters/${address}`)).trim();
const hubFetchText = async (path: string) => (await fetch(path)).text();

test.serial('a key saved at once: the edit is in the file with its comments, the hub runs it, the notice names the version', async (t) => {
  const saved = await saveAtOnce(
    (document) => connectionEdits(document, undefined, 'clock', { type: 'dummy', parameters: ['hour,I,9'] }),
    ['connections', 'clock'],
    'connection clock added',
  );
  t.true(saved.done);
  t.regex(saved.notice?.text ?? '', /^connection clock added: saved and applied, version \d+$/);
  t.false(saved.notice?.error);
  const text = await readFile(flow, 'utf8');
  t.true(text.startsWith('// Studio B'), 'the comments stay');
  t.true(text.includes("// the presenter's desk"));
  await eventually(async () => (await valueOn('clock/hour')) === '9', 'the hub to run the added connection');
});

test.serial("a form's mistake refuses its edit at the field, and nothing is saved", async (t) => {
  const before = await readFile(flow, 'utf8');
  const saved = await saveAtOnce(
    (document) => connectionEdits(document, undefined, 'broken', { type: 'dummy', parameters: 'not a list' }),
    ['connections', 'broken'],
    'connection broken added',
  );
  t.false(saved.done);
  t.true((saved.refused ?? []).length > 0);
  t.deepEqual(saved.refused?.[0]?.path.slice(0, 2), ['connections', 'broken'], "the mistake is at the form's part");
  t.regex(saved.notice?.text ?? '', /^not saved: .+ \(shown at the fields\)$/);
  t.true(saved.notice?.error);
  t.is(await readFile(flow, 'utf8'), before, 'the file is as it was');
});

test.serial('an edit the flow already says is the same text, not a draft to review', async (t) => {
  const { text } = await readFlow();
  const made = await drafted(text, [{ op: 'set', path: ['connections', 'studio', 'type'], value: 'dummy' }], ['connections', 'studio']);
  t.deepEqual(made, { same: true });
});

test.serial('a connection removed takes the rules that name it, in folders too, and keeps the others', async (t) => {
  const { text } = await readFlow();
  const { document } = await draftOf(text, []);
  const edits = removalEdits(document as never, 'desk');
  t.deepEqual(
    edits.map((edit) => edit.path),
    [
      ['rules', 1, 'rules', 0],
      ['rules', 0],
      ['connections', 'desk'],
    ],
    'the last rule first, so the paths of the others stay',
  );
  const made = await drafted(text, edits, ['connections', 'desk']);
  if (!('draft' in made)) return t.fail(`not drafted: ${JSON.stringify(made)}`);
  t.deepEqual(made.draft.issues, [], 'no rule is left naming what is gone');
  t.deepEqual((made.draft.document as { rules: unknown[] }).rules, [{ folder: 'titles', rules: [] }]);
});

test.serial('a rule added where the flow has none makes the list; a renamed connection leaves its old id', async (t) => {
  const edits = ruleEdits({}, { path: ['rules', 0], list: ['rules'], isNew: true }, { source: 'a/b', destinations: ['c/d'] });
  t.deepEqual(edits, [
    { op: 'set', path: ['rules'], value: [] },
    { op: 'add', path: ['rules'], value: { source: 'a/b', destinations: ['c/d'] } },
  ]);
  const { text } = await readFlow();
  const { document } = await draftOf(text, []);
  const renamed = await drafted(
    text,
    connectionEdits(document as never, 'studio', 'stage', { type: 'dummy', parameters: ['onair,B,false'] }),
    ['connections', 'stage'],
  );
  if (!('draft' in renamed)) return t.fail(`not drafted: ${JSON.stringify(renamed)}`);
  t.deepEqual(Object.keys((renamed.draft.document as { connections: object }).connections), ['api', 'desk', 'clock', 'stage']);
  t.true(
    renamed.draft.issues.some((issue) => issue.path[0] === 'rules'),
    "the rule naming studio/onair is now the file's own mistake, listed, not the form's",
  );
});

test.serial('a save over a file changed since it was read saves nothing and says so; the current tag saves', async (t) => {
  const read = await readFlow();
  const first = saveOutcome(await saveFlow(read.text.replace('Studio B', 'Studio B, first'), read.etag, 'first'));
  t.true('saved' in first);
  const late = saveOutcome(await saveFlow(read.text.replace('Studio B', 'Studio B, late'), read.etag, 'late'));
  t.deepEqual(late, { changed: true });
  if ('saved' in late) return;
  t.is(unsavedText(late), 'not saved: the flow file changed since it was read');
  t.true((await readFile(flow, 'utf8')).includes('Studio B, first'), 'the first save stands');
  const broken = saveOutcome(await saveFlow('{ connections: { x: { type: "no-such-type" } } }', (await readFlow()).etag));
  t.like(broken, { mistakes: 1 });
  if ('mistakes' in broken) t.regex(unsavedText(broken), /^not saved: a mistake \(PB_\w+\)$/);
});

test.serial('a reload from the console applies the file as it is, and keeps no new version of the same text (R-PK10)', async (t) => {
  const before = await readFile(flow, 'utf8');
  const versions = async () => ((await (await fetch('/flow/history')).json()) as unknown[]).length;
  const kept = await versions();
  const reloaded = await reloadFlow('reloaded to run package x as installed');
  t.false(reloaded.error);
  t.regex(reloaded.text, /^the flow reloaded \(version \d+\): its packages are loaded as installed$/);
  t.is(await readFile(flow, 'utf8'), before, 'the file is as it was');
  t.is(await versions(), kept, 'no version of the same text kept twice');
  t.true(
    hub.messages().some((message) => message.includes('reloaded to run package x as installed')),
    'the log says why',
  );
});
