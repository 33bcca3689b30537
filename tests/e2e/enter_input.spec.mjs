// Bad input gets a message in place and changes nothing; good input works.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, tapSolution, withPage } from './score_page.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser.close(); });

test('bad settings show messages and change nothing', async () => {
  await withPage(browser, async (score, page) => {
    await score.open();
    await score.playRoll('2 5 12 12');
    await score.button('Settings').click();
    await page.getByRole('textbox', { name: 'Dice (sides)' }).fill('6, 12');
    await page.getByRole('textbox', { name: 'Goal' }).fill('abc');
    await page.getByRole('textbox', { name: 'SCORE clock (seconds)' }).fill('2');
    await score.button('Apply and roll').click();
    await page.getByText('Enter 3 to 6 dice (you entered 2).').waitFor();
    await page.getByText('The goal must be a whole number, not “abc”.').waitFor();
    await page.getByText('The SCORE clock must be from 5 to 600.').waitFor();
    assert.equal(await page.getByTestId('goal').textContent(), '20');
    assert.deepEqual(await score.numberLabels(), ['2 (d6)', '5 (d6)', '12 (d12)', '12 (d20)']);
  });
});

test('good settings apply: the 24 preset', async () => {
  await withPage(browser, async (score, page) => {
    await score.open();
    await score.button('Settings').click();
    await page.getByRole('combobox', { name: 'Preset' }).selectOption('24');
    await score.button('Apply and roll').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="goal"]')?.textContent === '24');
    assert.equal(await score.op('joined with').count(), 0);
    await page.reload();
    await score.numbers().first().waitFor();
    assert.equal(await page.getByTestId('goal').textContent(), '24');
  });
});

test('bad experiment input shows messages; good input lists solutions', async () => {
  await withPage(browser, async (score, page) => {
    await score.open();
    await score.button('Experiment').click();
    const numbers = page.getByRole('textbox', { name: 'Numbers' });
    const goal = page.getByRole('textbox', { name: 'Goal' });
    await numbers.fill('9 x 9');
    await goal.fill('');
    await score.button('Solve').click();
    await page.getByText('Each number must be a whole number, not “x”.').waitFor();
    await page.getByText('The goal is missing.').waitFor();
    await numbers.fill('9 9 9 9');
    await goal.fill('20');
    await score.button('Solve').click();
    await page.getByText('9‖9 ÷ 9 + 9').waitFor();
    assert.match(await page.getByTestId('solution-count').textContent(), /\d+ distinct solutions?/);
  });
});

test('a roll that the dice cannot make is refused', async () => {
  await withPage(browser, async (score, page) => {
    await score.open();
    const before = await score.numberLabels();
    await score.openShare();
    await page.getByRole('textbox', { name: 'Roll to play' }).fill('7 7 7 1');
    await score.button('Play this roll').click();
    await page.getByText("7 7 7 1 can't be rolled with d6 d6 d12 d20.").waitFor();
    assert.deepEqual(await score.numberLabels(), before);
  });
});

test('the impossible rolls of the default dice are listed', async () => {
  await withPage(browser, async (score, page) => {
    await score.open();
    await score.button('Impossible rolls').click();
    await score.button('List impossible rolls').click();
    const summary = await page.getByTestId('impossible-summary').textContent();
    assert.match(summary, /^104 impossible of 2,359 rolls/);
    await page.getByText('1 1 1 4', { exact: true }).waitFor();
  });
});

test('solutions stay hidden under the SCORE clock and are listed once the roll is settled', async () => {
  await withPage(browser, async (score, page) => {
    await score.open();
    await score.playRoll('2 5 12 12');
    await score.button('SCORE').click();
    await page.getByText('Solutions stay hidden while a clock runs.').waitFor();
    await tapSolution(score);
    await page.getByText('2‖(12 − 12)', { exact: true }).waitFor();
    assert.match(await page.getByTestId('solution-count').textContent(), /^\d+ distinct solutions$/);
  });
});
