import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { live, openBrowser, whyNoBrowser } from '../helpers/browser.ts';
import { param } from '../helpers/hub.ts';
import { serve } from '../helpers/http.ts';

const demoRoot = fileURLToPath(new URL('../../flows/demo-www', import.meta.url));

/** A page that tries every way a page has to change a parameter of the hub at `?target=<port>`, and reports what it saw. */
const attackPage = `<!doctype html><title>loading</title><script>
const target = 'http://127.0.0.1:' + new URLSearchParams(location.search).get('target');
const form = 'parameter=studio/onair&value=true';
const tries = [
  fetch(target + '/update', { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form }).then(() => 'sent', (e) => 'error'),
  fetch(target + '/update?' + form, { mode: 'no-cors' }).then(() => 'sent', () => 'error'),
  fetch(target + '/update', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ parameter: 'studio/onair', value: true }) })
    .then((r) => r.text(), () => 'blocked'),
  new Promise((resolve) => { const img = new Image(); img.onload = img.onerror = () => resolve('loaded'); img.src = target + '/update?' + form; }),
  new Promise((resolve) => {
    const ws = new WebSocket(target.replace('http', 'ws') + '/ws');
    ws.onopen = () => { ws.send(JSON.stringify({ p: 'studio/onair', v: true })); setTimeout(() => resolve('open'), 200); };
    ws.onerror = () => resolve('refused');
  }),
];
Promise.all(tries).then((results) => { document.title = 'done ' + JSON.stringify(results); });
</script>`;

async function pagesFolder(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'patchbay-pages-'));
  await writeFile(join(root, 'attack.html'), attackPage);
  return root;
}

live(`a page of another origin cannot write or open the socket; an allowed one can (R-H10)${whyNoBrowser}`, async (t) => {
  const root = await pagesFolder();
  const pages = await serve(t, { documentRoot: root });
  const pagesOrigin = pages.base;
  const refused = await serve(t, {}, { studio: { type: 'dummy', parameters: ['onair,B,false'] } });
  const allowed = await serve(t, { allowedOrigins: [pagesOrigin] }, { studio: { type: 'dummy', parameters: ['onair,B,false'] } });
  const browser = await openBrowser(t);

  const page = await browser.newPage();
  await page.goto(`${pagesOrigin}/attack.html?target=${refused.port}`);
  await page.waitForFunction('document.title.startsWith("done")');
  const results = JSON.parse((await page.title()).slice(5)) as string[];
  t.is(results[2], 'blocked', 'a CORS fetch gets no answer it may read');
  t.is(results[4], 'refused', 'the WebSocket does not open');
  t.is(param(refused.hub, 'studio/onair').value, false, 'no way the page had changed the parameter');

  await page.goto(`${pagesOrigin}/attack.html?target=${allowed.port}`);
  await page.waitForFunction('document.title.startsWith("done")');
  const allowedResults = JSON.parse((await page.title()).slice(5)) as string[];
  t.is(allowedResults[2], '{"ok":true}', 'an allowed origin reads the answer');
  t.is(allowedResults[4], 'open');
  t.is(param(allowed.hub, 'studio/onair').value, true);
});

live(
  `a browser signs in to a token-only hub with ?access_token= and the demo page runs on the session (R-H11)${whyNoBrowser}`,
  async (t) => {
    const { base } = await serve(
      t,
      { token: 'tok-123', documentRoot: demoRoot },
      { studio: { type: 'dummy', parameters: ['title,S,Morning'] } },
    );
    const browser = await openBrowser(t);
    const page = await browser.newPage();
    const refusedAnswer = await page.goto(`${base}/parameters/studio/title`);
    t.is(refusedAnswer?.status(), 401);
    const answer = await page.goto(`${base}/parameters/studio/title?access_token=tok-123`);
    t.is(page.url(), `${base}/parameters/studio/title`, 'the token left the address bar');
    t.is(answer?.status(), 200);
    t.is(await page.textContent('body'), 'Morning');
    const cookies = await page.context().cookies();
    t.like(cookies[0], { httpOnly: true, sameSite: 'Strict' });
    await page.goto(`${base}/`);
    await page.locator('#link.up').waitFor();
    await page.locator('tr[data-address="studio/title"] td.value').filter({ hasText: 'Morning' }).waitFor();
    t.pass();
  },
);
