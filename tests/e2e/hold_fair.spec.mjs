// Fair play as noninterference, in the browser (docs/RULES.md §6): two pages deal rolls of
// the same dice that differ in their verdict (1 1 1 4 has no solution, 1 1 2 4 has), walk
// every view and control that asks nothing, and must look the same at every step once the
// numbers are masked: the accessibility tree, the enabled buttons, the title, the address
// and every key and value in storage. (The native property, src/tests/fair_play.rs, plays the
// game's actions; this looks at every view's DOM.)
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, withPage } from './score_page.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser.close(); });

const masked = (text) => String(text).replace(/\d+/g, '#');

/** Everything a player (or a screen reader, or a script on the device) can see, masked. */
async function observed(page) {
  const tree = await page.locator('body').ariaSnapshot();
  const enabled = await page.locator('button:not([disabled]):visible').allTextContents();
  const storage = await page.evaluate(() => Object.keys(localStorage).sort().map((k) => [k, localStorage.getItem(k)]));
  return masked(JSON.stringify({ tree, enabled, title: await page.title(), url: new URL(page.url()).pathname, storage }));
}

/** The steps both pages take; each returns once its view is drawn. */
const steps = [
  ['the table', async () => {}],
  ['Share or play a roll', async (score) => score.openShare()],
  ['a move', async (score) => {
    await score.tile('1 (d6)').click();
    await score.tile('4 (d20)').click();
    await score.op('plus').click();
    await score.tile('5 (derived)').waitFor();
  }],
  ['Undo', async (score) => {
    await score.button('Undo').click();
    await score.tile('4 (d20)').waitFor();
  }],
  ...['Solutions', 'Players', 'Daily puzzle', 'Settings'].map((view) => [view, async (score) => score.button(view).click()]),
  ...['Experiment', 'Impossible rolls', 'Worksheet', 'Rules'].map((view) => [view, async (score, page) => {
    await score.button(view).click();
    await page.locator('#tools-root > *').first().waitFor();
  }]),
];

test('before a roll is settled, every view looks the same whether or not it can be made', async () => {
  const seen = {};
  for (const roll of ['1 1 1 4', '1 1 2 4']) {
    seen[roll] = [];
    await withPage(browser, async (score, page) => {
      await score.open();
      await score.button('Got it').click();
      await score.playRoll(roll);
      for (const [name, step] of steps) {
        await step(score, page);
        await page.waitForTimeout(150);
        seen[roll].push([name, await observed(page)]);
      }
    });
  }
  const [a, b] = [seen['1 1 1 4'], seen['1 1 2 4']];
  assert.equal(a.length, steps.length);
  for (let i = 0; i < a.length; i++) {
    assert.equal(a[i][1], b[i][1], `after "${a[i][0]}" the two rolls look different`);
  }
});
