/**
 * The catalogue a new connection starts from (R-ST2), in Chromium on a real hub process: the
 * Companion modules in the flow's `modules` folder (a folder and a `.tgz`, each with its maker
 * and products), a package installed beside the flow and the types built in, in one list
 * searched as it is typed. A module is added from it without a terminal — its form opens with
 * its type and path, saved, and it runs; a package the flow's `plugins` does not name is
 * offered only to a hub that takes machine edits. With PATCHBAY_SCREENSHOTS, pictures of the
 * catalogue on a desktop and a phone (docs/console-catalogue-*.png).
 */
import { execFileSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { live, openBrowser, whyNoBrowser } from '../helpers/browser.ts';
import { fixtureArchive, fixtureModule } from '../helpers/companion.ts';
import { eventually } from '../helpers/eventually.ts';
import { runHub } from '../helpers/hub-process.ts';
import { registry } from '../helpers/registry.ts';

const shots = process.env['PATCHBAY_SCREENSHOTS'];
const packages = fileURLToPath(new URL('../../packages/', import.meta.url));
const auth = { authorization: 'Bearer ops-catalogue-token' };

const original = `{
  connections: {
    api: {
      type: 'rest-api',
      port: 0,
      bindIp: '127.0.0.1',
      tokens: [{ name: 'ops', token: 'ops-catalogue-token', read: ['#'], write: ['#'], admin: true }],
    },
  },
}
`;

live(
  `the catalogue lists modules, packages and types, searched; a module is added from it and runs; an unlisted package waits for machine edits${whyNoBrowser}`,
  async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'patchbay-catalogue-'));
    await mkdir(join(dir, 'modules'));
    await rename(await fixtureModule('1.14.1'), join(dir, 'modules', 'fixture'));
    await cp(await fixtureArchive('1.14.1'), join(dir, 'modules', 'fixture-1.0.0.tgz'));
    await mkdir(join(dir, 'node_modules', 'patchbay-obs'), { recursive: true });
    await cp(join(packages, 'obs', 'package.json'), join(dir, 'node_modules', 'patchbay-obs', 'package.json'));
    const flow = join(dir, 'studio.json5');
    await writeFile(flow, original);
    const hub = await runHub(t, flow, { args: ['--state', join(dir, 'state')] });

    const listing = (await (await fetch(`${hub.base}/catalogue`, { headers: { ...auth, accept: 'application/json' } })).json()) as {
      entries: { kind: string; name: string; manufacturer?: string; connection: { type: string; module?: string }; listed?: boolean }[];
      machineEdits: boolean;
    };
    t.false(listing.machineEdits);
    t.deepEqual(
      listing.entries.filter((entry) => entry.kind === 'module').map((entry) => entry.connection),
      [
        { type: 'companion-module', module: './modules/fixture' },
        { type: 'companion-module', module: './modules/fixture-1.0.0.tgz' },
      ],
      'a module folder and a module archive, read without running them',
    );
    t.like(
      listing.entries.find((entry) => entry.kind === 'package'),
      { name: 'patchbay-obs', listed: false, connection: { type: 'obs' } },
    );
    t.true(listing.entries.some((entry) => entry.kind === 'built-in' && entry.name === 'dummy'));

    const browser = await openBrowser(t);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(60_000);
    page.on('pageerror', (error) => t.log(`page error: ${error.message}`));
    await page.goto(`${hub.base}/console/?access_token=ops-catalogue-token`);
    await page.getByRole('button', { name: 'flow', exact: true }).click();
    await page.getByRole('button', { name: 'add a connection' }).click();
    const catalogue = page.locator('[data-testid=catalogue]');
    await catalogue.locator('.catalogue-entry', { hasText: 'patchbay-obs' }).waitFor();
    t.true(
      await catalogue.locator('.catalogue-entry', { hasText: 'patchbay-obs' }).getByRole('button', { name: 'add to plugins' }).isDisabled(),
    );
    if (shots) await page.screenshot({ path: join(shots, 'console-catalogue-desktop.png') });
    t.is(await catalogue.locator('input[type=file]').count(), 0, 'no upload without machine edits');
    await catalogue.getByText('added from here on a hub started with --allow-machine-edits').waitFor();

    // Searched as it is typed: a maker's word finds the modules, and nothing else.
    const search = catalogue.getByLabel('search the catalogue');
    await search.fill('patchbay fixture');
    await eventually(async () => (await catalogue.locator('.catalogue-entry').count()) === 2, 'the two modules alone');
    t.is(await catalogue.locator('.catalogue-entry').first().locator('.maker').textContent(), 'patchbay — Fixture');
    if (shots) {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: join(shots, 'console-catalogue-phone.png') });
      await page.setViewportSize({ width: 1280, height: 900 });
    }

    // Added from it: the form opens with the type, the module's path and an id from its name.
    await catalogue.locator('.catalogue-entry', { hasText: 'Fixture' }).first().getByRole('button', { name: 'add' }).click();
    const form = page.locator('[data-testid=connection-form]');
    t.is(await form.getByLabel('id *').inputValue(), 'fixture');
    t.is(await form.locator('[id="field-connections.fixture.module"]').inputValue(), './modules/fixture');
    await form.getByRole('button', { name: 'apply to the flow' }).click();
    await page.getByRole('button', { name: 'save', exact: true }).click();
    await page.locator('.notice', { hasText: 'saved and applied' }).waitFor();
    const saved = await readFile(flow, 'utf8');
    t.true(saved.includes("module: './modules/fixture'"), saved);
    await eventually(async () => {
      const connections = (await (await fetch(`${hub.base}/connections`, { headers: auth })).json()) as { id: string; status: string }[];
      return connections.find((connection) => connection.id === 'fixture')?.status === 'ok';
    }, 'the module added from the catalogue to run');
  },
);

