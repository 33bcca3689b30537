// Solitaire you can trust (docs/RULES.md §6): a listing answers only the roll it was asked
// on, a near copy of the roll is the roll, and a reload neither loses a move made under a
// clock nor a daily result settled as the page opens.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE_URL, launchBrowser, ScorePage, scoreOnce, tapSolution, withPage } from './score_page.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser.close(); });

/** Fails if the page says anything of the roll's solutions or of the impossible rolls. */
async function assertNoVerdict(page) {
  const text = await page.evaluate(() => document.body.innerText);
  assert.doesNotMatch(text, /impossible of [\d,]+ rolls/, 'an impossible-roll count');
  assert.equal(await page.locator('.impossible-rolls li').count(), 0, 'a listed impossible roll');
  assert.doesNotMatch(text, /no solution|had a solution|distinct solution/i, 'a verdict');
}

test('the impossible list answers the roll it was asked on: three new rolls later, no list, count or verdict', async () => {
  await withPage(browser, async (score, page) => {
    await score.open();
    await score.playRoll('1 1 1 4');
    await score.button('Impossible rolls').click();
    await score.button('List impossible rolls').click();
    await page.getByTestId('impossible-summary').waitFor();
    // Asking made that roll practice.
    await score.result('0: the solutions were shown, so this roll is practice').waitFor();
    for (const roll of ['1 1 1 4', '2 5 12 12', '1 1 1 1']) {
      await score.playRoll(roll);
      await assertNoVerdict(page);
      // Away and back to the view: the list doesn't come back either.
      await score.button('Rules').click();
      await score.button('Impossible rolls').click();
      await assertNoVerdict(page);
      assert.equal(await score.button('SCORE').isEnabled(), true, `${roll} is unsettled and open to claims`);
    }
  });
});

test('Experiment on some of the roll’s numbers is asking for the roll: refused under a clock, practice otherwise', async () => {
  await withPage(browser, async (score, page) => {
    await score.open();
    await score.playRoll('2 5 12 12');
    await score.button('SCORE').click();
    await score.button('Experiment').click();
    await page.getByRole('textbox', { name: 'Numbers' }).fill('2 12 12');
    await score.button('Solve').click();
    await page.locator('.views .field-error', { hasText: 'Solutions stay hidden while a clock runs: settle the claim first.' }).waitFor();
    assert.equal(await page.locator('.solutions li').count(), 0);
    assert.equal(await page.getByText('2‖(12 − 12)').count(), 0);
    await score.button('Give up').click();
    // The next roll: a near copy solved before a claim makes it practice.
    await score.playRoll('2 5 12 12');
    await score.button('Experiment').click();
    await page.getByRole('textbox', { name: 'Numbers' }).fill('12 12 2');
    await score.button('Solve').click();
    await score.result('0: the solutions were shown, so this roll is practice').waitFor();
    assert.equal(await score.button('SCORE').isDisabled(), true);
  });
});

test('strict mode: a move made under the SCORE clock comes back after a reload', async () => {
  await withPage(browser, async (score, page) => {
    await score.open();
    await score.button('Settings').click();
    await page.getByRole('checkbox', { name: /Strict/ }).check();
    await score.button('Apply and roll').click();
    await page.getByText('Saved. New roll with these settings.').waitFor();
    await score.playRoll('2 5 12 12');
    await score.button('SCORE').click();
    await score.tile('12 (d12)').click();
    await score.tile('12 (d20)').click();
    await score.op('minus').click();
    await score.tile('0 (derived)').waitFor();
    await page.reload();
    await score.numbers().first().waitFor();
    // The move is still made, the clock still runs, and strict mode still forbids an undo.
    await score.tile('0 (derived)').waitFor();
    await page.getByRole('timer').waitFor();
    assert.equal(await score.tile('12 (d12)').count(), 0);
  });
});

