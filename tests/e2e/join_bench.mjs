// Browser bench (not a test): students by the invite link to seated, over one slow link.
// Usage: ROOM_URL=http://127.0.0.1:PORT [CPU=4] [TIMELINE=1] [GZIP=1] node tests/e2e/join_bench.mjs [runs] [students] [solo]
// ROOM_URL is a score-server. Each run: a teacher's room (not throttled); then `students`
// fresh contexts (cold cache) open `?room=CODE` at once through scripts/throttle.py, one link
// for all of them (Lighthouse's mobile profile: 1.6 Mbps down, 750 kbps up, 150 ms round
// trip), each page's CPU slowed 4× (CDP), type a name as soon as the field is there, and
// press Join. Prints each run's times to the name field and to seated (median and slowest;
// by the page's clock from the link tapped: seated is the name field's time plus Join to seated)
// and the bytes the link carried down before the first name field appeared and in all, once
// every page's offline copy is installed (the link counts every byte, the service workers'
// included). With `solo`, each page opens the site's root instead and the time is to
// solitaire's table playable (its SCORE button), for a first visit's figure on the same link.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { launchBrowser } from './score_page.mjs';

const ROOM_URL = process.env.ROOM_URL;
if (!ROOM_URL) throw new Error('ROOM_URL: the address of a running score-server');
const runs = Number(process.argv[2] ?? 3);
const students = Number(process.argv[3] ?? 1);
const solo = process.argv[4] === 'solo';
// Each page's CPU slowdown (CPU=1: none, for many pages on a machine of few cores).
const cpuRate = Number(process.env.CPU ?? 4);
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

// The link: its bytes so far are asked for with SIGUSR1, answered on a line of its own.
async function throttle() {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const to = new URL(ROOM_URL).host;
  const proc = spawn('python3', ['scripts/throttle.py', '--listen', String(port), '--to', to], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: proc.stdout });
  const waiting = [];
  lines.on('line', (l) => waiting.shift()?.(l));
  await new Promise((r) => setTimeout(r, 500));
  const bytes = () => new Promise((resolve) => {
    waiting.push((l) => resolve(Number(l.match(/(\d+) B down/)[1])));
    proc.kill('SIGUSR1');
  });
  return { url: `http://127.0.0.1:${port}`, bytes, stop: () => proc.kill('SIGTERM') };
}

