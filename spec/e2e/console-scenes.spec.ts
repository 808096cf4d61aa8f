import { live, openBrowser, whyNoBrowser } from '../helpers/browser.ts';
import { param } from '../helpers/hub.ts';
import { serve } from '../helpers/http.ts';

const shot = process.env['PATCHBAY_SCREENSHOT']; // a file: where to keep a picture of the scenes tab

const show = {
  studio: { type: 'dummy', parameters: ['title,S,Morning News', 'camera,I,1', 'onair,B,false'] },
  show: {
    type: 'scenes',
    scenes: [
      { id: 'news', members: ['studio/#'] },
      { id: 'sport', members: ['studio/title', 'studio/camera'] },
    ],
  },
};

live(`the console lists each scene with its dirty state and report, and its buttons store and recall it${whyNoBrowser}`, async (t) => {
  const { hub, base } = await serve(t, {}, show);
  const browser = await openBrowser(t);
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${base}/console/`);
  await page.locator('[data-testid=link].live').waitFor();
  await page.getByRole('button', { name: 'scenes', exact: true }).click();
  const news = page.locator('li[data-scene="show/news"]');
  await news.locator('[data-testid=report]').filter({ hasText: 'not stored yet' }).waitFor();
  t.is(await page.locator('li[data-scene]').count(), 2);
  t.is(await news.locator('[data-testid=dirty]').textContent(), 'not stored');

  await page.getByLabel('store show/news').click();
  await news
    .locator('[data-testid=report]')
    .filter({ hasText: /^3 members stored at / })
    .waitFor();
  t.is(await news.locator('[data-testid=dirty]').textContent(), 'as stored');

  param(hub, 'studio/title').set('Sport Tonight');
  await news.locator('[data-testid=dirty]').filter({ hasText: 'changed' }).waitFor();
  if (shot) await page.screenshot({ path: shot });
  await page.getByLabel('recall show/news').click();
  await news.locator('[data-testid=dirty]').filter({ hasText: 'as stored' }).waitFor();
  t.is(param(hub, 'studio/title').value, 'Morning News');
  t.is(param(hub, 'studio/title').lastChange?.by, 'scene show/news');
  await news.locator('[data-testid=report]').filter({ hasText: '3 of 3 members recalled' }).waitFor();

  // Storing over a kept scene asks first: dismissed, the scene stays; accepted, it is replaced.
  param(hub, 'studio/title').set('Late News');
  page.once('dialog', (dialog) => void dialog.dismiss());
  await page.getByLabel('store show/news').click();
  await page.waitForTimeout(300);
  t.is(await news.locator('[data-testid=dirty]').textContent(), 'changed', 'dismissed: the kept scene stays');
  page.once('dialog', (dialog) => {
    t.regex(dialog.message(), /in place of the 3 kept in show\/news/);
    void dialog.accept();
  });
  await page.getByLabel('store show/news').click();
  await news.locator('[data-testid=dirty]').filter({ hasText: 'as stored' }).waitFor();
});

live(`a token that may not write a scene's triggers is refused from the console, and the scene is not stored${whyNoBrowser}`, async (t) => {
  const { hub, base } = await serve(t, { tokens: [{ name: 'desk', token: 'desk-token', read: ['#'], write: ['show/news/recall'] }] }, show);
  const browser = await openBrowser(t);
  const page = await browser.newPage();
  await page.goto(`${base}/console/?access_token=desk-token`);
  await page.locator('[data-testid=link].live').waitFor();
  await page.getByRole('button', { name: 'scenes', exact: true }).click();
  await page.getByLabel('store show/news').click();
  await page.locator('.notice.error').filter({ hasText: 'show/news/store' }).waitFor();
  t.is(param(hub, 'show/news/report').value, 'not stored yet');
});

live(`on a phone the console with scenes fits the screen, and a flow without scenes has no scenes tab${whyNoBrowser}`, async (t) => {
  const { base } = await serve(t, {}, show);
  const browser = await openBrowser(t);
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await page.goto(`${base}/console/`);
  await page.locator('[data-testid=link].live').waitFor();
  await page.getByRole('button', { name: 'scenes', exact: true }).click();
  await page.locator('li[data-scene="show/news"]').waitFor();
  t.false(await page.evaluate('document.documentElement.scrollWidth > window.innerWidth'), 'the scenes tab is wider than a phone');

  const plain = await serve(t, {}, { studio: show.studio });
  await page.goto(`${plain.base}/console/`);
  await page.locator('[data-testid=link].live').waitFor();
  await page.getByRole('button', { name: 'connections', exact: true }).waitFor();
  t.is(await page.getByRole('button', { name: 'scenes', exact: true }).count(), 0);
});
