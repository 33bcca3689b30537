// Nothing leaves the origin, no inline script runs but the page's own, and player text is never HTML.
import { createHash } from 'node:crypto';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE_URL, launchBrowser, tapSolution, withPage } from './score_page.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser.close(); });

test('every request stays on the origin through a round and every view', async () => {
  await withPage(browser, async (score, page) => {
    const urls = [];
    page.on('request', (r) => urls.push(r.url()));
    await score.open();
    await score.playRoll('2 5 12 12');
    await score.button('SCORE').click();
    await tapSolution(score);
    for (const view of ['Experiment', 'Impossible rolls', 'Settings', 'Rules', 'Solutions']) await score.button(view).click();
    const origin = new URL(BASE_URL).origin;
    const away = urls.filter((u) => new URL(u).origin !== origin && !u.startsWith('data:'));
    assert.deepEqual(away, []);
    assert.ok(urls.length > 0);
  });
});

test('a strict Content-Security-Policy: one inline script, allowed by its hash alone', async () => {
  await withPage(browser, async (score, page) => {
    await score.open();
    const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    // The page's first script (which module starts, its files asked for at once).
    const inline = await page.locator('script:not([src])').evaluateAll((all) => all.map((s) => s.textContent));
    assert.equal(inline.length, 1, 'the page’s first script only');
    const hash = createHash('sha256').update(inline[0]).digest('base64');
    assert.ok(csp.includes(`script-src 'self' 'sha256-${hash}' 'wasm-unsafe-eval';`), csp);
    assert.doesNotMatch(csp, /'unsafe-inline'|'unsafe-eval'/);
    // The policy holds: a script written into the page does not run (the browser says so:
    // only those lines are forgiven).
    const before = score.errors.length;
    const ran = await page.evaluate(async () => {
      window.injected = false;
      const s = document.createElement('script');
      s.textContent = 'window.injected = true';
      document.body.append(s);
      await new Promise((r) => setTimeout(r, 50));
      return window.injected;
    });
    assert.equal(ran, false);
    score.errors = [...score.errors.slice(0, before), ...score.errors.slice(before).filter((e) => !/Content Security Policy/.test(e))];
  });
});

test('typed text is shown as text, never as HTML', async () => {
  await withPage(browser, async (score, page) => {
    await score.open();
    await score.button('Experiment').click();
    await page.getByRole('textbox', { name: 'Numbers' }).fill('<img src=x> 2 3');
    await score.button('Solve').click();
    await page.getByText('not “<img”.').waitFor();
    assert.equal(await page.locator('.panel img').count(), 0);
  });
});
