// A full two-move solution of 2 5 12 12 (12 − 12 = 0, then 2‖0 = 20) made four ways:
// mouse drag, touch drag, tapping, and the keyboard alone.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, tapSolution, withPage } from './score_page.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser.close(); });

async function expectMade(score) {
  await score.result("0: the clock wasn't running").waitFor();
  assert.deepEqual(await score.numberLabels(), ['5 (d6)', '20 (derived)']);
  const moves = await score.page.getByRole('list', { name: 'Moves' }).getByRole('listitem').allTextContents();
  assert.deepEqual(moves, ['12 − 12 = 0', '2 ‖ 0 = 20']);
}

test('drag a two-move solution with the mouse', async () => {
  await withPage(browser, async (score) => {
    await score.open();
    await score.playRoll('2 5 12 12');
    await score.mouseDrag(score.tile('12 (d12)'), score.slot('left'));
    await score.mouseDrag(score.op('minus'), score.slot('op'));
    await score.mouseDrag(score.tile('12 (d20)'), score.slot('right'));
    assert.deepEqual(await score.numberLabels(), ['2 (d6)', '5 (d6)', '0 (derived)']);
    await score.mouseDrag(score.tile('2 (d6)'), score.slot('left'));
    await score.mouseDrag(score.tile('0 (derived)'), score.slot('right'));
    await score.mouseDrag(score.op('joined with'), score.slot('op'));
    await expectMade(score);
  });
});

test('drag a two-move solution by touch', async () => {
  await withPage(browser, async (score) => {
    await score.open();
    await score.playRoll('2 5 12 12');
    await score.touchDrag(score.tile('12 (d12)'), score.slot('left'));
    await score.touchDrag(score.tile('12 (d20)'), score.slot('right'));
    await score.touchDrag(score.op('minus'), score.slot('op'));
    await score.touchDrag(score.tile('2 (d6)'), score.slot('left'));
    await score.touchDrag(score.op('joined with'), score.slot('op'));
    await score.touchDrag(score.tile('0 (derived)'), score.slot('right'));
    await expectMade(score);
  }, { hasTouch: true, isMobile: true, viewport: { width: 390, height: 844 } });
});

test('tap a two-move solution', async () => {
  await withPage(browser, async (score) => {
    await score.open();
    await score.playRoll('2 5 12 12');
    await tapSolution(score);
    await expectMade(score);
  });
});

test('make a two-move solution with the keyboard only', async () => {
  await withPage(browser, async (score, page) => {
    await score.open();
    await score.playRoll('2 5 12 12');
    await page.locator('body').focus();
    await score.tabTo('12 (d12)');
    await score.tabTo('12 (d20)', 'Space');
    await page.keyboard.press('-');
    await score.tabTo('2 (d6)');
    await score.tabTo('0 (derived)');
    await score.tabTo('Operator joined with');
    await expectMade(score);
  });
});

test('an illegal move shows the engine message and changes nothing', async () => {
  await withPage(browser, async (score) => {
    await score.open();
    await score.playRoll('2 5 12 12');
    await score.tile('12 (d12)').click();
    await score.tile('12 (d20)').click();
    await score.op('minus').click();
    await score.tile('5 (d6)').click();
    await score.tile('0 (derived)').click();
    await score.op('divided by').click();
    await score.moveError().filter({ hasText: "You can't divide by zero." }).waitFor();
    assert.deepEqual(await score.numberLabels(), ['2 (d6)', '5 (d6)', '0 (derived)']);
    await score.button('Undo').click();
    assert.deepEqual(await score.numberLabels(), ['2 (d6)', '5 (d6)', '12 (d12)', '12 (d20)']);
  });
});
