// SCORE and IMPOSSIBLE with real clocks (Playwright's fake clock drives Date and timers).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, tapSolution, withPage } from './score_page.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser.close(); });

test('score then make the goal for +1', async () => {
  await withPage(browser, async (score, page) => {
    await page.clock.install();
    await score.open();
    await score.playRoll('2 5 12 12');
    await score.button('SCORE').click();
    await page.getByRole('timer').waitFor();
    await page.clock.runFor(5_000);
    await tapSolution(score);
    await score.result('+1: 20 made in 2 moves').waitFor();
    await score.expectScore(1);
    assert.equal(await page.getByTestId('streak').textContent(), '1');
  });
});

test('score clock running out costs one', async () => {
  await withPage(browser, async (score, page) => {
    await page.clock.install();
    await score.open();
    await score.playRoll('2 5 12 12');
    await score.button('SCORE').click();
    assert.equal(await page.getByTestId('countdown').textContent(), '30');
    await page.clock.runFor(29_000);
    await score.expectScore(0);
    await page.clock.runFor(1_500);
    await score.result('−1: the SCORE clock ran out').waitFor();
    await score.expectScore(-1);
  });
});

test('impossible on an impossible roll gains one', async () => {
  await withPage(browser, async (score, page) => {
    await page.clock.install();
    await score.open();
    await score.playRoll('1 1 1 4');
    await score.button('IMPOSSIBLE').click();
    await page.clock.runFor(61_000);
    await score.result('+1: right: 1 1 1 4 has no solution').waitFor();
    await score.expectScore(1);
  });
});

test('impossible on a solvable roll costs two and shows a solution', async () => {
  await withPage(browser, async (score, page) => {
    await page.clock.install();
    await score.open();
    await score.playRoll('2 5 12 12');
    await score.button('IMPOSSIBLE').click();
    await score.button('Reveal now').click();
    const line = score.result(/^−2: 2 5 12 12 had a solution: /);
    await line.waitFor();
    assert.match(await line.textContent(), /had a solution: .+/);
    await score.expectScore(-2);
  });
});

test('reload during a score clock settles it', async () => {
  await withPage(browser, async (score, page) => {
    await page.clock.install();
    await score.open();
    await score.playRoll('2 5 12 12');
    await score.button('SCORE').click();
    await page.clock.runFor(3_000);
    await page.reload();
    await score.numbers().first().waitFor();
    // Still running after the reload: the deadline came with it.
    await page.getByRole('timer').waitFor();
    await page.clock.runFor(28_000);
    await score.result('−1: the SCORE clock ran out').waitFor();
    await score.expectScore(-1);
  });
});

test('score and history survive a reload', async () => {
  await withPage(browser, async (score, page) => {
    await score.open();
    await score.playRoll('2 5 12 12');
    await score.button('SCORE').click();
    await tapSolution(score);
    await score.expectScore(1);
    await page.reload();
    await score.numbers().first().waitFor();
    await score.expectScore(1);
    const rows = await page.locator('.history tbody tr').count();
    assert.equal(rows, 1);
  });
});