const browser = await launchBrowser('full');
for (let run = 1; run <= runs; run++) {
  const teacher = await browser.newContext();
  const tp = await teacher.newPage();
  await tp.goto(`${ROOM_URL}/`);
  await tp.getByRole('button', { name: 'Got it' }).click();
  await tp.getByRole('button', { name: 'Class room' }).click();
  await tp.getByRole('button', { name: 'Create room' }).click();
  const code = (await tp.getByTestId('room-code').textContent()).trim();
  const link = await throttle();
  const contexts = [];
  let firstName = null;
  const one = async (i) => {
    // GZIP=1: the page asks for gzip only, as Chromium does of a plain-http server at a LAN
    // address (a classroom's score-server); on 127.0.0.1 it takes brotli. (The service
    // worker's own fetches may not carry the header: "in all" can mix the two.)
    const context = await browser.newContext(process.env.GZIP ? { ...PHONE, extraHTTPHeaders: { 'Accept-Encoding': 'gzip, deflate' } } : PHONE);
    contexts.push(context);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuRate });
    // When the name field and the seat appear, and when Join is pressed, by the page's own
    // clock (from the link tapped): a locator's wait polls every half second once it has
    // waited a while, which would add up to that much to each figure.
    await context.addInitScript(() => {
      const marks = (window.joinMarks = {});
      const look = () => {
        marks.name ??= document.querySelector('input[autocomplete="nickname"]') ? performance.now() : undefined;
        marks.seated ??= document.querySelector('[data-testid="standing"]') ? performance.now() : undefined;
      };
      new MutationObserver(look).observe(document, { childList: true, subtree: true });
      document.addEventListener('click', (e) => {
        if (e.target.closest?.('button')?.textContent.trim() === 'Join') marks.join ??= performance.now();
      }, true);
    });
    const t0 = performance.now();
    if (solo) {
      await page.goto(`${link.url}/`);
      await page.getByRole('button', { name: 'SCORE', exact: true }).waitFor({ timeout: 120_000 });
      const nameAt = performance.now() - t0;
      if (firstName === null) firstName = link.bytes();
      await page.waitForFunction(() => navigator.serviceWorker?.controller != null, null, { timeout: 300_000 });
      return { nameAt, seated: nameAt };
    }
    await page.goto(`${link.url}/?room=${code}`);
    const name = page.getByRole('textbox', { name: 'Your name' });
    await name.waitFor({ timeout: 600_000 });
    if (firstName === null) firstName = link.bytes();
    await name.fill(`Student ${String(i + 1).padStart(2, '0')}`);
    await page.getByRole('button', { name: 'Join', exact: true }).click();
    await page.getByTestId('standing').waitFor({ timeout: 600_000 });
    // A student who types their name at once: the name field, then Join to seated.
    const marks = await page.evaluate(() => window.joinMarks);
    if (!(marks.name >= 0 && marks.join >= marks.name && marks.seated >= marks.join)) {
      throw new Error(`the page's marks don't read as one join (loaded twice?): ${JSON.stringify(marks)}`);
    }
    const seated = marks.name + (marks.seated - marks.join);
    // TIMELINE=1: where the time went, by the page's clock (each file asked for and its last
    // byte, the marks), for the first student of each run.
    if (process.env.TIMELINE && i === 0) {
      const files = await page.evaluate(() => performance.getEntriesByType('resource').map((e) =>
        [e.name.replace(/^.*\//, ''), e.startTime, e.responseStart, e.responseEnd, e.encodedBodySize]));
      const nav = await page.evaluate(() => performance.getEntriesByType('navigation')[0]?.responseEnd);
      console.log(`  page's last byte ${nav?.toFixed(0)} ms`);
      for (const [f, start, first, end, size] of files) {
        console.log(`  ${f.slice(0, 40).padEnd(40)} asked ${start.toFixed(0)}, first byte ${first.toFixed(0)}, last ${end.toFixed(0)} ms, ${size} B`);
      }
      console.log(`  name field ${marks.name.toFixed(0)}, Join ${marks.join.toFixed(0)}, seated ${marks.seated.toFixed(0)} ms`);
    }
    // Its offline copy installed (the page controlled by its service worker), for "in all".
    await page.waitForFunction(() => navigator.serviceWorker?.controller != null, null, { timeout: 300_000 });
    return { nameAt: marks.name, seated };
  };
  const times = await Promise.all([...Array(students).keys()].map(one));
  const before = await firstName;
  // Everything the pages fetched, their service workers' installs included (each page waited
  // for its own above); a second for the last bytes' delay.
  await new Promise((r) => setTimeout(r, 1000));
  const all = await link.bytes();
  link.stop();
  for (const c of [...contexts, teacher]) await c.close();
  const names = times.map((t) => t.nameAt);
  const seats = times.map((t) => t.seated);
  if (solo) {
    console.log(`run ${run}, ${students} solitaire page(s) on one link: table playable median ${median(names).toFixed(0)} ms (slowest ${Math.max(...names).toFixed(0)}); down before the first table ${before} B, in all ${all} B`);
    continue;
  }
  console.log(
    `run ${run}, ${students} student(s) on one link: name field median ${median(names).toFixed(0)} ms (slowest ${Math.max(...names).toFixed(0)}), ` +
      `seated median ${median(seats).toFixed(0)} ms (slowest ${Math.max(...seats).toFixed(0)}); ` +
      `down before the first name field ${before} B, in all (offline copies installed) ${all} B`,
  );
}
await browser.close();
