import { mkdtempSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { EDITOR_PACKAGES } from '../../lib/http/console.ts';
import { flowOf } from '../helpers/hub.ts';
import { Client, serve, settle } from '../helpers/http.ts';

function rootWithConsoleFile(): string {
  const root = mkdtempSync(join(tmpdir(), 'patchbay-console-'));
  mkdirSync(join(root, 'console'));
  writeFileSync(join(root, 'console', 'index.html'), 'my own console');
  return root;
}

test('R-U1 /console/ is built in: it wins over a documentRoot file, serves preact and htm as JavaScript, and console: false hands the path back', async (t) => {
  const documentRoot = rootWithConsoleFile();
  const { base } = await serve(t, { documentRoot });
  const page = await fetch(`${base}/console/`);
  t.is(page.status, 200);
  t.regex(page.headers.get('content-type') ?? '', /^text\/html/);
  const index = await page.text();
  t.regex(index, /importmap/);
  // Every module of the text editor is named in the page's import map, and served: a package
  // CodeMirror comes to need is missed by neither.
  const imports = (
    JSON.parse(/<script type="importmap">([\s\S]*?)<\/script>/.exec(index)?.[1] ?? '{}') as { imports: Record<string, string> }
  ).imports;
  const editor = EDITOR_PACKAGES.map((name) => `vendor/${name}.js`);
  t.deepEqual(
    Object.values(imports).filter((path) => !path.endsWith('.mjs')),
    editor.map((path) => `./${path}`),
  );
  for (const module of editor) {
    const source = await (await fetch(`${base}/console/${module}`)).text();
    for (const [, imported] of source.matchAll(/^(?:import|export)\b[^'"]*from '([^'.][^']*)'/gm))
      t.true(imported !== undefined && imported in imports, `${module} imports ${imported}, which the import map does not name`);
  }
  // The console is a folder of flat modules, one per view, each loaded by its name: every one is served.
  const own = readdirSync(new URL('../../console/', import.meta.url)).filter((name) => name.endsWith('.js'));
  t.true(own.includes('console.js') && own.includes('app.js'), own.join(', '));
  for (const module of ['vendor/preact.mjs', 'vendor/hooks.mjs', 'vendor/htm.mjs', ...editor, ...own]) {
    const answer = await fetch(`${base}/console/${module}`);
    t.is(answer.status, 200, module);
    t.regex(answer.headers.get('content-type') ?? '', /^text\/javascript/, module);
  }
  t.is((await fetch(`${base}/console/nothing.js`)).status, 404);
  const bare = await fetch(`${base}/console`, { redirect: 'manual' });
  t.is(bare.status, 303);
  t.is(bare.headers.get('location'), '/console/');

  const off = await serve(t, { documentRoot, console: false });
  t.is(await (await fetch(`${off.base}/console/`)).text(), 'my own console');
});

test('R-U1 /console/ follows the authentication of every path', async (t) => {
  const { base } = await serve(t, { token: 'secret' });
  t.is((await fetch(`${base}/console/`)).status, 401);
  t.is((await fetch(`${base}/console/vendor/preact.mjs`)).status, 401);
  t.is((await fetch(`${base}/console/`, { headers: { authorization: 'Bearer secret' } })).status, 200);
});

test('R-U1 ?events=1 clients are told when parameters appear or go; other clients get nothing new', async (t) => {
  const api = { type: 'rest-api', port: 0, bindIp: '127.0.0.1' };
  const { hub, port } = await serve(t, {}, { vars: { type: 'dummy', parameters: ['a,I,1'] } });
  const plain = await Client.open(t, `ws://127.0.0.1:${port}/ws`);
  const told = await Client.open(t, `ws://127.0.0.1:${port}/ws?events=1`);
  await plain.untilCount(1);
  await told.untilCount(1);
  await hub.reload(
    flowOf({ connections: { api, vars: { type: 'dummy', parameters: ['a,I,1'] }, fresh: { type: 'dummy', parameters: ['b,S'] } } }),
  );
  await told.until((m) => m.some((item) => (item as { event?: string }).event === 'parameters'), 'the parameters event');
  await settle(300);
  t.is(told.messages.filter((item) => (item as { event?: string }).event === 'parameters').length, 1, 'one notice for the whole reload');
  t.false(plain.messages.some((item) => 'event' in (item as object)));
  await t.throwsAsync(Client.open(t, `ws://127.0.0.1:${port}/ws?events=maybe`), { message: /400/ });
});

test('R-H11 a browser that is not signed in gets a sign-in page (401) with a token field; other clients get the coded error', async (t) => {
  const { base } = await serve(t, { token: 'secret' });
  const html = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
  const page = await fetch(`${base}/console/`, { headers: { accept: html } });
  t.is(page.status, 401);
  t.regex(page.headers.get('content-type') ?? '', /^text\/html/);
  t.truthy(page.headers.get('www-authenticate'));
  const body = await page.text();
  t.regex(body, /<form[^>]*method="get"/);
  t.regex(body, /<input[^>]*name="access_token"/);
  t.regex(page.headers.get('content-security-policy') ?? '', /form-action 'self'/);
  // A wrong token is said to be wrong.
  t.regex(await (await fetch(`${base}/console/?access_token=nope`, { headers: { accept: html } })).text(), /not accepted/);
  // Scripts and JSON clients keep the short answer.
  const json = await fetch(`${base}/console/`, { headers: { accept: 'application/json' } });
  t.deepEqual(await json.json(), { ok: false, code: 'PB_UNAUTHORIZED', error: 'authentication required' });
  t.is(await (await fetch(`${base}/parameters`)).text(), 'authentication required');
});
