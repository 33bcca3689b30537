// Class rooms (RULES.md §5) against score-server serving the release build: a host and two
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

  // The scores download as CSV for the host.
  const href = await host.page.getByRole('link', { name: 'Download scores (CSV)' }).getAttribute('href');
  const csv = await host.page.request.get(new URL(href, host.page.url()).href);
  assert.equal(csv.status(), 200);
  const text = await csv.text();
  assert.match(text, /^seat,name,score\n0,"Ms Ada",0\n1,"Ana",1\n/);
  assert.match(text, /"2 5 12 12","Ana \+1: 20 made in 2 moves"/);

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
