// Screenshots to look at: phone, desktop and projector sizes, alone and in a match.
// Usage: BASE_URL=http://127.0.0.1:8080 [ROOM_URL=http://127.0.0.1:8081] node tests/e2e/shots.mjs OUT_DIR
// (ROOM_URL: a score-server, for a host's room as well).
import { mkdirSync } from 'node:fs';
import { launchBrowser, ScorePage } from './score_page.mjs';

const out = process.argv[2] ?? 'target/shots';
mkdirSync(out, { recursive: true });
const sizes = [
  ['phone', { width: 390, height: 844 }, { isMobile: true, hasTouch: true, deviceScaleFactor: 2 }],
  ['desktop', { width: 1280, height: 900 }, {}],
  ['projector-720', { width: 1280, height: 720 }, {}],
  ['projector', { width: 1920, height: 1080 }, {}],
];

const browser = await launchBrowser();
for (const [name, viewport, opts] of sizes) {
  const context = await browser.newContext({ viewport, ...opts });
  const page = await context.newPage();
  const score = new ScorePage(page);
  await score.open();
  await page.screenshot({ path: `${out}/${name}-first-visit.png` });
  await score.button('Got it').click();
  await score.playRoll('2 5 12 12');
  await page.locator('details.share-roll summary').click();
  await score.tile('12 (d12)').click();
  await score.tile('12 (d20)').click();
  await score.op('minus').click();
  await score.button('SCORE').click();
  await page.screenshot({ path: `${out}/${name}-solo-clock.png` });
  await score.tile('2 (d6)').click();
  await score.tile('0 (derived)').click();
  await score.op('joined with').click();
  await page.screenshot({ path: `${out}/${name}-solo-settled.png`, fullPage: true });

  await score.startMatch('Ana\nBen\nCai');
  await score.button('IMPOSSIBLE for Ben').click();
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(600); // the dice's roll animation
  await page.screenshot({ path: `${out}/${name}-match-clock.png` });

  await score.button('Settings').click();
  await page.getByRole('textbox', { name: 'Goal' }).fill('twenty');
  await score.button('Apply and roll').click();
  await page.locator('.views').screenshot({ path: `${out}/${name}-settings-error.png` });
  await score.button('Rules').click();
  await page.locator('.views').screenshot({ path: `${out}/${name}-rules.png` });

  // A long listing in the solver's worker: progress and Cancel.
  await score.useRules('20 20 20 20 20', '9973');
  await score.button('Impossible rolls').click();
  await score.button('List impossible rolls').click();
  await page.getByTestId('impossible-progress').getByText(/of 42,504/).waitFor({ timeout: 30_000 });
  await page.locator('.views').screenshot({ path: `${out}/${name}-listing.png` });
  await score.button('Cancel').click();
  await context.close();

  // The class room's module: unreachable, then loaded.
  const roomContext = await browser.newContext({ viewport, ...opts, serviceWorkers: 'block' });
  const roomPage = await roomContext.newPage();
  const room = new ScorePage(roomPage);
  await roomPage.route('**/room-boot.js', (route) => route.abort());
  await room.open();
  await room.button('Got it').click();
  await room.button('Class room').click();
  await roomPage.getByText("The class room couldn't load.").waitFor();
  await roomPage.locator('.views').screenshot({ path: `${out}/${name}-room-unreachable.png` });
  await roomPage.unroute('**/room-boot.js');
  await room.button('Solutions').click();
  await room.button('Class room').click();
  await room.button('Create room').waitFor();
  await roomPage.locator('.views').screenshot({ path: `${out}/${name}-room-forms.png` });
  await roomContext.close();

  // A host in a room on score-server: the room's rules in the Host panel, as they are.
  if (process.env.ROOM_URL) {
    const hostContext = await browser.newContext({ viewport, ...opts });
    const hostPage = await hostContext.newPage();
    const host = new ScorePage(hostPage);
    await host.open('', process.env.ROOM_URL);
    await host.button('Got it').click();
    await host.button('Class room').click();
    await hostPage.getByRole('textbox', { name: 'Your name' }).first().fill('Mr Obi');
    await host.button('Create room').click();
    await hostPage.getByTestId('room-code').waitFor();
    await hostPage.locator('.views').screenshot({ path: `${out}/${name}-room-host.png` });
    await hostContext.close();
  }
}
await browser.close();
console.log(`screenshots in ${out}`);
