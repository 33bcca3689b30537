// A solitaire round played end to end in French and in Arabic: SCORE made by tapping, then
// an IMPOSSIBLE judged, every text read from the build's own catalogs. In Arabic the page is
// right to left (`lang` and `dir` set, the layout mirrored), the dice, moves and working read
// left to right, and axe finds nothing serious or critical.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE_URL, catalog, launchBrowser, seriousViolations, withPage } from './score_page.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser.close(); });

/** `words` with its {placeholders} filled. */
const fill = (words, values) => words.replace(/\{(\w+)\}/g, (m, name) => values[name] ?? m);
/** Text as read, without the isolates a right-to-left page puts around numbers and names. */
const plain = (text) => text.replace(/[\u2066-\u2069]/g, '').replace(/\s+/g, ' ').trim();

/** The round: 2 5 12 12 made under the SCORE clock by tapping, then 1 1 1 4 said IMPOSSIBLE and judged. */
async function playRound(page, code, words, check = async () => {}) {
  const tile = (i) => page.locator('.pool .tile').nth(i);
  const op = (sign) => page.locator('.ops .op', { hasText: sign });
  const results = () => page.locator('.results p').allTextContents().then((l) => l.map(plain));
  await page.goto(`${BASE_URL}?lang=${code}&roll=2,5,12,12`);
  await page.getByRole('button', { name: words.claim_score, exact: true }).click();
  await page.locator('.countdown-label', { hasText: words.clock_score_solo }).waitFor();
  await check('under the SCORE clock');
  // 12 − 12 = 0, then 2‖0 = 20.
  await tile(2).click();
  await tile(3).click();
  await op('−').click();
  await page.locator('.pool .tile.red').waitFor();
  await tile(0).click();
  await tile(2).click();
  await op('‖').click();
  // Two moves: Arabic has a form for two (its dual), French says it as any count above one.
  const two = words['why_made.two'] ?? words['why_made.other'];
  const made = plain(fill(words.line_solo, { points: '+1', why: fill(two, { goal: '20', n: '2' }) }));
  await page.waitForFunction(() => document.querySelectorAll('.results p').length > 0);
  assert.deepEqual(await results(), [made]);
  const moves = await page.getByRole('list', { name: words.moves }).getByRole('listitem').allTextContents();
  assert.deepEqual(moves, ['12 − 12 = 0', '2 ‖ 0 = 20']);
  assert.equal(await page.locator('.moves').evaluate((e) => getComputedStyle(e).direction), 'ltr');
  await check('a SCORE made');

  // IMPOSSIBLE on a roll with no way to 20: judged at once with Reveal now.
  await page.goto(`${BASE_URL}?lang=${code}&roll=1,1,1,4`);
  await page.getByRole('button', { name: words.claim_impossible, exact: true }).click();
  await page.locator('.countdown-label', { hasText: words.clock_impossible_solo }).waitFor();
  await page.getByRole('button', { name: words.reveal_now }).click();
  const right = plain(fill(words.line_solo, { points: '+1', why: fill(words.why_truly_impossible, { roll: '1 1 1 4' }) }));
  await page.waitForFunction(() => document.querySelectorAll('.results p').length > 0);
  assert.deepEqual(await results(), [right]);
  assert.equal(plain(await page.getByTestId('score').textContent()), '2');
  // The history, newest first, in the page's language: claims and results alike.
  const rows = await page.locator('table.history tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((td) => td.textContent)));
  assert.deepEqual(rows.map((r) => r.map(plain)), [
    ['1 1 1 4', plain(words.claim_impossible), right],
    ['2 5 12 12', plain(words.claim_score), made],
  ]);
  await check('an IMPOSSIBLE judged');
}

test('a solitaire round in French: SCORE made, IMPOSSIBLE judged', async () => {
  const fr = await catalog('fr');
  await withPage(browser, async (score, page) => {
    await playRound(page, 'fr', fr, async () => {
      assert.equal(await page.evaluate(() => document.documentElement.lang), 'fr');
    });
  }, { locale: 'en-US' });
});

test('a solitaire round in Arabic: right to left, expressions left to right, no serious axe violations', async () => {
  const ar = await catalog('ar');
  await withPage(browser, async (score, page) => {
    await playRound(page, 'ar', ar, async (when) => {
      const root = await page.evaluate(() => ({ lang: document.documentElement.lang, dir: document.documentElement.dir }));
      assert.deepEqual(root, { lang: 'ar', dir: 'rtl' }, when);
      assert.equal(await page.locator('.pool').evaluate((e) => getComputedStyle(e).direction), 'ltr', when);
      assert.deepEqual(await seriousViolations(page), [], when);
    });
    // The layout mirrors: the side panel sits left of the table on a wide screen.
    const table = await page.locator('section.play').boundingBox();
    const side = await page.locator('aside.side').boundingBox();
    assert.ok(side.x < table.x, 'mirrored');
  }, { locale: 'en-US', bypassCSP: true });
});
