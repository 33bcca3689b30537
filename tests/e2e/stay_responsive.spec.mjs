// Long computations run in the solver's Web Worker: the page answers while they run,
// Cancel stops them, and their answers are the engine's.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, withPage } from './score_page.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser.close(); });

/** Starts a listing of seconds: 9973 from five d20 is out of reach for almost every roll. */
async function startLongListing(score, page) {
  await score.useRules('20 20 20 20 20', '9973');
  await score.button('Impossible rolls').click();
  await score.button('List impossible rolls').click();
  await page.getByTestId('impossible-progress').getByText(/of 42,504 rolls/).waitFor({ timeout: 30_000 });
}

test('five d20: a long listing runs in the worker while the page answers; the listing finds the engine’s 39 rolls', async () => {
  await withPage(browser, async (score, page) => {
    await score.open();
    await startLongListing(score, page);
    // While it runs: another view opens, a die fills a slot, at once.
    await score.button('Rules').click();
    await page.getByRole('heading', { name: 'Fair play' }).waitFor({ timeout: 1000 });
    const die = score.numbers().first();
    const value = await die.locator('.value').textContent();
    await die.click({ timeout: 1000 });
    await page.waitForFunction((v) => document.querySelector('[data-slot="left"]')?.textContent.includes(v), value, { timeout: 1000 });
    assert.equal(await page.getByTestId('impossible-progress').count(), 0, 'the listing view is closed, the listing runs on');
    await score.button('Impossible rolls').click();
    await page.getByTestId('impossible-progress').getByText(/of 42,504 rolls/).waitFor({ timeout: 1000 });
    // Five d20 → 20: the list is the engine's (crates/engine/tests/engine/facts.rs).
    await score.useRules('20 20 20 20 20');
    await score.button('Impossible rolls').click();
    const t0 = Date.now();
    await score.button('List impossible rolls').click();
    const summary = page.getByTestId('impossible-summary');
    await summary.waitFor({ timeout: 30_000 });
    assert.match(await summary.textContent(), /^39 impossible of 42,504 rolls/);
    const rolls = await page.locator('.impossible-rolls li').allTextContents();
    assert.equal(rolls.length, 39);
    assert.deepEqual(rolls.slice(0, 4), ['1 11 11 11 15', '4 11 11 11 11', '4 13 13 13 13', '6 6 11 17 17']);
    console.log(`five d20 listed in the worker in ${Date.now() - t0} ms (wall, with the click)`);
    // Other dice: the list for five d20 no longer shows.
    await score.useRules('6 6 12 20');
    await score.button('Impossible rolls').click();
    await page.getByText('Dice d6 d6 d12 d20 → 20').waitFor();
    assert.equal(await summary.count(), 0);
  });
});

test('Cancel stops a listing, and a new listing replaces the one running', async () => {
  await withPage(browser, async (score, page) => {
    await score.open();
    await startLongListing(score, page);
    await score.button('Cancel').click();
    await page.getByText('Listing cancelled.').waitFor();
    await page.waitForTimeout(1500);
    assert.equal(await page.getByTestId('impossible-summary').count(), 0);
    // Listing twice: one answer, for the second.
    await score.useRules('20 20 20 20 20');
    await score.button('Impossible rolls').click();
    await score.button('List impossible rolls').click();
    await score.button('List impossible rolls').click();
    await page.getByTestId('impossible-summary').waitFor({ timeout: 30_000 });
    assert.equal(await page.getByTestId('impossible-summary').count(), 1);
  });
});

test('the experiment solves six large numbers in the worker, and Cancel stops it', async () => {
  await withPage(browser, async (score, page) => {
    await score.open();
    await score.button('Experiment').click();
    await page.getByRole('textbox', { name: 'Numbers' }).fill('97 89 83 79 73 71');
    await page.getByRole('textbox', { name: 'Goal' }).fill('9999');
    // Solve, then Cancel as soon as it shows: in one go, so a busy machine can't let the
    // worker finish (a fraction of a second) between the two presses.
    await page.evaluate(async () => {
      const button = (name) => [...document.querySelectorAll('button')].find((b) => b.textContent.trim() === name);
      button('Solve').click();
      for (let i = 0; i < 100 && !button('Cancel'); i += 1) await new Promise((r) => setTimeout(r, 0));
      if (!document.querySelector('[data-testid="solving"]')) throw new Error('no Solving… shown');
      button('Cancel').click();
    });
    await page.getByTestId('solving').waitFor({ state: 'detached' });
    assert.equal(await page.getByTestId('solution-count').count(), 0);
    await score.button('Solve').click();
    // Two: (89 − 73) × (97 + 79) + 7183 and its twin with the minus sign moved are one.
    await page.getByText('2 distinct solutions').waitFor({ timeout: 30_000 });
    await page.getByText('(83 + 73)‖97 − 79 × 71 − 89', { exact: true }).waitFor();
  });
});

test('the tools are a module of their own: not in the first load, said when unreachable, fetched again on Try again', async () => {
  // No service worker: it would fetch every file of the build ahead, past the blocked route.
  await withPage(browser, async (score, page) => {
    const fetched = [];
    page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
    const toolFiles = () => fetched.filter((p) => /score-tools|tools-boot/.test(p));
    await page.route(/\/tools-boot\.js(\?|$)/, (route) => route.abort());
    await score.open();
    await score.playRoll('2 5 12 12');
    assert.deepEqual(toolFiles(), [], 'the table is playable without the tools module');
    // Unreachable (offline before it was ever cached): the view says so and the table plays on.
    await score.button('Experiment').click();
    await page.getByText("This view couldn't load. Check the connection and try again.").waitFor();
    await score.button('SCORE').click();
    await page.getByText('SCORE clock').first().waitFor();
    await score.button('Give up').click();
    // Its boot script comes, but not the module's script: Try again says so again. (A browser
    // keeps a module script it couldn't fetch as failed under its address: each ask is of a
    // new one.)
    await page.unroute(/\/tools-boot\.js(\?|$)/);
    await page.route(/\/score-tools\.js(\?|$)/, (route) => route.abort());
    const stalled = page.waitForEvent('console', (m) => /tools module failed to start/.test(m.text()));
    await score.button('Try again').click();
    await stalled;
    await page.getByText("This view couldn't load. Check the connection and try again.").waitFor();
    // Reachable again: Try again fetches it, and the view sees the table's roll and goal.
    await page.unroute(/\/score-tools\.js(\?|$)/);
    await score.button('Try again').click();
    await page.getByRole('textbox', { name: 'Numbers' }).waitFor();
    assert.equal(await page.getByRole('textbox', { name: 'Numbers' }).inputValue(), '2 5 12 12');
    assert.equal(await page.getByRole('textbox', { name: 'Goal' }).inputValue(), '20');
    assert.ok(toolFiles().some((p) => p.endsWith('score-tools_bg.wasm')), `tool files fetched: ${toolFiles()}`);
    // New rules reach the module's views: Rules (of the module) shows them.
    await score.useRules('6 6 6', '10');
    await score.button('Rules').click();
    await page.getByTestId('rules-view-in-force').getByText(/10/).waitFor();
    // The browser logs the blocked fetches, the module its failure; nothing else may be in the console.
    score.errors = score.errors.filter((e) => !/Failed to load resource|tools module failed to start/.test(e));
  }, { serviceWorkers: 'block' });
});
