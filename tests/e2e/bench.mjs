// Browser bench (not a test): `BASE_URL=… node tests/e2e/bench.mjs`.
// Prints load-to-playable, the impossible-rolls table time and the slowest roll's
// solution list time, measured in headless Chromium from the release build.
import { launchBrowser, ScorePage, BASE_URL } from './score_page.mjs';

const browser = await launchBrowser();
const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const loads = [];
for (let i = 0; i < 7; i += 1) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${BASE_URL}/`);
  await page.locator('[aria-label="Numbers"] button').first().waitFor();
  loads.push(await page.evaluate(() => performance.now()));
  await context.close();
}
console.log(`load to playable (first die clickable), median of 7: ${median(loads).toFixed(0)} ms`);

{
  // Offline: after one visit the service worker serves every file from its cache.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${BASE_URL}/`);
  await page.waitForFunction(() => navigator.serviceWorker?.controller != null);
  const bytes = await page.evaluate(async () => {
    let total = 0;
    for (const key of await caches.keys()) {
      const cache = await caches.open(key);
      for (const req of await cache.keys()) total += (await (await cache.match(req)).arrayBuffer()).byteLength;
    }
    return total;
  });
  await context.setOffline(true);
  const offline = [];
  for (let i = 0; i < 7; i += 1) {
    await page.reload();
    await page.locator('[aria-label="Numbers"] button').first().waitFor();
    offline.push(await page.evaluate(() => performance.now()));
  }
  console.log(`precache: ${(bytes / 1024).toFixed(0)} KiB; offline reload to playable, median of 7: ${median(offline).toFixed(0)} ms`);
  await context.close();
}

const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
const page = await context.newPage();
const score = new ScorePage(page);
await score.open();
const tables = [];
for (let i = 0; i < 7; i += 1) {
  await score.button('Impossible rolls').click();
  await score.button('List impossible rolls').click();
  const text = await page.getByTestId('impossible-summary').textContent();
  tables.push(Number(/listed in ([\d.]+) ms/.exec(text)[1]));
  await score.button('Solutions').click();
}
console.log(`impossible table, default dice (2359 rolls), median of 7: ${median(tables).toFixed(1)} ms`);

await score.button('Experiment').click();
const solves = [];
for (let i = 0; i < 7; i += 1) {
  await page.getByRole('textbox', { name: 'Numbers' }).fill(i % 2 ? '4 6 10 20' : '20 10 6 4');
  const ms = await page.evaluate(async () => {
    const t0 = performance.now();
    [...document.querySelectorAll('button')].find((b) => b.textContent === 'Solve').click();
    await new Promise((r) => requestAnimationFrame(() => r()));
    return performance.now() - t0;
  });
  solves.push(ms);
}
console.log(`slowest roll 4 6 10 20, all distinct solutions listed and rendered, median of 7: ${median(solves).toFixed(1)} ms`);
console.log(`(${await page.getByTestId('solution-count').textContent()})`);

await browser.close();
