// Screenshots to look at: phone, desktop and projector sizes, alone and in a match.
// Usage: BASE_URL=http://127.0.0.1:8080 [ROOM_URL=http://127.0.0.1:8081] node tests/e2e/shots.mjs OUT_DIR
// (ROOM_URL: a score-server, for a host's room as well; SHOTS_LANGS_ONLY=1: only the
// languages' screenshots).
import { mkdirSync } from 'node:fs';
import { launchBrowser, PROTOCOL, ScorePage } from './score_page.mjs';

const out = process.argv[2] ?? 'target/shots';
mkdirSync(out, { recursive: true });
const sizes = [
  ['phone', { width: 390, height: 844 }, { isMobile: true, hasTouch: true, deviceScaleFactor: 2 }],
  ['desktop', { width: 1280, height: 900 }, {}],
  ['projector-720', { width: 1280, height: 720 }, {}],
  ['projector', { width: 1920, height: 1080 }, {}],
];

const browser = await launchBrowser('full');
for (const [name, viewport, opts] of process.env.SHOTS_LANGS_ONLY ? [] : sizes) {
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
  // Settled, so Settings may deal a new roll.
  await score.button('Reveal now').click();

  await score.button('Settings').click();
  await page.getByRole('textbox', { name: 'Goal' }).fill('twenty');
  await score.button('Apply and roll').click();
  await page.locator('.views').screenshot({ path: `${out}/${name}-settings-error.png` });
  await score.button('Rules').click();
  await page.getByRole('heading', { name: 'Fair play' }).waitFor();
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
  await roomPage.route(/\/room-boot\.js(\?|$)/, (route) => route.abort());
  await roomPage.route(/\/tools-boot\.js(\?|$)/, (route) => route.abort());
  await room.open();
  await room.button('Got it').click();
  // The tools' module likewise: unreachable, then loaded.
  await room.button('Experiment').click();
  await roomPage.getByText("This view couldn't load.").waitFor();
  await roomPage.locator('.views').screenshot({ path: `${out}/${name}-tools-unreachable.png` });
  await roomPage.unroute(/\/tools-boot\.js(\?|$)/);
  await room.button('Try again').click();
  await roomPage.getByRole('textbox', { name: 'Numbers' }).waitFor();
  await roomPage.locator('.views').screenshot({ path: `${out}/${name}-experiment.png` });
  await room.button('Class room').click();
  await roomPage.getByText("The class room couldn't load.").waitFor();
  await roomPage.screenshot({ path: `${out}/${name}-room-unreachable.png` });
  await roomPage.unroute(/\/room-boot\.js(\?|$)/);
  await room.button('Try again').click();
  await room.button('Create room').waitFor();
  await roomPage.screenshot({ path: `${out}/${name}-room-forms.png`, fullPage: true });
  await roomContext.close();

  // A room on score-server: the teacher's screen presenting and with its Host panel, and a
  // student at this size, with 20 more members as sockets and a SCORE clock running.
  if (process.env.ROOM_URL) {
    const hostContext = await browser.newContext({ viewport, ...opts });
    // The test server listens on 127.0.0.1: as on a class's network, it says an address.
    await hostContext.routeWebSocket(/\/ws\?room=/, (ws) => {
      const server = ws.connectToServer();
      server.onMessage((m) => ws.send('JoinAt' in JSON.parse(m) ? JSON.stringify({ JoinAt: { addresses: ['192.168.1.20:8080'] } }) : m));
    });
    const hostPage = await hostContext.newPage();
    const host = new ScorePage(hostPage);
    await hostPage.goto(`${process.env.ROOM_URL}/?room`);
    await host.button('Create room').click();
    const code = (await hostPage.getByTestId('room-code').textContent()).trim();
    await hostPage.evaluate(async ({ code, n, version }) => {
      const url = `${location.origin.replace('http', 'ws')}/ws?room=${code}`;
      window.crowd = [];
      for (let i = 0; i < n; i += 1) {
        const ws = new WebSocket(url);
        await new Promise((done) => ws.addEventListener('open', done));
        ws.send(JSON.stringify({ type: 'Join', version, code, name: ['Ana', 'Ben', 'Cai', 'Dee', 'Eli'][i % 5] + ' ' + (i + 1) }));
        window.crowd.push(ws);
      }
    }, { code, n: 20, version: PROTOCOL });
    const studentContext = await browser.newContext({ viewport, ...opts });
    const studentPage = await studentContext.newPage();
    const student = new ScorePage(studentPage);
    await studentPage.goto(`${process.env.ROOM_URL}/?room=${code}`);
    await studentPage.getByRole('textbox', { name: 'Your name' }).waitFor();
    await studentPage.screenshot({ path: `${out}/${name}-room-invite.png` });
    await studentPage.getByRole('textbox', { name: 'Your name' }).fill('Zoë');
    await student.button('Join').click();
    await studentPage.getByTestId('standing').waitFor();
    await host.button('Present').click();
    await hostPage.getByRole('textbox', { name: 'Roll for the class' }).fill('2 5 12 12');
    await host.button('Deal this roll').click();
    // A student removed (listed with Let back in), and a line from the teacher in the chat.
    await hostPage.getByRole('button', { name: 'Remove Ana 1', exact: true }).click();
    await hostPage.getByRole('button', { name: 'Let Ana 1 back in' }).waitFor();
    await hostPage.getByRole('textbox', { name: 'Message' }).fill('Ten more seconds, then the next roll.');
    await hostPage.locator('.room-chat').getByRole('button', { name: 'Send' }).click();
    await studentPage.locator('.chat-lines li.teacher').waitFor();
    await hostPage.screenshot({ path: `${out}/${name}-room-host-panel.png`, fullPage: true });
    await host.button('Present').click();
    await student.tile('12 (d12)').waitFor();
    await student.button('SCORE').click();
    await student.tile('12 (d12)').click();
    await student.tile('12 (d20)').click();
    await student.op('minus').click();
    await hostPage.getByTestId('live-working').getByText('12 − 12 = 0').waitFor();
    await hostPage.screenshot({ path: `${out}/${name}-room-presenter.png` });
    await studentPage.screenshot({ path: `${out}/${name}-room-student.png`, fullPage: true });
    await student.button('How to play').click();
    await studentPage.getByTestId('room-rules').waitFor();
    await studentPage.screenshot({ path: `${out}/${name}-room-student-rules.png` });
    await host.button('Present').click();
    await host.button('End the room…').click();
    await hostPage.getByRole('alertdialog').scrollIntoViewIfNeeded();
    await hostPage.screenshot({ path: `${out}/${name}-room-end-confirm.png` });
    await hostContext.close();
    await studentContext.close();
  }
}
// Each language at phone and projector sizes: a SCORE clock running and a settled round in
// solitaire; with ROOM_URL, the presenter with a student's live working and that student's phone.
for (const code of ['es', 'fr', 'de', 'pt-BR', 'ar']) {
  const words = await (await fetch(`${process.env.BASE_URL ?? 'http://127.0.0.1:8080'}/i18n/${code}.json`)).json();
  for (const [name, viewport, opts] of [sizes[0], sizes[3]]) {
    const context = await browser.newContext({ viewport, ...opts });
    const page = await context.newPage();
    await page.goto(`${process.env.BASE_URL ?? 'http://127.0.0.1:8080'}/?lang=${code}&roll=2,5,12,12`);
    await page.getByRole('button', { name: words.got_it, exact: true }).click();
    const tile = (i) => page.locator('.pool .tile').nth(i);
    await page.getByRole('button', { name: words.claim_score, exact: true }).click();
    await tile(2).click();
    await tile(3).click();
    await page.locator('.ops .op').nth(1).click();
    await page.screenshot({ path: `${out}/${code}-${name}-solo-clock.png` });
    await tile(0).click();
    await tile(2).click();
    await page.locator('.ops .op').nth(4).click();
    await page.locator('.results p').first().waitFor();
    await page.screenshot({ path: `${out}/${code}-${name}-solo-settled.png`, fullPage: true });
    await context.close();
    if (!process.env.ROOM_URL || name !== 'projector') continue;
    const hostContext = await browser.newContext({ viewport, ...opts });
    const hostPage = await hostContext.newPage();
    await hostPage.goto(`${process.env.ROOM_URL}/?room&lang=${code}`);
    await hostPage.getByRole('button', { name: words.create_room, exact: true }).click();
    const room = (await hostPage.getByTestId('room-code').textContent()).trim();
    const phone = await browser.newContext({ viewport: sizes[0][1], ...sizes[0][2] });
    const studentPage = await phone.newPage();
    await studentPage.goto(`${process.env.ROOM_URL}/?room=${room}&lang=${code}`);
    await studentPage.getByRole('textbox', { name: words.your_name }).fill('Zoë');
    await studentPage.getByRole('button', { name: words.join, exact: true }).click();
    await studentPage.getByTestId('standing').waitFor();
    await hostPage.getByRole('button', { name: words.present, exact: true }).click();
    await hostPage.getByRole('textbox', { name: words.roll_for_class }).fill('2 5 12 12');
    await hostPage.getByRole('button', { name: words.deal_this_roll, exact: true }).click();
    await hostPage.getByRole('textbox', { name: words.chat_message }).fill('…');
    await hostPage.locator('.room-chat button[type=submit]').click();
    await studentPage.locator('.chat-lines li.teacher').waitFor();
    await hostPage.getByRole('button', { name: words.present, exact: true }).click();
    await studentPage.getByRole('button', { name: words.claim_score, exact: true }).click();
    const st = (i) => studentPage.locator('.pool .tile').nth(i);
    await st(2).click();
    await st(3).click();
    await studentPage.locator('.ops .op').nth(1).click();
    await hostPage.getByTestId('live-working').locator('li').first().waitFor();
    await hostPage.screenshot({ path: `${out}/${code}-room-presenter.png` });
    await studentPage.screenshot({ path: `${out}/${code}-room-student.png`, fullPage: true });
    await hostContext.close();
    await phone.close();
  }
}
await browser.close();
console.log(`screenshots in ${out}`);
