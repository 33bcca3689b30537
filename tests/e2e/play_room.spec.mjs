// Class rooms (docs/RULES.md §5) against score-server serving the release build: a teacher's
// presenter screen, a host link on a second device, students on a phone (touch) and a laptop
// (keyboard), each its own browser context. ROOM_URL is the server's address (scripts/test.sh
// starts one); BASE_URL serves the same build as plain files, where rooms are unavailable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE_URL, PROTOCOL, ScorePage } from './score_page.mjs';
import { ROOM_URL, PHONE, browser, person, presenterOn, createRoom, joinAs, shown, hostLink, hostPanel, deal, waitForRoll, useBrowser } from './room_page.mjs';

useBrowser();

test('a class plays: presenter, a student by touch, one by keyboard, a host link, the report, a reload and Leave', async () => {
  assert.ok(ROOM_URL, 'ROOM_URL: the address of a running score-server');
  const host = await person('', { viewport: { width: 1920, height: 1080 } });
  const code = await createRoom(host);
  // The room takes the page, and the address names it.
  assert.equal(new URL(host.page.url()).search, `?room=${code}`);
  assert.equal(await host.page.getByRole('button', { name: 'New roll' }).count(), 0, 'solitaire steps aside');
  // The teacher takes no seat.
  await shown(host.page, 'Nobody has joined yet.').waitFor();

  // Ana on a phone, from the invite link: the code is filled in.
  const ana = await person(`?room=${code}`, PHONE);
  assert.equal(await ana.page.getByRole('textbox', { name: 'Room code' }).inputValue(), code);
  await joinAs(ana, 'Ana');
  // One table, one SCORE button: the room's. No solitaire roll, no sideways scrolling.
  assert.equal(await ana.page.getByRole('group', { name: 'Numbers' }).count(), 1);
  assert.equal(await ana.page.getByRole('button', { name: 'SCORE', exact: true }).count(), 1);
  assert.equal(await ana.page.getByRole('button', { name: 'Hint' }).count(), 0);
  assert.ok(await ana.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scroll');
  const small = await ana.page.locator('.room-page button:visible').evaluateAll((bs) => bs
    .map((b) => b.getBoundingClientRect()).filter((r) => r.width < 44 || r.height < 44).length);
  assert.equal(small, 0, 'touch targets of 44 px at least');

  // Ben on a laptop, from solitaire, where he has a score of his own.
  const ben = await person();
  await ben.score.playRoll('1 1 1 4');
  await ben.score.button('IMPOSSIBLE').click();
  await ben.score.button('Reveal now').click();
  await ben.score.expectScore(1);
  await ben.score.button('Class room').click();
  await joinAs(ben, 'Ben', code.toLowerCase());
  await host.page.locator('.ranking').getByText('Ben').waitFor();

  // The teacher deals 2 5 12 12; Ana drags with her finger, under her SCORE clock.
  await deal(host, '2 5 12 12');
  await waitForRoll(ana, '2 5 12 12');
  await waitForRoll(ben, '2 5 12 12');
  await ana.score.button('SCORE').click();
  await shown(host.page, 'Ana pressed SCORE').waitFor();
  await ana.score.touchDrag(ana.score.tile('12 (d12)'), ana.score.slot('left'));
  await ana.score.touchDrag(ana.score.tile('12 (d20)'), ana.score.slot('right'));
  await ana.score.touchDrag(ana.score.op('minus'), ana.score.slot('op'));
  // Her working shows on the projector and on Ben's screen as she makes it.
  for (const m of [host, ben]) await m.page.getByTestId('live-working').getByText('12 − 12 = 0').waitFor();
  await ana.score.touchDrag(ana.score.tile('2 (d6)'), ana.score.slot('left'));
  await ana.score.touchDrag(ana.score.tile('0 (derived)'), ana.score.slot('right'));
  await ana.score.touchDrag(ana.score.op('joined with'), ana.score.slot('op'));
  // Each page words the result for its reader: "you" only on Ana's.
  for (const m of [host, ben]) await shown(m.page, 'Ana +1: 20 made in 2 moves').waitFor();
  await shown(ana.page, 'You +1: 20 made in 2 moves').waitFor();
  await ana.page.getByTestId('standing').getByText('Rank 1 of 2, 1 point').waitFor();

  // Next roll by the N key on the teacher's screen, then 2 5 12 12 again for Ben, by keyboard alone.
  await host.page.locator('body').click({ position: { x: 5, y: 500 } });
  await host.page.keyboard.press('n');
  await shown(ana.page, 'You +1: 20 made in 2 moves').waitFor({ state: 'detached' });
  await deal(host, '2 5 12 12');
  await waitForRoll(ben, '2 5 12 12');
  await ben.page.locator('body').click({ position: { x: 5, y: 5 } });
  await ben.score.tabTo('SCORE');
  await shown(host.page, 'Ben pressed SCORE').waitFor();
  await ben.score.tabTo('12 (d12)');
  await ben.score.tabTo('12 (d20)');
  await ben.page.keyboard.press('-');
  await ben.score.tabTo('2 (d6)');
  await ben.score.tabTo('0 (derived)');
  await ben.page.keyboard.press('|');
  for (const m of [host, ana]) await shown(m.page, 'Ben +1: 20 made in 2 moves').waitFor();
  await shown(ben.page, 'You +1: 20 made in 2 moves').waitFor();

  // The host link opens the room as host on a second device; both host screens work.
  const panel = await hostPanel(host);
  const link = await hostLink(panel);
  // The token travels in the fragment, which no request line, log or Referer holds.
  assert.match(link, new RegExp(`\\?room=${code}#host=[0-9a-f]{32}$`));
  const token = link.split('#host=')[1];
  const laptop = await person(link.slice(ROOM_URL.length + 1));
  await laptop.page.getByTestId('room-code').waitFor();
  assert.equal(new URL(laptop.page.url()).search, `?room=${code}`, 'the address keeps the room, not the token');
  assert.equal(new URL(laptop.page.url()).hash, '', 'nor its fragment');
  await deal(laptop, '1 1 1 4');
  await waitForRoll(ana, '1 1 1 4');
  await host.page.getByTestId('room-roll').getByText('1', { exact: true }).first().waitFor();
  await ana.score.button('IMPOSSIBLE').click();
  await shown(laptop.page, 'Ana says IMPOSSIBLE').waitFor();
  // Only the claimer may end the clock early: Ben's page offers no Reveal now (RULES §5).
  await shown(ben.page, 'IMPOSSIBLE clock: Ana').waitFor();
  assert.equal(await ben.score.button('Reveal now').count(), 0, 'Reveal now on someone else’s claim');
  await ana.score.button('Reveal now').click();
  for (const m of [host, laptop]) await shown(m.page, 'Ana +1: right: 1 1 1 4 has no solution').waitFor();
  await shown(ana.page, 'You +1: right: 1 1 1 4 has no solution').waitFor();
  // A wrong host link: a member's join form, and why.
  const guess = await person(`?room=${code}#host=00112233`);
  await shown(guess.page, `This host link is not the one for room ${code}: you can join it as a member.`).waitFor();
  assert.equal(await guess.page.getByRole('textbox', { name: 'Room code' }).inputValue(), code);
  assert.equal(await guess.page.getByRole('region', { name: 'Host' }).count(), 0);
  // The right host link pasted into that tab changes only the fragment: it opens as host.
  await guess.page.evaluate((to) => { location.href = to; }, link);
  await guess.page.getByTestId('room-code').waitFor();
  assert.equal(new URL(guess.page.url()).hash, '', 'the token left the address again');
  await guess.context.close();
  assert.equal(laptop.asked.filter((a) => a.includes(token)).length, 0, 'the host token reached a server');

  // The report's numbers are the rounds played: five rolls since they joined (the first, three
  // dealt and one by N), Ana one SCORE made and one IMPOSSIBLE right, Ben one SCORE made.
  const report = (await hostPanel(laptop)).getByRole('region', { name: 'Report' });
  await laptop.score.button('Show the report').click();
  const row = (seat) => report.getByTestId(`report-${seat}`).locator('td');
  // The report comes from the server after the press: read its rows once they are there.
  await row(1).first().waitFor();
  const [anaRow, benRow] = [await row(0).allTextContents(), await row(1).allTextContents()];
  assert.deepEqual(anaRow.slice(0, 6), ['5', '1', '0', '1', '0', '+2'], `Ana: ${anaRow}`);
  assert.deepEqual(benRow.slice(0, 6), ['5', '1', '0', '0', '0', '+1'], `Ben: ${benRow}`);
  assert.match(anaRow[6], /^\d+\.\d s$/);

  // A reload takes Ana back to her seat, her score kept.
  await ana.page.reload();
  await ana.page.getByTestId('standing').getByText('Rank 1 of 2, 2 points').waitFor();
  assert.equal(new URL(ana.page.url()).search, `?room=${code}`);

  // Ben leaves: solitaire comes back with his own score, and the room's address goes.
  await ben.score.button('Leave the room').click();
  await ben.score.expectScore(1);
  assert.equal(new URL(ben.page.url()).search, '');
  await host.page.locator('.ranking').getByText('Ben').waitFor({ state: 'detached' });

  // "Play too": the second host screen takes a seat on the scoreboard.
  const laptopPanel = await hostPanel(laptop);
  await laptopPanel.getByRole('textbox', { name: 'Your name' }).fill('Mr Obi');
  await laptopPanel.getByRole('button', { name: 'Play too' }).click();
  await laptop.page.locator('.ranking').getByText('Mr Obi (you)').waitFor();
  await host.page.locator('.ranking').getByText('Mr Obi').waitFor();

  // The teacher ends the room (asked first): Ana is told and back at the forms.
  await (await hostPanel(host)).getByRole('button', { name: 'End the room…' }).click();
  await host.page.getByRole('alertdialog', { name: 'End the room?' }).getByRole('button', { name: 'End the room now' }).click();
  await shown(ana.page, 'The host ended this room.').waitFor();
  await ana.score.button('Join').waitFor();
  for (const m of [host, laptop, ana, ben]) {
    m.score.assertNoConsoleErrors();
    await m.context.close();
  }
});

test('the presenter fits 1920×1080 and 1280×720 with 30 members, with no scrolling', async () => {
  assert.ok(ROOM_URL, 'ROOM_URL: the address of a running score-server');
  const host = await presenterOn(['192.168.1.20:8080'], { viewport: { width: 1920, height: 1080 } });
  const code = await createRoom(host);
  // 28 members as raw sockets (from a page of the server: same origin), and two students.
  const crowd = await person('?room', {});
  await crowd.page.evaluate(async ({ code, n, version }) => {
    const url = `${location.origin.replace('http', 'ws')}/ws?room=${code}`;
    window.crowd = [];
    for (let i = 0; i < n; i += 1) {
      const ws = new WebSocket(url);
      await new Promise((done) => ws.addEventListener('open', done));
      ws.send(JSON.stringify({ type: 'Join', version, code, name: `Student ${String(i + 1).padStart(2, '0')}` }));
      window.crowd.push(ws);
    }
  }, { code, n: 28, version: PROTOCOL });
  const ana = await person(`?room=${code}`, PHONE);
  await joinAs(ana, 'Anastasia Papadopoulou'.slice(0, 20));
  const ben = await person(`?room=${code}`, PHONE);
  await joinAs(ben, 'Ben');
  await host.page.locator('.ranking li').nth(29).waitFor();
  await deal(host, '2 5 12 12');
  await waitForRoll(ana, '2 5 12 12');
  // An IMPOSSIBLE claim, beaten by a SCORE whose clock runs with working to show.
  await ben.score.button('IMPOSSIBLE').click();
  await shown(host.page, 'Ben says IMPOSSIBLE').waitFor();
  await ana.score.button('SCORE').click();
  await ana.score.tile('12 (d12)').click();
  await ana.score.tile('12 (d20)').click();
  await ana.score.op('minus').click();
  await host.page.getByTestId('live-working').getByText('12 − 12 = 0').waitFor();
  await host.page.getByRole('button', { name: 'Present' }).click(); // back to presenting
  for (const viewport of [{ width: 1920, height: 1080 }, { width: 1280, height: 720 }]) {
    await host.page.setViewportSize(viewport);
    const fits = await host.page.evaluate(() => [document.documentElement.scrollHeight, document.documentElement.scrollWidth]);
    assert.ok(fits[0] <= viewport.height && fits[1] <= viewport.width, `${viewport.width}×${viewport.height}: page is ${fits}`);
    const inView = async (locator, what) => {
      const box = await locator.boundingBox();
      assert.ok(box && box.y >= 0 && box.x >= 0 && box.y + box.height <= viewport.height && box.x + box.width <= viewport.width,
        `${what} in the ${viewport.width}×${viewport.height} viewport: ${JSON.stringify(box)}`);
    };
    await inView(host.page.getByTestId('room-code'), 'the code');
    await inView(host.page.getByRole('img', { name: /QR code/ }), 'the QR code');
    await inView(host.page.getByTestId('room-roll'), 'the roll');
    await inView(host.page.getByTestId('room-countdown'), 'the clock');
    await inView(shown(host.page, 'Anastasia Papadopoul pressed SCORE'), 'whose claim');
    await inView(host.page.getByTestId('live-working'), 'the working');
    await inView(host.page.locator('.ranking li').nth(29), 'the 30th member');
  }
  for (const m of [host, ana, ben, crowd]) {
    m.score.assertNoConsoleErrors();
    await m.context.close();
  }
});

test('auto-deal is the room’s: a host screen counts down, and the server deals with no host screen open', async () => {
  assert.ok(ROOM_URL, 'ROOM_URL: the address of a running score-server');
  const host = await person('', { viewport: { width: 1280, height: 720 } });
  const code = await createRoom(host);
  const ana = await person(`?room=${code}`, PHONE);
  await joinAs(ana, 'Ana');
  const panel = await hostPanel(host);
  await panel.getByRole('combobox', { name: 'Deal the next roll by itself' }).selectOption('5');
  await deal(host, '1 1 1 4');
  await waitForRoll(ana, '1 1 1 4');
  await ana.score.button('IMPOSSIBLE').click();
  await ana.score.button('Reveal now').click();
  await shown(host.page, 'Ana +1: right: 1 1 1 4 has no solution').waitFor();
  // The countdown shows on the teacher's screen; "Wait" starts it again.
  await host.page.getByRole('timer').getByText(/^Next roll in [1-5] s$/).waitFor();
  await host.page.getByRole('button', { name: 'Wait' }).click();
  await host.page.getByRole('timer').getByText(/^Next roll in [45] s$/).waitFor();
  // The teacher's screen closes; the room still deals the next roll.
  host.score.assertNoConsoleErrors();
  await host.context.close();
  await shown(ana.page, 'You +1: right: 1 1 1 4 has no solution').waitFor({ state: 'detached', timeout: 10_000 });
  assert.equal(await ana.score.button('IMPOSSIBLE').isEnabled(), true);
  ana.score.assertNoConsoleErrors();
  await ana.context.close();
});

test('a link to a room that is missing, locked or mistyped opens the join form with why, the code kept', async () => {
  assert.ok(ROOM_URL, 'ROOM_URL: the address of a running score-server');
  const typo = await person('?room=AB-1');
  await shown(typo.page, '“AB1” isn\'t a room code: a code is 6 letters and digits').waitFor();
  assert.equal(await typo.page.getByRole('textbox', { name: 'Room code' }).inputValue(), 'AB1');
  const missing = await person('?room=ZZZZ22');
  await missing.page.getByRole('textbox', { name: 'Your name' }).fill('Ana');
  await missing.score.button('Join').click();
  await shown(missing.page, 'There is no room ZZZZ22: check the code with your teacher.').waitFor();
  assert.equal(await missing.page.getByRole('textbox', { name: 'Room code' }).inputValue(), 'ZZZZ22');
  const host = await person();
  const code = await createRoom(host);
  await (await hostPanel(host)).getByRole('button', { name: 'Lock the room' }).click();
  await shown(host.page, '(locked)').waitFor();
  const late = await person(`?room=${code}`);
  await late.page.getByRole('textbox', { name: 'Your name' }).fill('Cai');
  await late.score.button('Join').click();
  await shown(late.page, 'The host has locked this room.').waitFor();
  assert.equal(await late.page.getByRole('textbox', { name: 'Room code' }).inputValue(), code);
  // Back to solitaire from the forms: the table, and no room in the address.
  await late.score.button('Back to solitaire').click();
  await late.score.numbers().first().waitFor();
  assert.equal(new URL(late.page.url()).search, '');
  for (const m of [typo, missing, host, late]) {
    m.score.assertNoConsoleErrors();
    await m.context.close();
  }
});

test('Back from a room shows solitaire again and Forward returns to the same room', async () => {
  assert.ok(ROOM_URL, 'ROOM_URL: the address of a running score-server');
  const host = await person();
  await host.score.playRoll('2 5 12 12');
  const code = await createRoom(host);
  await host.page.goBack();
  await waitForRoll(host, '2 5 12 12');
  assert.equal(new URL(host.page.url()).search, '');
  await host.page.goForward();
  await host.page.getByTestId('room-code').getByText(code).waitFor();
  host.score.assertNoConsoleErrors();
  await host.context.close();
});

test('served as plain files, the room says it needs score-server and solitaire plays', async () => {
  const m = await person('', {}, BASE_URL);
  await m.score.button('Class room').click();
  await m.score.button('Create room').click();
  await shown(m.page, 'Rooms need score-server').waitFor();
  await m.score.button('Back to solitaire').click();
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
  await page.route(/\/room-boot\.js(\?|$)/, (route) => route.abort());
  await score.open('', ROOM_URL);
  await score.button('Got it').click();
  await score.playRoll('2 5 12 12');
  assert.deepEqual(roomFiles(), []);
  // Unreachable (offline before it was ever cached): the page says so and nothing breaks.
  await score.button('Class room').click();
  await shown(page, "The class room couldn't load.").waitFor();
  // Its script comes, but not its wasm: Try again says so again.
  await page.unroute(/\/room-boot\.js(\?|$)/);
  await page.route(/\/score-room_bg\.wasm(\?|$)/, (route) => route.abort());
  const stalled = page.waitForEvent('console', (m) => /class room module failed to start/.test(m.text()));
  await score.button('Try again').click();
  await stalled;
  await shown(page, "The class room couldn't load.").waitFor();
  // Back to solitaire, then reachable again: opening the room again starts it.
  await score.button('Back to solitaire').click();
  await page.unroute(/\/score-room_bg\.wasm(\?|$)/);
  await score.button('Class room').click();
  // The browser logs the blocked fetches, the module its failure; nothing else may be in the console.
  score.errors = score.errors.filter((e) => !/Failed to load resource|class room module failed to start/.test(e));
  await score.button('Create room').click();
  const code = await page.getByTestId('room-code').textContent();
  assert.ok(roomFiles().some((p) => p.endsWith('.wasm')), `room files fetched: ${roomFiles()}`);
  // Away to solitaire and back: the same room, without fetching the module again.
  const before = roomFiles().length;
  await score.button('Close this screen').click();
  await score.numbers().first().waitFor();
  await score.button('Class room').click();
  assert.equal(await page.getByTestId('room-code').textContent(), code);
  assert.equal(roomFiles().length, before);
  score.assertNoConsoleErrors();
  await context.close();
});

test('a room on other dice takes a typed roll for them; Leave frees the seat, not the record; Remove holds until let back in', async () => {
  assert.ok(ROOM_URL, 'ROOM_URL: the address of a running score-server');
  const host = await person();
  const code = await createRoom(host);
  // The rules form shows the room's rules; the host changes them to five d20 and 24.
  const panel = await hostPanel(host);
  assert.equal(await panel.getByRole('textbox', { name: 'Dice (sides)' }).inputValue(), '6 6 12 20');
  await panel.getByRole('textbox', { name: 'Dice (sides)' }).fill('20 20 20 20 20');
  await panel.getByRole('textbox', { name: 'Goal' }).fill('24');
  await panel.getByRole('button', { name: 'Apply and roll' }).click();
  const ana = await person(`?room=${code}`);
  await joinAs(ana, 'Ana');
  await ana.page.getByTestId('goal').getByText('24', { exact: true }).waitFor();
  // The Host panel is built once: a room event while the host types keeps their focus and text.
  const typed = panel.getByRole('textbox', { name: 'Roll for the class' });
  await typed.click();
  await host.page.keyboard.type('20 1');
  await ana.page.getByRole('textbox', { name: 'Message' }).fill('hello');
  await ana.score.button('Send').click();
  await host.page.locator('.chat-lines').getByText('hello').waitFor();
  await host.page.keyboard.type(' 2 3 4');
  assert.equal(await typed.inputValue(), '20 1 2 3 4');
  // The teacher writes from the presenter, without a seat: shown as the teacher.
  await host.page.getByRole('textbox', { name: 'Message' }).fill('Ten more seconds');
  await host.page.locator('.room-chat').getByRole('button', { name: 'Send' }).click();
  await ana.page.locator('.chat-lines li.teacher').filter({ hasText: 'Ten more seconds' }).getByText('Teacher').waitFor();
  // A typed roll for these dice is dealt (the page once checked it against the default dice).
  await panel.getByRole('button', { name: 'Deal this roll' }).click();
  await waitForRoll(ana, '1 2 3 4 20');
  assert.equal(await host.page.locator('.room-page > .field-error').textContent(), '');

  // Leave gives the seat up at once: the host sees Ana go, and Ana may join again (her record
  // is the name's, kept for the room's life).
  await ana.score.button('Leave the room').click();
  await ana.score.numbers().first().waitFor();
  await host.page.locator('.ranking').getByText('Ana').waitFor({ state: 'detached' });
  const ana2 = await person(`?room=${code}`);
  await joinAs(ana2, 'Ana');
  await host.page.locator('.ranking').getByText('Ana').waitFor();

  // A seat token the server no longer knows (Ben was away when the host removed him): the
  // join form comes back with the code and the name kept; the name is refused until the host
  // lets Ben back in from the member list, and then seats him again.
  const ben = await person(`?room=${code}`);
  await joinAs(ben, 'Ben');
  await ben.page.goto('about:blank');
  await panel.getByRole('button', { name: 'Remove Ben' }).click();
  await host.page.locator('.ranking').getByText('Ben').waitFor({ state: 'detached' });
  await ben.page.goto(`${ROOM_URL}/?room=${code}`);
  await shown(ben.page, `Your seat in room ${code} was given up while you were away: join again with your name.`).waitFor();
  assert.equal(await ben.page.getByRole('textbox', { name: 'Room code' }).inputValue(), code);
  assert.equal(await ben.page.getByRole('textbox', { name: 'Your name' }).inputValue(), 'Ben');
  await ben.score.button('Join').click();
  await shown(ben.page, 'The host removed “Ben” from this room: ask the host to let you back in.').waitFor();
  await panel.getByRole('button', { name: 'Let Ben back in' }).click();
  await panel.getByRole('button', { name: 'Let Ben back in' }).waitFor({ state: 'detached' });
  await ben.score.button('Join').click();
  await ben.page.locator('.ranking').getByText('Ben (you)').waitFor();
  // The host removes Ben while he is there: he is told and is back at the forms.
  await panel.getByRole('button', { name: 'Remove Ben' }).click();
  await shown(ben.page, 'The host removed you from this room.').waitFor();
  await ben.score.button('Join').waitFor();
  for (const m of [host, ana, ana2, ben]) {
    m.score.assertNoConsoleErrors();
    await m.context.close();
  }
});

test('a failed SCORE under an IMPOSSIBLE clock leaves SCORE open, and each page says "you" only of its reader', async () => {
  assert.ok(ROOM_URL, 'ROOM_URL: the address of a running score-server');
  const host = await person();
  const code = await createRoom(host);
  const [ana, ben, cy] = [await person(`?room=${code}`), await person(`?room=${code}`), await person(`?room=${code}`)];
  await joinAs(ana, 'Ana');
  await joinAs(ben, 'Ben');
  await joinAs(cy, 'Cy');
  await deal(host, '2 5 12 12');
  await waitForRoll(cy, '2 5 12 12');
  await ana.score.button('IMPOSSIBLE').click();
  await shown(cy.page, 'IMPOSSIBLE clock: Ana').waitFor();
  await ben.score.button('SCORE').click();
  await ben.score.button('Give up').click();
  // Ben reads his own line; Cy reads Ben's.
  await shown(ben.page, 'You −1: you gave up the SCORE').waitFor();
  await shown(cy.page, 'Ben −1: gave up the SCORE').waitFor();
  // The IMPOSSIBLE clock runs on, and Cy may still beat the claim (RULES §5).
  await shown(cy.page, 'IMPOSSIBLE clock: Ana').waitFor();
  assert.equal(await cy.score.button('SCORE').isEnabled(), true, 'SCORE stays open to everyone');
  await cy.score.button('SCORE').click();
  await cy.score.tile('12 (d12)').click();
  await cy.score.tile('12 (d20)').click();
  await cy.score.op('minus').click();
  await cy.score.tile('2 (d6)').click();
  await cy.score.tile('0 (derived)').click();
  await cy.score.op('joined with').click();
  await shown(cy.page, 'You +1: 20 made in 2 moves').waitFor();
  await shown(cy.page, 'Ana −2: you made 20 during the IMPOSSIBLE clock').waitFor();
  await shown(ana.page, 'You −2: Cy made 20 during the IMPOSSIBLE clock').waitFor();
  for (const m of [host, ana, ben, cy]) {
    m.score.assertNoConsoleErrors();
    await m.context.close();
  }
});

test('a host who plays too and whose seat is given up keeps the room as its host screen', async () => {
  assert.ok(ROOM_URL, 'ROOM_URL: the address of a running score-server');
  const host = await person();
  const code = await createRoom(host);
  const panel = await hostPanel(host);
  const link = await hostLink(panel);
  // The laptop opens the host link and plays too.
  const laptop = await person(link.slice(ROOM_URL.length + 1));
  const laptopPanel = await hostPanel(laptop);
  await laptopPanel.getByRole('textbox', { name: 'Your name' }).fill('Mr Obi');
  await laptopPanel.getByRole('button', { name: 'Play too' }).click();
  await laptop.page.locator('.ranking').getByText('Mr Obi (you)').waitFor();
  // The laptop sleeps; its seat is given up meanwhile (as after ten minutes away).
  await laptop.page.goto('about:blank');
  await panel.getByRole('button', { name: 'Remove Mr Obi' }).click();
  await host.page.locator('.ranking').getByText('Mr Obi').waitFor({ state: 'detached' });
  // Back: no seat, but still the room's host, who can deal.
  await laptop.page.goto(`${ROOM_URL}/?room=${code}`);
  await laptop.page.getByTestId('room-code').getByText(code).waitFor();
  await deal(laptop, '1 1 1 4');
  // The whole roll (the one before may have had two 4s, which one text can't tell apart).
  await host.page.waitForFunction(() =>
    [...document.querySelectorAll('[data-testid=room-roll] .value')].map((e) => e.textContent).join(' ') === '1 1 1 4');
  for (const m of [host, laptop]) await m.context.close();
});

test('two tabs on one seat: the newest has it, the older says so and takes it back only when asked, or finds the forms once the other left', async () => {
  assert.ok(ROOM_URL, 'ROOM_URL: the address of a running score-server');
  const host = await person();
  const code = await createRoom(host);
  const first = await person(`?room=${code}`);
  await joinAs(first, 'Ana');
  let sockets = 0;
  first.page.on('websocket', () => { sockets += 1; });
  // A second tab of the same browser takes the seat back by the kept ticket.
  const second = { context: first.context, page: await first.context.newPage() };
  second.score = new ScorePage(second.page);
  await second.page.goto(`${ROOM_URL}/?room=${code}`);
  await second.page.getByTestId('standing').waitFor();
  await shown(first.page, 'This room is open in another tab or window').waitFor();
  // The older tab does not fight for the seat: no new socket in three seconds.
  await first.page.waitForTimeout(3000);
  assert.equal(sockets, 0, 'the first tab opened no socket by itself');
  await deal(host, '1 1 1 4');
  await waitForRoll(second, '1 1 1 4');
  // Asked, it takes the seat back, and the other tab says so in turn.
  await first.score.button('Use this tab').click();
  await shown(first.page, 'This room is open in another tab or window').waitFor({ state: 'detached' });
  await shown(second.page, 'This room is open in another tab or window').waitFor();
  assert.equal(await host.page.locator('.ranking li').count(), 1, 'still one Ana');
  // The tab that has the seat leaves the room: the other one's Use this tab has nothing to take
  // back, and brings the forms, the room's code kept.
  await first.score.button('Leave the room').click();
  await second.score.button('Use this tab').click();
  await second.score.button('Join').waitFor();
  assert.equal(await second.page.getByRole('textbox', { name: 'Room code' }).inputValue(), code);
  assert.equal(await second.page.getByRole('textbox', { name: 'Your name' }).inputValue(), 'Ana');
  // (By the forgotten place, not by asking the server for a seat given up.)
  assert.equal(await shown(second.page, /was given up while you were away/).count(), 0);
  for (const m of [host, first]) await m.context.close();
});
