/**
 * The key designer (R-ST4), in Chromium on a real hub process: an admin picks a key of a
 * Stream Deck (a satellite scripted from Companion Satellite's protocol) in the surfaces tab
 * and sets it up from a form — its text with a live value, a press that routes a router's
 * output to input 3, lit (in a colour picked) while the output is on input 3 — without a line
 * typed in the file. The key's entry is saved in the flow's `keys`; the deck shows it at once,
 * a press on the deck routes and lights it, and after a restart of the hub the deck shows it
 * again. With PATCHBAY_SCREENSHOTS, pictures (docs/console-key-designer-{desktop,phone}.png).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import JSON5 from 'json5';
import { ScriptedSatellite } from '../connections/satellite/scripted-satellite.ts';
import { live, openBrowser, whyNoBrowser } from '../helpers/browser.ts';
import { eventually } from '../helpers/eventually.ts';
import { runHub, terminate } from '../helpers/hub-process.ts';
import { freePort } from '../helpers/ports.ts';

const shots = process.env['PATCHBAY_SCREENSHOTS'];
const TOKEN = 'ops-key-token';
const auth = { authorization: `Bearer ${TOKEN}` };

/** A studio folder whose flow has a rest-api with an admin token, `device` (a connection's line), and a satellite connection on a port of its own. */
async function studio(device: string) {
  const folder = await mkdtemp(join(tmpdir(), 'patchbay-key-designer-'));
  const flow = join(folder, 'studio.json5');
  const satellitePort = await freePort();
  await writeFile(
    flow,
    `{
  connections: {
    api: {
      type: 'rest-api',
      port: 0,
      bindIp: '127.0.0.1',
      tokens: [{ name: 'ops', token: '${TOKEN}', read: ['#'], write: ['#'], admin: true }],
    },
    ${device}
    desk: { type: 'satellite', port: ${satellitePort}, bindIp: '127.0.0.1', timeout: 60000 },
  },
}
`,
  );
  return { folder, flow, satellitePort };
}

