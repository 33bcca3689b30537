// Class rooms (docs/RULES.md §5) against score-server serving the release build: a host and two
// students in three browser contexts. ROOM_URL is the server's address (scripts/test.sh
// starts one); BASE_URL serves the same build as plain files, where rooms are unavailable.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE_URL, launchBrowser, ScorePage } from './score_page.mjs';

const ROOM_URL = process.env.ROOM_URL;
let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser.close(); });

async function member(url = ROOM_URL) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const score = new ScorePage(page);
  await score.open('', url);
  await score.button('Got it').click();
  await score.button('Class room').click();
  return { context, page, score };
}

const tiles = (page) => page.getByRole('group', { name: 'Room numbers' }).getByRole('button');

async function joinAs(m, code, name) {
  await m.page.getByRole('textbox', { name: 'Room code' }).fill(code);
  await m.page.getByRole('textbox', { name: 'Your name' }).nth(1).fill(name);
  await m.score.button('Join').click();
  await m.page.getByTestId('room-code').waitFor();
}

test('a host and two students play one room', async () => {
  assert.ok(ROOM_URL, 'ROOM_URL: the address of a running score-server');
  const host = await member();
  await host.page.getByRole('textbox', { name: 'Your name' }).first().fill('Ms Ada');
  await host.score.button('Create room').click();
  const code = await host.page.getByTestId('room-code').textContent();
  assert.match(code, /^[A-HJ-NP-Z2-9]{6}$/);
  const ana = await member();
  const ben = await member();
  await joinAs(ana, code, 'Ana');
  await joinAs(ben, code.toLowerCase(), 'Ben');
  // The host deals a roll; every screen shows it.
  await host.page.getByRole('textbox', { name: 'Roll for the class' }).fill('2 5 12 12');
  await host.score.button('Deal this roll').click();
  for (const m of [host, ana, ben]) await m.page.getByTestId('room-roll').getByText('2 5 12 12').waitFor();
  for (const m of [host, ana, ben]) await m.page.getByRole('row', { name: /Ben/ }).waitFor();

  // Ana's SCORE: her working appears on the others' screens as she makes it.
  await ana.score.button('SCORE in the room').click();
  await ben.page.getByText('SCORE clock: Ana').waitFor();
  // Drag a number onto another with the mouse, then the operator.
  await ana.score.mouseDrag(tiles(ana.page).filter({ hasText: '12' }).nth(0), tiles(ana.page).filter({ hasText: '12' }).nth(1));
  await ana.page.getByRole('button', { name: 'Room operator minus' }).click();
  for (const m of [host, ben]) await m.page.getByTestId('live-working').getByText('12 − 12 = 0').waitFor();
  await ana.score.mouseDrag(ana.page.getByRole('button', { name: '2', exact: true }), ana.page.getByRole('button', { name: '0 (derived)' }));
  await ana.page.getByRole('button', { name: 'Room operator joined with' }).click();
  for (const m of [host, ana, ben]) await m.page.getByText('Ana +1: 20 made in 2 moves').waitFor();
  await host.page.getByTestId('room-score-1').getByText('1', { exact: true }).waitFor();

  // Ben's IMPOSSIBLE on an impossible roll, revealed by the host: the server judges.
  await host.page.getByRole('textbox', { name: 'Roll for the class' }).fill('1 1 1 4');
  await host.score.button('Deal this roll').click();
  await ben.page.getByTestId('room-roll').getByText('1 1 1 4').waitFor();
  await ben.score.button('IMPOSSIBLE in the room').click();
  await host.page.getByText('IMPOSSIBLE clock: Ben').waitFor();
  await host.score.button('Reveal now in the room').click();
  for (const m of [host, ana, ben]) await m.page.getByText('Ben +1: right: 1 1 1 4 has no solution').waitFor();

  // Chat is text, never HTML.
  await ben.page.getByRole('textbox', { name: 'Message' }).fill('<img src=x onerror=alert(1)>');
  await ben.score.button('Send').click();
  await host.page.locator('.chat-lines').getByText('<img src=x onerror=alert(1)>').waitFor();
  assert.equal(await host.page.locator('.chat-lines img').count(), 0);

  // A reload takes Ana's seat and score back by itself.
  await ana.page.reload();
  await ana.score.numbers().first().waitFor();
  await ana.score.button('Class room').click();
  await ana.page.getByRole('row', { name: /Ana \(you\)/ }).getByText('1', { exact: true }).waitFor();

  // The host removes Ben; Ben is told and is back at the forms.
  await host.score.button('Remove Ben').click();
  await ben.page.getByText('The host removed you from this room.').waitFor();
  await ben.score.button('Join').waitFor();
  await host.page.getByRole('row', { name: /Ben/ }).waitFor({ state: 'detached' });

  // The report's numbers are the rounds played: three rolls each (the first and two dealt),
  // Ana's SCORE made, Ben's IMPOSSIBLE right (Ben has left, so his line is gone).
  await host.score.button('Show the report').click();
  const report = host.page.getByRole('region', { name: 'Report' });
  const row = (seat) => report.getByTestId(`report-${seat}`).locator('td');
  assert.deepEqual(await row(1).allTextContents(), ['3', '1', '0', '0', '0', '+1', (await row(1).nth(6).textContent())]);
  assert.match(await row(1).nth(6).textContent(), /^\d+\.\d s$/);
  assert.deepEqual((await row(0).allTextContents()).slice(0, 6), ['3', '0', '0', '0', '0', '0']);
  assert.match(await report.getByRole('img').getAttribute('aria-label'), /^Points: Ms Ada 0, Ana \+1$/);

  // The scores download as CSV for the host.
  const href = await host.page.getByRole('link', { name: 'Download scores (CSV)' }).getAttribute('href');
  const csv = await host.page.request.get(new URL(href, host.page.url()).href);
  assert.equal(csv.status(), 200);
  const text = await csv.text();
  assert.match(text, /^seat,name,score,rolls,scores_made,scores_failed,impossible_right,impossible_wrong,median_seconds_to_score\n0,"Ms Ada",0,3,0,0,0,0,\n1,"Ana",1,3,1,0,0,0,\d+\.\d\n/);
  assert.match(text, /"2 5 12 12","Ana \+1: 20 made in 2 moves"/);

  // The host's screen shows the invite link as a QR code, drawn by the server; students' don't.
  const qr = host.page.getByRole('img', { name: `QR code of the link to join room ${code}` });
  const loaded = await qr.evaluate((img) => (img.complete ? img.naturalWidth
    : new Promise((done) => { img.onload = () => done(img.naturalWidth); img.onerror = () => done(0); })));
  assert.ok(loaded > 0, 'the QR code did not load');
  assert.equal(await ana.page.getByRole('img', { name: /QR code/ }).count(), 0);

  // The invite link opens the view with the code filled in.
  const link = await host.page.getByRole('textbox', { name: 'Link to join' }).inputValue();
  const cai = await browser.newContext();
  const caiPage = await cai.newPage();
  await caiPage.goto(link);
  await caiPage.getByRole('textbox', { name: 'Room code' }).waitFor();
  assert.equal(await caiPage.getByRole('textbox', { name: 'Room code' }).inputValue(), code);
  await cai.close();

  // New rules for the room: every screen shows the new goal.
  await host.page.getByRole('textbox', { name: 'Goal' }).fill('10');
  await host.page.getByRole('region', { name: 'Host' }).getByRole('button', { name: 'Apply and roll' }).click();
  await ana.page.locator('.room-roll strong').first().getByText('10', { exact: true }).waitFor();

  // The host ends the room: Ana is told and back at the forms.
  await host.score.button('End the room').click();
  await ana.page.getByText('The host ended this room.').waitFor();
  await ana.score.button('Create room').waitFor();
  for (const m of [host, ana, ben]) {
    m.score.assertNoConsoleErrors();
    await m.context.close();
  }
});

