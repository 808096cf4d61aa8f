import { spawnSync } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { HubError } from '../../lib/core/errors.ts';
import { live, openBrowser, whyNoBrowser } from '../helpers/browser.ts';
import { capturedLog, param, startHub } from '../helpers/hub.ts';
import { freePort, serve, settle } from '../helpers/http.ts';
import { bin, runHub, terminate } from '../helpers/hub-process.ts';

const shots = process.env['PATCHBAY_SCREENSHOTS']; // a folder: the screenshots of docs/ (docs/console-*.png) are taken here

const value = (page: Page, address: string) => page.locator(`.row[data-address="${address}"] [data-testid=value]`);
const link = (page: Page) => page.locator('[data-testid=link]');

live(
  `a console signed in by token dims its values while the hub is down, stays signed in across a restart, and signs in again after a new key${whyNoBrowser}`,
  async (t) => {
    const port = await freePort();
    const dir = await mkdtemp(join(tmpdir(), 'patchbay-console-sign-in-'));
    const flow = join(dir, 'flow.json5');
    await writeFile(
      flow,
      `{ connections: { api: { type: 'rest-api', port: ${port}, bindIp: '127.0.0.1', token: 'desk-token' }, studio: { type: 'dummy', parameters: ['onair,B,true'] } } }`,
    );
    let hub = await runHub(t, flow);
    const browser = await openBrowser(t);
    const page = await browser.newPage();
    await page.goto(`${hub.base}/console/?access_token=desk-token`);
    await link(page).and(page.locator('.live')).waitFor();
    await value(page, 'studio/onair').filter({ hasText: 'true' }).waitFor();
    /** The opacity the console gives what `selector` finds (the specs run without DOM types: the code is text). */
    const opacityOf = (selector: string) =>
      page.evaluate<number>(`Number(getComputedStyle(document.querySelector(${JSON.stringify(selector)})).opacity)`);
    const opacity = () => opacityOf('.row[data-address="studio/onair"] [data-testid=value]');
    t.is(await opacity(), 1);

    // The hub goes: every value is dimmed, so an on-air tick does not look live.
    await terminate(hub);
    await link(page).and(page.locator('.disconnected')).waitFor();
    t.true((await opacity()) < 0.6, 'values are dimmed while disconnected');
    t.true((await opacityOf('.row[data-address="studio/onair"] .edit')) < 0.6, 'editors are dimmed too');

    // It comes back with the same key: the console follows, still signed in.
    hub = await runHub(t, flow);
    await link(page).and(page.locator('.live')).waitFor({ timeout: 30_000 });
    t.is(await opacity(), 1);

    // A new key signs the browser out: the console says so and offers a token field.
    const rotated = spawnSync(process.execPath, [bin, 'state', flow, 'rotate-sign-in-key'], { encoding: 'utf8' });
    t.is(rotated.status, 0, rotated.stderr);
    await terminate(hub);
    hub = await runHub(t, flow);
    await link(page).filter({ hasText: 'signed out' }).waitFor({ timeout: 30_000 });
    await page.getByLabel('token').fill('desk-token');
    await page.getByRole('button', { name: 'sign in' }).click();
    await link(page).and(page.locator('.live')).waitFor();
    await value(page, 'studio/onair').filter({ hasText: 'true' }).waitFor();

    // A page reload while signed out shows a page to sign in on, not bare text.
    spawnSync(process.execPath, [bin, 'state', flow, 'rotate-sign-in-key']);
    await page.reload();
    await page.getByLabel('token').fill('desk-token');
    await page.getByRole('button', { name: 'sign in' }).click();
    await link(page).and(page.locator('.live')).waitFor();
    t.is(new URL(page.url()).search, '', 'the token left the address bar');
  },
);

