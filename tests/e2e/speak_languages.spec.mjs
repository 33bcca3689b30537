// The page in the classroom's language: first visit from the browser's languages, `?lang=`,
// the picker (switching in place, a clock running), right to left, and offline in the
// language chosen. Texts are read from the build's own catalogs (i18n/<code>.json), so a
// corrected translation never breaks a test.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE_URL, catalog, goOffline, launchBrowser, withPage } from './score_page.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser.close(); });

/** Offline, a reload comes back in `code`, its SCORE button in that language's words. */
async function offlineReloadIn(page, context, code, words) {
  await goOffline(context);
  await page.reload();
  await page.getByRole('button', { name: words.claim_score, exact: true }).waitFor();
  assert.equal((await root(page)).lang, code);
}

const tiles = (page) => page.locator('.pool .tile');
const root = (page) => page.evaluate(() => ({ lang: document.documentElement.lang, dir: document.documentElement.dir }));

test('a first visit speaks the browser\'s language, named in itself in the picker', async () => {
  const fr = await catalog('fr');
  await withPage(browser, async (score, page) => {
    await page.goto(BASE_URL);
    await page.getByRole('heading', { name: fr.help_title }).waitFor();
    assert.deepEqual(await root(page), { lang: 'fr', dir: 'ltr' });
    await page.getByRole('button', { name: fr.claim_score, exact: true }).waitFor();
    await page.getByRole('group', { name: fr.numbers }).waitFor();
    const picker = page.locator('.help-card select');
    assert.equal(await picker.inputValue(), 'fr');
    const names = await picker.locator('option').allTextContents();
    assert.deepEqual(names, ['English', 'Español', 'Français', 'Deutsch', 'Português (Brasil)', 'العربية']);
  }, { locale: 'fr-FR' });
});

test('the picker switches in place: the clock runs on, the choice is kept', async () => {
  const de = await catalog('de');
  await withPage(browser, async (score, page) => {
    await page.goto(BASE_URL);
    await tiles(page).first().waitFor();
    await page.evaluate(() => { window.stillHere = true; });
    await score.button('SCORE').click();
    const before = Number(await page.getByTestId('countdown').textContent());
    await score.button('Settings').click();
    await page.locator('.panel select').first().selectOption('de');
    await page.getByRole('button', { name: de.claim_impossible, exact: true }).waitFor();
    assert.deepEqual(await root(page), { lang: 'de', dir: 'ltr' });
    assert.equal(await page.evaluate(() => window.stillHere), true, 'no reload');
    assert.equal(await page.locator('.countdown-label').textContent(), de.clock_score_solo);
    assert.ok(Number(await page.getByTestId('countdown').textContent()) <= before, 'the SCORE clock runs on');
    await page.reload();
    await page.getByRole('button', { name: de.claim_score, exact: true }).waitFor();
    assert.equal((await root(page)).lang, 'de', 'kept across visits');
  }, { locale: 'en-US' });
});

test('?lang=ar: right to left, the dice and moves left to right', async () => {
  const ar = await catalog('ar');
  await withPage(browser, async (score, page) => {
    await page.goto(`${BASE_URL}?lang=ar&roll=2,5,12,12`);
    await page.getByRole('button', { name: ar.claim_score, exact: true }).waitFor();
    assert.deepEqual(await root(page), { lang: 'ar', dir: 'rtl' });
    const pool = await page.locator('.pool').evaluate((e) => getComputedStyle(e).direction);
    assert.equal(pool, 'ltr');
    const values = await tiles(page).locator('.value').allTextContents();
    assert.deepEqual(values, ['2', '5', '12', '12'], 'the roll reads left to right');
    // The layout mirrors: the side panel sits left of the table on a wide screen.
    const table = await page.locator('section.play').boundingBox();
    const side = await page.locator('aside.side').boundingBox();
    assert.ok(side.x < table.x, 'mirrored');
  }, { locale: 'en-US' });
});

test('offline in the language chosen online', async () => {
  const es = await catalog('es');
  await withPage(browser, async (score, page, context) => {
    await page.goto(BASE_URL);
    await score.waitForServiceWorker();
    await score.button('Settings').click();
    await page.locator('.panel select').first().selectOption('es');
    await page.getByRole('button', { name: es.claim_score, exact: true }).waitFor();
    await offlineReloadIn(page, context, 'es', es);
  }, { locale: 'en-US' });
});

test('a first visit in the browser\'s language plays offline in it after', async () => {
  const fr = await catalog('fr');
  await withPage(browser, async (score, page, context) => {
    await page.goto(BASE_URL);
    await page.getByRole('button', { name: fr.claim_score, exact: true }).waitFor();
    await score.waitForServiceWorker();
    // The worker keeps the catalog the page fetched before it was controlled.
    await page.waitForFunction(async () => {
      for (const key of await caches.keys()) {
        const cache = await caches.open(key);
        if ((await cache.keys()).some((r) => r.url.includes('/i18n/fr.json'))) return true;
      }
      return false;
    });
    await offlineReloadIn(page, context, 'fr', fr);
  }, { locale: 'fr-FR' });
});

