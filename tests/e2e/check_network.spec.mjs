// Nothing leaves the origin, no inline script runs, and player text is never HTML.
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

test('a strict Content-Security-Policy and no inline script', async () => {
  await withPage(browser, async (score, page) => {
    await score.open();
    const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    assert.match(csp, /script-src 'self' 'wasm-unsafe-eval';/);
    assert.doesNotMatch(csp, /'unsafe-inline'|'unsafe-eval'/);
    assert.equal(await page.locator('script:not([src])').count(), 0);
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