test('a daily IMPOSSIBLE that settles while the page is closed is recorded for its day', async () => {
  await withPage(browser, async (score, page) => {
    await page.clock.install();
    await score.open();
    await score.button('Daily puzzle').click();
    await score.button("Play today's puzzle").click();
    await page.locator('.daily-tag', { hasText: 'Daily puzzle' }).waitFor();
    await score.button('IMPOSSIBLE').click();
    await page.clock.runFor(2_000);
    // Closed for over a minute (the IMPOSSIBLE clock runs out meanwhile), then opened.
    await page.goto('about:blank');
    await page.clock.fastForward(70_000);
    await score.open();
    await score.numbers().first().waitFor();
    await page.locator('.results p').first().waitFor();
    await score.button('Daily puzzle').click();
    assert.match(await page.getByTestId('daily-status').textContent(), /^Today's result: (\+1|−2)\./, 'the day’s result is kept');
  });
});

test('two tabs: a point made in one is kept whatever the other does, and the other says it follows', async () => {
  await withPage(browser, async (a, pageA, context) => {
    await a.open();
    await a.button('Got it').click();
    await a.playRoll('2 5 12 12');
    const b = new ScorePage(await context.newPage());
    await b.open();
    await a.button('SCORE').click();
    await tapSolution(a);
    await a.expectScore(1);
    // The second tab, still open from before, follows, then touches a die (and stores).
    await b.notice('Score is open in another tab too').waitFor();
    await b.expectScore(1);
    await b.tile('5 (d6)').click();
    await pageA.reload();
    await a.numbers().first().waitFor();
    await a.expectScore(1);
    b.assertNoConsoleErrors();
  });
});

test('a clock follows real time: the device’s clock set back an hour neither stretches it nor saves the point', async () => {
  await withPage(browser, async (score, page) => {
    await page.clock.install();
    await score.open();
    await score.playRoll('2 5 12 12');
    await score.button('SCORE').click();
    await page.clock.runFor(2_000);
    await page.clock.setSystemTime(Date.now() - 3_600_000);
    await page.clock.runFor(1_000);
    const left = Number(await page.getByTestId('countdown').textContent());
    assert.ok(left <= 30, `${left} s left on a 30 s clock`);
    await page.clock.runFor(28_000);
    await score.result('−1: the SCORE clock ran out').waitFor();
  });
});

// Pins a bug: SCORE, wait, set the device's clock back, reload: the SCORE clock was full
// again, as often as one liked. The page's time never starts below the stored mark.
test('a reload after the device’s clock was set back doesn’t fill the SCORE clock again', async () => {
  await withPage(browser, async (score, page) => {
    await page.clock.install();
    await score.open();
    await score.playRoll('2 5 12 12');
    await score.button('SCORE').click();
    await page.clock.runFor(20_000);
    await page.clock.setSystemTime(Date.now() - 3_600_000);
    await page.reload();
    await score.numbers().first().waitFor();
    const left = Number(await page.getByTestId('countdown').textContent());
    assert.ok(left <= 11, `${left} s left after 20 s of a 30 s clock`);
    await page.clock.runFor(11_000);
    await score.result('−1: the SCORE clock ran out').waitFor();
  });
});

test('under a clock, New roll asks before it costs a point; Hint says before it is pressed that the roll becomes practice', async () => {
  await withPage(browser, async (score, page) => {
    await score.open();
    await score.playRoll('2 5 12 12');
    await page.getByText('(the roll becomes practice)').waitFor();
    await score.button('SCORE').click();
    // A double tap on New roll: asked, not charged.
    await score.button('New roll').click();
    await score.button('New roll').click();
    const asked = page.getByRole('alertdialog');
    await asked.getByText('Your SCORE clock is running: a new roll now fails it, for −1.').waitFor();
    await score.expectScore(0);
    // Pins a bug: the question didn't take focus. It takes it on its safe answer, and gives
    // it back to New roll.
    await page.waitForFunction(() => document.activeElement?.textContent === 'Keep playing');
    await asked.getByRole('button', { name: 'Keep playing' }).click();
    await asked.waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.activeElement?.textContent === 'New roll');
    assert.equal(await page.getByRole('timer').isVisible(), true, 'the clock still runs');
    await score.button('New roll').click();
    await asked.getByRole('button', { name: 'New roll anyway' }).click();
    await score.expectScore(-1);
  });
});