test('served as plain files, the view says rooms need score-server and solitaire plays', async () => {
  const m = await member(BASE_URL);
  await m.page.getByRole('textbox', { name: 'Your name' }).first().fill('Ms Ada');
  await m.score.button('Create room').click();
  await m.page.getByText('Rooms need score-server').waitFor();
  await m.score.playRoll('1 1 1 4');
  await m.score.button('IMPOSSIBLE').click();
  await m.score.button('Reveal now').click();
  await m.score.result('+1: right: 1 1 1 4 has no solution').waitFor();
  await m.context.close();
});

test('the class room is its own module: fetched when opened, kept while away, retried after a failure', async () => {
  assert.ok(ROOM_URL, 'ROOM_URL: the address of a running score-server');
  // No service worker: it would answer from its cache, past the blocked route below.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block' });
  const page = await context.newPage();
  const score = new ScorePage(page);
  const fetched = [];
  page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
  const roomFiles = () => fetched.filter((p) => /score-room|room-boot/.test(p));
  // The first load doesn't carry the room module, even once the table is playable.
  await page.route('**/room-boot.js', (route) => route.abort());
  await score.open('', ROOM_URL);
  await score.button('Got it').click();
  await score.playRoll('2 5 12 12');
  assert.deepEqual(roomFiles(), []);
  // Unreachable (offline before it was ever cached): the view says so and nothing breaks.
  await score.button('Class room').click();
  await page.getByText("The class room couldn't load.").waitFor();
  // Its script comes, but not its wasm: Try again says so again.
  await page.unroute('**/room-boot.js');
  await page.route('**/score-room_bg.wasm', (route) => route.abort());
  const stalled = page.waitForEvent('console', (m) => /class room module failed to start/.test(m.text()));
  await score.button('Try again').click();
  await stalled;
  await page.getByText("The class room couldn't load.").waitFor();
  // Reachable again: opening the view again starts it.
  await page.unroute('**/score-room_bg.wasm');
  await score.button('Solutions').click();
  await score.button('Class room').click();
  // The browser logs the blocked fetches, the module its failure; nothing else may be in the console.
  score.errors = score.errors.filter((e) => !/Failed to load resource|class room module failed to start/.test(e));
  await page.getByRole('textbox', { name: 'Your name' }).first().fill('Ms Ada');
  await score.button('Create room').click();
  const code = await page.getByTestId('room-code').textContent();
  assert.ok(roomFiles().some((p) => p.endsWith('.wasm')), `room files fetched: ${roomFiles()}`);
  // Away to another view and back: the same seat, without fetching the module again.
  const before = roomFiles().length;
  await score.button('Experiment').click();
  await page.getByTestId('room-code').waitFor({ state: 'detached' });
  await score.button('Class room').click();
  assert.equal(await page.getByTestId('room-code').textContent(), code);
  await page.getByRole('row', { name: /Ms Ada \(you\)/ }).waitFor();
  assert.equal(roomFiles().length, before);
  // Solitaire on the table is untouched by the room's coming and going.
  await score.button('Solutions').click();
  await score.numbers().first().waitFor();
  score.assertNoConsoleErrors();
  await context.close();
});

