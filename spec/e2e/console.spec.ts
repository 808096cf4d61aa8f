import WebSocket from 'ws';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { live, openBrowser, whyNoBrowser } from '../helpers/browser.ts';
import { capturedLog, flowOf, param, startHub } from '../helpers/hub.ts';
import { serve, settle } from '../helpers/http.ts';

/** What Chromium reports the page tried and its Content-Security-Policy refused. */
function policyViolations(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) seen.push(message.text());
  });
  return seen;
}

const value = (page: Page, address: string) => page.locator(`.row[data-address="${address}"] [data-testid=value]`);
/** The "by" column of a parameter's row: who changed it last. */
const by = (page: Page, address: string) => page.locator(`.row[data-address="${address}"] .by`);

live(`the console lists connections with a failed one's reason, shows live values and writes every type${whyNoBrowser}`, async (t) => {
  // A port another process holds: the second rest-api fails, with the reason.
  const blocker = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => blocker.once('listening', resolve));
  t.teardown(() => blocker.close());
  const busy = (blocker.address() as { port: number }).port;
  const { hub, base } = await serve(
    t,
    { description: 'Dashboards and the console' },
    {
      studio: {
        type: 'dummy',
        description: 'Studio state',
        location: 'Studio A',
        group: 'on air',
        parameters: ['onair,B,false', 'program/title,S,Morning Show', 'program/level,F,0.75', 'clips,I,3', 'cue,T'],
      },
      clock: { type: 'timer', timers: [{ duration: 5 }] },
      second: { type: 'rest-api', port: busy, bindIp: '127.0.0.1' },
    },
  );
  const browser = await openBrowser(t);
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const violations = policyViolations(page);
  await page.goto(`${base}/console/`);
  await page.locator('[data-testid=link].live').waitFor();
  await value(page, 'studio/program/title').filter({ hasText: 'Morning Show' }).waitFor();
  t.is(await value(page, 'studio/program/level').textContent(), '0.75');
  t.truthy(await page.locator('.row[data-address="clock/timer/1/trigger"] .edit').filter({ hasText: 'read-only' }).count());

  // A change in the hub shows without a reload, with who made it (R-O2).
  param(hub, 'studio/clips').set(4, 'rule cliplist');
  await value(page, 'studio/clips').filter({ hasText: /^4$/ }).waitFor();
  t.is(await by(page, 'studio/clips').textContent(), 'rule cliplist');
  t.is((await fetch(`${base}/update?parameter=studio/clips&value=5`)).status, 200);
  await value(page, 'studio/clips').filter({ hasText: /^5$/ }).waitFor();
  t.is(await by(page, 'studio/clips').textContent(), 'http 127.0.0.1');
  t.regex(
    (await value(page, 'studio/clips').getAttribute('title')) ?? '',
    /^last changed by http 127\.0\.0\.1, \d{4}-\d\d-\d\d [0-2]\d:[0-5]\d:[0-5]\d$/,
  );

  // Each type's editor writes, and the value comes back.
  await page.getByLabel('new value for studio/program/title').fill('Evening News');
  await page.getByLabel('new value for studio/program/title').press('Enter');
  await value(page, 'studio/program/title').filter({ hasText: 'Evening News' }).waitFor();
  t.is(param(hub, 'studio/program/title').value, 'Evening News');
  t.is(await by(page, 'studio/program/title').textContent(), 'ws 127.0.0.1', "the console's own write, by its socket");
  await page.getByLabel('new value for studio/program/level').fill('0.5');
  await page.getByLabel('new value for studio/program/level').press('Enter');
  await value(page, 'studio/program/level')
    .filter({ hasText: /^0\.5$/ })
    .waitFor();
  t.is(param(hub, 'studio/program/level').value, 0.5);
  await page.getByLabel('new value for studio/clips').fill('12');
  await page.getByLabel('new value for studio/clips').press('Enter');
  await value(page, 'studio/clips').filter({ hasText: /^12$/ }).waitFor();
  await page.getByLabel('set studio/onair').click();
  await value(page, 'studio/onair').filter({ hasText: 'true' }).waitFor();
  t.is(param(hub, 'studio/onair').value, true);
  const fires: unknown[] = [];
  param(hub, 'studio/cue').changes$.subscribe((v) => fires.push(v));
  await page.getByLabel('fire studio/cue').click();
  await value(page, 'studio/cue')
    .filter({ hasText: /^fired / })
    .waitFor();
  t.deepEqual(fires, [true]);
  // Who changed it last, from GET /parameters, once listed again.
  await page.reload();
  await value(page, 'studio/program/title').filter({ hasText: 'Evening News' }).waitFor();
  t.regex((await value(page, 'studio/program/title').getAttribute('title')) ?? '', /last changed by ws 127\.0\.0\.1/);

  // A text that holds a bidi override (a device's, a module's) shows the control as a mark, not reordered.
  param(hub, 'studio/program/title').set('cam \u202Eevil.exe', 'rule spoof');
  await value(page, 'studio/program/title').filter({ hasText: 'cam ⟨U+202E⟩evil.exe' }).waitFor();

  // Search by text and by expression.
  await page.getByLabel('search parameters').fill('level');
  await page.locator('.row[data-address]').first().waitFor();
  t.deepEqual(await page.locator('.row[data-address]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-address'))), [
    'studio/program/level',
  ]);
  await page.getByLabel('search parameters').fill('/^studio/(onair|clips)$/');
  await page.locator('.row[data-address="studio/clips"]').waitFor();
  await page.waitForFunction("document.querySelectorAll('.row[data-address]').length === 2");
  await page.getByLabel('search parameters').fill('');

  await page.getByRole('button', { name: 'connections' }).click();
  const second = page.locator('[data-connection=second]');
  await second.locator('.badge.failed').waitFor();
  t.regex((await second.locator('.reason').textContent()) ?? '', /in use/);
  t.regex((await page.locator('[data-connection=studio]').textContent()) ?? '', /Studio A · on air/);

  // Phone: nothing wider than the screen.
  await page.setViewportSize({ width: 390, height: 800 });
  await page.getByRole('button', { name: 'parameters' }).click();
  await value(page, 'studio/onair').waitFor();
  t.false(await page.evaluate('document.documentElement.scrollWidth > window.innerWidth'), 'the page is wider than a phone');

  // Disconnected (the rest-api goes in a reload): a write is refused where the user sees it.
  await hub.reload(flowOf({ connections: { studio: { type: 'dummy', parameters: ['onair,B,false', 'program/title,S,Morning Show'] } } }));
  await page.locator('[data-testid=link].disconnected').waitFor();
  await page.getByLabel('new value for studio/program/title').fill('Lost');
  await page.getByLabel('new value for studio/program/title').press('Enter');
  await page.locator('.notice.error').filter({ hasText: 'not connected: studio/program/title was not written' }).waitFor();
  t.not(param(hub, 'studio/program/title').value, 'Lost');
  t.deepEqual(violations, [], 'the console keeps to its Content-Security-Policy');
});