live(
  `a key designed in the console: text with a live value, a press that routes, lit while routed; on the deck at once and after a restart${whyNoBrowser}`,
  async (t) => {
    const { folder, flow, satellitePort } = await studio(
      "router: { type: 'dummy', description: 'The router', parameters: ['output/1,I,1'] },",
    );
    let hub = await runHub(t, flow, { args: ['--state', join(folder, 'state')] });
    const deckOn = async () => {
      const deck = await ScriptedSatellite.connect(t, satellitePort);
      deck.addDevice('deck', 15, 5, 72);
      return deck;
    };
    let deck = await deckOn();
    const key2 = () => deck.received('KEY-STATE').filter((message) => message['KEY'] === '2');
    const textOf = (message: Record<string, string> | undefined) => Buffer.from(message?.['TEXT'] ?? '', 'base64').toString();

    const browser = await openBrowser(t);
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    page.setDefaultTimeout(60_000);
    page.on('pageerror', (error) => t.log(`page error: ${error.message}`));
    await page.goto(`${hub.base}/console/?access_token=${TOKEN}`);
    await page.getByRole('button', { name: 'surfaces', exact: true }).click();
    const surface = page.locator('section[data-surface="desk/deck"]');
    await surface.getByText('connected').waitFor();
    await page.getByRole('button', { name: 'design keys' }).click();
    await surface.locator('.key[data-key="2"]').click();
    const designer = page.locator('[data-testid=key-designer]');
    await designer.getByRole('button', { name: 'save the key' }).and(page.locator(':enabled')).waitFor();
    await designer.getByLabel('text', { exact: true }).fill('OUT 1\n');
    await designer.getByLabel('put a value in the text').selectOption('router/output/1');
    await designer.getByLabel('a press').selectOption({ label: 'sets a parameter to a value' });
    await designer.getByLabel('the parameter it writes').fill('router/output/1');
    await designer.getByLabel('the value it sets').fill('3');
    await designer.getByLabel('lit by').fill('router/output/1');
    await designer.getByLabel('lit while it is').fill('3');
    await designer.getByLabel('colour while lit').fill('#00a000');
    if (shots) await page.screenshot({ path: join(shots, 'console-key-designer-desktop.png'), fullPage: true });
    await designer.getByRole('button', { name: 'save the key' }).click();
    await page.locator('.notice', { hasText: 'saved and applied' }).waitFor();
    await designer.waitFor({ state: 'detached' });

    // The flow file holds the key's entry, as the reference writes one.
    const written = JSON5.parse(await readFile(flow, 'utf8')) as { connections: { desk: { keys: unknown[] } } };
    t.deepEqual(written.connections.desk.keys, [
      {
        device: 'deck',
        key: 2,
        text: 'OUT 1\n$(router/output/1)',
        press: 'set',
        target: 'router/output/1',
        value: 3,
        show: 'router/output/1',
        is: 3,
        on: '#00a000',
      },
    ]);
    // The version is named by what the designer did.
    const versions = (await (await fetch(`${hub.base}/flow/history`, { headers: auth })).json()) as { note?: string }[];
    t.is(versions.at(-1)?.note, 'key 2 of deck');
    // On the deck at once: the text with the value, unlit.
    await eventually(
      () => textOf(key2().at(-1)) === 'OUT 1\n1',
      () => `the key's text on the deck: ${JSON.stringify(textOf(key2().at(-1)))}`,
    );
    t.is(key2().at(-1)?.['COLOR'], '#202020');
    // A press on the deck routes the output, and the key lights.
    deck.press('deck', 0, 2, true);
    deck.press('deck', 0, 2, false);
    const output = async () => (await fetch(`${hub.base}/parameters/router/output/1`, { headers: auth })).text();
    await eventually(async () => (await output()) === '3', 'routed to input 3');
    await eventually(() => key2().at(-1)?.['COLOR'] === '#00a000' && textOf(key2().at(-1)) === 'OUT 1\n3', 'lit, its text following');
    // In the console too, in the surfaces grid.
    await page.getByRole('button', { name: 'design keys' }).click();
    await eventually(
      async () => (await surface.locator('.key[data-key="2"]').textContent()) === 'OUT 1\n3',
      'the console shows the key as the deck does',
    );
    // And presses it as the deck does: the connection's new keys reached the console without a reload.
    await fetch(`${hub.base}/update?parameter=router/output/1&value=1`, { headers: auth });
    await eventually(async () => (await output()) === '1', 'back on input 1');
    await surface.locator('.key[data-key="2"]').click();
    await eventually(async () => (await output()) === '3', 'the console pressed the designed key');

    // Its text as an expression (R-RS2): a mistake is shown at the text with its column, and
    // nothing is saved; a right one shows its value on the deck.
    await page.getByRole('button', { name: 'design keys' }).click();
    await surface.locator('.key[data-key="2"]').click();
    await designer.getByRole('button', { name: 'save the key' }).and(page.locator(':enabled')).waitFor();
    await designer.getByLabel('the text is an expression').check();
    await designer.getByLabel('text', { exact: true }).fill("'OUT 1\\n' + ($(router/output/1) == 3 ? 'LIVE' :");
    await designer.getByRole('button', { name: 'save the key' }).click();
    await designer
      .getByRole('alert')
      .filter({ hasText: /not an expression: column \d+/ })
      .waitFor();
    await designer.getByLabel('text', { exact: true }).fill("'OUT 1\\n' + ($(router/output/1) == 3 ? 'LIVE' : $(router/output/1))");
    await designer.getByRole('button', { name: 'save the key' }).click();
    await designer.waitFor({ state: 'detached' });
    await eventually(
      () => textOf(key2().at(-1)) === 'OUT 1\nLIVE',
      () => `the expression's value on the deck: ${JSON.stringify(textOf(key2().at(-1)))}`,
    );
    await page.getByRole('button', { name: 'design keys' }).click();

    // The flow tab's form of the connection shows the key's colours as colour pickers, not patterns to type.
    await page.getByRole('button', { name: 'flow', exact: true }).click();
    await page.locator('[data-testid=flow-connections] tr', { hasText: 'desk' }).getByRole('button', { name: 'edit' }).click();
    const lit = page.locator('[id="field-connections.desk.keys.0.on"]');
    t.is(await lit.getAttribute('type'), 'color');
    t.is(await lit.inputValue(), '#00a000');
    t.is(
      await page.locator('[id="field-connections.desk.keys.0.key"]').inputValue(),
      '2',
      "the key's number is shown, not hidden as a secret",
    );

    // After a restart of the hub the deck, back, shows the key as designed.
    t.not(await terminate(hub), 'still running');
    hub = await runHub(t, flow, { args: ['--state', join(folder, 'state')] });
    deck = await deckOn();
    await eventually(
      () => key2().at(-1)?.['COLOR'] === '#00a000' && textOf(key2().at(-1)) === 'OUT 1\nLIVE',
      () => `the key after a restart: ${JSON.stringify(key2().at(-1))}`,
    );
    t.is(await output(), '3', 'the route kept');

    if (shots) {
      const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
      await phone.goto(`${hub.base}/console/?access_token=${TOKEN}`);
      await phone.getByRole('button', { name: 'surfaces', exact: true }).click();
      await phone.getByRole('button', { name: 'design keys' }).click();
      await phone.locator('section[data-surface="desk/deck"] .key[data-key="2"]').click();
      await phone.locator('[data-testid=key-designer]').getByRole('button', { name: 'clear the key' }).waitFor();
      await phone.screenshot({ path: join(shots, 'console-key-designer-phone.png'), fullPage: true });
    }
  },
);