live(
  `with a scoped token the console offers editors only where the token may write, and a refusal names the address once${whyNoBrowser}`,
  async (t) => {
    const { base } = await serve(
      t,
      { tokens: [{ name: 'desk', token: 'desk-token', read: ['studio/#'], write: ['studio/clips', 'studio/mic/+/open'] }] },
      { studio: { type: 'dummy', parameters: ['onair,B,false', 'title,S,Morning', 'clips,I,3', 'mic/1/open,B,false'] } },
    );
    const browser = await openBrowser(t);
    const page = await browser.newPage();
    await page.goto(`${base}/console/?access_token=desk-token`);
    await value(page, 'studio/title').filter({ hasText: 'Morning' }).waitFor();
    for (const address of ['studio/onair', 'studio/title']) {
      t.is(await page.locator(`.row[data-address="${address}"] .edit`).textContent(), 'read-only', address);
      t.is(await page.locator(`.row[data-address="${address}"] .edit input`).count(), 0, address);
    }
    t.is(await page.getByLabel('set studio/mic/1/open').count(), 1);
    // Beyond the safe integers: refused by the hub.
    await page.getByLabel('new value for studio/clips').fill('9007199254740993');
    await page.getByLabel('new value for studio/clips').press('Enter');
    const notice = page.locator('.notice.error');
    await notice.waitFor();
    t.is(((await notice.textContent()) ?? '').split('studio/clips').length - 1, 1, (await notice.textContent()) ?? '');
  },
);

live(
  `the console switches tabs without errors, loads no missing file, is told of connection status, and keeps the log's history${whyNoBrowser}`,
  async (t) => {
    const { log } = capturedLog('info');
    const hub = await startHub(
      t,
      {
        connections: {
          api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' },
          studio: {
            type: 'dummy',
            description: 'Studio state',
            location: 'Studio A',
            parameters: [
              'onair,B,false',
              'tally/1,B,true',
              'tally/2,B,false',
              'fader,F,0.25',
              'level,F,0',
              'title,S,Morning Show',
              'cue,T',
            ],
          },
          spare: { type: 'dummy', enabled: false, parameters: ['x,I,1'] },
        },
        rules: [
          { source: 'studio/fader', destinations: ['studio/level'], pipe: [{ scale: [0, 1, 0, 100] }] },
          { source: 'studio/fader', destinations: ['studio/missing'], description: 'to nowhere' },
        ],
      },
      { log },
    );
    const base = `http://127.0.0.1:${hub.connection('api')?.info.details?.['port'] as number}`;
    // Before any page: a refused HTTP write, in the log's history.
    t.is((await fetch(`${base}/update?parameter=studio/nothing&value=1`)).status, 404);
    const browser = await openBrowser(t);
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const missing: string[] = [];
    page.on('response', (response) => response.status() === 404 && missing.push(response.url()));
    const listings: string[] = [];
    page.on('request', (request) => new URL(request.url()).pathname === '/connections' && listings.push(request.url()));
    await page.goto(`${base}/console/`);
    await link(page).and(page.locator('.live')).waitFor();
    await value(page, 'studio/title').filter({ hasText: 'Morning Show' }).waitFor();

    // A range the flow declares (the scale step's input) makes a fader.
    const fader = page.getByLabel('slide studio/fader');
    t.is(await fader.getAttribute('min'), '0');
    t.is(await fader.getAttribute('max'), '1');
    await fader.fill('0.75');
    await value(page, 'studio/fader')
      .filter({ hasText: /^0\.75$/ })
      .waitFor();
    t.is(param(hub, 'studio/fader').value, 0.75);
    t.is(param(hub, 'studio/level').value, 75);

    // Tally and on-air booleans as large tiles.
    await page.getByRole('button', { name: 'tiles' }).click();
    const tile = page.locator('.tile[data-address="studio/tally/2"]');
    t.is(await page.locator('.tile').count(), 3);
    await tile.click();
    await page.locator('.tile.on[data-address="studio/tally/2"]').waitFor();
    t.is(param(hub, 'studio/tally/2').value, true);

    for (const tab of ['connections', 'rules', 'problems', 'log', 'parameters', 'connections', 'parameters'])
      await page.getByRole('button', { name: tab, exact: false }).first().click();
    await settle(300);
    t.deepEqual(errors, [], 'no errors while switching tabs');

    // A status change is pushed, not polled.
    await page.getByRole('button', { name: 'connections' }).click();
    const before = listings.length;
    await settle(4000);
    t.is(listings.length, before, 'no polling while nothing changes');
    void hub.connection('studio')?.refuse(new HubError('PB_CONNECTION_OWNED', 'hub studio-b runs a connection "studio"'));
    await page.locator('[data-connection=studio] .badge.failed').waitFor();
    const colour = (status: string) =>
      page.evaluate<string>(`(() => {
        const probe = document.createElement('span');
        probe.className = 'badge ${status}';
        document.body.append(probe);
        const { backgroundColor, borderStyle } = getComputedStyle(probe);
        probe.remove();
        return backgroundColor + ' ' + borderStyle;
      })()`);
    t.not(await colour('degraded'), await colour('disabled'), 'degraded does not look like disabled');

    // The log: the lines from before the page opened, and a word when the hub's level hides the one chosen.
    await page.getByRole('button', { name: 'log' }).click();
    await page.locator('.lines li').filter({ hasText: 'HTTP write from 127.0.0.1 refused: studio/nothing' }).waitFor();
    t.true(
      (await page
        .locator('.lines li')
        .filter({ hasText: /listening on/ })
        .count()) > 0,
      'the start is in the history',
    );
    await page.getByLabel('log level').selectOption('debug');
    await page
      .locator('.log .hint')
      .filter({ hasText: /the hub logs at info/ })
      .waitFor();
    await page.locator('.lines li').filter({ hasText: 'HTTP write from 127.0.0.1 refused' }).waitFor();
    t.deepEqual(missing, [], 'no missing files');
    // Headless Chromium asks for no icon; a browser with a window asks for the one the page names.
    const icon = await fetch(new URL((await page.locator('link[rel=icon]').getAttribute('href')) ?? '/favicon.ico', `${base}/console/`));
    t.is(icon.status, 200);
    t.is(icon.headers.get('content-type'), 'image/svg+xml');
    t.deepEqual(errors, []);
  },
);

