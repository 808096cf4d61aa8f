/**
 * Triggers from forms (R-ST5), in Chromium on a real hub process and a real file: "at 06:30 on
 * weekdays" becomes an entry of a new `schedule` connection and a rule from its fire; "when
 * desk/level is over 5" a rule with a filter step; each writes its value with a `set` step.
 * Saved, the file holds them as rules, and the condition runs: a level of 7 writes the cue.
 * With PATCHBAY_SCREENSHOTS, a picture of the form (docs/console-trigger-form.png).
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionContext } from 'ava';
import JSON5 from 'json5';
import { live, openBrowser, whyNoBrowser } from '../helpers/browser.ts';
import { eventually } from '../helpers/eventually.ts';
import { runHub } from '../helpers/hub-process.ts';

const shots = process.env['PATCHBAY_SCREENSHOTS'];
const auth = { authorization: 'Bearer ops-trigger-token' };

/**
 * A hub process on a flow file of a rest-api, the connections `connections` (JSON5 lines) and
 * the rules `rules`, and Chromium on its console's flow rules.
 */
async function rulesTab(t: ExecutionContext, connections: string, rules = '') {
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-triggers-'));
  const flow = join(dir, 'studio.json5');
  const api =
    "api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1', tokens: [{ name: 'ops', token: 'ops-trigger-token', read: ['#'], write: ['#'], admin: true }] },";
  await writeFile(flow, `{\n  connections: {\n    ${api}\n    ${connections}\n  },\n${rules ? `  rules: ${rules},\n` : ''}}\n`);
  const hub = await runHub(t, flow, { args: ['--state', 'none'] });
  const browser = await openBrowser(t);
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(60_000);
  page.on('pageerror', (error) => t.log(`page error: ${error.message}`));
  await page.goto(`${hub.base}/console/?access_token=ops-trigger-token`);
  await page.getByRole('button', { name: 'flow', exact: true }).click();
  await page.getByRole('navigation', { name: 'flow views' }).getByRole('button', { name: 'rules' }).click();
  return { flow, hub, page };
}

