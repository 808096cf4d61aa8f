/**
 * The console's flow tab (R-ED1–R-ED3) in Chromium, on a real hub process and a real file:
 * an edit saved changes the file by exactly its lines and runs; a mistake is shown at its path
 * and nothing is written; a second browser that saves after the first is told, shown the
 * difference, and keeps its edit; a token without `admin` sees no flow tab; restore brings the
 * first version back byte for byte. With PATCHBAY_SCREENSHOTS, pictures of the tab on a desktop
 * and a phone are taken there (docs/console-flow-*.png).
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionContext } from 'ava';
import type { Page } from 'playwright-core';
import { live, openBrowser, whyNoBrowser } from '../helpers/browser.ts';
import { runHub } from '../helpers/hub-process.ts';

const shots = process.env['PATCHBAY_SCREENSHOTS'];

const original = `// Studio A: written by hand, kept in git
{
  connections: {
    api: {
      type: 'rest-api',
      port: 0,
      bindIp: '127.0.0.1',
      tokens: [
        { name: 'ops', token: 'ops-flow-token', read: ['#'], write: ['#'], admin: true },
        { name: 'panel', token: 'panel-flow-token', read: ['#'], write: ['desk/#'] },
      ],
    },
    // What the presenter sees
    desk: { type: 'dummy', parameters: ['title,S,morning'] },
  },
  rules: [
    { source: 'desk/title', destinations: ['desk/title'], pipe: [] }, // placeholder rule
  ],
}
`;

/** The lines of `after` not in `before`, and the lines of `before` not in `after` (counted, in order). */
function changedLines(before: string, after: string) {
  const count = (lines: string[]) => lines.reduce((m, line) => m.set(line, (m.get(line) ?? 0) + 1), new Map<string, number>());
  const minus = (a: string[], b: string[]) => {
    const left = count(b);
    return a.filter((line) => {
      const n = left.get(line) ?? 0;
      if (n > 0) left.set(line, n - 1);
      return n === 0;
    });
  };
  const a = before.split('\n');
  const b = after.split('\n');
  return { added: minus(b, a), removed: minus(a, b) };
}

/** The original flow in a folder of its own, a hub running it, and a browser. */
async function studio(t: ExecutionContext) {
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-console-flow-'));
  const flow = join(dir, 'studio.json5');
  await writeFile(flow, original);
  const hub = await runHub(t, flow, { args: ['--state', join(dir, 'state')] });
  return { flow, hub, browser: await openBrowser(t) };
}

const flowText = (page: Page) => page.locator('[data-testid=flow-text]');

async function openFlowTab(page: Page, base: string, token: string) {
  await page.goto(`${base}/console/?access_token=${token}`);
  await page.getByRole('button', { name: 'flow' }).click();
  await flowText(page).waitFor();
  // The text is there once the hub answered (the specs run without DOM types: the code is text).
  await page.waitForFunction("document.querySelector('[data-testid=flow-text]')?.value.includes('connections')");
}