live(`every tab of the console fits a phone as well as a desktop${whyNoBrowser}`, async (t) => {
  const { log } = capturedLog('info');
  const hub = await startHub(
    t,
    {
      connections: {
        api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' },
        studio: {
          type: 'dummy',
          description: 'Studio state',
          location: 'Studio A',
          group: 'on air',
          parameters: [
            'onair,B,true',
            'tally/1,B,true',
            'tally/2,B,false',
            'fader,F,0.6',
            'level,F,60',
            'program/title,S,Morning Show',
            'clips,I,3',
            'cue,T',
          ],
        },
        clock: { type: 'timer', timers: [{ duration: 5 }] },
        spare: { type: 'dummy', enabled: false, description: 'Studio B, not wired yet', parameters: ['x,I,1'] },
      },
      rules: [
        { source: 'studio/fader', destinations: ['studio/level'], pipe: [{ scale: [0, 1, 0, 100] }], description: 'fader to level' },
        { folder: 'studio A', rules: [{ source: 'studio/onair', destinations: ['studio/missing'], description: 'to nowhere' }] },
      ],
    },
    { log },
  );
  const base = `http://127.0.0.1:${hub.connection('api')?.info.details?.['port'] as number}`;
  await fetch(`${base}/update?parameter=studio/clips&value=many`);
  const browser = await openBrowser(t);
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${base}/console/`);
  await link(page).and(page.locator('.live')).waitFor();
  await value(page, 'studio/program/title').filter({ hasText: 'Morning Show' }).waitFor();
  await page.getByRole('button', { name: 'tiles' }).click();
  await page.locator('.tile').first().waitFor();
  const shown: Record<string, string> = {
    parameters: '.row[data-address]',
    connections: '[data-connection=studio]',
    rules: 'li[data-rule]',
    problems: '.problems li',
    log: '.lines li',
  };
  for (const [width, name] of [
    [1280, 'desktop'],
    [390, 'phone'],
  ] as const) {
    await page.setViewportSize({ width, height: name === 'phone' ? 844 : 800 });
    for (const [tab, selector] of Object.entries(shown)) {
      await page.getByRole('button', { name: tab }).click();
      await page.locator(selector).first().waitFor();
      await settle(150);
      t.false(await page.evaluate('document.documentElement.scrollWidth > window.innerWidth'), `${tab} is wider than a ${name}`);
      if (shots) await page.screenshot({ path: `${shots}/console-${tab}-${name}.png` });
    }
  }
  // The tabs stay one row down to a small phone's 320 px, where the row scrolls sideways if it must.
  for (const width of [390, 360, 320]) {
    await page.setViewportSize({ width, height: 700 });
    await settle(150);
    const rows = await page.evaluate(
      "new Set([...document.querySelectorAll('nav button')].map((b) => b.getBoundingClientRect().top)).size",
    );
    t.is(rows, 1, `the tabs take ${String(rows)} rows at ${width} px`);
    t.false(await page.evaluate('document.documentElement.scrollWidth > window.innerWidth'), `the page is wider than ${width} px`);
  }
});
