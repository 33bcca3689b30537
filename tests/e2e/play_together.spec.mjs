// Pass-and-play (docs/RULES.md §5): a three-player match through every group rule.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, tapSolution, withPage } from './score_page.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser.close(); });

const scores = (page) => page.locator('.player-score').allTextContents();

test('a three-player match through every group rule', async () => {
  await withPage(browser, async (score, page) => {
    await page.clock.install();
    await score.open();
    await score.startMatch('Ana\nBen\nCy');
    // Any player may SCORE: Cy makes it (+1).
    await score.playRoll('2 5 12 12');
    await score.button('SCORE for Cy').click();
    await tapSolution(score);
    await score.result('Cy +1: 20 made in 2 moves').waitFor();
    assert.deepEqual(await scores(page), ['0', '0', '1']);
    // A SCORE that runs out costs its player 1.
    await score.playRoll('2 5 12 12');
    await score.button('SCORE for Ben').click();
    await page.clock.runFor(31_000);
    await score.result('Ben −1: the SCORE clock ran out').waitFor();
    // IMPOSSIBLE on an impossible roll, nobody scores: the claimer gets +1.
    await score.playRoll('1 1 1 4');
    await score.button('IMPOSSIBLE for Ana').click();
    await page.clock.runFor(61_000);
    await score.result('Ana +1: right: 1 1 1 4 has no solution').waitFor();
    // IMPOSSIBLE on a solvable roll, nobody scores: the claimer loses 2.
    await score.playRoll('2 5 12 12');
    await score.button('IMPOSSIBLE for Ben').click();
    await page.clock.runFor(61_000);
    await score.result(/^Ben −2: 2 5 12 12 had a solution/).waitFor();
    // Another player SCOREs during the IMPOSSIBLE clock: +1 for them, −2 for the claimer.
    await score.playRoll('2 5 12 12');
    await score.button('IMPOSSIBLE for Ana').click();
    await score.button('SCORE for Cy').click();
    await tapSolution(score);
    await score.result('Ana −2: Cy made 20 during the IMPOSSIBLE clock').waitFor();
    // The claimer scores her own roll: net −1.
    await score.playRoll('2 5 12 12');
    await score.button('IMPOSSIBLE for Ben').click();
    await score.button('SCORE for Ben').click();
    await tapSolution(score);
    await score.result('Ben +1: 20 made in 2 moves').waitFor();
    // Written with a minus sign, as every score is.
    assert.deepEqual(await scores(page), ['−1', '−4', '2']);
    // The match survives a reload.
    await page.reload();
    await score.numbers().first().waitFor();
    assert.deepEqual(await scores(page), ['−1', '−4', '2']);
  });
});

test('without judging, an unanswered IMPOSSIBLE wins', async () => {
  await withPage(browser, async (score, page) => {
    await page.clock.install();
    await score.open();
    await score.startMatch('Red team\nBlue team', false);
    await score.playRoll('2 5 12 12');
    await score.button('IMPOSSIBLE for Blue team').click();
    await page.clock.runFor(61_000);
    await score.result('Blue team +1: nobody found a solution').waitFor();
  });
});

test('bad player names get a message', async () => {
  await withPage(browser, async (score, page) => {
    await score.open();
    await score.startMatch('Ana\nana');
    await page.getByText('“ana” is in the list twice.').waitFor();
    await page.getByRole('textbox', { name: 'Names, one per line' }).fill('<b>Ana</b>\nBen');
    await score.button('Start match').click();
    await page.getByRole('rowheader', { name: '<b>Ana</b>' }).waitFor();
    assert.equal(await page.locator('.scoreboard b').count(), 0);
  });
});
