// Class rooms' end-to-end helpers, for the specs that play rooms against score-server
// (play_room.spec.mjs, join_room.spec.mjs): people as browser contexts of one browser, a
// teacher's room, a student's seat, the Host panel.
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { ScorePage, launchBrowser } from './score_page.mjs';

export const ROOM_URL = process.env.ROOM_URL;
/** The one browser of the spec that imports this (`useBrowser()`), each person a context of it. */
export let browser;
/** Launches the spec's browser before its tests and closes it after them. */
export function useBrowser() {
  before(async () => { browser = await launchBrowser(); });
  after(async () => { await browser.close(); });
}

export const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

/** A browser of its own at `path` of the server (solitaire, the help card put away). */
export async function person(path = '', options = {}, url = ROOM_URL) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  const page = await context.newPage();
  // What the page asks of any server, with its Referer: a host token must never be in one.
  const asked = [];
  context.on('request', (r) => asked.push(`${r.url()} ${r.headers().referer ?? ''}`));
  const score = new ScorePage(page);
  await page.goto(`${url.replace(/\/$/, '')}/${path}`);
  if (!path.includes('room')) {
    await score.numbers().first().waitFor();
    await score.button('Got it').click();
  }
  return { context, page, score, asked };
}

/**
 * A teacher's browser at the room forms whose server says other devices reach it at
 * `addresses` (the test server listens on 127.0.0.1 only, so it says none: as on a class's
 * network, it is told these instead).
 */
export async function presenterOn(addresses, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
  await context.routeWebSocket(/\/ws\?room=/, (ws) => {
    const server = ws.connectToServer();
    server.onMessage((m) => ws.send('JoinAt' in JSON.parse(m) ? JSON.stringify({ JoinAt: { addresses } }) : m));
  });
  const page = await context.newPage();
  await page.goto(`${ROOM_URL}/?room`);
  return { context, page, score: new ScorePage(page) };
}

/** A teacher's screen with a new room (no seat), from solitaire or the room's forms: its code. */
export async function createRoom(host) {
  if (!new URL(host.page.url()).search.startsWith('?room')) await host.score.button('Class room').click();
  // A page opened by an invite shows Join first; creating is a link below it.
  const instead = host.score.button('Create a new room instead');
  if (await instead.isVisible()) await instead.click();
  await host.score.button('Create room').click();
  const code = (await host.page.getByTestId('room-code').textContent()).trim();
  assert.match(code, /^[A-HJ-NP-Z2-9]{6}$/);
  return code;
}

export async function joinAs(m, name, code) {
  if (code) await m.page.getByRole('textbox', { name: 'Room code' }).fill(code);
  await m.page.getByRole('textbox', { name: 'Your name' }).fill(name);
  await m.score.button('Join').click();
  await m.page.getByTestId('standing').waitFor();
}

/** Text shown on `page` (not the room's live region, which a screen reader hears). */
export function shown(page, text, options) {
  return page.getByText(text, options).and(page.locator(':not([data-testid="room-announcer"])'));
}

/** The host link, shown on request in the Host panel `panel`. */
export async function hostLink(panel) {
  const show = panel.getByRole('button', { name: "Show the teacher's key" });
  if (await show.isVisible()) await show.click();
  return panel.getByRole('textbox', { name: /Host link/ }).inputValue();
}

/** The Host panel, shown (a host screen opens presenting, the panel hidden). */
export async function hostPanel(host) {
  const present = host.page.getByRole('button', { name: 'Present' });
  if (await present.getAttribute('aria-pressed') === 'true') await present.click();
  return host.page.getByRole('region', { name: 'Host' });
}

/** A teacher's screen with a new room kept as a class, its Host panel shown. */
export async function keptClass() {
  const host = await person('', { viewport: { width: 1280, height: 900 } });
  const code = await createRoom(host);
  const panel = await hostPanel(host);
  await panel.getByRole('button', { name: 'Keep this class' }).click();
  await panel.getByRole('heading', { name: 'Lesson 1' }).waitFor();
  return { host, code, panel };
}

export async function deal(host, roll) {
  const panel = await hostPanel(host);
  await panel.getByRole('textbox', { name: 'Roll for the class' }).fill(roll);
  await panel.getByRole('button', { name: 'Deal this roll' }).click();
}

/** The room's roll on a student's table, as "2 5 12 12". */
export async function waitForRoll(m, roll) {
  await m.page.waitForFunction(
    (want) => [...document.querySelectorAll('[aria-label="Numbers"] button .value')].map((e) => e.textContent).join(' ') === want,
    roll,
  );
}