test('a room on other dice takes a typed roll for them; Leave frees the name at once; a stale seat keeps the name', async () => {
  assert.ok(ROOM_URL, 'ROOM_URL: the address of a running score-server');
  const host = await member();
  await host.page.getByRole('textbox', { name: 'Your name' }).first().fill('Mr Obi');
  await host.score.button('Create room').click();
  const code = await host.page.getByTestId('room-code').textContent();
  // The rules form shows the room's rules; the host changes them to five d20 and 24.
  const hostPanel = host.page.getByRole('region', { name: 'Host' });
  assert.equal(await hostPanel.getByRole('textbox', { name: 'Dice (sides)' }).inputValue(), '6 6 12 20');
  await hostPanel.getByRole('textbox', { name: 'Dice (sides)' }).fill('20 20 20 20 20');
  await hostPanel.getByRole('textbox', { name: 'Goal' }).fill('24');
  await hostPanel.getByRole('button', { name: 'Apply and roll' }).click();
  const ana = await member();
  await joinAs(ana, code, 'Ana');
  await ana.page.locator('.room-roll strong').first().getByText('24', { exact: true }).waitFor();
  // The Host panel is built once: a room event while the host types keeps their focus and text
  // (it was built again at every event, dropping both).
  const typed = host.page.getByRole('textbox', { name: 'Roll for the class' });
  await typed.click();
  await host.page.keyboard.type('20 1');
  await ana.page.getByRole('textbox', { name: 'Message' }).fill('hello');
  await ana.score.button('Send').click();
  await host.page.locator('.chat-lines').getByText('hello').waitFor();
  await host.page.keyboard.type(' 2 3 4');
  assert.equal(await typed.inputValue(), '20 1 2 3 4');
  // A typed roll for these dice is dealt (the page once checked it against the default dice).
  await host.score.button('Deal this roll').click();
  await ana.page.getByTestId('room-roll').getByText('1 2 3 4 20').waitFor();
  assert.equal(await tiles(ana.page).count(), 5);
  assert.equal(await host.page.locator('.room > .field-error').textContent(), '');

  // Leave gives the seat and the name up at once: the host sees Ana go, and a new Ana may join.
  await ana.score.button('Leave the room').click();
  await ana.score.button('Join').waitFor();
  await host.page.getByRole('row', { name: /Ana/ }).waitFor({ state: 'detached' });
  const ana2 = await member();
  await joinAs(ana2, code, 'Ana');
  await host.page.getByRole('row', { name: /Ana/ }).waitFor();

  // A seat token the server no longer knows (Ben was away when the host removed him): the
  // join form comes back with the code and the name kept, and the name seats him again.
  const ben = await member();
  await joinAs(ben, code, 'Ben');
  await ben.page.goto('about:blank');
  await host.score.button('Remove Ben').click();
  await host.page.getByRole('row', { name: /Ben/ }).waitFor({ state: 'detached' });
  await ben.score.open('', ROOM_URL);
  await ben.score.button('Class room').click();
  await ben.page.getByText(`Your seat in room ${code} was given up while you were away: join again with your name.`).waitFor();
  assert.equal(await ben.page.getByRole('textbox', { name: 'Room code' }).inputValue(), code);
  assert.equal(await ben.page.getByRole('textbox', { name: 'Your name' }).nth(1).inputValue(), 'Ben');
  await ben.score.button('Join').click();
  await ben.page.getByRole('row', { name: /Ben \(you\)/ }).waitFor();
  for (const m of [host, ana, ana2, ben]) {
    m.score.assertNoConsoleErrors();
    await m.context.close();
  }
});
