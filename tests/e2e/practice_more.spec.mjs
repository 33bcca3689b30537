// The 24 preset, practice by difficulty, hints, the daily puzzle, share links, worksheets.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE_URL, launchBrowser, withPage } from './score_page.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser.close(); });

test('a round of 24 needs every number: 3 3 8 8', async () => {
  await withPage(browser, async (score, page) => {
    await score.open('?preset=24&roll=3,3,8,8');
    assert.equal(await page.getByTestId('goal').textContent(), '24');
    await score.button('SCORE').click();
    await score.tile('8 (d13)').click();
    await score.tile('3 (d13)').click();
    await score.op('divided by').click();
    await score.tile('3 (d13)').click();
    await score.tile('8/3 (derived)').click();
    await score.op('minus').click();
    await score.tile('8 (d13)').click();
    await score.tile('1/3 (derived)').click();
    await score.op('divided by').click();
    await score.result('+1: 24 made in 3 moves').waitFor();
  });
});

for (const level of [1, 5]) {
  test(`practice at difficulty ${level}`, async () => {
    await withPage(browser, async (score, page) => {
      await score.open();
      await page.getByRole('combobox', { name: 'Practice' }).selectOption(String(level));
      for (let i = 0; i < 3; i += 1) {
        await score.button('New roll').click();
        await page.waitForFunction((want) => document.querySelector('[data-testid="difficulty"]')?.textContent === want, `Difficulty ${level} of 5`);
      }
    });
  });
}

test('a hint shows a move and the roll scores nothing', async () => {
  await withPage(browser, async (score, page) => {
    await score.open();
    await score.playRoll('2 5 12 12');
    await score.button('Hint').click();
    await page.locator('.hint', { hasText: /^Hint: try \S+ . \S+\.$/ }).waitFor();
    await score.result('0: a hint was used, so this roll is practice').waitFor();
    assert.equal(await score.button('SCORE').isDisabled(), true);
    await score.playRoll('2 5 12 12');
    await score.button('SCORE').click();
    assert.equal(await score.button('Hint').isDisabled(), true);
  });
});

test('the daily puzzle is stable across reloads and changes with the date', async () => {
  await withPage(browser, async (score, page) => {
    await page.clock.install({ time: new Date('2026-11-22T10:00:00') });
    await score.open();
    await score.button('Daily puzzle').click();
    await score.button("Play today's puzzle").click();
    const first = await score.numberLabels();
    await page.reload();
    await score.numbers().first().waitFor();
    await score.button('Daily puzzle').click();
    await score.button("Play today's puzzle").click();
    assert.deepEqual(await score.numberLabels(), first);
    // One attempt: claim IMPOSSIBLE and reveal; the line shares no roll.
    await score.button('IMPOSSIBLE').click();
    await score.button('Reveal now').click();
    const line = await page.getByTestId('daily-line').inputValue();
    assert.match(line, /^Score daily 2026-11-22: [✓✗] [+−]\d, streak \d$/);
    const status = await page.getByTestId('daily-status').textContent();
    assert.match(status, /^Today's result: /);
    // The next day brings another roll.
    await page.clock.setSystemTime(new Date('2026-11-23T10:00:00'));
    await page.reload();
    await score.numbers().first().waitFor();
    await score.button('Daily puzzle').click();
    assert.equal(await page.getByTestId('daily-status').textContent(), 'Not played yet today.');
    await score.button("Play today's puzzle").click();
    assert.notDeepEqual(await score.numberLabels(), first);
  });
});

test('a share link round-trips and a malformed link falls back', async () => {
  await withPage(browser, async (score, page) => {
    await score.open();
    await score.playRoll('2 5 12 12');
    const link = await page.getByRole('textbox', { name: 'Link to this roll' }).inputValue();
    assert.match(link, /\?preset=score&dice=6,6,12,20&roll=2,5,12,12&goal=20$/);
    await score.button('New roll').click();
    await page.goto(link);
    await score.numbers().first().waitFor();
    assert.deepEqual(await score.numberLabels(), ['2 (d6)', '5 (d6)', '12 (d12)', '12 (d20)']);
    // A link opens "Share or play a roll", so the roll it brought is easy to pass on.
    assert.equal(await page.locator('details.share-roll').evaluate((d) => d.open), true);
    // The address bar is cleaned, so a reload keeps playing the same game.
    assert.equal(new URL(page.url()).search, '');
    await page.goto(`${BASE_URL}/?roll=9,9,9,9`);
    await score.numbers().first().waitFor();
    await score.notice("This link's roll can't be played: 9 9 9 9 can't be rolled with d6 d6 d12 d20.").waitFor();
    assert.equal(await page.getByTestId('goal').textContent(), '20');
  });
});

test('a worksheet prints one block per roll and an answer key', async () => {
  await withPage(browser, async (score, page) => {
    await score.open();
    await score.button('Worksheet').click();
    await page.getByRole('textbox', { name: 'Rolls (1–50)' }).fill('7');
    await page.getByRole('combobox', { name: 'Difficulty' }).selectOption('2');
    await score.button('Make worksheet').click();
    await page.getByRole('region', { name: 'Answer key' }).waitFor();
    await page.emulateMedia({ media: 'print' });
    assert.equal(await page.locator('.worksheet-roll:visible').count(), 7);
    assert.equal(await page.locator('.answer-key li:visible').count(), 7);
    assert.equal(await page.locator('.play').isVisible(), false);
    const breakBefore = await page.locator('.answer-key').evaluate((el) => getComputedStyle(el).breakBefore);
    assert.equal(breakBefore, 'page');
  });
});

test('a worksheet with a bad count says why', async () => {
  await withPage(browser, async (score, page) => {
    await score.open();
    await score.button('Worksheet').click();
    await page.getByRole('textbox', { name: 'Rolls (1–50)' }).fill('51');
    await score.button('Make worksheet').click();
    await page.getByText('The number of rolls must be from 1 to 50.').waitFor();
  });
});
