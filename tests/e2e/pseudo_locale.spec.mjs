// The pseudo-locale: every text of the catalog bracketed, accented and about 40 % longer,
// served in place of a language's catalog. Through every solitaire view at phone and desktop
// sizes, every visible text node and accessible name must come from the catalog (no English
// leaks), and nothing may overflow its box or scroll the page sideways.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { BASE_URL, launchBrowser, withPage } from './score_page.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser.close(); });

const ACCENTS = { a: 'á', e: 'é', i: 'í', o: 'ö', u: 'ü', y: 'ý', A: 'Å', E: 'É', O: 'Ö' };

/** English words as the pseudo-locale writes them (as `score_i18n::Catalog::pseudo` does). */
function pseudo(words) {
  let out = '[';
  let inPlace = false;
  let letters = 0;
  for (const c of words) {
    if (c === '{') inPlace = true;
    if (c === '}') inPlace = false;
    out += inPlace ? c : (ACCENTS[c] ?? c);
    if (!inPlace && /\p{L}/u.test(c)) letters += 1;
  }
  const pad = Math.ceil((letters * 2) / 5);
  for (let i = 0; i < pad; i += 1) out += (i % 5 === 0 ? ' ' : '') + '~';
  return `${out}]`;
}

/** The English catalog (`crates/i18n/locales/en.toml`) as the pseudo-locale's JSON. */
function pseudoCatalog() {
  const text = readFileSync(new URL('../../crates/i18n/locales/en.toml', import.meta.url), 'utf8');
  const entries = {};
  for (const line of text.split('\n')) {
    const m = line.match(/^([a-z0-9_]+(?:\.[a-z]+)?) = "(.*)"$/);
    if (!m) continue;
    const words = JSON.parse(`"${m[2]}"`);
    entries[m[1]] = pseudo(words);
  }
  return entries;
}

// What may show without coming from the catalog: numbers, symbols, dice names, the game's
// name, language names (each in itself), key names, and what players typed or rolled.
const ALLOWED = /^(?:[\s\d+\-−×÷‖◆·:;,.()/*|=→–~\[\]%]|d\d+|Score|English|Español|Français|Deutsch|Português \(Brasil\)|العربية|N|Esc|Tab|Enter|24)*$/u;

async function leaks(page) {
  return page.evaluate((allowed) => {
    const re = new RegExp(allowed, 'u');
    const visible = (el) => {
      const style = getComputedStyle(el);
      const box = el.getBoundingClientRect();
      return style.visibility !== 'hidden' && style.display !== 'none' && box.width > 0 && box.height > 0;
    };
    const found = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent.trim();
      const el = node.parentElement;
      // History rows are stored as English words (a format change to keep them as data is
      // still to come): they are left out here, and nothing else is.
      if (!text || !el || !visible(el) || el.closest('.sr-only, [aria-hidden="true"], input, textarea, .history')) continue;
      // A text from the catalog is bracketed; one split around a value shows either end.
      if (!/[\[\]~]/.test(text) && !re.test(text)) found.push(text);
    }
    for (const el of document.querySelectorAll('[aria-label], [title], [placeholder]')) {
      for (const name of ['aria-label', 'title', 'placeholder']) {
        const value = el.getAttribute(name);
        if (value && !value.includes('[') && !re.test(value)) found.push(`${name}="${value}"`);
      }
    }
    return found;
  }, ALLOWED.source);
}

async function overflows(page) {
  return page.evaluate(() => {
    const out = [];
    if (document.documentElement.scrollWidth > window.innerWidth + 1) {
      out.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} > ${window.innerWidth}`);
    }
    for (const el of document.querySelectorAll('button, label, .tab, h1, h2, h3, p, dt, th, td, summary')) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || el.closest('.worksheet')) continue;
      if (el.scrollWidth > el.clientWidth + 2 && getComputedStyle(el).overflowX !== 'auto') {
        out.push(`${el.tagName.toLowerCase()}.${el.className}: ${el.textContent.trim().slice(0, 40)}`);
      }
    }
    return out;
  });
}

const TOOLS = ['tab_experiment', 'tab_impossibles', 'tab_worksheet', 'tab_rules'];
const VIEWS = ['tab_solutions', 'tab_players', 'tab_daily', 'tab_experiment', 'tab_impossibles', 'tab_worksheet', 'tab_settings', 'tab_rules'];

for (const [width, height] of [[390, 844], [1280, 900]]) {
  test(`pseudo-locale at ${width}×${height}: every solitaire view from the catalog, nothing overflowing`, async () => {
    const catalog = pseudoCatalog();
    await withPage(browser, async (score, page) => {
      await page.route('**/i18n/fr.json*', (route) => route.fulfill({ json: catalog }));
      await page.goto(`${BASE_URL}?lang=fr&roll=2,5,12,12`);
      await page.getByRole('button', { name: catalog.claim_score, exact: true }).waitFor();
      await score.whole();
      const problems = [];
      const look = async (where) => {
        for (const leak of await leaks(page)) problems.push(`${where}: English: ${leak}`);
        for (const o of await overflows(page)) problems.push(`${where}: overflow: ${o}`);
      };
      await look('first visit');
      await page.getByRole('button', { name: catalog.got_it }).click();
      for (const view of VIEWS) {
        await page.getByRole('button', { name: catalog[view], exact: true }).click();
        // The tools module's views: looked at once they are in, not while they load.
        if (TOOLS.includes(view)) await page.locator('#tools-root > *').first().waitFor();
        await look(view);
      }
      // A round: SCORE, a refusal, a result.
      await page.getByRole('button', { name: catalog.claim_score, exact: true }).click();
      await look('SCORE clock');
      await page.getByRole('button', { name: catalog.give_up, exact: true }).click();
      await page.locator('.results .result').first().waitFor();
      await look('settled');
      assert.deepEqual(problems, []);
    }, { viewport: { width, height } });
  });
}
