/**
 * The console of a redundancy group (R-U1, R-B1, R-B5): real hub processes in a group on a
 * real Mosquitto, their consoles in Chromium. Each hub says its role on every tab, and a
 * standby's Take over button, once confirmed, makes it the active hub.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import type { Browser, Page } from 'playwright-core';
import { withBroker } from '../helpers/broker-tests.ts';
import { canRunBrowser, openBrowser, whyNoBrowser } from '../helpers/browser.ts';
import { eventually } from '../helpers/eventually.ts';
import { type HubProcess, runHub } from '../helpers/hub-process.ts';
import { startBroker, whyNoBroker } from '../helpers/mosquitto.ts';
import { siteKey } from '../helpers/site-key.ts';

const inGroup = canRunBrowser ? withBroker : test.serial.skip;
const why = `${whyNoBroker}${whyNoBrowser}`;

/** The operator on duty may take over (`admin`); the desk's token may write but not move the active role. */
const tokens = [
  { name: 'duty', token: 'duty-token', read: ['#'], write: ['#'], admin: true },
  { name: 'desk', token: 'desk-token', read: ['#'], write: ['#'] },
];

/** One flow file for every hub of the group: the hub's id comes from the environment. */
async function groupFlow(t: ExecutionContext, failover: 'auto' | 'manual'): Promise<string> {
  // A broker of the spec's own: the role records another spec's group left retained would be this group's history.
  const broker = await startBroker();
  t.teardown(() => broker.stop());
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-console-group-'));
  const path = join(dir, 'studio.json5');
  const flow = {
    connections: {
      api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1', tokens },
      bus: { type: 'mqtt', url: broker.url, hub: { id: '${HUB}', group: 'studio', failover, share: [], key: siteKey } },
      desk: { type: 'dummy', parameters: ['title,S,morning', 'onair,B,false'] },
    },
  };
  await writeFile(path, JSON.stringify(flow));
  return path;
}

/** A hub of the group, with a state folder of its own (as on a machine of its own). */
const hubIn = (t: ExecutionContext, flow: string, id: string) =>
  runHub(t, flow, { env: { HUB: id }, args: ['--state', join(dirname(flow), `state-${id}`)] });
/** `GET /parameters/bus/_hub/role` with the duty token (the hub's helpers read without one). */
const roleOf = async (hub: HubProcess) => {
  const response = await fetch(`${hub.base}/parameters/bus/_hub/role`, { headers: { authorization: 'Bearer duty-token' } });
  return response.ok ? response.text() : `HTTP ${response.status}`;
};

/** Hub a active, hub b its standby. */
async function groupOfTwo(t: ExecutionContext, failover: 'auto' | 'manual') {
  const flow = await groupFlow(t, failover);
  const a = await hubIn(t, flow, 'a');
  await eventually(
    async () => (await roleOf(a)) === 'active',
    () => `the first hub to take the lease of a new group: ${a.log()}`,
  );
  const b = await hubIn(t, flow, 'b');
  await eventually(async () => (await roleOf(b)) === 'standby', 'the second hub to join as standby');
  return { flow, a, b };
}

/** A hub's console, signed in with a token, live. */
async function consoleOf(browser: Browser, hub: HubProcess, token: string, viewport = { width: 1280, height: 800 }): Promise<Page> {
  const page = await browser.newPage({ viewport });
  // A bound, not a measure: a loaded machine running the whole suite took longer than
  // Playwright's 30 s for a standby to hear its active hub and show it.
  page.setDefaultTimeout(90_000);
  await page.goto(`${hub.base}/console/?access_token=${token}`);
  await page.locator('[data-testid=link].live').waitFor();
  return page;
}
const role = (page: Page) => page.locator('[data-testid=role]');
const takeOver = (page: Page) => page.getByRole('button', { name: 'Take over' });