live(
  `triggers made from forms are rules in the file: a time of day through a schedule, a condition through a filter; the condition runs${whyNoBrowser}`,
  async (t) => {
    const { flow, hub, page } = await rulesTab(t, "desk: { type: 'dummy', parameters: ['level,I,0', 'title,S,', 'cue,S,'] },");

    // At 06:30 on weekdays, the morning title.
    await page.getByRole('button', { name: 'add a trigger' }).click();
    const form = page.locator('[data-testid=trigger-form]');
    await form.getByLabel('name *').fill('morning show');
    await form.getByLabel('at', { exact: true }).fill('06:30');
    await form.getByLabel('days').selectOption('on weekdays');
    await form.getByLabel('then write to *').fill('desk/title');
    await form.getByLabel('the value', { exact: true }).fill('Good morning');
    if (shots) await page.screenshot({ path: join(shots, 'console-trigger-form.png') });
    await form.getByRole('button', { name: 'apply to the flow' }).click();
    await page.locator('[data-testid=flow-rules] .rule-text', { hasText: 'schedule/morning-show/fire → desk/title' }).waitFor();

    // When the level is over 5, the cue.
    await page.getByRole('button', { name: 'add a trigger' }).click();
    await form.getByLabel('name *').fill('too loud');
    await form.getByLabel('when').selectOption('when a value meets a condition');
    await form.getByLabel('the value of *').fill('desk/level');
    await form.getByLabel('comparison').selectOption('is over');
    await form.getByLabel('than').fill('5');
    await form.getByLabel('then write to *').fill('desk/cue');
    await form.getByLabel('the value', { exact: true }).fill('turn it down');
    await form.getByRole('button', { name: 'apply to the flow' }).click();
    await page.locator('[data-testid=flow-rules] .rule-text', { hasText: 'desk/level → desk/cue · filter, set' }).waitFor();

    // The save is named by what the forms did, which the editor may change before saving.
    t.is(await page.getByLabel('what this save changes').inputValue(), 'trigger "morning show" added; trigger "too loud" added');
    await page.getByRole('button', { name: 'save', exact: true }).click();
    await page.locator('.notice', { hasText: 'saved and applied' }).waitFor();
    await page
      .locator('[data-testid=flow-versions] td.note', { hasText: 'trigger "morning show" added; trigger "too loud" added' })
      .waitFor();
    const saved = await readFile(flow, 'utf8');
    t.true(saved.includes("schedule: { type: 'schedule', entries: [{ id: 'morning-show', cron: '0 30 6 * * MON-FRI' }] }"), saved);
    t.deepEqual((JSON5.parse(saved) as { rules: unknown }).rules, [
      { source: 'schedule/morning-show/fire', destinations: ['desk/title'], pipe: [{ set: 'Good morning' }], description: 'morning show' },
      { source: 'desk/level', destinations: ['desk/cue'], pipe: [{ filter: { gt: 5 } }, { set: 'turn it down' }], description: 'too loud' },
    ]);
    // Written as the file writes a list: each rule indented one step inside it.
    t.true(saved.includes("  rules: [\n    {\n      source: 'schedule/morning-show/fire',"), saved);

    const next = await (await fetch(`${hub.base}/parameters/schedule/morning-show/next`, { headers: auth })).text();
    t.regex(next, /T06:30:00/, 'the schedule knows its next fire');
    t.is((await fetch(`${hub.base}/update?parameter=desk/level&value=3`, { headers: auth })).status, 200);
    t.is((await fetch(`${hub.base}/update?parameter=desk/level&value=7`, { headers: auth })).status, 200);
    await eventually(
      async () => (await (await fetch(`${hub.base}/parameters/desk/cue`, { headers: auth })).text()) === 'turn it down',
      'the cue',
    );
    // The parameters tab says which rule wrote it by the trigger's name, not by where it stands in the file.
    await page.locator('header nav button', { hasText: 'parameters' }).click();
    await page.locator('[data-address="desk/cue"] .by', { hasText: 'rule "too loud"' }).waitFor();

    // A trigger saved alone (rules, no parameter added or gone) is in the rules tab at once, without a reload of the page.
    await page.locator('header nav button', { hasText: 'rules' }).click();
    await page.locator('.rules', { hasText: 'too loud' }).waitFor();
    await page.getByRole('button', { name: 'flow', exact: true }).click();
    await page.getByRole('navigation', { name: 'flow views' }).getByRole('button', { name: 'rules' }).click();
    await page.getByRole('button', { name: 'add a trigger' }).click();
    await form.getByLabel('name *').fill('new title');
    await form.getByLabel('when').selectOption('when a value changes');
    await form.getByLabel('the value of *').fill('desk/title');
    await form.getByLabel('then write to *').fill('desk/cue');
    await form.getByLabel('the value', { exact: true }).fill('titles changed');
    await form.getByRole('button', { name: 'apply to the flow' }).click();
    await page.getByRole('button', { name: 'save', exact: true }).click();
    await page.locator('.notice', { hasText: 'saved and applied' }).waitFor();
    await page.locator('header nav button', { hasText: 'rules' }).click();
    await page.locator('.rules', { hasText: 'new title' }).waitFor({ timeout: 10_000 });
  },
);