live(
  `the flow tab edits the file in place: a dummy and a timer added, the diff shown, saved, running; a mistake shown at its field${whyNoBrowser}`,
  async (t) => {
    const { flow, hub, browser } = await studio(t);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(60_000);
    await openFlowTab(page, hub.base, 'ops-flow-token');
    const shown = await flowText(page).inputValue();
    t.false(shown.includes('ops-flow-token'), 'no token reaches the browser');

    // The engineer adds two connections where they belong, and reviews before saving.
    const added = "    clock: { type: 'timer', timers: [{ duration: 5000 }] },\n    cue: { type: 'dummy', parameters: ['go,T'] },\n";
    const edited = shown.replace("    desk: { type: 'dummy', parameters: ['title,S,morning'] },\n", (line) => line + added);
    await flowText(page).fill(edited);
    await page.getByRole('button', { name: 'review changes' }).click();
    await page.locator('[data-testid=flow-diff] .added', { hasText: "clock: { type: 'timer'" }).waitFor();
    t.is(await page.locator('[data-testid=flow-diff] .removed').count(), 0, 'nothing removed');
    if (shots) await page.screenshot({ path: join(shots, 'console-flow-desktop.png') });
    await page.getByRole('button', { name: 'save', exact: true }).click();
    await page.locator('.notice', { hasText: 'saved and applied: version 2' }).waitFor();

    const saved = await readFile(flow, 'utf8');
    t.deepEqual(
      changedLines(original, saved),
      { added: added.trimEnd().split('\n'), removed: [] },
      'the file differs by the added lines alone',
    );
    t.true(saved.includes('// Studio A: written by hand, kept in git') && saved.includes('// placeholder rule'), 'comments kept');
    const cue = await fetch(`${hub.base}/parameters`, { headers: { authorization: 'Bearer ops-flow-token' } });
    t.true(
      ((await cue.json()) as { p: string }[]).some((p) => p.p === 'cue/go'),
      'the new connection runs',
    );

    // A port of 70000: refused, shown at its field, and nothing written.
    await flowText(page).fill((await flowText(page).inputValue()).replace('port: 0,', 'port: 70000,'));
    await page.getByRole('button', { name: 'save', exact: true }).click();
    await page
      .locator('[data-testid=flow-issues] li', { hasText: 'connections.api.port' })
      .filter({ hasText: 'expected an integer from 0 to 65535' })
      .waitFor();
    t.is(await readFile(flow, 'utf8'), saved);

    // A phone's picture of the tab, with the mistake listed.
    if (shots) {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: join(shots, 'console-flow-phone.png'), fullPage: true });
    }
  },
);

live(
  `a second browser saving after the first is told and shown the difference, and loses nothing; a token without admin sees no flow tab; restore brings the first version back byte for byte${whyNoBrowser}`,
  async (t) => {
    const { flow, hub, browser } = await studio(t);
    const first = await (await browser.newContext()).newPage();
    const second = await (await browser.newContext()).newPage();
    for (const page of [first, second]) page.setDefaultTimeout(60_000);
    await openFlowTab(first, hub.base, 'ops-flow-token');
    await openFlowTab(second, hub.base, 'ops-flow-token');

    await flowText(first).fill((await flowText(first).inputValue()).replace("'title,S,morning'", "'title,S,evening'"));
    await first.getByRole('button', { name: 'save', exact: true }).click();
    await first.locator('.notice', { hasText: 'saved and applied' }).waitFor();

    const mine = (await flowText(second).inputValue()).replace('// What the presenter sees', '// What the presenter sees, and reads');
    await flowText(second).fill(mine);
    await second.getByRole('button', { name: 'save', exact: true }).click();
    await second.locator('.notice', { hasText: 'changed since you opened it' }).waitFor();
    await second.locator('[data-testid=flow-diff] .removed', { hasText: "'title,S,evening'" }).waitFor();
    t.is(await flowText(second).inputValue(), mine, 'the second edit is kept in the editor');
    t.true((await readFile(flow, 'utf8')).includes("'title,S,evening'"), 'the first save is not overwritten');

    // The panel token may not read the flow: no tab.
    const panel = await (await browser.newContext()).newPage();
    await panel.goto(`${hub.base}/console/?access_token=panel-flow-token`);
    await panel.getByRole('button', { name: 'connections' }).waitFor();
    await new Promise((resolve) => setTimeout(resolve, 500));
    t.is(await panel.getByRole('button', { name: 'flow' }).count(), 0);

    // Version 1 is the file as the first save found it: back, byte for byte.
    first.on('dialog', (dialog) => void dialog.accept());
    await first.reload();
    await first.getByRole('button', { name: 'flow' }).click();
    await first.locator('[data-testid=flow-versions] tr', { hasText: 'on disk' }).getByRole('button', { name: 'restore' }).click();
    await first.locator('.notice', { hasText: 'version 1 brought back' }).waitFor();
    t.is(await readFile(flow, 'utf8'), original);
  },
);
