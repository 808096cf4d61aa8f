/**
 * The console's flow tab (R-ED1–R-ED3) in Chromium, on a real hub process and a real file:
 * connections and a rule added from forms change the file by exactly their lines and run; a
 * mistake is refused at its field and nothing is written; the text edited directly likewise; a second browser that saves after the first is told, shown the
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

/** The text view's editor (CodeMirror's content, in the view's shadow root: locators reach it). */
const flowText = (page: Page) => page.locator('[data-testid=flow-text]');

/** The text the editor holds, as CodeMirror has it (the page shows only the lines in view). */
const editorText = (page: Page) =>
  page.evaluate(`(async () => {
    const { EditorView } = await import('/console/vendor/@codemirror/view.js');
    const editor = document.querySelector('.flow-source').shadowRoot.querySelector('.cm-editor');
    return EditorView.findFromDOM(editor).state.doc.toString();
  })()`) as Promise<string>;
/** One of the flow tab's views: connections, rules or text. */
const flowView = (page: Page, name: string) => page.getByRole('navigation', { name: 'flow views' }).getByRole('button', { name });

async function openFlowTab(page: Page, base: string, token: string) {
  await page.goto(`${base}/console/?access_token=${token}`);
  await page.getByRole('button', { name: 'flow', exact: true }).click();
  await page.locator('[data-testid=flow-connections] tr', { hasText: 'desk' }).waitFor();
}

/** A new connection of a built-in type, picked from the catalogue "add a connection" opens. */
async function addFromCatalogue(page: Page, type: string) {
  await page.getByRole('button', { name: 'add a connection' }).click();
  const entry = page
    .locator('[data-testid=catalogue] .catalogue-entry[data-kind=built-in]')
    .filter({ has: page.getByText(type, { exact: true }) });
  await entry.getByRole('button', { name: 'add' }).click();
}

async function openFlowText(page: Page, base: string, token: string) {
  await openFlowTab(page, base, token);
  await flowView(page, 'text').click();
  await flowText(page).filter({ hasText: 'connections' }).waitFor();
}

/** A parameter's value as the ops token reads it. */
async function valueAt(base: string, address: string) {
  const response = await fetch(`${base}/parameters/${address}`, { headers: { authorization: 'Bearer ops-flow-token' } });
  return response.ok ? response.text() : `HTTP ${response.status}`;
}