inGroup(
  `each hub's console says its role in the group, and a standby's Take over, once confirmed, makes it the active hub and the other a standby${why}`,
  async (t) => {
    const { a, b } = await groupOfTwo(t, 'auto');
    const browser = await openBrowser(t);
    const active = await consoleOf(browser, a, 'duty-token');
    const standby = await consoleOf(browser, b, 'duty-token');
    await role(active)
      .filter({ hasText: /hub a active in group studio \(epoch \d+\)/ })
      .waitFor();
    await role(standby).filter({ hasText: 'hub b standby in group studio — active: hub a' }).waitFor();
    t.is(await takeOver(active).count(), 0, 'the active hub offers no takeover');
    // On every tab.
    await standby.getByRole('button', { name: 'connections', exact: true }).click();
    t.true(await role(standby).isVisible());

    // Dismissed, nothing moves.
    standby.once('dialog', (dialog) => void dialog.dismiss());
    await takeOver(standby).click();
    await standby.waitForTimeout(500);
    t.is(await roleOf(a), 'active');
    t.is(await roleOf(b), 'standby');

    // Accepted: the question says what happens to both hubs; the hub's answer shows.
    standby.once('dialog', (dialog) => {
      t.regex(dialog.message(), /hub b becomes the active hub of group studio and drives the devices.*; hub a stops driving them/);
      void dialog.accept();
    });
    await takeOver(standby).click();
    await standby
      .locator('.notice:not(.error)')
      .filter({ hasText: /hub b claims the lease as epoch \d+ from hub a/ })
      .waitFor();
    await role(standby)
      .filter({ hasText: /hub b active in group studio \(epoch \d+\)/ })
      .waitFor();
    t.is(await takeOver(standby).count(), 0, 'the new active hub offers no takeover');
    await eventually(async () => (await roleOf(a)) === 'standby', 'the old active hub to stand down');
    t.is(await roleOf(b), 'active');
    // The old active hub's console, open all along, follows without a reload.
    await role(active).filter({ hasText: 'hub a standby in group studio — active: hub b' }).waitFor();
    t.is(await takeOver(active).count(), 1);
  },
);

inGroup(
  `a manual group whose active hub died warns on the standby's console that nothing drives the devices, until Take over starts it${why}`,
  async (t) => {
    const { flow, a, b } = await groupOfTwo(t, 'manual');
    const browser = await openBrowser(t);
    const standby = await consoleOf(browser, b, 'duty-token', { width: 390, height: 844 });
    await role(standby).filter({ hasText: 'active: hub a' }).waitFor();
    t.is(await role(standby).locator('[role=alert]').count(), 0, 'no warning while a hub is active');

    a.child.kill('SIGKILL');
    const warning = role(standby).locator('[role=alert]');
    await warning.waitFor();
    t.regex((await warning.textContent()) ?? '', /No hub of group studio is active, and failover is manual: nothing drives the devices/);
    t.regex((await role(standby).textContent()) ?? '', /standby in group studio — active: none/);
    t.false(await standby.evaluate('document.documentElement.scrollWidth > window.innerWidth'), 'the warning is wider than a phone');

    standby.once('dialog', (dialog) => {
      t.regex(dialog.message(), /hub b becomes the active hub of group studio .*\(no hub drives them now\)/);
      void dialog.accept();
    });
    await takeOver(standby).click();
    // While the old lease runs out the claim shows, and the button waits. The claim lasts
    // about a second: a loaded machine may render only what comes after it, so the page is
    // read at once (strip and button together) on every change until the hub is active.
    // A string: the specs are compiled without the DOM's types.
    const seen = (await standby.evaluate(`new Promise((resolve) => {
      const states = [];
      const look = () => {
        const text = document.querySelector('[data-testid=role]')?.textContent ?? '';
        const button = [...document.querySelectorAll('button')].find((b) => b.textContent.trim() === 'Take over');
        if (/taking over as epoch \\d+/.test(text)) states.push({ claim: text, buttonDisabled: button?.disabled ?? true });
        if (/hub b active in group studio \\(epoch \\d+\\)/.test(text)) {
          observer.disconnect();
          resolve(states);
        }
      };
      const observer = new MutationObserver(look);
      observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
      look();
    })`)) as { claim: string; buttonDisabled: boolean }[];
    t.true(
      seen.every((state) => state.buttonDisabled),
      `the button waits while the claim shows: ${JSON.stringify(seen)}`,
    );
    t.log(`the claim was shown in ${seen.length} states before the hub was active`);
    t.is(await warning.count(), 0);
    t.is(await roleOf(b), 'active');
    // Back, hub a joins as standby: the active role does not move back.
    const back = await hubIn(t, flow, 'a');
    await eventually(async () => (await roleOf(back)) === 'standby', 'the returning hub to join as standby');
    // b stays the active hub (one starved past its lease by a loaded machine takes it back at once).
    await eventually(async () => (await roleOf(b)) === 'active', 'hub b to stay the active hub');
    t.is(await roleOf(back), 'standby');
  },
);

inGroup(`a token without admin is told why its Take over is refused, with the code, and nothing moves${why}`, async (t) => {
  const { a, b } = await groupOfTwo(t, 'auto');
  const browser = await openBrowser(t);
  const standby = await consoleOf(browser, b, 'desk-token');
  standby.once('dialog', (dialog) => void dialog.accept());
  await takeOver(standby).click();
  await standby.locator('.notice.error').filter({ hasText: 'it needs `admin` (PB_FORBIDDEN)' }).waitFor();
  t.is(await roleOf(a), 'active');
  t.is(await roleOf(b), 'standby');
  t.regex((await role(standby).textContent()) ?? '', /standby in group studio — active: hub a/);
});