live(
  `a trigger edited from the rules tab opens in the trigger form with what it says, and is changed where it stands: its schedule entry under its id, what it writes otherwise with it, what the form does not say (disabled) kept; a hand-written rule opens in the rule form; a new trigger of a name taken gets an entry of its own${whyNoBrowser}`,
  async (t) => {
    // As the trigger form writes them, one of them in a folder.
    const { flow, hub, page } = await rulesTab(
      t,
      `desk: { type: 'dummy', parameters: ['level,I,0', 'title,S,', 'cue,S,', 'lamp,B,false'] },
    schedule: { type: 'schedule', entries: [{ id: 'evening', cron: '0 0 18 * * *' }, { id: 'morning-show', cron: '0 30 6 * * MON-FRI' }] },`,
      `[
    { source: 'desk/title', destinations: ['desk/cue'], description: 'by hand' },
    { folder: 'studio', rules: [
      { source: 'schedule/morning-show/fire', destinations: ['desk/title'], pipe: [{ set: 'Good morning' }], description: 'morning show', enabled: false },
    ] },
    { source: 'desk/level', destinations: ['desk/lamp'], pipe: [{ filter: { gt: 5 } }, { set: true }], description: 'too loud' },
    { source: 'desk/level', destinations: ['desk/lamp'], pipe: [{ filter: { lte: 5 } }, { set: false }], description: 'too loud, otherwise' },
  ]`,
    );
    const row = (text: string) => page.locator('[data-testid=flow-rules] li.rule', { hasText: text });
    const form = page.locator('[data-testid=trigger-form]');

    // A rule written by hand is no trigger: the rule form.
    await row('by hand').getByRole('button', { name: 'edit' }).click();
    await page.locator('form.rule-form:not(.trigger-form)').waitFor();
    t.is(await form.count(), 0);
    await page.getByRole('button', { name: 'cancel' }).click();

    // The morning show, in its folder: the form says 06:30 on weekdays, the title and its value.
    await row('morning show').getByRole('button', { name: 'edit' }).click();
    t.is(await form.getByLabel('name *').inputValue(), 'morning show');
    t.is(await form.getByLabel('at', { exact: true }).inputValue(), '06:30');
    t.is(await form.getByLabel('days').inputValue(), 'MON-FRI');
    t.is(await form.getByLabel('then write to *').inputValue(), 'desk/title');
    t.is(await form.getByLabel('the value', { exact: true }).inputValue(), 'Good morning');
    await form.getByLabel('at', { exact: true }).fill('07:15');
    await form.getByLabel('the value', { exact: true }).fill('Good day');
    await form.getByRole('button', { name: 'apply to the flow' }).click();
    await form.waitFor({ state: 'detached' });

    // Too loud, edited from the row of what it writes otherwise: the condition and both values.
    await row('too loud, otherwise').getByRole('button', { name: 'edit' }).click();
    t.is(await form.getByLabel('name *').inputValue(), 'too loud');
    t.is(await form.getByLabel('when').inputValue(), 'condition');
    t.is(await form.getByLabel('the value of *').inputValue(), 'desk/level');
    t.is(await form.getByLabel('comparison').inputValue(), 'gt');
    t.is(await form.getByLabel('than').inputValue(), '5');
    t.is(await form.getByLabel('the value', { exact: true }).inputValue(), 'true');
    t.is(await form.getByLabel('otherwise write').inputValue(), 'false');
    if (shots) await page.screenshot({ path: join(shots, 'console-trigger-edit.png') });
    await form.getByLabel('than').fill('8');
    await form.getByLabel('otherwise write').fill('');
    await form.getByRole('button', { name: 'apply to the flow' }).click();
    await form.waitFor({ state: 'detached' });

    // A new trigger of a name taken: a schedule entry of its own.
    await page.getByRole('button', { name: 'add a trigger' }).click();
    await form.getByLabel('name *').fill('morning show');
    await form.getByLabel('at', { exact: true }).fill('20:00');
    await form.getByLabel('then write to *').fill('desk/title');
    await form.getByLabel('the value', { exact: true }).fill('Good night');
    await form.getByRole('button', { name: 'apply to the flow' }).click();
    await form.waitFor({ state: 'detached' });

    t.is(
      await page.getByLabel('what this save changes').inputValue(),
      'trigger "morning show" changed; trigger "too loud" changed; trigger "morning show" added',
    );
    await page.getByRole('button', { name: 'save', exact: true }).click();
    await page.locator('.notice', { hasText: 'saved and applied' }).waitFor();
    const saved = JSON5.parse(await readFile(flow, 'utf8')) as { connections: { schedule: unknown }; rules: unknown };
    t.deepEqual(saved.connections.schedule, {
      type: 'schedule',
      entries: [
        { id: 'evening', cron: '0 0 18 * * *' },
        { id: 'morning-show', cron: '0 15 7 * * MON-FRI' },
        { id: 'morning-show-2', cron: '0 0 20 * * *' },
      ],
    });
    t.deepEqual(saved.rules, [
      { source: 'desk/title', destinations: ['desk/cue'], description: 'by hand' },
      {
        folder: 'studio',
        rules: [
          {
            source: 'schedule/morning-show/fire',
            destinations: ['desk/title'],
            pipe: [{ set: 'Good day' }],
            description: 'morning show',
            enabled: false,
          },
        ],
      },
      { source: 'desk/level', destinations: ['desk/lamp'], pipe: [{ filter: { gt: 8 } }, { set: true }], description: 'too loud' },
      { source: 'schedule/morning-show-2/fire', destinations: ['desk/title'], pipe: [{ set: 'Good night' }], description: 'morning show' },
    ]);
    const next = await (await fetch(`${hub.base}/parameters/schedule/morning-show/next`, { headers: auth })).text();
    t.regex(next, /T07:15:00/, 'the schedule knows the new time');
  },
);

