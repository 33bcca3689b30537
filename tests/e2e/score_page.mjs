// The one page object every end-to-end spec uses: controls found by role and name.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';

export const BASE_URL = process.env.BASE_URL ?? 'http://127.0.0.1:8080';
/** The room protocol's version (`score_room::protocol::VERSION`), for a test's own sockets. */
export const PROTOCOL = Number(
  readFileSync(new URL('../../crates/room/src/protocol.rs', import.meta.url), 'utf8').match(/pub const VERSION: u32 = (\d+);/)[1],
);

/** A language's catalog as the page fetches it, from `base` (the static build by default). */
export async function catalog(code, base = BASE_URL) {
  const response = await fetch(`${base.replace(/\/$/, '')}/i18n/${code}.json`);
  assert.ok(response.ok, `i18n/${code}.json is served`);
  return response.json();
}

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** axe-core's serious and critical violations on the page, one line each (none: []). */
export async function seriousViolations(page) {
  await page.addScriptTag({ path: axePath });
  const result = await page.evaluate(async () => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

// Debian's two Chromium builds. The tests run in its headless shell (the old headless mode,
// a browser without the desktop browser's parts): the same specs took about half the CPU
// time and wall time they took in the full browser's headless mode. Measurements and
// screenshots use the full browser, what a person runs. CHROMIUM names another for either.
const BROWSERS = { test: '/usr/bin/chromium-headless-shell', full: '/usr/bin/chromium' };

/** Starts Chromium: the headless shell for tests, or `'full'` for measurements and screenshots. */
export async function launchBrowser(kind = 'test') {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? BROWSERS[kind],
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** The numbers on the table, as they read: "2 5 12 12" (run in the page). */
const tableNumbers = () => [...document.querySelectorAll('[aria-label="Numbers"] button .value')].map((e) => e.textContent).join(' ');

export class ScorePage {
  constructor(page) {
    this.page = page;
    this.errors = [];
    page.on('console', (m) => { if (m.type() === 'error') this.errors.push(m.text()); });
    page.on('pageerror', (e) => this.errors.push(String(e)));
  }

  async open(path = '', base = BASE_URL) {
    await this.page.goto(path.startsWith('http') ? path : `${base.replace(/\/$/, '')}/${path}`);
    await this.numbers().first().waitFor();
    await this.whole();
  }

  /** Waits for solitaire's side and views, which come a task after its table (src/app.rs). */
  async whole() {
    await this.page.locator('section.views').waitFor();
  }

  async waitForServiceWorker() {
    await this.page.waitForFunction(() => navigator.serviceWorker?.controller != null);
  }

  notice(text) { return this.page.locator('.notice', { hasText: text }); }

  numbers() { return this.page.getByRole('group', { name: 'Numbers' }).getByRole('button'); }
  tile(label) { return this.page.getByRole('button', { name: label, exact: true }).first(); }
  op(name) { return this.page.getByRole('button', { name: `Operator ${name}`, exact: true }); }
  slot(which) { return this.page.locator(`[data-slot="${which}"]`); }
  button(name) { return this.page.getByRole('button', { name, exact: true }); }
  score() { return this.page.getByTestId('score'); }
  moveError() { return this.page.locator('.move-error'); }
  /** A settled result line under the claim buttons. */
  result(text) { return this.page.locator('.results').getByText(text); }

  /** The accessible names of the numbers on the table, e.g. "12 (d20)", "0 (derived)". */
  async numberLabels() {
    return this.numbers().evaluateAll((els) => els.map((e) => {
      const copy = e.cloneNode(true);
      copy.querySelectorAll('[aria-hidden="true"]').forEach((n) => n.remove());
      return copy.textContent.replace(/\s+/g, ' ').trim();
    }));
  }

  /** Opens the "Share or play a roll" disclosure under the table (closed by default). */
  async openShare() {
    const details = this.page.locator('details.share-roll');
    if (!(await details.evaluate((d) => d.open))) await details.locator('summary').click();
  }

  /**
   * Deals `text` ("1 1 1 4") on the table's dice and goal as a shared link's roll, which
   * scores unless the roll was dealt on the device before (RULES §6). A spec plays the same
   * roll more than once, so by default the device forgets the rolls it has seen first (as
   * another device would); `{ again: true }` keeps them. A typed roll is practice:
   * see `typeRoll`.
   */
  async playRoll(text, { again = false } = {}) {
    // A link's roll already on the table, unsettled, stays as it is (RULES §6): where the
    // table shows these numbers in another order (a first random roll of 5 2 12 12, 1 in
    // 8,640), another roll is typed first (practice: it rates nothing), and saved, so that
    // the link deals them as written.
    const shown = (await this.page.evaluate(tableNumbers)).split(' ');
    const sorted = (faces) => [...faces].sort().join(' ');
    if (shown.join(' ') !== text && sorted(shown) === sorted(text.split(' '))) {
      const rev = await this.page.evaluate(() => localStorage.getItem('score.rev.v1'));
      await this.typeRoll(shown.map(() => '1').join(' '));
      await this.page.waitForFunction((was) => localStorage.getItem('score.rev.v1') !== was, rev);
    }
    await this.openShare();
    const link = new URL(await this.page.getByRole('textbox', { name: 'Link to this roll' }).inputValue());
    link.searchParams.set('roll', text.split(' ').join(','));
    // (After any save above: the page writes the rolls it has seen with every save.)
    if (!again) {
      await this.page.evaluate(() => {
        const log = JSON.parse(localStorage.getItem('score.daily.v1') ?? 'null');
        if (log?.seen) localStorage.setItem('score.daily.v1', JSON.stringify({ ...log, seen: [] }));
      });
    }
    await this.page.goto(link.toString());
    await this.waitForRoll(text);
    await this.whole();
  }

  /** Types `text` into Play this roll: practice, no claims (RULES §6). */
  async typeRoll(text) {
    await this.openShare();
    await this.page.getByRole('textbox', { name: 'Roll to play' }).fill(text);
    await this.button('Play this roll').click();
    await this.waitForRoll(text);
  }

  /** Waits for the numbers on the table to be `text`. */
  async waitForRoll(text) {
    // (Passed as functions: the page's content security policy allows no string evaluated.)
    try {
      await this.page.waitForFunction((want) => [...document.querySelectorAll('[aria-label="Numbers"] button .value')].map((e) => e.textContent).join(' ') === want, text);
    } catch (e) {
      // What the page showed instead, so that a failure says why.
      const seen = await this.page.evaluate(tableNumbers).catch((err) => `(page unreadable: ${err.message})`);
      throw new Error(`waitForRoll(${text}): the table shows "${seen}" at ${this.page.url()}; page errors: ${JSON.stringify(this.errors)}`, { cause: e });
    }
  }

  /** Starts a pass-and-play match of `names` (one per line) from the Players view. */
  async startMatch(names, judging = true) {
    await this.button('Players').click();
    await this.page.getByRole('textbox', { name: 'Names, one per line' }).fill(names);
    if (!judging) await this.page.getByRole('checkbox', { name: /The computer judges IMPOSSIBLE/ }).uncheck();
    await this.button('Start match').click();
  }

  /** Applies dice (sides, e.g. "20 20 20") and a goal in Settings, and waits for the new roll. */
  async useRules(dice, goal = '20') {
    await this.button('Settings').click();
    await this.page.getByRole('textbox', { name: 'Dice (sides)' }).fill(dice);
    await this.page.getByRole('textbox', { name: 'Goal' }).fill(goal);
    await this.button('Apply and roll').click();
    await this.page.getByText('Saved. New roll with these settings.').waitFor();
  }

  /** Drags `source` onto `target` with the mouse (pointer events). */
  async mouseDrag(source, target) {
    await target.scrollIntoViewIfNeeded();
    await source.scrollIntoViewIfNeeded();
    const a = await source.boundingBox();
    const b = await target.boundingBox();
    await this.page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await this.page.mouse.down();
    await this.page.mouse.move(a.x + a.width / 2 + 12, a.y + a.height / 2 + 12, { steps: 3 });
    await this.page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 8 });
    await this.page.mouse.up();
  }

  /** Drags with a finger: real touch events through the DevTools protocol. */
  async touchDrag(source, target) {
    const cdp = await this.page.context().newCDPSession(this.page);
    const a = await source.boundingBox();
    const b = await target.boundingBox();
    const at = (x, y) => [{ x, y, id: 1, radiusX: 4, radiusY: 4, force: 1 }];
    const [x0, y0, x1, y1] = [a.x + a.width / 2, a.y + a.height / 2, b.x + b.width / 2, b.y + b.height / 2];
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(x0, y0) });
    for (let i = 1; i <= 8; i += 1) {
      const t = i / 8;
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(x0 + (x1 - x0) * t, y0 + (y1 - y0) * t) });
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await cdp.detach();
  }

  /** The accessible name of the focused element (aria-label, else its visible-to-AT text). */
  async focusedName() {
    return this.page.evaluate(() => {
      const el = document.activeElement;
      if (!el) return null;
      if (el.hasAttribute('aria-label')) return el.getAttribute('aria-label');
      const copy = el.cloneNode(true);
      copy.querySelectorAll('[aria-hidden="true"]').forEach((n) => n.remove());
      return copy.textContent.replace(/\s+/g, ' ').trim();
    });
  }

  /** Presses Tab until the focused element has accessible name `label`, then presses `key` (if any). */
  async tabTo(label, key = 'Enter') {
    for (let i = 0; i < 60; i += 1) {
      if (await this.focusedName() === label) {
        if (key) await this.page.keyboard.press(key);
        return;
      }
      await this.page.keyboard.press('Tab');
    }
    throw new Error(`could not reach “${label}” with Tab`);
  }

  /** The score shown, as the page writes it: a minus sign (−1), never a hyphen. */
  async expectScore(n) {
    const want = n < 0 ? `−${-n}` : String(n);
    await this.page.waitForFunction((w) => document.querySelector('[data-testid="score"]')?.textContent === w, want);
  }

  assertNoConsoleErrors() {
    assert.deepEqual(this.errors, [], 'console errors');
  }
}

