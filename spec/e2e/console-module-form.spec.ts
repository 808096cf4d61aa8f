/**
 * A Companion module connection's `config` as a form (R-CM3, R-ST3), in Chromium on a real hub
 * process: once the module has run, the hub keeps its config fields and serves them as that
 * connection's schema (`GET /flow/schema`), and the console's form shows each field by the
 * module's label, with its range, default and choices by label — no JSON. A value outside a
 * field's range is refused at the field, in words; a valid edit is saved as its lines and
 * reaches the module. With PATCHBAY_SCREENSHOTS, a picture of the form
 * (docs/console-module-form.png).
 */
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import JSON5 from 'json5';
import { fileURLToPath } from 'node:url';
import { live, openBrowser, whyNoBrowser } from '../helpers/browser.ts';
import { fixtureModule } from '../helpers/companion.ts';
import { eventually } from '../helpers/eventually.ts';
import { runHub } from '../helpers/hub-process.ts';

const shots = process.env['PATCHBAY_SCREENSHOTS'];
const bin = fileURLToPath(new URL('../../bin/patchbay.js', import.meta.url));
const auth = { authorization: 'Bearer ops-module-token' };

/** What is at `path` in a JSON value, or undefined. */
const at = (value: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>(
    (inner, key) => (typeof inner === 'object' && inner !== null ? (inner as Record<string, unknown>)[key] : undefined),
    value,
  );
/** A number's schema as `patchbay schema` gives it: its own branch beside the one for a `${VARIABLE}` placeholder. */
const typed = (schema: unknown): unknown => at(schema, 'anyOf', '0') ?? schema;

live(
  `a module connection's config as a form of its fields: labels, ranges, choices; a mistake at its field; an edit saved and run${whyNoBrowser}`,
  async (t) => {
    const module = await fixtureModule('1.14.1');
    const flow = join(module, '..', `${module.split('/').at(-1)}-studio.json5`);
    const original = `{
  connections: {
    api: {
      type: 'rest-api',
      port: 0,
      bindIp: '127.0.0.1',
      tokens: [{ name: 'ops', token: 'ops-module-token', read: ['#'], write: ['#'], admin: true }],
    },
    desk: {
      type: 'companion-module',
      module: ${JSON.stringify(module)},
      config: { host: 'mixer.local', port: 9100 },
    },
  },
}
`;
    await writeFile(flow, original);
    const hub = await runHub(t, flow, { args: ['--state', `${flow}.state`] });

    // The fields are the module's, learnt by running it: kept a moment after it declared them.
    let own: unknown;
    await eventually(async () => {
      const schema = await (await fetch(`${hub.base}/flow/schema`, { headers: auth })).json();
      own = at(schema, 'properties', 'connections', 'properties', 'desk', 'properties');
      return at(own, 'config') !== undefined;
    }, "the module's config fields in the flow schema");
    const fields = at(own, 'config', 'properties');
    t.like(typed(at(fields, 'port')), { type: 'integer', minimum: 1, maximum: 65535, default: 9000, title: 'Target port' });
    t.deepEqual(at(fields, 'mode', 'anyOf'), [
      { const: 'udp', title: 'UDP' },
      { const: 'tcp', title: 'TCP' },
    ]);
    t.is(at(fields, 'info'), undefined, 'text shown to the user is no setting');
    t.is(at(fields, 'token'), undefined, 'a secret field is not config');
    t.like(at(own, 'secrets', 'properties', 'token'), { type: 'string', title: 'Token' });
    // The same for an editor, from the command line: `patchbay schema` with the hub's state folder.
    const printed = JSON.parse(execFileSync(process.execPath, [bin, 'schema', flow, '--state', `${flow}.state`], { encoding: 'utf8' }));
    t.deepEqual(at(printed, 'properties', 'connections', 'properties', 'desk', 'properties'), own);

    const browser = await openBrowser(t);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(60_000);
    page.on('pageerror', (error) => t.log(`page error: ${error.message}`));
    await page.goto(`${hub.base}/console/?access_token=ops-module-token`);
    await page.getByRole('button', { name: 'flow', exact: true }).click();
    await page.locator('[data-testid=flow-connections] tr', { hasText: 'desk' }).getByRole('button', { name: 'edit' }).click();
    const form = page.locator('[data-testid=connection-form]');
    const port = form.getByLabel('Target port (1–65535)');
    t.is(await port.inputValue(), '9100');
    t.deepEqual(await form.getByLabel('Mode').locator('option').allTextContents(), ['(default: UDP)', 'UDP', 'TCP']);
    if (shots) await page.screenshot({ path: join(shots, 'console-module-form.png'), fullPage: true });

    // Outside the field's range: refused at the field, in the module's words for it, nothing written.
    await port.fill('70000');
    await form.getByRole('button', { name: 'apply to the flow' }).click();
    await form
      .locator('[data-field="connections.desk.config.port"] .field-error', { hasText: '"Target port" (port) must be at most 65535' })
      .waitFor();
    t.is(await readFile(flow, 'utf8'), original);

    await port.fill('9200');
    await form.getByLabel('Mode').selectOption('TCP');

    // Bindings picked from the module's actions and feedbacks, their options as fields: no JSON.
    await form.getByLabel('new actions name').fill('level');
    await form.getByRole('button', { name: 'add to actions' }).click();
    await form.getByLabel('level: action').selectOption('Set level');
    await form.locator('[id="field-connections.desk.actions.level.options.level"]').fill('$(value)');
    await form.getByLabel('new feedbacks name').fill('high');
    await form.getByRole('button', { name: 'add to feedbacks' }).click();
    await form.getByLabel('high: feedback').selectOption('Level above');
    await form.getByLabel('Threshold (0–100)').fill('50');
    // A preset of the module, ready-made (R-CM7): its press's action, and apart the feedback that lights it.
    const readyMade = (map: string) => form.getByLabel(`add a preset to ${map}`);
    t.deepEqual(await readyMade('actions').locator('option').allTextContents(), ['add a preset (1)…', 'Level/Full']);
    await readyMade('actions').selectOption('Level/Full');
    t.deepEqual(await readyMade('feedbacks').locator('option').allTextContents(), [
      'add a preset (2)…',
      'Level/Full/lit',
      'Level/Full_and_named/lit',
    ]);
    await readyMade('feedbacks').selectOption('Level/Full/lit');
    t.is(await form.getByLabel('Level/Full/lit: feedback').inputValue(), 'Level above');
    if (shots) {
      await form.locator('[data-field="connections.desk.actions"]').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(shots, 'console-module-bindings.png') });
    }
    await form.getByRole('button', { name: 'apply to the flow' }).click();
    await page.getByRole('button', { name: 'save', exact: true }).click();
    await page.locator('.notice', { hasText: 'saved and applied' }).waitFor();
    const saved = await readFile(flow, 'utf8');
    t.true(saved.includes("config: { host: 'mixer.local', port: 9200, mode: 'tcp' }"), saved);
    t.true(saved.includes("level: { action: 'set_level', options: { level: '$(value)' } }"), saved);
    t.true(saved.includes("high: { feedback: 'level_above', options: { threshold: 50 } }"), saved);
    const desk = (JSON5.parse(saved) as { connections: { desk: { actions: Record<string, unknown>; feedbacks: Record<string, unknown> } } })
      .connections.desk;
    t.deepEqual(desk.actions['Level/Full'], { action: 'set_level', options: { level: 100 }, label: 'Level: Full' });
    t.deepEqual(desk.feedbacks['Level/Full/lit'], {
      feedback: 'level_above',
      options: { threshold: 99 },
      invert: false,
      label: 'Level: Full (lit)',
    });
    await eventually(async () => {
      const connections = (await (await fetch(`${hub.base}/connections`, { headers: auth })).json()) as { id: string; status: string }[];
      return connections.find((connection) => connection.id === 'desk')?.status === 'ok';
    }, 'the module started again with the saved config');
    // What the forms bound runs: a write of the level, and the feedback it lights.
    t.is((await fetch(`${hub.base}/update?parameter=desk/level&value=70`, { headers: auth })).status, 200);
    await eventually(
      async () => (await (await fetch(`${hub.base}/parameters/desk/high`, { headers: auth })).text()) === 'true',
      'the feedback',
    );
    // The preset's press, and its light, each called by the preset's name.
    const listed = (await (
      await fetch(`${hub.base}/parameters?filter=${encodeURIComponent('^desk/Level/')}&meta=1`, { headers: auth })
    ).json()) as { p: string; meta?: { label?: string } }[];
    t.deepEqual(listed.map(({ p, meta }) => [p, meta?.label]).sort(), [
      ['desk/Level/Full', 'Level: Full'],
      ['desk/Level/Full/lit', 'Level: Full (lit)'],
    ]);
    t.is((await fetch(`${hub.base}/update?parameter=desk/Level/Full&value=true`, { headers: auth })).status, 200);
    await eventually(
      async () => (await (await fetch(`${hub.base}/parameters/desk/Level/Full/lit`, { headers: auth })).text()) === 'true',
      "the preset's light",
    );
  },
);
