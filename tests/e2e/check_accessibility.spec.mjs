// axe-core on every view, the live region, reduced motion and a keyboard-only round.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, seriousViolations, withPage } from './score_page.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser.close(); });

test('every view has no serious or critical axe violations', async () => {
  await withPage(browser, async (score, page) => {
    await score.open();
    // The first-visit help and the open "Share or play a roll" are on the page too.
    await page.getByRole('region', { name: 'How to play' }).waitFor();
    await score.playRoll('2 5 12 12');
    await score.tile('12 (d12)').click();
    for (const view of ['Solutions', 'Players', 'Daily puzzle', 'Experiment', 'Impossible rolls', 'Worksheet', 'Settings', 'Rules']) {
      await score.button(view).click();
      // Other numbers than the table's (which it starts with: solving those is asking).
      if (view === 'Experiment') {
        await page.getByRole('textbox', { name: 'Numbers' }).fill('9 9 9 9');
        await score.button('Solve').click();
      }
      // A sheet of another game than the table's (one of the table's game is asking).
      if (view === 'Worksheet') {
        await page.getByRole('combobox', { name: 'Game' }).selectOption('24');
        await score.button('Make worksheet').click();
      }
      if (view === 'Settings') {
        await page.getByRole('textbox', { name: 'Goal' }).fill('twenty');
        await score.button('Apply and roll').click();
      }
      assert.deepEqual(await seriousViolations(page), [], view);
    }
    await score.button('SCORE').click();
    assert.deepEqual(await seriousViolations(page), [], 'under the SCORE clock');
    await score.button('Give up').click();
    await score.button('Solutions').click();
    await page.getByTestId('solution-count').waitFor();
    assert.deepEqual(await seriousViolations(page), [], 'a settled roll, its solutions and Next roll');
    await score.button('Impossible rolls').click();
    await score.button('List impossible rolls').click();
    await page.getByTestId('impossible-summary').waitFor();
    assert.deepEqual(await seriousViolations(page), [], 'Impossible rolls');
  }, { bypassCSP: true });
});

test('a class room has no serious or critical axe violations: forms, presenter, Host panel, a student', async () => {
  const ROOM_URL = process.env.ROOM_URL;
  assert.ok(ROOM_URL, 'ROOM_URL: the address of a running score-server');
  await withPage(browser, async (score, page) => {
    await page.goto(`${ROOM_URL}/?room`);
    await score.button('Create room').waitFor();
    assert.deepEqual(await seriousViolations(page), [], 'the forms');
    await score.button('Create room').click();
    const code = (await page.getByTestId('room-code').textContent()).trim();
    await withPage(browser, async (student, phone) => {
      await phone.goto(`${ROOM_URL}/?room=${code}`);
      await phone.getByRole('textbox', { name: 'Your name' }).fill('Ana');
      await student.button('Join').click();
      await phone.getByTestId('standing').waitFor();
      await page.locator('.ranking').getByText('Ana').waitFor();
      await student.button('SCORE').click();
      await student.numbers().first().click();
      assert.deepEqual(await seriousViolations(phone), [], 'a student under the SCORE clock');
      await page.getByTestId('room-countdown').waitFor();
      assert.deepEqual(await seriousViolations(page), [], 'the presenter');
      await score.button('Present').click();
      await page.getByRole('region', { name: 'Host' }).waitFor();
      await score.button('Show the report').click();
      await page.getByRole('region', { name: 'Report' }).waitFor();
      assert.deepEqual(await seriousViolations(page), [], 'the Host panel and its report');
    }, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, bypassCSP: true });
  }, { viewport: { width: 1280, height: 720 }, bypassCSP: true });
});

test('moves, results and the clock are announced', async () => {
  await withPage(browser, async (score, page) => {
    await page.clock.install();
    await score.open();
    await score.playRoll('2 5 12 12');
    const announcer = page.getByTestId('announcer');
    await score.tile('12 (d12)').click();
    await score.tile('12 (d20)').click();
    await score.op('minus').click();
    assert.equal(await announcer.textContent(), '12 − 12 = 0');
    await score.button('SCORE').click();
    await page.clock.runFor(20_500);
    await page.waitForFunction(() => document.querySelector('[data-testid="announcer"]').textContent === '10 seconds left.');
    await page.clock.runFor(5_000);
    await page.waitForFunction(() => document.querySelector('[data-testid="announcer"]').textContent === '5 seconds left.');
  });
});

test('derived numbers carry a marker besides their colour', async () => {
  await withPage(browser, async (score, page) => {
    await score.open();
    await score.playRoll('2 5 12 12');
    await score.tile('12 (d12)').click();
    await score.tile('12 (d20)').click();
    await score.op('minus').click();
    const red = score.tile('0 (derived)');
    assert.equal(await red.locator('.marker').textContent(), '◆');
    assert.ok((await score.numberLabels()).includes('0 (derived)'));
    assert.match(await red.getAttribute('class'), /\bred\b/);
  });
});

test('reduced motion turns the roll animation off', async () => {
  await withPage(browser, async (score, page) => {
    await score.open();
    await score.button('New roll').click();
    const name = await score.numbers().first().evaluate((el) => getComputedStyle(el).animationName);
    assert.equal(name, 'none');
  }, { reducedMotion: 'reduce' });
});

test('a whole SCORE round with the keyboard alone', async () => {
  await withPage(browser, async (score, page) => {
    await score.open();
    await score.playRoll('2 5 12 12');
    await page.locator('body').focus();
    await score.tabTo('SCORE');
    await score.tabTo('12 (d12)', null);
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
    assert.notEqual(outline, 'none', 'focus is visible');
    await page.keyboard.press('Enter');
    await score.tabTo('12 (d20)');
    await score.tabTo('Operator minus');
    await score.tabTo('2 (d6)');
    await score.tabTo('0 (derived)');
    await page.keyboard.press('|');
    await score.result('+1: 20 made in 2 moves').waitFor();
    // Focus lands on "Next roll", not back at the top of the page; Enter rolls and focus goes
    // to the new roll's first number (a doubled Enter must not start a clock).
    await page.waitForFunction(() => document.activeElement?.textContent === 'Next roll');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.matches('.pool button'));
    assert.equal(await page.locator('.results p').count(), 0);
  });
});