/** Makes the two-move solution of 2 5 12 12 by tapping: 12 − 12 = 0, then 2‖0 = 20. */
export async function tapSolution(score) {
  await score.tile('12 (d12)').click();
  await score.tile('12 (d20)').click();
  await score.op('minus').click();
  await score.tile('2 (d6)').click();
  await score.tile('0 (derived)').click();
  await score.op('joined with').click();
}

/** Solitaire plays: SCORE on the roll 2 5 12 12, made (2‖(12 − 12)) and said +1. */
export async function scoreOnce(score) {
  await score.playRoll('2 5 12 12');
  await score.button('SCORE').click();
  await tapSolution(score);
  await score.result('+1: 20 made in 2 moves').waitFor();
}

/**
 * Takes `context` offline, its service workers' own fetches too: Chromium's offline emulation
 * (`setOffline`) lets a service worker's fetch reach the server, which would answer a file the
 * offline copy lacks and hide it. Every request that reaches the network fails as offline,
 * for the rest of the context's life.
 */
export async function goOffline(context) {
  await context.setOffline(true);
  await context.route('**/*', (route) => route.abort('internetdisconnected'));
}

/** Back online after `goOffline(context)`: the browser says so (its `online` event) and requests reach the network. */
export async function goOnline(context) {
  await context.unroute('**/*');
  await context.setOffline(false);
}

/** A free port on 127.0.0.1. */
export async function freePort() {
  const net = await import('node:net');
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Waits (up to 10 s) until `url` answers. */
export async function waitUntilServing(url) {
  for (let i = 0; i < 100; i += 1) {
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** Serves `dir` on 127.0.0.1 under `prefix` with the project's test server; returns { url, stop }. */
export async function serveDist(dir, prefix = '/') {
  const { spawn } = await import('node:child_process');
  const port = await freePort();
  const child = spawn('python3', ['tests/e2e/serve.py', '--port', String(port), '--dir', dir, '--prefix', prefix], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}${prefix}`;
  await waitUntilServing(url);
  return { url, stop: () => child.kill() };
}

/** Runs `body` with a fresh context and page; fails on any console error. */
export async function withPage(browser, body, contextOptions = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...contextOptions });
  const page = await context.newPage();
  const score = new ScorePage(page);
  try {
    await body(score, page, context);
    score.assertNoConsoleErrors();
  } finally {
    await context.close();
  }
}
