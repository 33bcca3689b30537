// Browser bench (not a test): `BASE_URL=… node tests/e2e/bench.mjs`.
// Prints load-to-playable, the page's longest task as it starts, the impossible-rolls table
// time and the slowest roll's solution list time, measured in headless Chromium from the
// release build.
import { BASE_URL, ScorePage, goOffline, launchBrowser } from './score_page.mjs';

const browser = await launchBrowser('full');
const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Two readings: when the page itself first has a die (a MutationObserver, so no test
// harness latency), and when Playwright, polling, finds it (an upper bound).
const loads = [];
const inPage = [];
// The longest task of each start (the Long Tasks API: 50 ms or more; 0 when none was).
const longest = [];
for (let i = 0; i < 7; i += 1) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (document.querySelector('[aria-label="Numbers"] button')) {
        window.__firstDie = performance.now();
        observer.disconnect();
      }
    }).observe(document, { childList: true, subtree: true });
    window.__longest = 0;
    new PerformanceObserver((list) => {
      for (const task of list.getEntries()) window.__longest = Math.max(window.__longest, task.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  await page.goto(`${BASE_URL}/`);
  await page.locator('[aria-label="Numbers"] button').first().waitFor();
  loads.push(await page.evaluate(() => performance.now()));
  inPage.push(await page.evaluate(() => window.__firstDie));
  // Its first layout and paint, then the tasks are read.
  await page.waitForTimeout(1500);
  longest.push(await page.evaluate(() => window.__longest));
  await context.close();
}
console.log(`load to playable (first die in the page), median of 7: ${median(inPage).toFixed(0)} ms`);
console.log(
  `longest task as the page starts (0: none of 50 ms or more), median of 7: ${median([...longest]).toFixed(0)} ms ` +
    `(each: ${longest.map((t) => t.toFixed(0)).join(', ')})`,
);
console.log(`load to playable (first die found by Playwright), median of 7: ${median(loads).toFixed(0)} ms`);

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
  await goOffline(context);
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
// Long tasks on the page's main thread (over 50 ms block input and painting).
await context.addInitScript(() => {
  window.__long = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__long.push(e.duration); })
    .observe({ type: 'longtask', buffered: true });
});
const page = await context.newPage();
const score = new ScorePage(page);
await score.open();
await page.waitForTimeout(500);

/** Runs `act` until `done` is visible; returns [ms to result, long tasks over 50 ms, longest]. */
async function measure(act, done) {
  await page.evaluate(() => { window.__long = []; });
  const t0 = await page.evaluate(() => performance.now());
  await act();
  await done.waitFor({ timeout: 60_000 });
  const t1 = await page.evaluate(() => performance.now());
  await page.waitForTimeout(100);
  const long = await page.evaluate(() => window.__long);
  return [t1 - t0, long.length, Math.max(0, ...long)];
}
const report = (what, [ms, n, worst]) => console.log(`${what}: ${ms.toFixed(0)} ms to result; ${n} long tasks over 50 ms (longest ${worst.toFixed(0)} ms)`);

const tables = [];
for (let i = 0; i < 7; i += 1) {
  await score.button('Impossible rolls').click();
  await score.button('List impossible rolls').click();
  await page.getByTestId('impossible-summary').waitFor();
  const text = await page.getByTestId('impossible-summary').textContent();
  tables.push(Number(/listed in ([\d.]+) ms/.exec(text)[1]));
  await score.button('Solutions').click();
}
console.log(`impossible table, default dice (2359 rolls), in the worker, median of 7: ${median(tables).toFixed(1)} ms`);

await score.button('Experiment').click();
const solves = [];
for (let i = 0; i < 7; i += 1) {
  await page.getByRole('textbox', { name: 'Numbers' }).fill(i % 2 ? '4 6 10 20' : '20 10 6 4');
  const [ms] = await measure(() => score.button('Solve').click(), page.getByTestId('solution-count'));
  solves.push(ms);
}
console.log(`slowest roll 4 6 10 20, all distinct solutions listed and rendered, median of 7: ${median(solves).toFixed(1)} ms`);

await page.getByRole('textbox', { name: 'Numbers' }).fill('97 89 83 79 73 71');
await page.getByRole('textbox', { name: 'Goal' }).fill('9999');
report('experiment 97 89 83 79 73 71 → 9999', await measure(() => score.button('Solve').click(), page.getByTestId('solution-count')));

await score.button('Worksheet').click();
await page.getByRole('textbox', { name: 'Rolls (1–50)' }).fill('50');
await page.getByRole('combobox', { name: 'Difficulty' }).selectOption('5');
report('worksheet, 50 rolls of difficulty 5', await measure(() => score.button('Make worksheet').click(), page.getByRole('region', { name: 'Answer key' })));

await score.button('Settings').click();
await page.getByRole('textbox', { name: 'Dice (sides)' }).fill('20 20 20 20 20');
await score.button('Apply and roll').click();
await score.button('Impossible rolls').click();
{
  // Two clocks: the page's own (from the click's handler to the listed table, as the summary
  // says) and Playwright's (click to summary found, which adds its own polling).
  const listed = [];
  const toResult = [];
  for (let i = 0; i < 5; i += 1) {
    const [ms, n, worst] = await measure(() => score.button('List impossible rolls').click(), page.getByTestId('impossible-summary'));
    if (i === 0) report('impossible table, five d20 (42,504 rolls), first listing', [ms, n, worst]);
    toResult.push(ms);
    listed.push(Number(/listed in ([\d.]+) ms/.exec(await page.getByTestId('impossible-summary').textContent())[1]));
    await score.button('Solutions').click();
    await score.button('Impossible rolls').click();
  }
  console.log(`impossible table, five d20, in the page (its own clock): first ${listed[0].toFixed(1)} ms, median of 5 ${median([...listed]).toFixed(1)} ms; click to result (Playwright) median of 5 ${median(toResult).toFixed(0)} ms`);
}

await score.button('Settings').click();
await page.getByRole('textbox', { name: 'Dice (sides)' }).fill('100 100 100 100 100 100');
report('apply six d100 and roll', await measure(() => score.button('Apply and roll').click(), page.getByText('Saved. New roll with these settings.')));
await context.close();
await browser.close();
