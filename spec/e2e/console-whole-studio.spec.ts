/**
 * The whole six-task studio of the trials (R-ST1–R-ST5, R-ST7, R-ST8), set up in Chromium by
 * someone who writes no code, from `patchbay` in a folder where patchbay is installed and
 * nothing else — no terminal step after it: the router's package installed from the machines
 * that come with patchbay and its Videohub added, an output routed by the input's name; a TSL
 * UMD 5.0 display (the tsl-umd-v5 library as the multiviewer) whose tally is lit while a
 * camera is on that output; a Stream Deck key (Companion Satellite's protocol) designed to
 * route the output and lit while routed, as it is after a restart of the hub; a timer whose
 * end recalls a scene; an ATEM installed the same way, its tally on the display's other lamp;
 * a second key that cuts the ATEM, lit while camera 2 is on air. The spec counts what the
 * person did — clicks and fields typed — and prints it; the file on disk is what
 * the forms wrote, and `patchbay validate` passes it.
 *
 * The router is `ScriptedVideohub`: a Videohub as the protocol has it, which keeps its routes
 * and tells every client of a change (videohub-server, the package spec's peer, does
 * neither); the switcher is `AtemSwitcher`, whose encoding is checked against
 * atem-connection's. With PATCHBAY_SCREENSHOTS, pictures of the studio's surfaces and
 * parameters.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ExecutionContext } from 'ava';
import type { Locator, Page } from 'playwright-core';
import { ScriptedSatellite } from '../connections/satellite/scripted-satellite.ts';
import { live, openBrowser, whyNoBrowser } from '../helpers/browser.ts';
import { eventually, startBound } from '../helpers/eventually.ts';
import { bin } from '../helpers/hub-process.ts';
import { freePort } from '../helpers/ports.ts';
import { shown, tslDisplays } from '../helpers/tsl-display.ts';
import { AtemSwitcher } from '../helpers/atem-switcher.ts';
import { ScriptedVideohub } from '../helpers/videohub-device.ts';

const checkout = fileURLToPath(new URL('../..', import.meta.url));
const shots = process.env['PATCHBAY_SCREENSHOTS'];

/** What the person did in the browser, counted as they did it. */
class Person {
  clicks = 0;
  typed = 0;
  constructor(readonly page: Page) {}
  async click(target: Locator): Promise<void> {
    this.clicks++;
    await target.click();
  }
  async type(target: Locator, text: string): Promise<void> {
    this.typed++;
    await target.fill(text);
  }
  /** A pick from a list: one click (the list opened and the choice made are one gesture here). */
  async pick(target: Locator, choice: string | { label: string }): Promise<void> {
    this.clicks++;
    await target.selectOption(choice);
  }
}

/**
 * A studio folder as `npm install patchbay-hub` leaves it: its package.json names patchbay,
 * whose `patchbay-hub/connection` is this checkout's face (a package uploaded later imports
 * it, and npm keeps it through that install).
 */
async function studioFolder(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'patchbay-whole-studio-'));
  const face = join(folder, 'patchbay-hub');
  await mkdir(face);
  await writeFile(
    join(face, 'package.json'),
    JSON.stringify({ name: 'patchbay-hub', version: '0.1.0', type: 'module', exports: { './connection': './connection.js' } }),
  );
  await writeFile(join(face, 'connection.js'), `export * from '${pathToFileURL(join(checkout, 'lib/sdk/index.ts')).href}';\n`);
  await writeFile(
    join(folder, 'package.json'),
    JSON.stringify({ name: 'studio', private: true, dependencies: { 'patchbay-hub': 'file:patchbay-hub' } }),
  );
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: folder, stdio: 'ignore' });
  return folder;
}

/**
 * `patchbay` in `folder`, as the README starts it: the console's address it printed, with its
 * token. The first run's flow lets the console install machines (R-ST8): no flag.
 */