live(
  `connections and a rule added from forms: the diff shown, saved, the file changed by the added lines alone, the rule running; a port of 70000 refused at its field, nothing written${whyNoBrowser}`,
  async (t) => {
    const { flow, hub, browser } = await studio(t);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(60_000);
    page.on('pageerror', (error) => t.log(`page error: ${error.message}`));
    await openFlowTab(page, hub.base, 'ops-flow-token');
    await page.locator('[data-testid=flow-connections] tr', { hasText: 'desk' }).locator('.badge.ok').waitFor();

    // A dummy, from the catalogue and its form: the id, and its parameter lines.
    await addFromCatalogue(page, 'dummy');
    const form = page.locator('[data-testid=connection-form]');
    await form.getByLabel('id *').fill('cue');
    await form.getByRole('button', { name: 'add a parameter' }).click();
    await form.getByLabel('parameter 1 id').fill('go');
    await form.getByLabel('parameter 1 type').selectOption('trigger');
    await form.getByRole('button', { name: 'add a parameter' }).click();
    await form.getByLabel('parameter 2 id').fill('shown');
    // What it says of itself (R-PK6), as fields by parameter: no JSON box.
    const describe = form.locator('[data-field$=".describe"]');
    t.is(await describe.locator('textarea').count(), 0, 'describe is a form, not a JSON box');
    await describe.getByLabel('new describe name').fill('shown');
    await describe.getByRole('button', { name: 'add to describe' }).click();
    await describe.getByLabel('label').fill('Shown title');
    await form.getByRole('button', { name: 'apply to the flow' }).click();
    await page.locator('[data-testid=flow-connections] tr', { hasText: 'cue' }).waitFor();

    // A timer with one timer of 5 s: a nested list, an entry added.
    await addFromCatalogue(page, 'timer');
    await form.getByLabel('id *').fill('clock');
    await form.getByRole('button', { name: 'add to timers' }).click();
    await form.getByLabel('duration', { exact: false }).fill('5000');
    if (shots) await page.screenshot({ path: join(shots, 'console-flow-form.png'), fullPage: true });
    await form.getByRole('button', { name: 'apply to the flow' }).click();
    await page.locator('[data-testid=flow-connections] tr', { hasText: 'clock' }).waitFor();

    // A rule into the studio folder-less list: the pickers complete from live addresses, and take one not there yet.
    await flowView(page, 'rules').click();
    await page.getByRole('button', { name: 'add a forwarding rule' }).click();
    const rule = page.locator('[data-testid=rule-form]');
    t.true((await rule.locator('#readable-addresses option[value="desk/title"]').count()) === 1, 'the source picker offers live addresses');
    await rule.getByLabel('source *').fill('desk/title');
    await rule.getByLabel('destination 1').fill('cue/shown');
    // A step with a form control of its own: a delay's milliseconds typed as a number, no JSON.
    await rule.getByRole('button', { name: 'add a step' }).click();
    await rule.getByLabel('step 1').selectOption('delay');
    await rule.locator('[data-field$="pipe.0.delay"] input').fill('250');
    await rule.getByRole('button', { name: 'apply to the flow' }).click();
    await page.locator('[data-testid=flow-rules] .rule-text', { hasText: 'desk/title → cue/shown · delay' }).waitFor();
    // A folder, added and renamed: its name typed in place (no browser prompt), a space in it.
    let prompted = false;
    page.on('dialog', (dialog) => {
      prompted ||= dialog.type() === 'prompt';
      void dialog.dismiss();
    });
    await page.getByRole('button', { name: 'add a folder' }).click();
    await page.getByLabel("the new folder's name").fill('studio');
    await page.getByLabel("the new folder's name").press('Enter');
    await page.locator('[data-testid=flow-rules] .folder-name', { hasText: 'studio' }).waitFor();
    await page.locator('[data-testid=flow-rules] .folder').getByRole('button', { name: 'rename' }).click();
    // Typed key by key, as a person types: a space inside a folder's summary types a space, it does not fold the folder.
    await page.getByLabel("the folder's new name").fill('');
    await page.getByLabel("the folder's new name").pressSequentially('studio A');
    await page.locator('[data-testid=flow-rules] .folder').getByRole('button', { name: 'ok' }).click();
    await page.locator('[data-testid=flow-rules] .folder-name', { hasText: 'studio A' }).waitFor();
    t.false(prompted, 'no prompt() asked for a name');

    // What a save will change, before it is applied: lines added, none removed.
    await page.locator('[data-testid=flow-diff] .added', { hasText: "type: 'timer'" }).waitFor();
    t.is(await page.locator('[data-testid=flow-diff] .removed').count(), 0, 'nothing removed');
    if (shots) await page.screenshot({ path: join(shots, 'console-flow-desktop.png') });
    await page.getByRole('button', { name: 'save', exact: true }).click();
    await page.locator('.notice', { hasText: 'saved and applied: version 2' }).waitFor();

    const saved = await readFile(flow, 'utf8');
    const { added, removed } = changedLines(original, saved);
    t.deepEqual(removed, [], `the file differs by added lines alone:\n${saved}`);
    t.true(added.some((line) => line.includes("type: 'timer'")) && added.some((line) => line.includes("'go,T'")));
    t.true(
      added.some((line) => line.includes("label: 'Shown title'")),
      'the label set in the form',
    );
    t.true(
      added.some((line) => line.includes("{ source: 'desk/title', destinations: ['cue/shown'], pipe: [{ delay: 250 }] }")),
      saved,
    );
    t.true(
      added.some((line) => line.includes("{ folder: 'studio A', rules: [] }")),
      saved,
    );
    t.true(saved.includes('// Studio A: written by hand, kept in git') && saved.includes('// placeholder rule'), 'comments kept');
    const written = await fetch(`${hub.base}/update`, {
      method: 'POST',
      headers: { authorization: 'Bearer ops-flow-token', 'content-type': 'application/json' },
      body: JSON.stringify({ parameter: 'desk/title', value: 'evening news' }),
    });
    t.is(written.status, 200);
    const deadline = Date.now() + 20_000;
    while ((await valueAt(hub.base, 'cue/shown')) !== 'evening news' && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    t.is(await valueAt(hub.base, 'cue/shown'), 'evening news', 'the rule runs');

    // A port of 70000 in the rest-api's form: refused at its field, nothing changed or written.
    await flowView(page, 'connections').click();
    await page.locator('[data-testid=flow-connections] tr', { hasText: 'rest-api' }).getByRole('button', { name: 'edit' }).click();
    await form.locator('[id="field-connections.api.port"]').fill('70000');
    await form.getByRole('button', { name: 'apply to the flow' }).click();
    await form.locator('[data-field="connections.api.port"] .field-error', { hasText: 'expected an integer from 0 to 65535' }).waitFor();
    t.is(await readFile(flow, 'utf8'), saved);
    t.true(await page.getByRole('button', { name: 'save', exact: true }).isDisabled(), 'nothing to save');

    // A phone's picture of the form, with the mistake at its field.
    if (shots) {
      await page.setViewportSize({ width: 390, height: 844 });
      await form.locator('[data-field="connections.api.port"]').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(shots, 'console-flow-phone.png') });
    }
  },
);

