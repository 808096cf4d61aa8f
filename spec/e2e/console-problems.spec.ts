/**
 * Problems shown as they are (issue "set up in the browser", item 6), in Chromium on a real
 * hub process: a device that goes away is in the problems tab and in the header's alarm on
 * every tab without a reload, and gone from both once it is back; a package installed again
 * is one at once, with the reload that runs it (R-PK10). With PATCHBAY_SCREENSHOTS,
 * a picture of the alarm over the parameters tab (docs/console-alarm.png).
 */
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { live, openBrowser, whyNoBrowser } from '../helpers/browser.ts';
import { runHub } from '../helpers/hub-process.ts';
import { freePort } from '../helpers/ports.ts';

const shots = process.env['PATCHBAY_SCREENSHOTS'];

/** A line device on `port` that can go away (its listener and every connection closed) and come back. */
function lineDevice(port: number) {
  let server: Server | undefined;
  const sockets = new Set<Socket>();
  return {
    up: () =>
      new Promise<void>((resolve) => {
        server = createServer((socket) => {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
        }).listen(port, '127.0.0.1', resolve);
      }),
    down: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server?.close(() => resolve());
      }),
  };
}

live(
  `a device that goes away is in the problems tab and the header's alarm at once, and gone from both when it is back${whyNoBrowser}`,
  async (t) => {
    const port = await freePort();
    const device = lineDevice(port);
    await device.up();
    t.teardown(() => device.down());
    const dir = await mkdtemp(join(tmpdir(), 'patchbay-problems-'));
    const flow = join(dir, 'studio.json5');
    await writeFile(
      flow,
      `{
  connections: {
    api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1', tokens: [{ name: 'ops', token: 'ops-problems-token', read: ['#'], write: ['#'], admin: true }] },
    router: { type: 'tcp-client', host: '127.0.0.1', port: ${port}, parameters: ['say,S'], send: [{ parameter: 'say', frame: 'SAY $VALUE\\n' }] },
  },
}
`,
    );
    const hub = await runHub(t, flow, { args: ['--state', 'none'] });
    const browser = await openBrowser(t);
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.setDefaultTimeout(60_000);
    await page.goto(`${hub.base}/console/?access_token=ops-problems-token`);
    await page.locator('header nav button', { hasText: 'problems' }).click();
    await page.getByText('No problems').waitFor();
    t.is(await page.locator('[data-testid=alarm]').count(), 0);

    await device.down();
    await page.locator('.problems li', { hasText: 'router' }).waitFor();
    await page.locator('header nav button', { hasText: 'parameters' }).click();
    await page.locator('[data-testid=alarm]', { hasText: '1 problem' }).waitFor();
    if (shots) await page.screenshot({ path: join(shots, 'console-alarm.png') });
    await page.locator('[data-testid=alarm]').click();
    await page.locator('.problems li', { hasText: 'router' }).waitFor();

    await device.up();
    await page.getByText('No problems').waitFor();
    t.is(await page.locator('[data-testid=alarm]').count(), 0, 'the alarm gone with the problem');
  },
);

/** A package of one type, `echo`, written against the public face as an outside package is. */
async function echoPackage(dir: string): Promise<string> {
  const face = pathToFileURL(fileURLToPath(new URL('../../lib/sdk/index.ts', import.meta.url))).href;
  const folder = join(dir, 'node_modules', 'echo-device');
  await mkdir(folder, { recursive: true });
  await writeFile(
    join(folder, 'package.json'),
    JSON.stringify({ name: 'echo-device', version: '1.0.0', type: 'module', patchbay: { apiVersion: 1, types: { echo: './echo.js' } } }),
  );
  await writeFile(
    join(folder, 'echo.js'),
    `import { asWritten, defineConnectionType, Type } from '${face}';
export default defineConnectionType({
  type: 'echo',
  summary: 'Says one thing.',
  settings: Type.Object({}),
  parse: asWritten,
  create(context) {
    return { start() { context.define('said', { type: 'S', access: 'read-only', initial: 'hello' }); }, stop() {} };
  },
});
`,
  );
  return folder;
}

live(
  `a package installed again is a problem at once, and the problems tab reloads the flow to run it (R-PK10)${whyNoBrowser}`,
  async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'patchbay-problems-'));
    const folder = await echoPackage(dir);
    const flow = join(dir, 'studio.json5');
    await writeFile(
      flow,
      `{
  plugins: ['echo-device'],
  connections: {
    api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1', tokens: [{ name: 'ops', token: 'ops-problems-token', read: ['#'], write: ['#'], admin: true }] },
    echo: { type: 'echo' },
  },
}
`,
    );
    const hub = await runHub(t, flow, { args: ['--state', 'none'] });
    const browser = await openBrowser(t);
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.setDefaultTimeout(60_000);
    await page.goto(`${hub.base}/console/?access_token=ops-problems-token`);
    await page.locator('header nav button', { hasText: 'problems' }).click();
    await page.getByText('No problems').waitFor();

    // npm installs 1.1.0 beside the running hub.
    const manifest = JSON.parse(await readFile(join(folder, 'package.json'), 'utf8')) as Record<string, unknown>;
    await writeFile(join(folder, 'package.json'), JSON.stringify({ ...manifest, version: '1.1.0' }));
    const problem = page.locator('.problems li', { hasText: 'package echo-device' });
    await problem.getByText('version 1.1.0 is installed and 1.0.0 runs').waitFor();
    if (shots) await page.screenshot({ path: join(shots, 'console-package-installed.png') });
    await problem.getByRole('button', { name: 'reload the flow' }).click();
    await page.locator('.notice', { hasText: 'the flow reloaded' }).waitFor();
    await page.getByText('No problems').waitFor();
    const listed = (await (await fetch(`${hub.base}/connections`, { headers: { authorization: 'Bearer ops-problems-token' } })).json()) as {
      id: string;
      package?: { version: string; installed?: string };
    }[];
    t.deepEqual(listed.find((c) => c.id === 'echo')?.package, { name: 'echo-device', version: '1.1.0' });
  },
);