async function startPatchbay(t: ExecutionContext, folder: string, port: number) {
  const hub = spawn(process.execPath, [bin], {
    cwd: folder,
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  t.teardown(() => void hub.kill('SIGKILL'));
  let said = '';
  hub.stderr.on('data', (chunk: Buffer) => (said += chunk.toString()));
  await eventually(
    () => said.includes('running:') || hub.exitCode !== null,
    () => `the hub to start: ${said}`,
    startBound,
  );
  return { hub, said: () => said };
}

live(
  `the whole six-task studio from an empty folder, in the browser alone after \`patchbay\`: router, tally display, a designed key, a timer that recalls a scene, an ATEM's tally, a key that cuts it${whyNoBrowser}`,
  async (t) => {
    const folder = await studioFolder();
    const port = await freePort();
    const router = new ScriptedVideohub(4, 2);
    const routerPort = await router.start();
    t.teardown(() => router.stop());
    const multiviewerPort = await freePort();
    const multiviewer = tslDisplays(t, multiviewerPort);
    const switcher = await AtemSwitcher.start();
    t.teardown(() => switcher.close());

    let { hub, said } = await startPatchbay(t, folder, port);
    const address = /http:\/\/127\.0\.0\.1:\d+\/console\/\?access_token=[A-Za-z0-9_-]+/.exec(said())?.[0];
    if (!address) return t.fail(said());
    const token = new URL(address).searchParams.get('access_token') as string;
    const auth = { authorization: `Bearer ${token}` };
    const base = `http://127.0.0.1:${port}`;
    const read = async (parameter: string) => (await fetch(`${base}/parameters/${parameter}`, { headers: auth })).text();

    const browser = await openBrowser(t);
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    page.setDefaultTimeout(60_000);
    page.on('pageerror', (error) => t.log(`page error: ${error.message}`));
    const person = new Person(page);
    const form = page.locator('[data-testid=connection-form]');
    const catalogue = page.locator('[data-testid=catalogue]');
    const save = async () => {
      await person.click(page.getByRole('button', { name: 'save', exact: true }));
      await page.locator('.notice', { hasText: 'saved and applied' }).waitFor();
    };
    const fromCatalogue = async (search: string, name: string) => {
      await person.type(catalogue.getByLabel('search the catalogue'), search);
      // The entry of that name (a package that comes with the hub may mention it too, and offers to install instead).
      const entry = catalogue.locator('.catalogue-entry').filter({ has: page.locator('strong', { hasText: new RegExp(`(^|-)${name}$`) }) });
      await person.click(entry.first().getByRole('button', { name: 'add', exact: true }));
    };
    const addConnection = () => person.click(page.getByRole('button', { name: 'add a connection' }));
    /** A machine that comes with patchbay installed from the catalogue, listed in plugins, and loaded (R-ST7). */
    const install = async (search: string, name: string) => {
      await person.type(catalogue.getByLabel('search the catalogue'), search);
      const entry = catalogue.locator('.catalogue-entry').filter({ has: page.locator('strong', { hasText: name }) });
      await person.click(entry.first().getByRole('button', { name: 'install', exact: true }));
      await page
        .locator('.notice', { hasText: `package ${name} installed beside the flow and added to plugins` })
        .waitFor({ timeout: 120_000 });
      await save();
      // Saved and applied: the hub has loaded the package's types, or says in /problems why not.
      const entries = (
        (await (await fetch(`${base}/catalogue`, { headers: { ...auth, accept: 'application/json' } })).json()) as {
          entries: { package?: string; listed?: boolean }[];
        }
      ).entries;
      t.true(
        entries.some((entry) => entry.package === name && entry.listed),
        `the package's types loaded: ${await (await fetch(`${base}/problems`, { headers: auth })).text()}`,
      );
    };
    await page.goto(address);

    // 1. The router: its package installed from the box into plugins, its Videohub added.
    await person.click(page.locator('[data-testid=first-run]').getByRole('button', { name: 'add a device' }));
    await install('videohub', 'patchbay-videohub');
    await addConnection();
    await fromCatalogue('videohub', 'videohub');
    await person.type(form.getByLabel('id *'), 'router');
    await person.type(form.locator('[id="field-connections.router.host"]'), '127.0.0.1');
    await person.type(form.locator('[id="field-connections.router.port"]'), String(routerPort));
    await person.click(form.getByRole('button', { name: 'apply to the flow' }));
    await save();
    await eventually(async () => (await read('router/output/0/input')) === '0', 'the router read');

    // Output 1 to Camera 2, by its name, in the parameters tab.
    await person.click(page.locator('header nav button', { hasText: 'parameters' }));
    const route = page.locator('[data-address="router/output/0/input"]');
    await person.pick(route.locator('select'), { label: 'Input 2: Camera 2' });
    await eventually(() => router.routes[0] === 1, 'the router took output 1 to camera 2');
    t.log(`after the router: ${person.clicks} clicks, ${person.typed} typed`);

    // 2. Camera 2's display on the multiviewer, its tally red while camera 2 is on output 1 (the program).
    await person.click(page.getByRole('button', { name: 'flow', exact: true }));
    await addConnection();
    await fromCatalogue('tsl', 'tsl-umd');
    await person.type(form.getByLabel('id *'), 'umds');
    await person.pick(form.getByLabel('version *'), '5.0');
    await person.pick(form.getByLabel('mode *'), 'send');
    await person.type(form.locator('[id="field-connections.umds.host"]'), '127.0.0.1');
    await person.type(form.locator('[id="field-connections.umds.port"]'), String(multiviewerPort));
    await person.type(form.locator('[id="field-connections.umds.displays"]'), '0/2');
    await person.click(form.getByRole('button', { name: 'apply to the flow' }));
    await save();
    await person.click(page.getByRole('navigation', { name: 'flow views' }).getByRole('button', { name: 'rules' }));
    await person.click(page.getByRole('button', { name: 'add a trigger' }));
    const trigger = page.locator('[data-testid=trigger-form]');
    await person.type(trigger.getByLabel('name *'), 'camera 2 on program');
    await person.pick(trigger.getByLabel('when'), 'when a value meets a condition');
    await person.type(trigger.getByLabel('the value of *'), 'router/output/0/input');
    // "is" is the comparison a condition starts with; the values are picked by their labels.
    await person.pick(trigger.getByLabel('than'), { label: 'Input 2: Camera 2' });
    await person.type(trigger.getByLabel('then write to *'), 'umds/0/2/tally/lh');
    await person.pick(trigger.getByLabel('the value', { exact: true }), { label: 'red' });
    await person.pick(trigger.getByLabel('otherwise write'), { label: 'off' });
    await person.click(trigger.getByRole('button', { name: 'apply to the flow' }));
    await save();
    // The trigger runs on the next change: camera 1 on program, then camera 2 again from the router's own panel.
    const panel = (input: number) => {
      router.routes[0] = input;
      router.say(`VIDEO OUTPUT ROUTING:\n0 ${input}\n\n`);
    };
    panel(0);
    await eventually(() => shown(multiviewer, 2)?.lh_tally === 0, 'display 2 out');
    panel(1);
    await eventually(
      () => shown(multiviewer, 2)?.lh_tally === 1,
      () => `display 2 red: ${JSON.stringify(multiviewer.slice(-3))}`,
    );
    t.log(`after the display: ${person.clicks} clicks, ${person.typed} typed`);

    // 3. A Stream Deck through Companion Satellite: a key that puts camera 2 on the program, lit while it is.
    const satellitePort = await freePort();
    await person.click(page.getByRole('navigation', { name: 'flow views' }).getByRole('button', { name: 'connections' }));
    await addConnection();
    await fromCatalogue('stream deck', 'satellite');
    await person.type(form.getByLabel('id *'), 'desk');
    await person.type(form.locator('[id="field-connections.desk.port"]'), String(satellitePort));
    await person.click(form.getByRole('button', { name: 'apply to the flow' }));
    await save();
    const deckOn = async () => {
      let deck: ScriptedSatellite | undefined;
      await eventually(
        async () => (deck = await ScriptedSatellite.connect(t, satellitePort).catch(() => undefined)) !== undefined,
        'the satellite port',
      );
      if (!deck) throw new Error('no deck');
      // A live deck: it answers the hub's pings, so it stays through the minutes of the set-up.
      deck.keepAlive();
      deck.addDevice('deck', 15, 5, 72);
      return deck;
    };
    let deck = await deckOn();
    const key1 = () => deck.received('KEY-STATE').filter((message) => message['KEY'] === '1');
    const textOf = (message: Record<string, string> | undefined) => Buffer.from(message?.['TEXT'] ?? '', 'base64').toString();
    await person.click(page.getByRole('button', { name: 'surfaces', exact: true }));
    const surface = page.locator('section[data-surface="desk/deck"]');
    await surface.getByText('connected').waitFor();
    await person.click(page.getByRole('button', { name: 'design keys' }));
    await person.click(surface.locator('.key[data-key="1"]'));
    const designer = page.locator('[data-testid=key-designer]');
    await designer.getByRole('button', { name: 'save the key' }).and(page.locator(':enabled')).waitFor();
    await person.type(designer.getByLabel('text', { exact: true }), 'PGM\n');
    await person.pick(designer.getByLabel('put a value in the text'), 'router/output/0/input');
    await person.pick(designer.getByLabel('a press'), { label: 'sets a parameter to a value' });
    await person.type(designer.getByLabel('the parameter it writes'), 'router/output/0/input');
    await person.pick(designer.getByLabel('the value it sets'), { label: 'Input 2: Camera 2' });
    await person.type(designer.getByLabel('lit by'), 'router/output/0/input');
    await person.pick(designer.getByLabel('lit while it is'), { label: 'Input 2: Camera 2' });
    await person.click(designer.getByRole('button', { name: 'save the key' }));
    await page.locator('.notice', { hasText: 'saved and applied' }).waitFor();
    await eventually(
      () => key1().at(-1)?.['COLOR'] === '#e00000' && textOf(key1().at(-1)) === 'PGM\nInput 2: Camera 2',
      () => `the key lit, with the camera's name: ${key1().at(-1)?.['COLOR']} ${JSON.stringify(textOf(key1().at(-1)))}`,
    );
    panel(0);
    await eventually(() => key1().at(-1)?.['COLOR'] !== '#e00000', 'the key out once camera 1 is on');
    deck.press('deck', 0, 1, true);
    deck.press('deck', 0, 1, false);
    await eventually(() => router.routes[0] === 1, 'the key routed camera 2');
    await eventually(() => key1().at(-1)?.['COLOR'] === '#e00000', 'lit again');
    await eventually(() => shown(multiviewer, 2)?.lh_tally === 1, 'and the display red');
    t.log(`after the key: ${person.clicks} clicks, ${person.typed} typed`);

    // 4. A scene of the router, stored as it is now, recalled when a timer ends.
    await person.click(page.getByRole('button', { name: 'flow', exact: true }));
    await addConnection();
    await fromCatalogue('scene', 'scenes');
    await person.type(form.getByLabel('id *'), 'show');
    await person.click(form.getByRole('button', { name: 'add to scenes' }));
    await person.type(form.locator('[id="field-connections.show.scenes.0.id"]'), 'opening');
    // Its members picked from the hub's parameters as they are typed, one a row.
    await person.click(form.getByRole('button', { name: 'add one' }));
    await person.type(form.getByLabel('members 1', { exact: true }), 'router/#');
    t.true((await page.locator('#hub-addresses option').count()) > 0, "the hub's addresses to pick from");
    await person.click(form.getByRole('button', { name: 'apply to the flow' }));
    await save();
    await addConnection();
    await fromCatalogue('timer', 'timer');
    await person.type(form.getByLabel('id *'), 'clock');
    await person.click(form.getByRole('button', { name: 'add to timers' }));
    await person.type(form.locator('[id="field-connections.clock.timers.0.duration"]'), '1500');
    await person.click(form.getByRole('button', { name: 'apply to the flow' }));
    await save();
    await person.click(page.getByRole('navigation', { name: 'flow views' }).getByRole('button', { name: 'rules' }));
    await person.click(page.getByRole('button', { name: 'add a trigger' }));
    await person.type(trigger.getByLabel('name *'), 'opening when the countdown ends');
    await person.pick(trigger.getByLabel('when'), 'when a value changes');
    await person.type(trigger.getByLabel('the value of *'), 'clock/timer/1/trigger');
    await person.type(trigger.getByLabel('then write to *'), 'show/opening/recall');
    await person.click(trigger.getByRole('button', { name: 'apply to the flow' }));
    await save();
    // Stored with camera 2 on the program; camera 1 taken at the panel; the countdown started.
    await person.click(page.locator('header nav button', { hasText: 'scenes' }));
    await person.click(page.getByLabel('store show/opening'));
    await eventually(async () => (await read('show/opening/members')) !== '0', 'the scene stored');
    panel(0);
    await eventually(async () => (await read('router/output/0/input')) === '0', 'camera 1 on the program');
    await person.click(page.locator('header nav button', { hasText: 'parameters' }));
    await person.type(page.getByPlaceholder('search, or /expression/'), 'clock');
    await person.type(page.getByLabel('new value for clock/timer/1/start'), '1');
    await person.click(page.locator('[data-address="clock/timer/1/start"]').getByRole('button', { name: 'set' }));
    await eventually(() => router.routes[0] === 1, 'the scene recalled when the countdown ended: camera 2 on the program');
    await eventually(() => shown(multiviewer, 2)?.lh_tally === 1, 'its display red again');
    t.log(`after the scene: ${person.clicks} clicks, ${person.typed} typed`);

    // 5. The ATEM, installed from the box as the router was: camera 2 on its program lights the display's right lamp.
    await person.click(page.getByRole('button', { name: 'flow', exact: true }));
    await person.click(page.getByRole('navigation', { name: 'flow views' }).getByRole('button', { name: 'connections' }));
    await addConnection();
    await install('atem', 'patchbay-atem');
    await addConnection();
    await fromCatalogue('atem', 'atem');
    await person.type(form.getByLabel('id *'), 'mixer');
    await person.type(form.locator('[id="field-connections.mixer.host"]'), '127.0.0.1');
    await person.type(form.locator('[id="field-connections.mixer.port"]'), String(switcher.port));
    await person.click(form.getByRole('button', { name: 'apply to the flow' }));
    await save();
    await eventually(async () => (await read('mixer/me/1/program')) === '1', 'the switcher read: camera 1 on its program');
    await person.click(page.getByRole('navigation', { name: 'flow views' }).getByRole('button', { name: 'rules' }));
    await person.click(page.getByRole('button', { name: 'add a trigger' }));
    await person.type(trigger.getByLabel('name *'), 'camera 2 on the switcher');
    await person.pick(trigger.getByLabel('when'), 'when a value meets a condition');
    await person.type(trigger.getByLabel('the value of *'), 'mixer/input/2/tally/program');
    await person.type(trigger.getByLabel('than'), 'true');
    await person.type(trigger.getByLabel('then write to *'), 'umds/0/2/tally/rh');
    await person.pick(trigger.getByLabel('the value', { exact: true }), { label: 'red' });
    await person.pick(trigger.getByLabel('otherwise write'), { label: 'off' });
    await person.click(trigger.getByRole('button', { name: 'apply to the flow' }));
    await save();
    // A rule holds the lamp (R-RS3): off at once, camera 2 being off air; red when the panel takes it.
    await eventually(() => shown(multiviewer, 2)?.rh_tally === 0, 'the right lamp off: camera 2 off air');
    switcher.setProgram(0, 2);
    await eventually(() => shown(multiviewer, 2)?.rh_tally === 1, 'the right lamp red: camera 2 on air');
    switcher.setProgram(0, 1);
    await eventually(() => shown(multiviewer, 2)?.rh_tally === 0, 'and off again');
    t.log(`after the switcher: ${person.clicks} clicks, ${person.typed} typed`);

    // 6. A second key that cuts the switcher, lit while camera 2 is on air.
    await person.click(page.getByRole('button', { name: 'surfaces', exact: true }));
    await person.click(page.getByRole('button', { name: 'design keys' }));
    await person.click(surface.locator('.key[data-key="2"]'));
    await designer.getByRole('button', { name: 'save the key' }).and(page.locator(':enabled')).waitFor();
    await person.type(designer.getByLabel('text', { exact: true }), 'CUT');
    await person.pick(designer.getByLabel('a press'), { label: 'fires a trigger (a scene, an action)' });
    await person.type(designer.getByLabel('the parameter it writes'), 'mixer/me/1/cut');
    await person.type(designer.getByLabel('lit by'), 'mixer/input/2/tally/program');
    await person.click(designer.getByRole('button', { name: 'save the key' }));
    await page.locator('.notice', { hasText: /key 2 of deck: (saved|not)/ }).waitFor();
    t.regex((await page.locator('.notice', { hasText: 'key 2 of deck' }).allTextContents()).join(), /saved and applied/);
    const key2 = () => deck.received('KEY-STATE').filter((message) => message['KEY'] === '2');
    await eventually(
      () => textOf(key2().at(-1)) === 'CUT',
      () => `the cut key: ${JSON.stringify(textOf(key2().at(-1)))}`,
    );
    deck.press('deck', 0, 2, true);
    deck.press('deck', 0, 2, false);
    await eventually(() => switcher.program(0) === 2, 'the key cut the switcher: camera 2 on air');
    await eventually(
      () => key2().at(-1)?.['COLOR'] === '#e00000',
      () => `the cut key lit: ${JSON.stringify(key2().at(-1))}`,
    );
    await eventually(() => shown(multiviewer, 2)?.rh_tally === 1, 'and the right lamp red');
    const counted = `${person.clicks} clicks, ${person.typed} typed fields, no file chosen, 0 JSON snippets, no terminal step after patchbay`;
    t.log(`the whole studio: ${counted}`);

    // After a restart of the hub the deck, back, shows the key as designed, lit.
    hub.kill('SIGTERM');
    await new Promise((resolve) => hub.once('exit', resolve));
    ({ hub } = await startPatchbay(t, folder, port));
    deck = await deckOn();
    await eventually(
      () => key1().at(-1)?.['COLOR'] === '#e00000' && textOf(key1().at(-1)) === 'PGM\nInput 2: Camera 2',
      () => `the key after a restart: ${key1().at(-1)?.['COLOR']} ${JSON.stringify(textOf(key1().at(-1)))}`,
    );

    // The file is what the forms wrote, and validate passes it.
    const written = await readFile(join(folder, 'studio.json5'), 'utf8');
    for (const line of [
      "type: 'videohub'",
      "type: 'tsl-umd'",
      "type: 'satellite'",
      "type: 'scenes'",
      "type: 'timer'",
      "type: 'atem'",
      "to: 'umds/0/2/tally/rh'",
      // A condition with a value either way is one rule that holds the lamp (R-RS3).
      "from: 'router/output/0/input'",
      "to: 'umds/0/2/tally/lh'",
      "expr: 'value == ",
      "source: 'clock/timer/1/trigger'",
    ])
      t.true(written.includes(line), `${line} in\n${written}`);
    t.regex(written, /plugins: \[\s*'patchbay-videohub',\s*'patchbay-atem',?\s*\]/);
    t.notThrows(() => execFileSync(process.execPath, [bin, 'validate', 'studio.json5'], { cwd: folder, encoding: 'utf8' }));
    if (shots) {
      await page.reload();
      await person.page.locator('header nav button', { hasText: 'surfaces' }).click();
      await page.screenshot({ path: join(shots, 'console-whole-studio-surfaces.png'), fullPage: true });
    }
  },
);