live(
  `a tally display's addresses typed as lines, a number a line, with no JSON: written as a list of numbers${whyNoBrowser}`,
  async (t) => {
    const { flow, hub, browser } = await studio(t);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(60_000);
    await openFlowTab(page, hub.base, 'ops-flow-token');
    await addFromCatalogue(page, 'tsl-umd');
    const form = page.locator('[data-testid=connection-form]');
    await form.getByLabel('id *').fill('umd');
    await form.getByLabel('version *').selectOption('3.1');
    // What matters in one mode alone is shown in that mode (appliesWhen).
    const shown = async (setting: string) => (await form.locator(`[id="field-connections.umd.${setting}"]`).count()) === 1;
    await form.getByLabel('mode *').selectOption('receive');
    t.deepEqual(
      [await shown('bindIp'), await shown('maxDisplays'), await shown('allow'), await shown('repeat'), await shown('host')],
      [true, true, true, false, true],
      'receive: where to listen and how many displays; no repeat',
    );
    await form.getByLabel('mode *').selectOption('send');
    t.deepEqual(
      [
        await shown('bindIp'),
        await shown('maxDisplays'),
        await shown('allow'),
        await shown('repeat'),
        await shown('host'),
        await shown('connectTimeout'),
      ],
      [false, false, false, true, true, false],
      'send: the repeat and the device, no listening settings; a connect timeout over tcp only',
    );
    await form.locator('[id="field-connections.umd.port"]').fill('8900');
    await form.locator('[id="field-connections.umd.host"]').fill('127.0.0.1');
    await form.locator('[id="field-connections.umd.displays"]').fill('1\n2\n3');
    await form.getByRole('button', { name: 'apply to the flow' }).click();
    await page.locator('[data-testid=flow-diff] .added', { hasText: 'displays: [1, 2, 3]' }).waitFor();
    await page.getByRole('button', { name: 'save', exact: true }).click();
    await page.locator('.notice', { hasText: 'saved and applied' }).waitFor();
    t.true((await readFile(flow, 'utf8')).includes('displays: [1, 2, 3]'));
    // What was said on the flow tab is not news on another.
    await page.getByRole('button', { name: 'parameters', exact: true }).click();
    t.is(await page.locator('p.notice').textContent(), '');
  },
);

