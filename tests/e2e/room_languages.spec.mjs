// A class room in several languages at once: the room sends data (who, what, why), and each
// page words it in its reader's language. A Spanish teacher's presenter, a German student who
// chose German, and a student who never chose a language (who starts in the room's). Texts
// come from the build's own catalogs (i18n/<code>.json), so a corrected translation never
// breaks a test. ROOM_URL is a running score-server serving the release build.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { catalog as servedCatalog, launchBrowser } from './score_page.mjs';

const ROOM_URL = (process.env.ROOM_URL ?? '').replace(/\/$/, '');
let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser.close(); });

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

const catalog = (code) => servedCatalog(code, ROOM_URL);

/** `text` with its placeholders filled (and no isolation marks: these are LTR languages). */
const fill = (text, values) => Object.entries(values).reduce((t, [k, v]) => t.replaceAll(`{${k}}`, v), text);

/** A browser whose languages are `locale`, at `path` of the server. */
async function person(locale, path, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale, ...options });
  const page = await context.newPage();
  await page.goto(`${ROOM_URL}/${path}`);
  return { context, page };
}

const lang = (page) => page.evaluate(() => document.documentElement.lang);

/** Joins the room on a page in `words`' language. */
async function join(m, words, name) {
  await m.page.getByRole('textbox', { name: words.your_name }).fill(name);
  await m.page.getByRole('button', { name: words.join, exact: true }).click();
  await m.page.getByTestId('standing').waitFor();
}

test('a Spanish teacher and a German student each read the room in their own language', async () => {
  assert.ok(ROOM_URL, 'ROOM_URL: the address of a running score-server');
  const [es, de, fr] = await Promise.all(['es', 'de', 'fr'].map(catalog));

  // The teacher's browser speaks Spanish: the room's forms, then the room, are in Spanish,
  // and the room takes the language of the page that creates it.
  const teacher = await person('es-ES', '?room');
  await teacher.page.getByRole('button', { name: es.create_room, exact: true }).click();
  const code = (await teacher.page.getByTestId('room-code').textContent()).trim();
  assert.equal(await lang(teacher.page), 'es');
  await teacher.page.getByText(es.nobody_yet).waitFor();

  // Lena chose German (her link says so): she keeps it, whatever the room speaks.
  const lena = await person('de-DE', `?room=${code}&lang=de`, PHONE);
  await join(lena, de, 'Lena');
  assert.equal(await lang(lena.page), 'de');
  // Tom's browser speaks English and he never chose: he starts in the room's Spanish.
  const tom = await person('en-US', `?room=${code}`);
  await join(tom, { your_name: 'Your name', join: 'Join' }, 'Tom');
  await tom.page.getByRole('button', { name: es.claim_score, exact: true }).waitFor();
  assert.equal(await lang(tom.page), 'es');

  // The teacher deals 1 1 1 4 from the Host panel, in Spanish.
  await teacher.page.getByRole('button', { name: es.present, exact: true }).click();
  const panel = teacher.page.getByRole('region', { name: es.host_title });
  await panel.getByRole('textbox', { name: es.roll_for_class }).fill('1 1 1 4');
  await panel.getByRole('button', { name: es.deal_this_roll }).click();
  await lena.page.waitForFunction(() => [...document.querySelectorAll('.pool .value')].map((e) => e.textContent).join(' ') === '1 1 1 4');

  // Her operator buttons are written as German classrooms write them; Tom's as the room's Spanish.
  assert.deepEqual(await lena.page.locator('.ops .op').allTextContents(), ['+', '−', '·', ':', '‖']);
  assert.deepEqual(await tom.page.locator('.ops .op').allTextContents(), ['+', '−', '×', '÷', '‖']);

  // Lena says IMPOSSIBLE: the projector names the clock in Spanish, her phone in German.
  await lena.page.getByRole('button', { name: de.claim_impossible, exact: true }).click();
  await teacher.page.locator('.countdown-label').getByText(fill(es.room_clock_impossible, { name: 'Lena' })).waitFor();
  await lena.page.getByText(de.clock_impossible_you).waitFor();
  await tom.page.getByText(fill(es.clock_impossible, { name: 'Lena' })).waitFor();

  // Judged at once: one result, worded by each page for its reader.
  await lena.page.getByRole('button', { name: de.reveal_now }).click();
  const why = (words) => fill(words.why_truly_impossible, { roll: '1 1 1 4' });
  const results = (page) => page.locator('.results');
  await results(teacher.page).getByText(fill(es.outcome, { name: 'Lena', points: '+1', why: why(es) })).first().waitFor();
  await results(lena.page).getByText(fill(de.outcome_you, { points: '+1', why: why(de) })).first().waitFor();
  await results(tom.page).getByText(fill(es.outcome, { name: 'Lena', points: '+1', why: why(es) })).first().waitFor();

  // The teacher's report, in Spanish.
  await panel.getByRole('button', { name: es.show_report }).click();
  const report = teacher.page.getByRole('region', { name: es.report_label });
  await report.getByRole('columnheader', { name: es.report_impossible_right }).waitFor();
  await report.getByRole('rowheader', { name: 'Lena' }).waitFor();

  // The teacher switches the room to French: the projector and Tom (who never chose)
  // follow; Lena keeps German.
  await panel.getByRole('combobox', { name: es.room_language }).selectOption('fr');
  await teacher.page.getByRole('button', { name: fr.next_roll_button }).waitFor();
  assert.equal(await lang(teacher.page), 'fr');
  await tom.page.getByRole('button', { name: fr.claim_score, exact: true }).waitFor();
  assert.equal(await lang(tom.page), 'fr');
  await lena.page.getByRole('button', { name: de.claim_score, exact: true }).waitFor();
  assert.equal(await lang(lena.page), 'de');

  // The scores download in the teacher's page's language.
  const frPanel = teacher.page.getByRole('region', { name: fr.host_title });
  const [download] = await Promise.all([
    teacher.page.waitForEvent('download'),
    frPanel.getByRole('button', { name: fr.download_csv }).first().click(),
  ]);
  const csv = await (await import('node:fs/promises')).readFile(await download.path(), 'utf8');
  assert.ok(csv.startsWith(`\uFEFF"${fr.csv_seat}","${fr.report_name}"`), csv);
  assert.ok(csv.includes(fill(fr.outcome, { name: 'Lena', points: '+1', why: why(fr) })), csv);

  // Tom picks English on his phone's rules card: kept as his own choice from now on.
  await tom.page.getByRole('button', { name: fr.help_title }).click();
  await tom.page.getByTestId('room-rules').getByRole('combobox').selectOption('en');
  await tom.page.getByRole('button', { name: 'SCORE', exact: true }).waitFor();
  await tom.page.reload();
  await tom.page.getByRole('button', { name: 'SCORE', exact: true }).waitFor();
  assert.equal(await lang(tom.page), 'en');

  for (const m of [teacher, lena, tom]) await m.context.close();
});
