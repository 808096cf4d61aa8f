import { connect } from 'node:net';
import { live, openBrowser, whyNoBrowser } from '../helpers/browser.ts';
import { eventually } from '../helpers/eventually.ts';
import { param } from '../helpers/hub.ts';
import { freePort, serve } from '../helpers/http.ts';

const shot = process.env['PATCHBAY_SCREENSHOT']; // a file: where to keep a picture of the surfaces tab

live(
  `the console draws each Stream Deck as a grid of its keys in their colours and text, and a bound key is pressable there${whyNoBrowser}`,
  async (t) => {
    const away = await freePort();
    const { hub, base } = await serve(
      t,
      {},
      {
        studio: { type: 'dummy', parameters: ['onair,B,false', 'cut,T'] },
        desk: {
          type: 'satellite',
          port: 0,
          bindIp: '127.0.0.1',
          keys: [
            { device: 'deck', key: 0, show: 'studio/onair', text: 'ON AIR', press: 'toggle' },
            { device: 'deck', key: 4, text: 'CUT', on: '#00a000', off: '#00a000', press: 'fire', target: 'studio/cut' },
            { device: 'deck', key: 2, text: 'CAM 2', off: '#202020', press: 'set', target: 'router/dest/1', value: 2 },
          ],
        },
        // A router that is switched off: a press of key 2 is refused.
        router: {
          type: 'tcp-client',
          host: '127.0.0.1',
          port: away,
          connectTimeout: 500,
          parameters: ['dest/1,I'],
          send: [{ parameter: 'dest/1', frame: 'ROUTE 1 $VALUE\r\n' }],
        },
      },
    );
    await eventually(() => hub.connection('desk')?.info.status === 'ok', 'listening');
    // A satellite adds a 15-key Stream Deck, as Companion Satellite does.
    const satellite = connect(hub.connection('desk')?.info.details?.['port'] as number, '127.0.0.1');
    satellite.on('error', () => {});
    t.teardown(() => satellite.destroy());
    // It answers the hub's pings, as Companion Satellite does: a loaded machine may take longer than `timeout` to open the page.
    satellite.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) if (line.startsWith('PING ')) satellite.write(`PONG ${line.slice(5)}\n`);
    });
    await new Promise((resolve) => satellite.once('connect', resolve));
    satellite.write('ADD-DEVICE DEVICEID="deck" KEYS_TOTAL=15 KEYS_PER_ROW=5 BITMAPS=72 COLORS="hex" TEXT=1 \n');
    await eventually(() => hub.graph.get('desk/deck/connected')?.value === true, 'added');
    param(hub, 'desk/deck/key/7/color').set('#0050c0');
    param(hub, 'desk/deck/key/7/text').set('CAM 2');

    const browser = await openBrowser(t);
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${base}/console/`);
    await page.locator('[data-testid=link].live').waitFor();
    await page.getByRole('button', { name: 'surfaces', exact: true }).click();
    const deck = page.locator('section[data-surface="desk/deck"]');
    await deck.getByText('connected').waitFor();
    t.is(await deck.locator('.key').count(), 15);
    const key = (n: number) => deck.locator(`.key[data-key="${n}"]`);
    const background = (n: number) =>
      page.evaluate<string>(
        `getComputedStyle(document.querySelector('section[data-surface="desk/deck"] .key[data-key="${n}"]')).backgroundColor`,
      );
    t.is(await key(7).textContent(), 'CAM 2');
    t.is(await background(7), 'rgb(0, 80, 192)');
    t.is(await background(0), 'rgb(32, 32, 32)');
    t.true(await key(7).isDisabled(), 'a key bound to no press is shown, not pressed');
    // Five a row, as the device has them.
    const [first, sixth] = await Promise.all([key(0).boundingBox(), key(5).boundingBox()]);
    t.true(first !== null && sixth !== null && Math.abs(first.x - sixth.x) < 1 && sixth.y > first.y);

    await key(0).click();
    await eventually(() => param(hub, 'studio/onair').value === true, 'the console pressed the on-air key');
    t.regex(
      param(hub, 'studio/onair').lastChange?.by ?? '',
      /^key 0 of satellite-\S+ \((?:http|ws )/,
      'the key, its deck as Companion names it, and the console that pressed',
    );
    await eventually(async () => (await background(0)) === 'rgb(224, 0, 0)', 'the key red in the console');
    let cuts = 0;
    param(hub, 'studio/cut').values$.subscribe(() => cuts++);
    await key(4).click();
    await eventually(() => cuts === 1, 'the cut fired');

    // A refused press: the notice says why, the key shows it, and the problems tab lists the key (R-RS6).
    // Held down a while, as a finger does: letting go does not hide why the press was refused.
    // The key shows the refusal for two seconds: watched while it is pressed.
    const shown = eventually(async () => (await background(2)) === 'rgb(255, 128, 0)', 'the key shows the refusal');
    await key(2).click({ delay: 600 });
    await shown;
    if (shot) await page.screenshot({ path: shot });
    await page.locator('.notice.error', { hasText: 'router/dest/1' }).waitFor();
    await new Promise((resolve) => setTimeout(resolve, 300));
    t.true(
      await page.locator('.notice.error', { hasText: 'router/dest/1' }).isVisible(),
      'the refusal stays the notice after the key is let go',
    );
    await page.getByRole('button', { name: /^problems/ }).click();
    await page.locator('.problems li', { hasText: 'key deck/2' }).waitFor();
    t.regex((await page.locator('.problems li', { hasText: 'key deck/2' }).textContent()) ?? '', /PB_DEVICE_UNAVAILABLE/);
    await page.getByRole('button', { name: 'surfaces', exact: true }).click();

    satellite.destroy();
    await deck.getByText('away').waitFor();
  },
);
