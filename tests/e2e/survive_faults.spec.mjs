// A fault in a module (a trap: the release build aborts on a panic at once, without a message)
// leaves no dead page: the crash notice says so, in the page's words, with a reload link
// (src/crash.rs, scripts/boot.template.js).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE_URL, launchBrowser, withPage } from './score_page.mjs';

const ROOM_URL = process.env.ROOM_URL;

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser.close(); });

const notice = (page) => page.locator('#crash-notice[role=alert]');

test("a trap in the app's own wasm puts up the crash notice, and its link reloads the page", async () => {
  await withPage(browser, async (score, page) => {
    // The app's wasm exports, as the boot script hands them over when the app has started.
    await page.addInitScript(() => {
      addEventListener('TrunkApplicationStarted', (e) => { window.appWasm = e.detail.wasm; });
    });
    await page.goto(`${BASE_URL}/?lang=fr`);
    await page.getByTestId('score').waitFor();
    assert.equal(await notice(page).count(), 0);
    // An allocation larger than the module's memory can be aborts it: a real trap, in a task
    // of its own, as a fault in an event handler would be.
    const trap = await page.evaluate(() => new Promise((resolve) => {
      addEventListener('error', (e) => resolve(e.error?.constructor.name), { once: true });
      setTimeout(() => window.appWasm.__wbindgen_malloc(0xfffffff0, 8));
      setTimeout(() => resolve('no error'), 5000);
    }));
    assert.equal(trap, 'RuntimeError');
    await notice(page).waitFor();
    assert.match(await notice(page).textContent(), /Score s’est arrêté/);
    await Promise.all([page.waitForEvent('load'), notice(page).getByRole('link').click()]);
    await page.getByTestId('score').waitFor();
    assert.equal(await notice(page).count(), 0, 'the reloaded page plays');
    // The trap was the test's own doing.
    score.errors = score.errors.filter((e) => !/RuntimeError|unreachable/.test(e));
  });
});

test('a fault in a class room module that started the page puts up the crash notice', { skip: !ROOM_URL && 'ROOM_URL is not set' }, async () => {
  await withPage(browser, async (score, page) => {
    await page.goto(`${ROOM_URL}/?room=ZZZZ22&lang=ar`);
    await page.locator('input[autocomplete="nickname"]').waitFor();
    // The page in Arabic (its words come after the form, which is drawn in English first):
    // the notice is to be in the page's language.
    await page.locator('html[dir="rtl"]').waitFor({ state: 'attached' });
    assert.equal(await page.evaluate(() => typeof window.scoreCrashed), 'function', 'the student module says its faults');
    await page.evaluate(() => setTimeout(() => { throw new WebAssembly.RuntimeError('unreachable'); }));
    await notice(page).waitFor();
    assert.equal(await page.locator('html').getAttribute('dir'), 'rtl');
    score.errors = score.errors.filter((e) => !/RuntimeError|unreachable/.test(e));
  });
});

test('an error that is not a fault of a module puts up no notice', async () => {
  await withPage(browser, async (score, page) => {
    await score.open();
    await page.evaluate(() => new Promise((resolve) => {
      addEventListener('error', () => setTimeout(resolve, 100), { once: true });
      setTimeout(resolve, 5000);
      setTimeout(() => { throw new TypeError('a script of the host'); });
    }));
    assert.equal(await notice(page).count(), 0);
    score.errors = score.errors.filter((e) => !/a script of the host/.test(e));
  });
});
