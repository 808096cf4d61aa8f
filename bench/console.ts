/**
 * Measures the console at scale (R-U1), printed, not asserted: how long until 50,000
 * parameters show their first rows, and how far the shown value lags the hub while one
 * parameter changes 1,000 times a second. Run: npm run bench:console
 */
import { chromium } from 'playwright-core';
import { Hub } from '../lib/hub/hub.ts';
import { flowOf } from '../spec/helpers/hub.ts';

const COUNT = 50_000;
const RATE = 1000; // changes per second
const SECONDS = 5;

const parameters = Array.from({ length: COUNT }, (_, i) => `p/${String(i).padStart(5, '0')},I,${i}`);
const hub = new Hub({
  flow: flowOf({ connections: { api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' }, big: { type: 'dummy', parameters } } }),
});
await hub.start();
const base = `http://127.0.0.1:${hub.connection('api')!.info.details?.['port'] as number}`;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const shown = page.locator('.row[data-address="big/p/00000"] [data-testid=value]');
  const started = performance.now();
  await page.goto(`${base}/console/`);
  await shown.filter({ hasText: /^0$/ }).waitFor({ timeout: 120_000 });
  console.log(`${COUNT} parameters: first rows shown ${Math.round(performance.now() - started)} ms after navigation started`);

  // 1,000 changes a second: 10 every 10 ms, counting up; the shown value is read every 100 ms.
  const target = hub.graph.get('big/p/00000')!;
  let written = 0;
  const writer = setInterval(() => {
    for (let i = 0; i < RATE / 100; i++) target.set(++written);
  }, 10);
  const lags: number[] = [];
  const until = performance.now() + SECONDS * 1000;
  while (performance.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const before = written;
    const value = Number(await shown.textContent());
    lags.push(((before - value) / RATE) * 1000); // changes behind, as milliseconds at this rate
  }
  clearInterval(writer);
  lags.sort((a, b) => a - b);
  const at = (q: number) => Math.round(lags[Math.min(lags.length - 1, Math.floor(q * lags.length))]!);
  console.log(
    `${RATE} changes/s for ${SECONDS} s (${written} written): shown value behind the hub by median ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${at(1)} ms (${lags.length} samples)`,
  );
  await shown.filter({ hasText: new RegExp(`^${written}$`) }).waitFor();
  console.log(`after the burst the last value (${written}) is shown`);
} finally {
  await browser.close();
  await hub.stop();
}