live(
  `a rule that holds state made from its form: sources by name, an expression whose mistake is shown at its field with the column, written as the guide writes it, running, and edited in the same form (R-RS1, R-RS2)${whyNoBrowser}`,
  async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'patchbay-console-held-'));
    const flow = join(dir, 'studio.json5');
    await writeFile(
      flow,
      original.replace(
        "    desk: { type: 'dummy', parameters: ['title,S,morning'] },",
        "    desk: { type: 'dummy', parameters: ['title,S,morning'] },\n    atem: { type: 'dummy', parameters: ['program,I,2', 'preview,I,1'] },\n    umd: { type: 'dummy', parameters: ['red,B', 'green,B'] },",
      ),
    );
    const hub = await runHub(t, flow, { args: ['--state', join(dir, 'state')] });
    const browser = await openBrowser(t);
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    page.setDefaultTimeout(60_000);
    await openFlowTab(page, hub.base, 'ops-flow-token');
    await flowView(page, 'rules').click();
    await page.getByRole('button', { name: 'add a rule that holds state' }).click();
    const form = page.locator('[data-testid=held-rule-form]');
    await form.getByLabel('source 1 name').fill('prg');
    await form.getByLabel('source 1', { exact: true }).fill('atem/program');
    await form.getByRole('button', { name: 'add a source' }).click();
    await form.getByLabel('source 2 name').fill('pvw');
    await form.getByLabel('source 2', { exact: true }).fill('atem/preview');
    await form.getByLabel('writes to 1').fill('umd/green');
    await form.getByLabel('what it says').fill('pvw == 2 && prg =! 2');
    await form.getByRole('button', { name: 'apply to the flow' }).click();
    await form
      .getByRole('alert')
      .filter({ hasText: /^column \d+: / })
      .waitFor();
    await form.getByLabel('with other writers of its destination').selectOption('any');
    if (shots) await page.screenshot({ path: join(shots, 'console-held-rule-form.png'), fullPage: true });
    await form.getByLabel('what it says').fill('pvw == 2 && prg != 2');
    t.is(await form.getByRole('alert').count(), 0, 'the mistake goes as its field is edited');
    await form.getByRole('button', { name: 'apply to the flow' }).click();
    await page
      .locator('[data-testid=flow-rules] .rule-text', { hasText: 'atem/program, atem/preview → umd/green · pvw == 2 && prg != 2' })
      .waitFor();
    await page.getByRole('button', { name: 'save', exact: true }).click();
    await page.locator('.notice', { hasText: 'saved and applied' }).waitFor();
    const saved = await readFile(flow, 'utf8');
    t.regex(
      saved,
      /\{ from: \{ prg: 'atem\/program', pvw: 'atem\/preview' \}, to: 'umd\/green', expr: 'pvw == 2 && prg != 2', combine: 'any' \}/,
    );
    // Held: preview 1, program 2 says false now; preview 2 on another program says true.
    const deadline = Date.now() + 10_000;
    while ((await valueAt(hub.base, 'umd/green')) !== 'false' && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    t.is(await valueAt(hub.base, 'umd/green'), 'false', 'written when the rule starts');
    await fetch(`${hub.base}/update?parameter=atem/preview&value=2`, { headers: { authorization: 'Bearer ops-flow-token' } });
    await fetch(`${hub.base}/update?parameter=atem/program&value=3`, { headers: { authorization: 'Bearer ops-flow-token' } });
    while ((await valueAt(hub.base, 'umd/green')) !== 'true' && Date.now() < deadline + 10_000)
      await new Promise((resolve) => setTimeout(resolve, 50));
    t.is(await valueAt(hub.base, 'umd/green'), 'true');

    // Edited in its own form, as written.
    await page.locator('[data-testid=flow-rules] li.rule', { hasText: 'umd/green' }).getByRole('button', { name: 'edit' }).click();
    t.is(await form.getByLabel('source 2 name').inputValue(), 'pvw');
    t.is(await form.getByLabel('what it says').inputValue(), 'pvw == 2 && prg != 2');
    t.is(await form.getByLabel('with other writers of its destination').inputValue(), 'any');
  },
);

live(`a connection removed takes the rules that name it, said in the confirm first, and the save is taken${whyNoBrowser}`, async (t) => {
  const { flow, hub, browser } = await studio(t);
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(60_000);
  await openFlowTab(page, hub.base, 'ops-flow-token');
  let asked = '';
  page.on('dialog', (dialog) => {
    asked = dialog.message();
    void dialog.accept();
  });
  await page.locator('[data-testid=flow-connections] tr', { hasText: 'desk' }).getByRole('button', { name: 'remove' }).click();
  await page.locator('.notice', { hasText: 'connection desk removed, with the rule that named it' }).waitFor();
  t.regex(asked, /The rule that names it goes? with it:\n {2}desk\/title → desk\/title/);
  await page.getByRole('button', { name: 'save', exact: true }).click();
  await page.locator('.notice', { hasText: 'saved and applied' }).waitFor();
  const saved = await readFile(flow, 'utf8');
  t.false(saved.includes("desk: { type: 'dummy'") || saved.includes("source: 'desk/title'"), saved);
});

