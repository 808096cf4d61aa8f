import { existsSync } from 'node:fs';
import test, { type ExecutionContext } from 'ava';
import { chromium, type Browser } from 'playwright-core';

const browserPath = '/usr/bin/chromium';
const available = existsSync(browserPath);

/** True where Debian's Chromium is installed (CI installs it). */
export const canRunBrowser = available;

/** `test` where Debian's Chromium is installed (CI installs it), `test.skip` elsewhere. */
export const live = available ? test : test.skip;
/** Appended to a spec's title: why it was skipped, when it was. */
export const whyNoBrowser = available ? '' : ` (skipped: ${browserPath} is missing; apt-get install chromium)`;

/** A headless Chromium, closed when the spec ends. */
export async function openBrowser(t: ExecutionContext): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: browserPath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  t.teardown(() => browser.close());
  return browser;
}