// Pins a flash: a first visit in Arabic was drawn in English, left to right, then turned
// when the Arabic words came (a layout shift of 0.77 at 1280×900). The table now waits for
// the page's first language (a second at most).
test('a first visit in Arabic is drawn right to left, in Arabic, from its first frame', async () => {
  const ar = await catalog('ar');
  await withPage(browser, async (score, page) => {
    await page.addInitScript(() => {
      window.__shift = 0;
      new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__shift += e.value; })
        .observe({ type: 'layout-shift', buffered: true });
      new MutationObserver((_, observer) => {
        const claim = document.querySelector('.claim.score');
        if (!claim) return;
        window.__first = { dir: document.documentElement.dir, text: claim.textContent };
        observer.disconnect();
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(`${BASE_URL}/?lang=ar`);
    await page.getByRole('button', { name: ar.claim_score, exact: true }).waitFor();
    await score.whole();
    assert.deepEqual(await page.evaluate(() => window.__first), { dir: 'rtl', text: ar.claim_score });
    // Shifts are reported after the frames that show them: two frames, then a moment.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    await page.waitForTimeout(200);
    assert.equal(await page.evaluate(() => window.__shift), 0, 'nothing moved as the page was drawn');
  });
});

test('a slow first catalog never overrides the language picked meanwhile', async () => {
  const es = await catalog('es');
  await withPage(browser, async (score, page) => {
    let release;
    const held = new Promise((resolve) => { release = resolve; });
    await page.route('**/i18n/de.json*', async (route) => { await held; await route.continue(); });
    await page.goto(BASE_URL);
    await page.locator('.help-card select').selectOption('es');
    await page.getByRole('button', { name: es.claim_score, exact: true }).waitFor();
    release();
    await page.waitForTimeout(300);
    assert.equal((await root(page)).lang, 'es');
    assert.equal(await page.locator('.claim.score').textContent(), es.claim_score);
  }, { locale: 'de-DE' });
});

test('× ÷ or · :: German classrooms\' way by default, a choice kept, and the keys still work', async () => {
  const signs = (page) => page.locator('.ops .op').allTextContents();
  await withPage(browser, async (score, page) => {
    await page.goto(BASE_URL);
    await tiles(page).first().waitFor();
    // The table is drawn once the German catalog is in (src/app.rs: the page's start).
    await page.waitForFunction(() => document.documentElement.lang === 'de');
    await page.waitForFunction(() => [...document.querySelectorAll('.ops .op')].map((e) => e.textContent).join(' ') === '+ − · : ‖');
    assert.deepEqual(await signs(page), ['+', '−', '·', ':', '‖'], 'German: · and :');
  }, { locale: 'de-DE' });
  await withPage(browser, async (score, page) => {
    await score.open();
    assert.deepEqual(await signs(page), ['+', '−', '×', '÷', '‖'], 'English: × and ÷');
    await score.button('Settings').click();
    await page.getByTestId('ops-signs').selectOption('dot');
    assert.deepEqual(await signs(page), ['+', '−', '·', ':', '‖']);
    // The keys: * is ·, / and : are :.
    await score.numbers().first().focus();
    await page.keyboard.press('*');
    assert.equal((await score.slot('op').textContent()).trim(), '·');
    await page.keyboard.press(':');
    assert.equal((await score.slot('op').textContent()).trim(), ':');
    await page.keyboard.press('/');
    assert.equal((await score.slot('op').textContent()).trim(), ':');
    // Solutions and their working, and the rules.
    await score.button('Experiment').click();
    await page.getByRole('textbox', { name: 'Numbers' }).fill('8 3 8 3');
    await page.getByRole('textbox', { name: 'Goal' }).fill('24');
    await score.button('Solve').click();
    await page.getByText('8 : (3 − 8 : 3)', { exact: true }).click();
    await page.getByText('8 : 3 = 8/3', { exact: true }).waitFor();
    await score.button('Rules').click();
    await page.getByText(/make 24 with \+ − · :/).waitFor();
    // Kept across visits, and through a change of language.
    await page.reload();
    await tiles(page).first().waitFor();
    assert.deepEqual(await signs(page), ['+', '−', '·', ':', '‖']);
    await score.button('Settings').click();
    await page.locator('.panel select').first().selectOption('fr');
    await page.waitForFunction(() => document.documentElement.lang === 'fr');
    assert.deepEqual(await signs(page), ['+', '−', '·', ':', '‖']);
    await page.getByTestId('ops-signs').selectOption('cross');
    assert.deepEqual(await signs(page), ['+', '−', '×', '÷', '‖']);
  }, { locale: 'en-US' });
});

// Pins a bug: on ?lang=fr the announcer said "New roll: 5 3 8 8. Make 20." in English before
// the French words came, and nothing said it again in French. It holds its words until then.
test('the first thing a screen reader hears is in the page\'s language', async () => {
  const fr = await catalog('fr');
  await withPage(browser, async (score, page) => {
    let release;
    const held = new Promise((resolve) => { release = resolve; });
    await page.route('**/i18n/fr.json*', async (route) => { await held; await route.continue(); });
    await page.goto(`${BASE_URL}/?lang=fr`);
    await tiles(page).first().waitFor();
    await page.waitForTimeout(300);
    assert.equal(await page.getByTestId('announcer').textContent(), '', 'nothing said in English');
    release();
    const start = fr.heard_rolled.split('{')[0];
    await page.waitForFunction((s) => document.querySelector('[data-testid="announcer"]').textContent.startsWith(s), start);
  });
});