test('a link to the numbers already on the table, in another order, changes nothing; after another roll it deals them as written, and they score', async () => {
  await withPage(browser, async (score, page, context) => {
    // The dice rigged for the first roll only: 5 2 12 12 (each face is the next 32-bit
    // value modulo the die's sides, plus one), as 1 in 8,640 first visits deal it.
    await context.addInitScript(() => {
      const first = [4, 1, 11, 11];
      const real = crypto.getRandomValues.bind(crypto);
      crypto.getRandomValues = (buf) => {
        if (first.length && buf.byteLength === 4) {
          new DataView(buf.buffer, buf.byteOffset, 4).setUint32(0, first.shift(), true);
          return buf;
        }
        return real(buf);
      };
    });
    await score.open();
    await score.waitForRoll('5 2 12 12');
    await score.button('Got it').click();
    // The link's roll is the table's, unsettled: it stays as dealt (RULES §6).
    await score.openShare();
    const link = new URL(await page.getByRole('textbox', { name: 'Link to this roll' }).inputValue());
    link.searchParams.set('roll', '2,5,12,12');
    await page.goto(link.toString());
    await score.waitForRoll('5 2 12 12');
    // playRoll types another roll first (practice), then the link deals 2 5 12 12 as written
    // (its wait is for that order), and it scores.
    await scoreOnce(score);
  });
});

test('rules a link brings are said on the table, with one press back to the standard game; Settings names them', async () => {
  await withPage(browser, async (score, page) => {
    await score.open('?goal=-5&roll=1,2,3,4');
    const said = page.getByTestId('rules-in-force');
    await said.getByText('Not the standard rules: d6 d6 d12 d20, make −5.').waitFor();
    // The Rules view says so too.
    await score.button('Rules').click();
    await page.getByTestId('rules-view-in-force').waitFor();
    await said.getByRole('button', { name: 'Back to the standard rules' }).click();
    await said.waitFor({ state: 'detached' });
    assert.equal(await page.getByTestId('goal').textContent(), '20');
    assert.equal(await page.getByTestId('rules-view-in-force').count(), 0);
    // Other rules from Settings: named on the table and as "Custom" in the Preset field.
    await score.useRules('6 6 6', '10');
    await said.getByText('Not the standard rules: d6 d6 d6, make 10.').waitFor();
    assert.equal(await page.getByRole('combobox', { name: 'Preset' }).inputValue(), '');
    assert.equal(await page.getByRole('combobox', { name: 'Preset' }).locator('option:checked').textContent(), 'Custom');
  });
});

test('pass-and-play says whose clock runs, and marks their row', async () => {
  await withPage(browser, async (score, page) => {
    await score.open();
    await score.startMatch('Ana\nBen\nCy');
    await score.button('SCORE for Ben').click();
    await page.getByRole('timer', { name: 'SCORE clock: Ben' }).waitFor();
    const row = page.locator('.scoreboard tr.claimant');
    assert.equal(await row.count(), 1);
    assert.equal(await row.locator('.player-name').textContent(), 'Ben');
  });
});