live(
  `a deck added by its model before it ever connected: its keys designed in the console show on it once it connects${whyNoBrowser}`,
  async (t) => {
    const { folder, flow, satellitePort } = await studio("studio: { type: 'dummy', parameters: ['onair,B,true'] },");
    const hub = await runHub(t, flow, { args: ['--state', join(folder, 'state')] });
    const browser = await openBrowser(t);
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    page.setDefaultTimeout(60_000);
    await page.goto(`${hub.base}/console/?access_token=${TOKEN}`);
    await page.getByRole('button', { name: 'surfaces', exact: true }).click();
    await page.getByText('No surface has been connected yet: add a deck by its model').waitFor();
    await page.getByRole('button', { name: 'add a deck' }).click();
    const adding = page.locator('[data-testid=add-deck]');
    await adding.getByLabel('model').selectOption('Stream Deck Mini (6 keys)');
    await adding.getByLabel('its serial number').fill('AL12K1A00042');
    await adding.getByRole('button', { name: 'add the deck' }).click();
    const surface = page.locator('section[data-surface="desk/AL12K1A00042"]');
    await surface.getByText('not connected yet').waitFor();
    t.is(await surface.locator('.key').count(), 6, 'a Mini: six keys');
    await page.getByRole('button', { name: 'design keys' }).click();
    await surface.locator('.key[data-key="4"]').click();
    const designer = page.locator('[data-testid=key-designer]');
    await designer.getByRole('button', { name: 'save the key' }).and(page.locator(':enabled')).waitFor();
    await designer.getByLabel('text', { exact: true }).fill('ON AIR');
    await designer.getByLabel('lit by').fill('studio/onair');
    await designer.getByRole('button', { name: 'save the key' }).click();
    await designer.waitFor({ state: 'detached' });
    const written = JSON5.parse(await readFile(flow, 'utf8')) as { connections: { desk: { devices: unknown[]; keys: unknown[] } } };
    t.deepEqual(written.connections.desk.devices, [{ device: 'AL12K1A00042', keys: 6, perRow: 3 }]);
    t.deepEqual(written.connections.desk.keys, [{ device: 'AL12K1A00042', key: 4, text: 'ON AIR', show: 'studio/onair' }]);
    // The console draws the designed key at once, lit, though no deck has connected.
    await eventually(
      async () =>
        (await surface.locator('.key[data-key="4"]').textContent())?.endsWith('ON AIR') === true &&
        (await surface.locator('.key[data-key="4"]').getAttribute('style'))?.includes('rgb(224, 0, 0)') === true,
      'the designed key in the grid',
    );

    // The deck connects: the key shows as designed, lit.
    const deck = await ScriptedSatellite.connect(t, satellitePort);
    deck.addDevice('AL12K1A00042', 6, 3, 72);
    const key4 = () => deck.received('KEY-STATE').filter((message) => message['KEY'] === '4');
    await eventually(
      () => key4().at(-1)?.['COLOR'] === '#e00000' && Buffer.from(key4().at(-1)?.['TEXT'] ?? '', 'base64').toString() === 'ON AIR',
      () => `the designed key on the deck: ${JSON.stringify(key4().at(-1))}`,
    );
    await surface.getByText('connected', { exact: true }).waitFor();
  },
);

