/**
 * The first minute in the browser (R-ST1): `npx patchbay` in an empty folder, then the
 * console's address it printed, in Chromium. The console opens on the first-run page (add a
 * device, tokens for others, where the file is); its admin may install from the console, and
 * an open catalogue shows a package installed beside the flow from elsewhere (R-ST8); a device
 * added from the flow tab's form and saved makes it a studio, and the page gives way to its
 * parameters.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { live, openBrowser, whyNoBrowser } from '../helpers/browser.ts';
import { eventually, startBound } from '../helpers/eventually.ts';
import { freePort } from '../helpers/ports.ts';

const bin = fileURLToPath(new URL('../../bin/patchbay.js', import.meta.url));
const shots = process.env['PATCHBAY_SCREENSHOTS'];

live(
  `npx patchbay in an empty folder, then its console address: the first-run page says what to do and where the file is; a device added from the form makes it a studio${whyNoBrowser}`,
  async (t) => {
    const folder = await mkdtemp(join(tmpdir(), 'patchbay-first-run-'));
    const port = await freePort();
    const hub = spawn(process.execPath, [bin], {
      cwd: folder,
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    t.teardown(() => hub.kill('SIGKILL'));
    let said = '';
    hub.stderr.on('data', (chunk: Buffer) => (said += chunk.toString()));
    await eventually(
      () => said.includes('running:'),
      () => `the hub to start: ${said}`,
      startBound,
    );
    const address = /http:\/\/127\.0\.0\.1:\d+\/console\/\?access_token=[A-Za-z0-9_-]+/.exec(said)?.[0];
    t.truthy(address, said);

    const browser = await openBrowser(t);
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    page.setDefaultTimeout(60_000);
    page.on('pageerror', (error) => t.log(`page error: ${error.message}`));
    await page.goto(address as string);
    const firstRun = page.locator('[data-testid=first-run]');
    await firstRun.waitFor();
    await firstRun.locator('[data-testid=flow-file]', { hasText: join(folder, 'studio.json5') }).waitFor();
    t.true((await firstRun.textContent())?.includes('git init && git add studio.json5'));
    if (shots) await page.screenshot({ path: join(shots, 'console-first-run-desktop.png') });
    await page.setViewportSize({ width: 390, height: 844 });
    if (shots) await page.screenshot({ path: join(shots, 'console-first-run-phone.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 860 });

    // The first flow lets its admin install from the console, this hub being served on this machine alone (R-ST8).
    const token = new URL(address as string).searchParams.get('access_token');
    const listed = async () =>
      (await (await fetch(`http://127.0.0.1:${port}/catalogue`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
        machineEdits: boolean;
      };
    t.true((await listed()).machineEdits, 'installs from the console allowed');

    // Add a device: the catalogue at once, a type picked from it, its form, saved.
    await firstRun.getByRole('button', { name: 'add a device' }).click();
    const catalogue = page.locator('[data-testid=catalogue]');
    // A package installed beside the flow from elsewhere (a terminal, another browser) shows in the open catalogue,
    // and this admin may add it to the flow's plugins.
    await catalogue.locator('.catalogue-entry').first().waitFor();
    await besidePackage(folder);
    const beside = catalogue.locator('.catalogue-entry', { hasText: 'beside-device' });
    await beside.waitFor();
    t.false(await beside.getByRole('button', { name: 'add to plugins' }).isDisabled(), 'and may add it to plugins');
    // The machines that come with patchbay, offered before any is installed, to install in one click (R-ST7).
    const boxed = catalogue.locator('.catalogue-entry', { hasText: 'patchbay-videohub' });
    t.false(await boxed.getByRole('button', { name: 'install' }).isDisabled(), 'a Videohub to install');
    if (shots) await page.screenshot({ path: join(shots, 'console-catalogue-boxed.png'), fullPage: true });
    await catalogue.getByLabel('search the catalogue').fill('intermediate storage');
    await catalogue.locator('.catalogue-entry', { hasText: 'dummy' }).getByRole('button', { name: 'add' }).click();
    const form = page.locator('[data-testid=connection-form]');
    t.is(await form.getByLabel('type *').inputValue(), 'dummy');
    await form.getByLabel('id *').fill('studio');
    // A parameter of its own from the form: an id, a type picked by name, what it starts at (issue 74 item 7).
    await form.getByRole('button', { name: 'add a parameter' }).click();
    await form.getByLabel('parameter 1 id').fill('onair');
    await form.getByLabel('parameter 1 type').selectOption('on/off');
    await form.getByLabel('parameter 1 starts at').fill('false');
    await form.getByRole('button', { name: 'apply to the flow' }).click();
    await page.getByRole('button', { name: 'save', exact: true }).click();
    await page.locator('.notice', { hasText: 'saved and applied' }).waitFor();
    t.true((await readFile(join(folder, 'studio.json5'), 'utf8')).includes("type: 'dummy'"), 'the file has the device');

    // A studio now: the parameters tab shows its parameters, not the first-run page.
    await page.locator('header nav button', { hasText: 'parameters' }).click();
    await page.getByText('onair').first().waitFor();
    t.is(await firstRun.count(), 0);
  },
);

/** A package of one type installed beside the flow, as npm would, written against the public face. */
async function besidePackage(folder: string): Promise<void> {
  const face = pathToFileURL(fileURLToPath(new URL('../../lib/sdk/index.ts', import.meta.url))).href;
  const where = join(folder, 'node_modules', 'beside-device');
  await mkdir(where, { recursive: true });
  await writeFile(
    join(where, 'echo.js'),
    `import { asWritten, defineConnectionType, Type } from '${face}';
export default defineConnectionType({ type: 'beside', summary: 'Installed from elsewhere.', settings: Type.Object({}), parse: asWritten,
  create: () => ({ start() {}, stop() {} }) });
`,
  );
  await writeFile(
    join(where, 'package.json'),
    JSON.stringify({
      name: 'beside-device',
      version: '1.0.0',
      type: 'module',
      patchbay: { apiVersion: 1, types: { beside: './echo.js' } },
    }),
  );
}