test('on a phone, a view that deals a new roll brings the table into view', async () => {
  await withPage(browser, async (score, page) => {
    await score.open();
    await score.button('Got it').click();
    await score.button('Daily puzzle').click();
    await score.button("Play today's puzzle").scrollIntoViewIfNeeded();
    await score.button("Play today's puzzle").click();
    // In view, and not focused: a second Enter on a form must not press SCORE.
    await page.waitForFunction(() => {
      const r = document.querySelector('.claims .claim.score')?.getBoundingClientRect();
      return r && r.top >= -1 && r.bottom <= window.innerHeight + 1;
    });
    assert.equal(await page.evaluate(() => document.activeElement?.matches('.claim.score')), false);
    const box = await score.button('SCORE').boundingBox();
    assert.ok(box && box.y >= -1 && box.y + box.height <= 845, `SCORE in view: ${JSON.stringify(box)}`);
  }, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
});

test('the first visit says what ‖ does and that not every die is needed; a wrong IMPOSSIBLE shows the working', async () => {
  await withPage(browser, async (score, page) => {
    await score.open();
    const card = page.getByRole('region', { name: 'How to play' });
    await card.getByText("Two or three moves make it: you don't need every die. ‖ joins two numbers: 2‖0 is 20.").waitFor();
    await score.button('Got it').click();
    await score.playRoll('2 5 12 12');
    await score.button('IMPOSSIBLE').click();
    await score.button('Reveal now').click();
    await score.result('−2: 2 5 12 12 had a solution: 2‖(12 − 12)').waitFor();
    assert.deepEqual(await page.getByRole('list', { name: 'The working' }).locator('li').allTextContents(), ['12 − 12 = 0', '2 ‖ 0 = 20']);
  });
});

test('Experiment starts from the roll on the table, says what its random button does, and shows every join as ‖', async () => {
  await withPage(browser, async (score, page) => {
    await score.open();
    await score.playRoll('2 5 12 12');
    await score.button('Experiment').click();
    assert.equal(await page.getByRole('textbox', { name: 'Numbers' }).inputValue(), '2 5 12 12');
    await score.button('Solve a random roll').waitFor();
    await page.getByRole('textbox', { name: 'Numbers' }).fill('6 2 1 8');
    await score.button('Solve').click();
    // 1‖2 + 8 (it read "12 + 8", hiding the join).
    await page.getByText('1‖2 + 8', { exact: true }).waitFor();
    assert.equal(await page.getByText('12 + 8', { exact: true }).count(), 0);
  });
});

test('small things: worksheet numbers 10–12 print whole, one minus sign, "Enter 4 numbers", one next-roll button, a link with no code says so', async () => {
  await withPage(browser, async (score, page) => {
    await score.open();
    await score.button('Worksheet').click();
    await page.getByRole('textbox', { name: 'Rolls (1–50)' }).fill('12');
    await score.button('Make worksheet').click();
    await page.getByRole('region', { name: 'Answer key' }).waitFor();
    await page.emulateMedia({ media: 'print' });
    const numbers = page.locator('.worksheet-roll .problem-number');
    assert.deepEqual((await numbers.allTextContents()).slice(9), ['10.', '11.', '12.']);
    const box = await numbers.nth(11).boundingBox();
    assert.ok(box && box.x >= 0, `"12." on the page: ${JSON.stringify(box)}`);
    await page.emulateMedia({ media: 'screen' });
    // A typed roll of three numbers for four dice.
    await score.openShare();
    await page.getByRole('textbox', { name: 'Roll to play' }).fill('1 2 3');
    await score.button('Play this roll').click();
    await page.getByText('Enter 4 numbers (you entered 3).').waitFor();
    // A failed SCORE: the score reads −1, and the settled roll offers one button onward.
    await score.playRoll('2 5 12 12');
    await score.button('SCORE').click();
    await score.button('Give up').click();
    await score.expectScore(-1);
    assert.equal(await score.button('Next roll').isVisible(), true);
    assert.equal(await score.button('New roll').isVisible(), false);
  });
});

test('a room link whose code has no letter or digit says it isn’t a code, instead of nothing', async () => {
  await withPage(browser, async (score, page) => {
    await page.goto(`${BASE_URL}/?room=!!!`);
    await page.getByText('“!!!” isn\'t a room code: a code is 6 letters and digits').waitFor();
  });
});
