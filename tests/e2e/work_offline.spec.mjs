// Offline play, a sub-path host, and the update offer of a new build.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, appendFileSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { catalog, goOffline, launchBrowser, scoreOnce, serveDist, tapSolution, withPage } from './score_page.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser.close(); });

test('play a full round offline after one visit', async () => {
  await withPage(browser, async (score, page, context) => {
    await score.open();
    await score.waitForServiceWorker();
    await goOffline(context);
    await page.reload();
    await score.numbers().first().waitFor();
    await scoreOnce(score);
    await score.expectScore(1);
  });
});

test('play from a sub-path of a static host, online and offline', async () => {
  const server = await serveDist('dist', '/games/score/');
  try {
    await withPage(browser, async (score, page, context) => {
      await score.open(server.url);
      await score.waitForServiceWorker();
      await score.playRoll('2 5 12 12');
      await tapSolution(score);
      await score.result("0: the clock wasn't running").waitFor();
      await goOffline(context);
      await page.reload();
      await score.numbers().first().waitFor();
      assert.equal(await page.getByTestId('goal').textContent(), '20');
      // So does the tools' module, never opened online.
      await score.button('Experiment').click();
      await page.getByRole('textbox', { name: 'Numbers' }).waitFor();
      // The class room's own module, never opened online, comes from the offline cache too.
      await score.button('Class room').click();
      await score.button('Create room').waitFor();
    });
  } finally {
    server.stop();
  }
});

for (const lang of ['en', 'fr']) {
  test(`a new build offers a reload, in the page's language (${lang})`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'score-dist-'));
    cpSync('dist', dir, { recursive: true });
    const server = await serveDist(dir, '/');
    try {
      const words = lang === 'en' ? { update_ready: 'A new version of Score is ready.', reload: 'Reload' } : await catalog(lang, server.url);
      // Played in `lang`: its catalog is here (the page is drawn once it is, or in English after a second).
      const inLanguage = (page) => page.waitForFunction((l) => document.documentElement.lang === l, lang);
      await withPage(browser, async (score, page) => {
        await page.goto(`${server.url}?lang=${lang}`);
        await page.locator('.pool .tile').first().waitFor();
        await inLanguage(page);
        await score.waitForServiceWorker();
        appendFileSync(join(dir, 'sw.js'), '\n// next build\n');
        // A later modification time, or the test server may answer 304 within the same second.
        const later = new Date(Date.now() + 60_000);
        utimesSync(join(dir, 'sw.js'), later, later);
        await page.reload();
        await page.getByText(words.update_ready).waitFor();
        await Promise.all([page.waitForEvent('load'), score.button(words.reload).click()]);
        await page.locator('.pool .tile').first().waitFor();
        await inLanguage(page);
      });
    } finally {
      server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