live(`a designed key copied to another key and moved to a third: the file holds both, each where it was put${whyNoBrowser}`, async (t) => {
  const { folder, flow } = await studio("studio: { type: 'dummy', parameters: ['onair,B,true'] },");
  const hub = await runHub(t, flow, { args: ['--state', join(folder, 'state')] });
  const browser = await openBrowser(t);
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  page.setDefaultTimeout(60_000);
  page.on('dialog', (dialog) => void dialog.accept());
  await page.goto(`${hub.base}/console/?access_token=${TOKEN}`);
  await page.getByRole('button', { name: 'surfaces', exact: true }).click();
  await page.getByRole('button', { name: 'add a deck' }).click();
  const adding = page.locator('[data-testid=add-deck]');
  await adding.getByLabel('model').selectOption('Stream Deck Mini (6 keys)');
  await adding.getByLabel('its serial number').fill('MINI1');
  await adding.getByRole('button', { name: 'add the deck' }).click();
  const surface = page.locator('section[data-surface="desk/MINI1"]');
  await page.getByRole('button', { name: 'design keys' }).click();
  const designer = page.locator('[data-testid=key-designer]');
  const keys = async () =>
    (JSON5.parse(await readFile(flow, 'utf8')) as { connections: { desk: { keys: unknown[] } } }).connections.desk.keys;
  const design = async (key: number) => {
    await surface.locator(`.key[data-key="${key}"]`).click();
    await designer.getByRole('button', { name: 'save the key' }).and(page.locator(':enabled')).waitFor();
  };

  await design(1);
  await designer.getByLabel('text', { exact: true }).fill('ON AIR');
  await designer.getByLabel('lit by').fill('studio/onair');
  await designer.getByRole('button', { name: 'save the key' }).click();
  await designer.waitFor({ state: 'detached' });

  await design(1);
  await designer.getByLabel('to key').fill('4');
  await designer.getByRole('button', { name: 'copy', exact: true }).click();
  await page.locator('.notice', { hasText: 'key 1 of MINI1 copied to key 4: saved and applied' }).waitFor();
  t.deepEqual(await keys(), [
    { device: 'MINI1', key: 1, text: 'ON AIR', show: 'studio/onair' },
    { device: 'MINI1', key: 4, text: 'ON AIR', show: 'studio/onair' },
  ]);

  // Moved over a key already set up (the console asks first): the first goes, the third takes its place.
  await design(5);
  await designer.getByLabel('text', { exact: true }).fill('SPARE');
  await designer.getByRole('button', { name: 'save the key' }).click();
  await designer.waitFor({ state: 'detached' });
  await design(1);
  await designer.getByLabel('to key').fill('5');
  await designer.getByRole('button', { name: 'move', exact: true }).click();
  await page.locator('.notice', { hasText: 'key 1 of MINI1 moved to key 5: saved and applied' }).waitFor();
  t.deepEqual(await keys(), [
    { device: 'MINI1', key: 4, text: 'ON AIR', show: 'studio/onair' },
    { device: 'MINI1', key: 5, text: 'ON AIR', show: 'studio/onair' },
  ]);
});
