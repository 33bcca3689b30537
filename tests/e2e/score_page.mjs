// The one page object every end-to-end spec uses: controls found by role and name.
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';

export const BASE_URL = process.env.BASE_URL ?? 'http://127.0.0.1:8080';

export async function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export class ScorePage {
  constructor(page) {
    this.page = page;
    this.errors = [];
    page.on('console', (m) => { if (m.type() === 'error') this.errors.push(m.text()); });
    page.on('pageerror', (e) => this.errors.push(String(e)));
  }

  async open(path = '') {
    await this.page.goto(`${BASE_URL}/${path}`);
    await this.numbers().first().waitFor();
  }

  numbers() { return this.page.getByRole('group', { name: 'Numbers' }).getByRole('button'); }
  tile(label) { return this.page.getByRole('button', { name: label, exact: true }).first(); }
  op(name) { return this.page.getByRole('button', { name: `Operator ${name}`, exact: true }); }
  slot(which) { return this.page.locator(`[data-slot="${which}"]`); }
  button(name) { return this.page.getByRole('button', { name, exact: true }); }
  score() { return this.page.getByTestId('score'); }
  moveError() { return this.page.locator('.move-error'); }
  /** A settled result line under the claim buttons. */
  result(text) { return this.page.locator('.results').getByText(text); }

  async numberLabels() { return this.numbers().evaluateAll((els) => els.map((e) => e.getAttribute('aria-label'))); }

  async playRoll(text) {
    await this.page.getByRole('textbox', { name: 'Roll to play' }).fill(text);
    await this.button('Play this roll').click();
    await this.page.waitForFunction(
      (want) => [...document.querySelectorAll('[aria-label="Numbers"] button .value')].map((e) => e.textContent).join(' ') === want,
      text,
    );
  }

  /** Drags `source` onto `target` with the mouse (pointer events). */
  async mouseDrag(source, target) {
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

  /** Presses Tab until the focused element has accessible label `label`, then presses `key`. */
  async tabTo(label, key = 'Enter') {
    for (let i = 0; i < 60; i += 1) {
      const now = await this.page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent);
      if (now === label) {
        await this.page.keyboard.press(key);
        return;
      }
      await this.page.keyboard.press('Tab');
    }
    throw new Error(`could not reach “${label}” with Tab`);
  }

  async expectScore(n) {
    await this.page.waitForFunction((want) => document.querySelector('[data-testid="score"]')?.textContent === String(want), n);
  }

  assertNoConsoleErrors() {
    assert.deepEqual(this.errors, [], 'console errors');
  }
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
