import { fileURLToPath } from 'node:url';
import { live, openBrowser, whyNoBrowser } from '../helpers/browser.ts';
import { flowOf, param } from '../helpers/hub.ts';
import { serve } from '../helpers/http.ts';
import { TcpProxy } from '../helpers/tcp-proxy.ts';

const documentRoot = fileURLToPath(new URL('../../flows/demo-www', import.meta.url));

live(`the demo page lists parameters, follows changes live and lets a user edit a value${whyNoBrowser}`, async (t) => {
  const { hub, base } = await serve(
    t,
    { documentRoot },
    {
      studio: { type: 'dummy', parameters: ['onair,B,false', 'program/title,S,Morning Show', 'program/level,F,0.75', 'cue,T', 'note,S'] },
    },
  );
  const browser = await openBrowser(t);
  const page = await browser.newPage();
  await page.goto(`${base}/`);
  await page.locator('#link.up').waitFor();
  const value = (address: string) => page.locator(`tr[data-address="${address}"] td.value`);
  // Headless Chromium asks for no icon; a browser with a window asks for the one the page names, or /favicon.ico.
  const named = await page.evaluate("document.querySelector('link[rel=icon]')?.getAttribute('href') ?? '/favicon.ico'");
  const icon = await fetch(new URL(String(named), `${base}/`));
  t.is(icon.status, 200, `the icon ${String(named)}`);
  t.is(icon.headers.get('content-type'), 'image/svg+xml');

  await t.notThrowsAsync(value('studio/program/title').filter({ hasText: 'Morning Show' }).waitFor());
  t.is(await value('studio/program/level').textContent(), '0.75');
  t.is(await value('studio/note').textContent(), 'unknown');

  // A change in the hub shows up without a reload.
  param(hub, 'studio/program/level').set(0.5);
  param(hub, 'studio/note').set('mic 2 is wet');
  await value('studio/program/level').filter({ hasText: '0.5' }).waitFor();
  await value('studio/note').filter({ hasText: 'mic 2 is wet' }).waitFor();

  // A user edits a value, ticks a box and fires a trigger.
  const fires: unknown[] = [];
  param(hub, 'studio/cue').changes$.subscribe((v) => fires.push(v));
  await page.getByLabel('new value for studio/program/title').fill('Evening News');
  await page.locator('tr[data-address="studio/program/title"] button').click();
  await value('studio/program/title').filter({ hasText: 'Evening News' }).waitFor();
  t.is(param(hub, 'studio/program/title').value, 'Evening News');
  await page.getByLabel('set studio/onair').check();
  await value('studio/onair').filter({ hasText: 'true' }).waitFor();
  t.is(param(hub, 'studio/onair').value, true);
  await page.locator('tr[data-address="studio/cue"] button').click();
  await value('studio/cue')
    .filter({ hasText: /^fired / })
    .waitFor();
  t.deepEqual(fires, [true]);

  // A value the parameter cannot take is refused with the reason shown.
  await page.getByLabel('new value for studio/program/level').fill('loud');
  await page.locator('tr[data-address="studio/program/level"] button').click();
  await page.locator('#message').filter({ hasText: 'cannot convert "loud" to float' }).waitFor();
  t.is(param(hub, 'studio/program/level').value, 0.5);
  if (process.env['PATCHBAY_SCREENSHOT']) await page.screenshot({ path: process.env['PATCHBAY_SCREENSHOT'] });
});

live(`the demo page works against a hub with a token${whyNoBrowser}`, async (t) => {
  const { base } = await serve(t, { documentRoot, token: 'studio-token' }, { studio: { type: 'dummy', parameters: ['onair,B,true'] } });
  const browser = await openBrowser(t);
  const page = await browser.newPage({ extraHTTPHeaders: { authorization: 'Bearer studio-token' } });
  await page.goto(`${base}/?access_token=studio-token`);
  await page.locator('#link.up').waitFor();
  await page.locator('tr[data-address="studio/onair"] td.value').filter({ hasText: 'true' }).waitFor();
  t.pass();
});