live(
  `on a hub that takes machine edits, a module's .tgz is added from the catalogue: kept in modules/, listed, added as a connection that runs${whyNoBrowser}`,
  async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'patchbay-catalogue-upload-'));
    const flow = join(dir, 'studio.json5');
    await writeFile(flow, original);
    // A registry npm is set to (a studio's own, or npm's): it serves the sACN package.
    const packed = await mkdtemp(join(tmpdir(), 'patchbay-packed-'));
    const pack = (folder: string) =>
      join(
        packed,
        execFileSync('npm', ['pack', '--silent', '--pack-destination', packed, join(packages, folder)], { encoding: 'utf8' }).trim(),
      );
    const sacn = { manifest: JSON.parse(await readFile(join(packages, 'sacn', 'package.json'), 'utf8')), file: pack('sacn') };
    const served = await registry(t, { 'patchbay-sacn': sacn });
    const cache = await mkdtemp(join(tmpdir(), 'patchbay-npm-cache-'));
    const hub = await runHub(t, flow, {
      args: ['--state', join(dir, 'state'), '--allow-machine-edits'],
      env: { npm_config_registry: served.url, npm_config_cache: cache },
    });
    const browser = await openBrowser(t);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(60_000);
    await page.goto(`${hub.base}/console/?access_token=ops-catalogue-token`);
    await page.getByRole('button', { name: 'flow', exact: true }).click();
    await page.getByRole('button', { name: 'add a connection' }).click();
    const catalogue = page.locator('[data-testid=catalogue]');
    await catalogue.locator('#upload-modules').setInputFiles(await fixtureArchive('1.14.1'));
    await catalogue.getByText('fixture-1.0.0.tgz added: Fixture 1.0.0').waitFor();
    t.deepEqual(await readdir(join(dir, 'modules')), ['fixture-1.0.0.tgz']);
    await catalogue.locator('.catalogue-entry', { hasText: 'Fixture' }).getByRole('button', { name: 'add' }).click();
    const form = page.locator('[data-testid=connection-form]');
    t.is(await form.locator('[id="field-connections.fixture.module"]').inputValue(), './modules/fixture-1.0.0.tgz');
    await form.getByRole('button', { name: 'apply to the flow' }).click();
    await page.getByRole('button', { name: 'save', exact: true }).click();
    await page.locator('.notice', { hasText: 'saved and applied' }).waitFor();
    await eventually(async () => {
      const connections = (await (await fetch(`${hub.base}/connections`, { headers: auth })).json()) as { id: string; status: string }[];
      return connections.find((connection) => connection.id === 'fixture')?.status === 'ok';
    }, 'the module uploaded from the console to run');

    // A package's .tgz, packed as npm packs it: installed beside the flow, its type listed, to add to plugins.
    const file = basename(pack('videohub'));
    await page.getByRole('button', { name: 'add a connection' }).click();
    await catalogue.locator('#upload-packages').setInputFiles(join(packed, file));
    await catalogue.getByText(`${file} added: patchbay-videohub 1.0.0`).waitFor({ timeout: 120_000 });
    const entry = catalogue.locator('.catalogue-entry', { hasText: 'patchbay-videohub' });
    t.false(await entry.getByRole('button', { name: 'add to plugins' }).isDisabled(), 'to add to plugins on this hub');
    t.deepEqual(await readdir(join(dir, 'packages')), [file]);

    // A package by its name, from the registry.
    await catalogue.getByLabel('add a patchbay package from the registry').fill('patchbay-sacn');
    await catalogue.getByRole('button', { name: 'install', exact: true }).click();
    await catalogue.getByText('patchbay-sacn added: patchbay-sacn 1.0.0').waitFor({ timeout: 120_000 });
    t.false(
      await catalogue
        .locator('.catalogue-entry', { hasText: 'patchbay-sacn' })
        .getByRole('button', { name: 'add to plugins' })
        .isDisabled(),
    );
    t.true(served.asked.includes('patchbay-sacn/-/patchbay-sacn-1.0.0.tgz'), 'npm fetched it from the registry');
  },
);