live(`the console follows a reload that adds and removes a connection, without a page reload${whyNoBrowser}`, async (t) => {
  const api = { type: 'rest-api', port: 0, bindIp: '127.0.0.1' };
  const { hub, base } = await serve(
    t,
    {},
    { old: { type: 'dummy', parameters: ['gone,S,bye'] }, kept: { type: 'dummy', parameters: ['x,I,1'] } },
  );
  const browser = await openBrowser(t);
  const page = await browser.newPage();
  await page.goto(`${base}/console/`);
  await value(page, 'old/gone').filter({ hasText: 'bye' }).waitFor();
  // The same rest-api settings as serve's: the connection stays, and so does the page's socket.
  await hub.reload(
    flowOf({ connections: { api, kept: { type: 'dummy', parameters: ['x,I,1'] }, fresh: { type: 'dummy', parameters: ['hello,S,hi'] } } }),
  );
  await value(page, 'fresh/hello').filter({ hasText: 'hi' }).waitFor();
  await page.locator('.row[data-address="old/gone"]').waitFor({ state: 'detached' });
  t.is(await page.locator('.row.group').filter({ hasText: 'old' }).count(), 0);
});

live(`the console opens with a token sign-in and with Basic authentication${whyNoBrowser}`, async (t) => {
  const { base } = await serve(t, { token: 'studio-token' }, { studio: { type: 'dummy', parameters: ['onair,B,true'] } });
  const browser = await openBrowser(t);
  const page = await browser.newPage();
  await page.goto(`${base}/console/?access_token=studio-token`);
  t.is(new URL(page.url()).search, '', 'the token left the address bar');
  await page.locator('[data-testid=link].live').waitFor();
  await value(page, 'studio/onair').filter({ hasText: 'true' }).waitFor();

  const basic = await serve(t, { username: 'op', password: 'secret' }, { studio: { type: 'dummy', parameters: ['onair,B,false'] } });
  t.is((await fetch(`${basic.base}/console/`)).status, 401);
  const context = await browser.newContext({ httpCredentials: { username: 'op', password: 'secret' } });
  const signedIn = await context.newPage();
  await signedIn.goto(`${basic.base}/console/`);
  await signedIn.locator('[data-testid=link].live').waitFor();
  await value(signedIn, 'studio/onair').filter({ hasText: 'false' }).waitFor();
  await signedIn.getByLabel('set studio/onair').click();
  await value(signedIn, 'studio/onair').filter({ hasText: 'true' }).waitFor();
});