live(`discarding changes not saved asks first; a no keeps them${whyNoBrowser}`, async (t) => {
  const { hub, browser } = await studio(t);
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(60_000);
  await openFlowTab(page, hub.base, 'ops-flow-token');
  await page.locator('[data-testid=flow-connections] tr', { hasText: 'desk' }).getByRole('button', { name: 'disable' }).click();
  await page.locator('.notice', { hasText: 'connection desk disabled' }).waitFor();
  const answers = [false, true];
  const asked: string[] = [];
  page.on('dialog', (dialog) => {
    asked.push(dialog.message());
    void (answers.shift() ? dialog.accept() : dialog.dismiss());
  });
  const discard = page.getByRole('button', { name: 'discard' });
  await discard.click();
  t.false(await discard.isDisabled(), 'a no keeps the changes');
  await discard.click();
  await page.locator('[data-testid=flow-connections] tr', { hasText: 'desk' }).getByRole('button', { name: 'disable' }).waitFor();
  t.true(await discard.isDisabled(), 'a yes discards them');
  t.deepEqual(asked, ['Discard the changes not saved yet?', 'Discard the changes not saved yet?']);
});

live(
  `the text edited directly, with the schema's completion and the hub's marks: saved by its lines alone; a mistake marked, listed at its path, nothing written${whyNoBrowser}`,
  async (t) => {
    const { flow, hub, browser } = await studio(t);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(60_000);
    page.on('pageerror', (error) => t.log(`page error: ${error.message}`));
    await openFlowText(page, hub.base, 'ops-flow-token');
    const shown = await editorText(page);
    t.false(shown.includes('ops-flow-token'), 'no token reaches the browser');
    // A connection typed key by key: the schema offers `type`, then the types.
    await page.locator('.cm-line', { hasText: 'desk:' }).click();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('cue: { ty');
    await page.keyboard.press('Control+Space');
    // Chosen with the mouse: an Enter right as the list opens is a new line, by CodeMirror's design.
    await page.locator('.cm-tooltip-autocomplete li', { hasText: 'type' }).first().click();
    await page.keyboard.press('Control+Space');
    await page.locator('.cm-tooltip-autocomplete li', { hasText: "'dummy'" }).click();
    await page.locator('.cm-line', { hasText: "cue: { type: 'dummy'" }).waitFor();
    await flowText(page).fill(
      (await editorText(page)).replace(/ {4}cue: \{ type: 'dummy'.*\n/, "    cue: { type: 'dummy', parameters: ['go,T'] },\n"),
    );
    const added = "    cue: { type: 'dummy', parameters: ['go,T'] },\n";
    t.is(
      await editorText(page),
      shown.replace("    desk: { type: 'dummy', parameters: ['title,S,morning'] },\n", (line) => line + added),
    );
    await page.getByRole('button', { name: 'review changes' }).click();
    await page.locator('[data-testid=flow-diff] .added', { hasText: "cue: { type: 'dummy'" }).waitFor();
    await page.getByRole('button', { name: 'save', exact: true }).click();
    await page.locator('.notice', { hasText: 'saved and applied: version 2' }).waitFor();
    const saved = await readFile(flow, 'utf8');
    t.deepEqual(changedLines(original, saved), { added: [added.trimEnd()], removed: [] });

    await flowView(page, 'text').click();
    await flowText(page).fill((await editorText(page)).replace('port: 0,', 'port: 70000,'));
    // The hub's check, a pause after typing: the value marked where it stands, and listed.
    await flowText(page).locator('.cm-lintRange-error', { hasText: '70000' }).waitFor();
    await page.locator('[data-testid=flow-issues] li', { hasText: 'connections.api.port' }).waitFor();
    if (shots) await page.screenshot({ path: join(shots, 'console-flow-text.png') });
    await page.getByRole('button', { name: 'save', exact: true }).click();
    await page
      .locator('[data-testid=flow-issues] li', { hasText: 'connections.api.port' })
      .filter({ hasText: 'expected an integer from 0 to 65535' })
      .waitFor();
    t.is(await readFile(flow, 'utf8'), saved);
  },
);

live(
  `a second browser saving after the first is told and shown the difference, and loses nothing; a token without admin sees no flow tab; restore brings the first version back byte for byte${whyNoBrowser}`,
  async (t) => {
    const { flow, hub, browser } = await studio(t);
    const first = await (await browser.newContext()).newPage();
    const second = await (await browser.newContext()).newPage();
    for (const page of [first, second]) page.setDefaultTimeout(60_000);
    await openFlowText(first, hub.base, 'ops-flow-token');
    await openFlowText(second, hub.base, 'ops-flow-token');

    await flowText(first).fill((await editorText(first)).replace("'title,S,morning'", "'title,S,evening'"));
    await first.getByRole('button', { name: 'save', exact: true }).click();
    await first.locator('.notice', { hasText: 'saved and applied' }).waitFor();

    const mine = (await editorText(second)).replace('// What the presenter sees', '// What the presenter sees, and reads');
    await flowText(second).fill(mine);
    await second.getByRole('button', { name: 'save', exact: true }).click();
    await second.locator('.notice', { hasText: 'changed since you opened it' }).waitFor();
    await second.locator('[data-testid=flow-diff] .removed', { hasText: "'title,S,evening'" }).waitFor();
    t.is(await editorText(second), mine, 'the second edit is kept in the editor');
    t.true((await readFile(flow, 'utf8')).includes("'title,S,evening'"), 'the first save is not overwritten');

    // The panel token may not read the flow, nor follow the log: no tab for either.
    const panel = await (await browser.newContext()).newPage();
    await panel.goto(`${hub.base}/console/?access_token=panel-flow-token`);
    await panel.getByRole('button', { name: 'connections' }).waitFor();
    await new Promise((resolve) => setTimeout(resolve, 500));
    t.is(await panel.getByRole('button', { name: 'flow', exact: true }).count(), 0);
    t.is(await panel.getByRole('button', { name: 'log', exact: true }).count(), 0);
    t.is(await first.getByRole('button', { name: 'log', exact: true }).count(), 0, 'admin without metrics: no log either');

    // Version 1 is the file as the first save found it: back, byte for byte.
    first.on('dialog', (dialog) => void dialog.accept());
    await first.reload();
    await first.getByRole('button', { name: 'flow', exact: true }).click();
    // What bringing it back would change, before it is brought back.
    await first.locator('[data-testid=flow-versions] tr', { hasText: 'on disk' }).getByRole('button', { name: 'changes' }).click();
    await first.locator('[data-testid=flow-version-diff] .removed', { hasText: "'title,S,evening'" }).waitFor();
    await first.locator('[data-testid=flow-version-diff] .added', { hasText: "'title,S,morning'" }).waitFor();
    // On a phone every version's buttons are in reach, not past the screen's edge in a table to scroll sideways.
    await first.setViewportSize({ width: 390, height: 844 });
    const versions = first.locator('[data-testid=flow-versions]');
    t.true(await versions.evaluate((table) => table.scrollWidth <= table.clientWidth), 'the versions fit the phone');
    await versions.locator('tr', { hasText: 'on disk' }).getByRole('button', { name: 'restore' }).click();
    await first.locator('.notice', { hasText: 'version 1 brought back' }).waitFor();
    t.is(await readFile(flow, 'utf8'), original);
  },
);

live(
  `an edit made with the forms, found behind another save, is made again on the file as it is: both changes saved${whyNoBrowser}`,
  async (t) => {
    const { flow, hub, browser } = await studio(t);
    const first = await (await browser.newContext()).newPage();
    const second = await (await browser.newContext()).newPage();
    for (const page of [first, second]) page.setDefaultTimeout(60_000);
    await openFlowText(first, hub.base, 'ops-flow-token');
    await openFlowTab(second, hub.base, 'ops-flow-token');

    // The second adds a connection with the form; meanwhile the first saves a change of its own.
    await addFromCatalogue(second, 'dummy');
    const form = second.locator('[data-testid=connection-form]');
    await form.getByLabel('id *').fill('cue');
    await form.getByRole('button', { name: 'add a parameter' }).click();
    await form.getByLabel('parameter 1 id').fill('go');
    await form.getByLabel('parameter 1 type').selectOption('trigger');
    await form.getByRole('button', { name: 'apply to the flow' }).click();
    await flowText(first).fill((await editorText(first)).replace("'title,S,morning'", "'title,S,evening'"));
    await first.getByRole('button', { name: 'save', exact: true }).click();
    await first.locator('.notice', { hasText: 'saved and applied' }).waitFor();

    await second.getByRole('button', { name: 'save', exact: true }).click();
    await second.locator('.notice', { hasText: 'the forms can make yours again on the file as it is' }).waitFor();
    await second.getByRole('button', { name: 'make mine on the file as it is' }).click();
    await second.locator('.notice', { hasText: 'your changes are made on the file as it is now' }).waitFor();
    await second.locator('[data-testid=flow-diff] .added', { hasText: 'cue: {' }).waitFor();
    t.is(await second.locator('[data-testid=flow-diff] .removed').count(), 0, 'nothing of the other save is undone');
    await second.getByRole('button', { name: 'save', exact: true }).click();
    await second.locator('.notice', { hasText: 'saved and applied' }).waitFor();
    const saved = await readFile(flow, 'utf8');
    t.true(saved.includes("'title,S,evening'"), saved);
    t.regex(saved, /cue: \{\s*type: 'dummy',\s*parameters: \['go,T'\]/);
  },
);

live(`a connection watched in the connections tab is one click from its form in the flow tab${whyNoBrowser}`, async (t) => {
  const { hub, browser } = await studio(t);
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(60_000);
  await page.goto(`${hub.base}/console/?access_token=ops-flow-token`);
  await page.locator('header nav button', { hasText: 'connections' }).click();
  await page.getByRole('button', { name: 'edit desk' }).click();
  const form = page.locator('[data-testid=connection-form]');
  t.is(await form.getByLabel('id *').inputValue(), 'desk');
  // Its parameter lines as a list: the id, its type by name, what it starts at.
  t.is(await form.getByLabel('parameter 1 id').inputValue(), 'title');
  t.is(await form.getByLabel('parameter 1 type').inputValue(), 'text');
  t.is(await form.getByLabel('parameter 1 starts at').inputValue(), 'morning');
});

live(`what validate would warn of in a connection added from its form is said as it is applied${whyNoBrowser}`, async (t) => {
  const { hub, browser } = await studio(t);
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(60_000);
  await openFlowTab(page, hub.base, 'ops-flow-token');
  await addFromCatalogue(page, 'satellite');
  const form = page.locator('[data-testid=connection-form]');
  await form.getByLabel('id *').fill('desk2');
  await form.getByRole('button', { name: 'apply to the flow' }).click();
  const notice = page.locator('.notice.error', { hasText: 'connection desk2 added, not saved yet; mind:' });
  await notice.waitFor();
  t.regex(await notice.innerText(), /connections\.desk2\.bindIp: peers on every machine .*set bindIp/);
});

live(`on a hub without credentials the flow tab says the editor is off and what to do, and offers no editor${whyNoBrowser}`, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-console-flow-'));
  const flow = join(dir, 'studio.json5');
  await writeFile(
    flow,
    "{ connections: { api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' }, desk: { type: 'dummy', parameters: ['title,S,morning'] } } }\n",
  );
  const hub = await runHub(t, flow, { args: ['--state', 'none'] });
  const browser = await openBrowser(t);
  const page = await browser.newPage({ viewport: { width: 1100, height: 600 } });
  page.setDefaultTimeout(60_000);
  await page.goto(`${hub.base}/console/`);
  await page.getByRole('button', { name: 'flow', exact: true }).click();
  await page.locator('[data-testid=editor-locked]').waitFor();
  t.regex(await page.locator('[data-testid=editor-locked]').innerText(), /The flow editor is off[\s\S]*token[\s\S]*Securing a site/);
  t.is(await page.locator('[data-testid=flow-text]').count(), 0, 'no editor');
  if (shots) await page.screenshot({ path: join(shots, 'console-flow-locked.png') });
});