live(`the demo page follows reloads, updates every row it lists, clears an old error and fits a phone${whyNoBrowser}`, async (t) => {
  // wsFilters stream only studio/on…: the page still lists studio/note, so it must keep it current another way.
  const { hub, base } = await serve(
    t,
    { documentRoot, wsFilters: ['^studio/on'] },
    { studio: { type: 'dummy', parameters: ['onair,B,false', 'note,S,first', 'level,F,0.5', 'onset,S'] } },
  );
  const browser = await openBrowser(t);
  const page = await browser.newPage({ viewport: { width: 390, height: 800 } });
  await page.goto(`${base}/`);
  await page.locator('#link.up').waitFor();
  const value = (address: string) => page.locator(`tr[data-address="${address}"] td.value`);
  // Headless Chromium asks for no icon; a browser with a window asks for the one the page names, or /favicon.ico.
  const named = await page.evaluate("document.querySelector('link[rel=icon]')?.getAttribute('href') ?? '/favicon.ico'");
  const icon = await fetch(new URL(String(named), `${base}/`));
  t.is(icon.status, 200, `the icon ${String(named)}`);
  t.is(icon.headers.get('content-type'), 'image/svg+xml');
  await value('studio/note').filter({ hasText: 'first' }).waitFor();
  t.false(await page.evaluate('document.documentElement.scrollWidth > window.innerWidth'), 'the page is wider than a phone');

  param(hub, 'studio/note').set('second');
  await value('studio/note').filter({ hasText: 'second' }).waitFor();
  // "polled" marks what wsFilters keep off the socket, not a streamed parameter without a value yet.
  const polled = async (address: string) =>
    ((await page.locator(`tr[data-address="${address}"]`).getAttribute('class')) ?? '').includes('polled');
  t.true(await polled('studio/note'), 'filtered out, so polled');
  t.false(await polled('studio/onset'), 'streamed, only unknown so far');
  t.false(await polled('studio/onair'));

  // An error, then a success: the error goes.
  await page.getByLabel('new value for studio/level').fill('loud');
  await page.getByLabel('new value for studio/level').press('Enter');
  await page.locator('#message').filter({ hasText: 'cannot convert' }).waitFor();
  await page.getByLabel('new value for studio/level').fill('0.25');
  await page.getByLabel('new value for studio/level').press('Enter');
  await value('studio/level').filter({ hasText: '0.25' }).waitFor();
  await page
    .locator('#message')
    .filter({ hasText: 'cannot convert' })
    .waitFor({ state: 'detached' })
    .catch(() => undefined);
  t.is((await page.locator('#message').textContent())?.includes('cannot convert'), false);

  // A reload adds a connection (the rest-api unchanged, so the page stays connected): its
  // parameters appear without reloading the page.
  await hub.reload(
    flowOf({
      connections: {
        api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1', documentRoot, wsFilters: ['^studio/on'] },
        studio: { type: 'dummy', parameters: ['onair,B,false', 'note,S,first', 'level,F,0.5'] },
        fresh: { type: 'dummy', parameters: ['hello,S,hi'] },
      },
    }),
  );
  await value('fresh/hello').filter({ hasText: 'hi' }).waitFor();
});

live(`the demo page opens with a token in its address alone${whyNoBrowser}`, async (t) => {
  const { base } = await serve(t, { documentRoot, token: 'studio-token' }, { studio: { type: 'dummy', parameters: ['onair,B,true'] } });
  const browser = await openBrowser(t);
  const page = await browser.newPage();
  await page.goto(`${base}/?access_token=studio-token`);
  await page.locator('#link.up').waitFor();
  await page.locator('tr[data-address="studio/onair"] td.value').filter({ hasText: 'true' }).waitFor();
  t.pass();
});

live(
  `the demo page and the console come back after a cut to the values and trigger fires they missed, without a snapshot (R-W3)${whyNoBrowser}`,
  async (t) => {
    const { hub, port } = await serve(t, { documentRoot }, { studio: { type: 'dummy', parameters: ['title,S,Morning', 'cue,T'] } });
    const proxy = await TcpProxy.start(t, port);
    const base = `http://127.0.0.1:${proxy.port}`;
    const browser = await openBrowser(t);
    const demo = await browser.newPage();
    await demo.goto(`${base}/`);
    const operator = await browser.newPage();
    await operator.goto(`${base}/console/#/parameters`);
    await demo.locator('#link.up').waitFor();
    const value = (address: string) => demo.locator(`tr[data-address="${address}"] td.value`);
    await value('studio/title').filter({ hasText: 'Morning' }).waitFor();
    await operator.getByText('Morning', { exact: true }).waitFor();
    // Both were sent a change, so both have a place to come back to.
    param(hub, 'studio/title').set('Noon');
    await value('studio/title').filter({ hasText: 'Noon' }).waitFor();
    await operator.getByText('Noon', { exact: true }).waitFor();

    proxy.blackhole();
    param(hub, 'studio/title').set('Evening');
    param(hub, 'studio/cue').set(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    proxy.cut();
    await value('studio/title').filter({ hasText: 'Evening' }).waitFor();
    await value('studio/cue')
      .filter({ hasText: /^fired / })
      .waitFor();
    await operator.getByText('Evening', { exact: true }).waitFor();
    const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    t.regex(metrics, /^patchbay_websocket_comebacks_total\{result="resumed"\} 2$/m, 'both came back to what they missed');
    t.regex(metrics, /^patchbay_websocket_comebacks_total\{result="resync"\} 0$/m);
  },
);