live(`the console shows 50,000 parameters and scrolls to the last of them${whyNoBrowser}`, async (t) => {
  const parameters = Array.from({ length: 50_000 }, (_, i) => `p/${String(i).padStart(5, '0')},I,${i}`);
  const { hub, base } = await serve(t, {}, { big: { type: 'dummy', parameters } });
  const browser = await openBrowser(t);
  const page = await browser.newPage();
  await page.goto(`${base}/console/`);
  await value(page, 'big/p/00000').filter({ hasText: /^0$/ }).waitFor({ timeout: 60_000 });
  // Only what is in view is in the page.
  t.true((await page.locator('.row[data-address]').count()) < 100);
  await page.locator('.tree').evaluate((tree) => (tree.scrollTop = tree.scrollHeight));
  await value(page, 'big/p/49999')
    .filter({ hasText: /^49999$/ })
    .waitFor();
  param(hub, 'big/p/49999').set(7);
  await value(page, 'big/p/49999').filter({ hasText: /^7$/ }).waitFor();
  await page.getByLabel('search parameters').fill('p/4242');
  await value(page, 'big/p/42420').waitFor();
  t.is(await page.locator('.row[data-address]').count(), 10);
});

live(`the console's log shows the hub's lines live at the chosen level, and a scoped token may not read it${whyNoBrowser}`, async (t) => {
  const { log } = capturedLog('info');
  const api = { type: 'rest-api', port: 0, bindIp: '127.0.0.1' };
  const hub = await startHub(t, { connections: { api, vars: { type: 'dummy', parameters: ['a,I,1'] } } }, { log });
  const base = `http://127.0.0.1:${hub.connection('api')!.info.details?.['port'] as number}`;
  const browser = await openBrowser(t);
  // A browser whose locale writes 12-hour times: the console still shows the log's 24-hour ones.
  const page = await browser.newPage({ locale: 'en-US', timezoneId: 'America/New_York' });
  await page.goto(`${base}/console/`);
  await page.getByRole('button', { name: 'log' }).click();
  await page.locator('.log .muted').filter({ hasText: 'live' }).waitFor();
  await hub.reload(
    flowOf({ connections: { api, vars: { type: 'dummy', parameters: ['a,I,1'] }, fresh: { type: 'dummy', parameters: ['b,S'] } } }),
  );
  await page
    .locator('.lines li')
    .filter({ hasText: /reload/i })
    .first()
    .waitFor();
  const times = await page.locator('.lines li > span:first-child').allTextContents();
  t.true(times.length > 0);
  for (const time of times) t.regex(time, /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}$/, 'HH:MM:ss.mmm, as the hub logs');
  // Every status the page shows from here on: the new stream's, not the end of the one it replaces.
  await page.evaluate(`(() => {
    const log = document.querySelector('.log');
    const status = () => log.querySelector('.muted').textContent;
    window.shown = [status()];
    const record = () => window.shown.at(-1) !== status() && window.shown.push(status());
    new MutationObserver(record).observe(log, { subtree: true, childList: true, characterData: true });
  })()`);
  await page.getByLabel('log level').selectOption('error');
  await page.locator('.log .muted').filter({ hasText: 'live' }).waitFor();
  await settle(500);
  t.deepEqual(await page.evaluate('window.shown'), ['live', 'connecting', 'live'], 'the status of the stream of the new level');
  t.is(await page.locator('.lines li').count(), 0, 'a new level starts a new stream');

  // The log names every address and client: a token scoped to some addresses may not read it.
  const scoped = await serve(
    t,
    { tokens: [{ name: 'desk', token: 'desk-token', read: ['vars/#'] }] },
    { vars: { type: 'dummy', parameters: ['a,I,1'] } },
  );
  const status = await new Promise<number>((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${scoped.port}/ws?log=info&access_token=desk-token`);
    ws.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    ws.on('open', () => resolve(101));
  });
  t.is(status, 403);
});

live(`the console lists the rules in the order they run, each under its folders with its problems${whyNoBrowser}`, async (t) => {
  const hub = await startHub(t, {
    connections: {
      api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' },
      studio: { type: 'dummy', parameters: ['fader,F,0', 'level,F,0'] },
    },
    rules: [
      { source: 'studio/fader', destinations: ['studio/level'], pipe: [{ scale: [0, 1, 0, 100] }] },
      { source: 'studio/fader', destinations: ['studio/missing'], description: 'to nowhere' },
      { folder: 'studio A', rules: [{ folder: 'mics', rules: [{ source: 'studio/level', destinations: ['studio/fader'] }] }] },
    ],
  });
  const base = `http://127.0.0.1:${hub.connection('api')?.info.details?.['port'] as number}`;
  const browser = await openBrowser(t);
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${base}/console/`);
  await page.locator('[data-testid=link].live').waitFor();
  await page.getByRole('button', { name: 'rules' }).click();
  const working = page.locator('li[data-rule="rules[0]"]');
  await working.waitFor();
  t.regex((await working.textContent()) ?? '', /studio\/fader → studio\/level.*scale \[0,1,0,100\]/s);
  t.false(((await working.getAttribute('class')) ?? '').includes('failing'));
  const broken = page.locator('li[data-rule="rules[1]"]');
  t.true(((await broken.getAttribute('class')) ?? '').includes('failing'));
  t.regex((await broken.textContent()) ?? '', /to nowhere.*PB_WAITING.*studio\/missing/s);
  t.is(await broken.locator('[data-testid=folders]').count(), 0, 'a rule at the top stands in no folder');
  // A rule in folders says which (R-R2).
  const filed = page.locator('li[data-rule="rules[2].rules[0].rules[0]"]');
  t.is(await filed.locator('[data-testid=folders]').textContent(), 'studio A / mics /');
});

live(
  `the rules tab says a rule that holds state in words: what it holds, from which sources, and when, and who else writes what it holds (R-RS1–R-RS4)${whyNoBrowser}`,
  async (t) => {
    const hub = await startHub(t, {
      connections: {
        api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' },
        atem: { type: 'dummy', parameters: ['program,I,1', 'preview,I,2', 'input/{1..2}/tally/program,B,false'] },
        umd: { type: 'dummy', parameters: ['display/{1..2}/red,B', 'display/1/green,B', 'display/1/text,S'] },
        desk: { type: 'dummy', parameters: ['override,B,false'] },
        deck: {
          type: 'satellite',
          port: 0,
          bindIp: '127.0.0.1',
          keys: [{ device: 'd', key: 0, press: 'toggle', target: 'umd/display/1/green' }],
        },
      },
      rules: [
        {
          from: { prg: 'atem/program', pvw: 'atem/preview' },
          to: 'umd/display/1/green',
          expr: 'pvw == 1 && prg != 1',
          description: 'camera 1 green',
        },
        { from: 'atem/input/+/tally/program', to: 'umd/display/{1}/red' },
        { from: 'atem/program', to: 'umd/display/1/text', expr: "concat('CAM ', value)", on: 'change' },
        { source: 'desk/override', destinations: ['umd/display/2/red'] },
      ],
    });
    const base = `http://127.0.0.1:${hub.connection('api')?.info.details?.['port'] as number}`;
    const browser = await openBrowser(t);
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${base}/console/`);
    await page.locator('[data-testid=link].live').waitFor();
    await page.getByRole('button', { name: 'rules' }).click();
    const green = page.locator('li[data-rule="rules[0]"] [data-testid=held]');
    await green.waitFor();
    t.regex(
      (await green.innerText())?.replace(/\s+/g, ' ') ?? '',
      /umd\/display\/1\/green holds pvw == 1 && prg != 1 with prg from atem\/program, pvw from atem\/preview now, and again whenever its device is back/,
    );
    t.regex(
      (await page.locator('li[data-rule="rules[1]"] [data-testid=held]').innerText())?.replace(/\s+/g, ' ') ?? '',
      /umd\/display\/\{1\}\/red holds the value of atem\/input\/\+\/tally\/program .*for every parameter its source pattern matches/,
    );
    t.regex(
      (await page.locator('li[data-rule="rules[2]"] [data-testid=held]').innerText())?.replace(/\s+/g, ' ') ?? '',
      /umd\/display\/1\/text is written concat\('CAM ', value\) with value from atem\/program when a source changes/,
    );
    // Two writers of one lamp, at both (R-RS4): a rule and a forwarding rule, a rule and a key's press.
    const conflicts = async (path: string) => page.locator(`li[data-rule="${path}"] [data-testid=conflict]`).allInnerTexts();
    t.deepEqual(await conflicts('rules[1]'), [
      'two writers rules[3].destinations: umd/display/2/red is written by rules[1] too (as umd/display/{1}/red): a rule that holds state should be its one writer (the last write would win); give them one rule with an expression over both, or say how they join with the same combine on each',
    ]);
    t.is((await conflicts('rules[3]')).length, 1);
    t.deepEqual(await conflicts('rules[0]'), [
      'two writers connections.deck.keys[0].target: umd/display/1/green is held by rules[0]: what this writes lasts only until that rule writes again; let the rule read it instead (a source of its expression), or write another parameter',
    ]);
    t.deepEqual(await conflicts('rules[2]'), []);
    if (process.env['PATCHBAY_SCREENSHOTS']) await page.screenshot({ path: process.env['PATCHBAY_SCREENSHOTS'] });
  },
);

live(
  `the console shows what a parameter says of itself: its label, a choice's label, a unit, a picker and a fader (R-PK6)${whyNoBrowser}`,
  async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'patchbay-console-meta-'));
    await writeFile(
      join(dir, 'desk.js'),
      `export default ({ define }) => {
  define('level', { type: 'F', initial: -6, meta: { label: 'Programme level', unit: 'dB', minimum: -60, maximum: 10, step: 0.5 } });
  const source = define('source', { type: 'I', initial: 1, meta: { label: 'Programme source', description: 'What goes to air', choices: [{ value: 1, label: 'Camera 1' }, { value: 2, label: 'Camera 2' }, { value: 3, label: 'Replay' }] } });
  define('rename', { type: 'S', access: 'write-only', onWrite: (name) => {
    source.describe({ label: 'Programme source', choices: [{ value: 1, label: 'Camera 1' }, { value: 2, label: 'Camera 2' }, { value: 3, label: name }] });
    return { ok: true, value: true };
  } });
};
`,
    );
    const hub = await startHub(
      t,
      {
        connections: { api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' }, studio: { type: 'dummy', parameters: ['plain,I,4'] } },
        flows: ['desk.js'],
      },
      { dir },
    );
    const base = `http://127.0.0.1:${hub.connection('api')?.info.details?.['port'] as number}`;
    const browser = await openBrowser(t);
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${base}/console/`);
    await page.locator('[data-testid=link].live').waitFor();
    const row = (address: string) => page.locator(`.row[data-address="${address}"]`);
    await row('desk/source').locator('.label').filter({ hasText: 'Programme source' }).waitFor();
    t.is(await value(page, 'desk/source').textContent(), 'Camera 1', 'the value by its choice');
    t.is(await value(page, 'desk/level').textContent(), '-6 dB', 'a number with its unit');
    t.is(await row('studio/plain').locator('.address').textContent(), 'plain', 'a parameter that says nothing shows its id');

    await page.getByLabel('choose desk/source').selectOption({ label: 'Replay' });
    await value(page, 'desk/source').filter({ hasText: 'Replay' }).waitFor();
    t.is(param(hub, 'desk/source').value, 3, "the choice's own value is written");

    // Said anew in the hub (a source renamed): the console shows it without a reload.
    t.is((await fetch(`${base}/update?parameter=desk/rename&value=Slow%20motion`)).status, 200);
    await value(page, 'desk/source').filter({ hasText: 'Slow motion' }).waitFor();

    const fader = page.getByLabel('slide desk/level');
    t.is(await fader.getAttribute('min'), '-60');
    t.is(await fader.getAttribute('max'), '10');
    t.is(await fader.getAttribute('step'), '0.5');
    await fader.fill('2.5');
    await value(page, 'desk/level').filter({ hasText: '2.5 dB' }).waitFor();
    t.is(param(hub, 'desk/level').value, 2.5);
    if (process.env['PATCHBAY_SCREENSHOTS']) await page.screenshot({ path: join(process.env['PATCHBAY_SCREENSHOTS'], 'console-meta.png') });

    // The search finds a parameter by the label it says of itself, as well as by its address (issue 74 item 7).
    await page.getByPlaceholder('search, or /expression/').fill('programme level');
    await row('desk/source').waitFor({ state: 'detached' });
    t.is(await row('desk/level').count(), 1, 'found by its label');
    await page.getByPlaceholder('search, or /expression/').fill('plain');
    await row('desk/level').waitFor({ state: 'detached' });
    t.is(await row('studio/plain').count(), 1, 'and by its address');
  },
);