live(
  `a condition with a value either way is state: the form writes one rule that holds it, the lamp is right at once without a change of its source, and it opens in the form again; a second trigger on the lamp is said before saving (R-RS3, R-RS4)${whyNoBrowser}`,
  async (t) => {
    // Camera 2 is on air before the trigger exists.
    const { flow, hub, page } = await rulesTab(
      t,
      "atem: { type: 'dummy', parameters: ['program,I,2'] },\n    umd: { type: 'dummy', parameters: ['red,B,false'] },",
    );
    const form = page.locator('[data-testid=trigger-form]');
    await page.getByRole('button', { name: 'add a trigger' }).click();
    await form.getByLabel('name *').fill('camera 2 red');
    await form.getByLabel('when').selectOption('when a value meets a condition');
    await form.getByLabel('the value of *').fill('atem/program');
    await form.getByLabel('comparison').selectOption('is');
    await form.getByLabel('than').fill('2');
    await form.getByLabel('then write to *').fill('umd/red');
    await form.getByLabel('the value', { exact: true }).fill('true');
    await form.getByLabel('otherwise write').fill('false');
    await form.getByRole('button', { name: 'apply to the flow' }).click();
    await page.locator('[data-testid=flow-rules] .rule-text', { hasText: 'atem/program → umd/red · value == 2 ? true : false' }).waitFor();
    await page.getByRole('button', { name: 'save', exact: true }).click();
    await page.locator('.notice', { hasText: 'saved and applied' }).waitFor();
    t.deepEqual((JSON5.parse(await readFile(flow, 'utf8')) as { rules: unknown }).rules, [
      { from: 'atem/program', to: 'umd/red', expr: 'value == 2 ? true : false', description: 'camera 2 red' },
    ]);
    await eventually(
      async () => (await (await fetch(`${hub.base}/parameters/umd/red`, { headers: auth })).text()) === 'true',
      'the lamp red at once: camera 2 was on air already',
    );
    t.is((await fetch(`${hub.base}/update?parameter=atem/program&value=3`, { headers: auth })).status, 200);
    await eventually(async () => (await (await fetch(`${hub.base}/parameters/umd/red`, { headers: auth })).text()) === 'false', 'out');

    // Read back into the form, as written.
    await page.locator('[data-testid=flow-rules] li.rule', { hasText: 'camera 2 red' }).getByRole('button', { name: 'edit' }).click();
    t.is(await form.getByLabel('when').inputValue(), 'condition');
    t.is(await form.getByLabel('the value of *').inputValue(), 'atem/program');
    t.is(await form.getByLabel('comparison').inputValue(), 'eq');
    t.is(await form.getByLabel('than').inputValue(), '2');
    t.is(await form.getByLabel('the value', { exact: true }).inputValue(), 'true');
    t.is(await form.getByLabel('otherwise write').inputValue(), 'false');
    await page.getByRole('button', { name: 'cancel' }).click();

    // A second trigger on the same lamp is said before it is saved: two writers, the last would win (R-RS4).
    await page.getByRole('button', { name: 'add a trigger' }).click();
    await form.getByLabel('name *').fill('camera 3 red');
    await form.getByLabel('when').selectOption('when a value meets a condition');
    await form.getByLabel('the value of *').fill('atem/program');
    await form.getByLabel('than').fill('3');
    await form.getByLabel('then write to *').fill('umd/red');
    await form.getByLabel('the value', { exact: true }).fill('true');
    await form.getByLabel('otherwise write').fill('false');
    await form.getByRole('button', { name: 'apply to the flow' }).click();
    await page.locator('.notice', { hasText: 'umd/red is written by rules[0] too' }).waitFor();
  },
);
