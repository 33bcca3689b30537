// A new release reaches a returning player whole: the service worker installs the new
// build's files, never the old ones the browser's HTTP cache still holds, the update
// banner's Reload works in every tab, and a page never keeps talking to a solver worker of
// another build.
//
// Build A is a copy of dist/. Build B is A with every build-specific token renamed: the
// Trunk hashes in the hashed file names (and every reference to them), the service
// worker's version and the build id that scripts/postbuild.py writes into index.html and
// the worker's loader; the integrity attributes are computed again. B is then, to a
// browser, another release whose hashed files have other names, as a new `trunk build`
// gives; only the wasm inside is the same (building twice would cost minutes).
//
// Both are served with old modification times and, from the static server, no
// Cache-Control at all (as many static hosts do): a browser then keeps A's files fresh in
// its HTTP cache for days (a tenth of their age), which is what made an update install the
// old index.html and the old solver worker.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, symlinkSync,
  unlinkSync, utimesSync, writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScorePage, freePort, goOffline, launchBrowser, serveDist, waitUntilServing, withPage } from './score_page.mjs';

const DIST = process.env.SCORE_DIST ?? 'dist';
const DAY = 24 * 3600 * 1000;

let browser;
let root;
let builds;
before(async () => {
  browser = await launchBrowser();
  root = mkdtempSync(join(tmpdir(), 'score-update-'));
  builds = makeBuilds(DIST, root);
});
after(async () => {
  await browser.close();
  rmSync(root, { recursive: true, force: true });
});

/** Every file under `dir`, as paths relative to it. */
function files(dir, rel = '') {
  return readdirSync(join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const r = rel ? `${rel}/${e.name}` : e.name;
    return e.isDirectory() ? files(dir, r) : [r];
  });
}

function touchAll(dir, when) {
  for (const f of files(dir)) utimesSync(join(dir, f), when, when);
}

/** The same token with every hex digit moved on by 7: as long, and never the same. */
function other(token) {
  return [...token].map((c) => ((parseInt(c, 16) + 7) % 16).toString(16)).join('');
}

const BINARY = /\.(wasm|png|ico)$/;

/** Builds A (a copy of `dist`) and B (A, renamed) under `root`; each with its id, and A's app script. */
function makeBuilds(dist, root) {
  const a = join(root, 'A');
  cpSync(dist, a, { recursive: true });
  // The test servers here serve the files themselves; stale precompressed copies would lie.
  for (const f of files(a)) if (/\.(br|gz)$/.test(f)) unlinkSync(join(a, f));
  const html = readFileSync(join(a, 'index.html'), 'utf8');
  const sw = readFileSync(join(a, 'sw.js'), 'utf8');
  const tokens = new Set();
  for (const f of files(a)) {
    const m = /-([0-9a-f]{8,})(?:_bg)?\.(?:js|wasm|css)$/.exec(f);
    if (m) tokens.add(m[1]);
  }
  tokens.add(/const VERSION = "([0-9a-f]+)"/.exec(sw)[1]);
  const build = /<meta name="score-build" content="([0-9a-f]+)"/.exec(html);
  if (build) tokens.add(build[1]);
  assert.ok(tokens.size >= 4, `build tokens in ${dist}: ${[...tokens]}`);

  const b = join(root, 'B');
  cpSync(a, b, { recursive: true });
  const rename = (text) => [...tokens].reduce((t, tok) => t.split(tok).join(other(tok)), text);
  for (const f of files(b)) {
    const to = rename(f);
    if (to !== f) renameSync(join(b, f), join(b, to));
    if (!BINARY.test(to)) writeFileSync(join(b, to), rename(readFileSync(join(b, to), 'utf8')));
  }
  // Subresource integrity of the renamed (and rewritten) files.
  const page = readFileSync(join(b, 'index.html'), 'utf8').replace(/<[^>]*integrity="[^"]*"[^>]*>/g, (tag) => {
    const file = /(?:href|src)="\.\/([^"]+)"/.exec(tag)[1];
    const [, alg] = /integrity="(sha\d+)-/.exec(tag);
    const sum = createHash(alg).update(readFileSync(join(b, file))).digest('base64');
    return tag.replace(/integrity="[^"]*"/, `integrity="${alg}-${sum}"`);
  });
  // The Content-Security-Policy's hash of the page's boot script (inline, renamed too).
  const boot = /<script>([\s\S]*?)<\/script>/.exec(page)[1];
  const hash = createHash('sha256').update(boot).digest('base64');
  writeFileSync(join(b, 'index.html'), page.replace(/'sha256-[^']*'/, `'sha256-${hash}'`));

  // Old modification times: A's a month ago, B's twenty days ago.
  touchAll(a, new Date(Date.now() - 30 * DAY));
  touchAll(b, new Date(Date.now() - 20 * DAY));
  const id = (dir) => /<meta name="score-build" content="([0-9a-f]+)"/.exec(readFileSync(join(dir, 'index.html'), 'utf8'))[1];
  const app = files(a).find((f) => /^score-app-[0-9a-f]+\.js$/.test(f));
  return { a, b, buildA: id(a), buildB: id(b), appA: app };
}

/** A folder the servers serve that now holds build A, and later (`to`) build B. */
function site() {
  const link = join(root, `site-${Math.random().toString(16).slice(2)}`);
  symlinkSync(builds.a, link);
  return {
    dir: link,
    to(build) {
      symlinkSync(build, `${link}.next`);
      renameSync(`${link}.next`, link);
    },
  };
}

/**
 * score-server serving `dir` (with its own cache headers): SCORE_SERVER's (scripts/test.sh
 * names the one it plays the class rooms against), or else the debug build, or null where
 * that isn't built.
 */
async function scoreServer(dir) {
  const bin = process.env.SCORE_SERVER ?? 'target/debug/score-server';
  if (!existsSync(bin)) {
    if (process.env.SCORE_SERVER) throw new Error(`SCORE_SERVER names ${bin}, which isn't there`);
    return null;
  }
  const port = await freePort();
  const data = mkdtempSync(join(tmpdir(), 'score-update-data-'));
  const child = spawn(bin, ['--port', String(port), '--dist', dir, '--data', data], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}/`;
  await waitUntilServing(url);
  return {
    url,
    stop: () => {
      child.kill();
      rmSync(data, { recursive: true, force: true });
    },
  };
}

/** The build the page runs: its id. */
async function runs(page) {
  return page.evaluate(() => document.querySelector('meta[name="score-build"]')?.content);
}

/** Comes up on B through the update banner, lists a roll's solutions, and again offline. */
async function updateToB(server, s) {
  await withPage(browser, async (score, page, context) => {
    await score.open(server.url);
    await score.waitForServiceWorker();
    assert.equal(await runs(page), builds.buildA);

    s.to(builds.b);
    // The returning player: the page comes from A's cache, and B's service worker installs.
    await page.reload();
    await page.getByText('A new version of Score is ready.').waitFor();
    await Promise.all([page.waitForEvent('load'), score.button('Reload').click()]);
    await score.numbers().first().waitFor();
    assert.equal(await runs(page), builds.buildB, 'the page comes up on build B');

    // Its solver worker answers it.
    await score.typeRoll('2 5 12 12');
    await score.button('Show solutions').click();
    await page.getByText('2‖(12 − 12)', { exact: true }).waitFor();

    await goOffline(context);
    await page.reload();
    await score.numbers().first().waitFor();
    assert.equal(await runs(page), builds.buildB, 'offline, the page is build B');
    await page.getByText('2‖(12 − 12)', { exact: true }).waitFor();
  });
}

test('each file named by a hash is named by its own bytes, as shipped: a name a browser keeps for a year never stands for other contents', () => {
  // scripts/postbuild.py renames what Trunk named by a hash of its input (the wasm before
  // wasm-bindgen, the stylesheet before minifying) by a hash of the file as shipped. Were it
  // Trunk's, a change to the build's own steps alone would ship new bytes under the last
  // release's name, which score-server sends as immutable: a browser without a service
  // worker would start its kept copy against the new page's integrity, and not at all.
  const hashed = files(DIST).filter((f) => /-[0-9a-f]{16}(_bg\.wasm|\.[a-z]+)$/.test(f) && !/\.(gz|br)$/.test(f));
  assert.ok(hashed.some((f) => /^score-app-.*\.js$/.test(f)) && hashed.some((f) => /_bg\.wasm$/.test(f)) && hashed.some((f) => /\.css$/.test(f)), `hashed: ${hashed}`);
  for (const f of hashed) {
    const digest = createHash('sha256').update(readFileSync(join(DIST, f))).digest('hex').slice(0, 16);
    assert.ok(f.includes(`-${digest}`), `${f} holds bytes whose hash is ${digest}`);
  }
});

test('a static host without cache headers: a returning player comes up on the new build, offline too', async () => {
  const s = site();
  const server = await serveDist(s.dir, '/');
  try {
    await updateToB(server, s);
  } finally {
    server.stop();
  }
});

test("score-server's cache headers: a returning player comes up on the new build, offline too", async (t) => {
  const s = site();
  const server = await scoreServer(s.dir);
  if (!server) {
    t.skip('target/debug/score-server is not built');
    return;
  }
  try {
    // Hashed files are immutable, everything else is revalidated.
    const res = await fetch(`${server.url}${builds.appA}`);
    assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal((await fetch(server.url)).headers.get('cache-control'), 'no-cache');
    assert.equal((await fetch(`${server.url}score-worker_loader.js`)).headers.get('cache-control'), 'no-cache');
    await updateToB(server, s);
  } finally {
    server.stop();
  }
});

/** `score` and a second tab of its context open at `url`, each with the service worker: the second. */
async function twoTabs(score, context, url) {
  await score.open(url);
  await score.waitForServiceWorker();
  const second = new ScorePage(await context.newPage());
  await second.open(url);
  await second.waitForServiceWorker();
  return second;
}

test("Reload in a second tab works after the first tab's Reload activated the new build", async () => {
  const s = site();
  const server = await serveDist(s.dir, '/');
  try {
    await withPage(browser, async (score, page, context) => {
      const second = await twoTabs(score, context, server.url);

      s.to(builds.b);
      await page.reload();
      await page.getByText('A new version of Score is ready.').waitFor();
      await second.page.getByText('A new version of Score is ready.').waitFor();
      await Promise.all([page.waitForEvent('load'), score.button('Reload').click()]);
      await score.numbers().first().waitFor();
      assert.equal(await runs(page), builds.buildB);

      // The new worker is already active: the second tab's Reload must still reload.
      await Promise.all([second.page.waitForEvent('load', { timeout: 10_000 }), second.button('Reload').click()]);
      await second.numbers().first().waitFor();
      assert.equal(await runs(second.page), builds.buildB);
      second.assertNoConsoleErrors();
    });
  } finally {
    server.stop();
  }
});

test("a page left open on the old build refuses the new build's solver worker with a reload", async () => {
  const s = site();
  const server = await serveDist(s.dir, '/');
  try {
    await withPage(browser, async (score, page, context) => {
      const old = await twoTabs(score, context, server.url);
      await old.typeRoll('2 5 12 12');

      // The first tab takes the update: the old tab is now served by B's service worker,
      // whose solver worker is B's.
      s.to(builds.b);
      await page.reload();
      await page.getByText('A new version of Score is ready.').waitFor();
      await Promise.all([page.waitForEvent('load'), score.button('Reload').click()]);
      await score.numbers().first().waitFor();
      assert.equal(await runs(old.page), builds.buildA);

      // Build A's page meets build B's worker: it reloads, and B lists the solutions.
      await Promise.all([old.page.waitForEvent('load', { timeout: 10_000 }), old.button('Show solutions').click()]);
      await old.numbers().first().waitFor();
      assert.equal(await runs(old.page), builds.buildB);
      await old.page.getByText('2‖(12 − 12)', { exact: true }).waitFor();
      old.assertNoConsoleErrors();
    });
  } finally {
    server.stop();
  }
});

test("a page left open on the old build opens the tools or the class room after an update: a reload, never Try again forever", async () => {
  const s = site();
  const server = await serveDist(s.dir, '/');
  try {
    await withPage(browser, async (score, page, context) => {
      const asked = [];
      const old = await twoTabs(score, context, server.url);
      old.page.on('request', (r) => asked.push(new URL(r.url()).pathname + new URL(r.url()).search));
      await old.typeRoll('2 5 12 12');
      const build = (html) => /<meta name="score-build" content="([0-9a-f]+)"/.exec(html)[1];
      const buildA = build(readFileSync(join(builds.a, 'index.html'), 'utf8'));

      // The first tab takes the update; the old tab, still build A, is served by B's worker.
      s.to(builds.b);
      await page.reload();
      await page.getByText('A new version of Score is ready.').first().waitFor();
      await Promise.all([page.waitForEvent('load'), score.button('Reload').click()]);
      await score.numbers().first().waitFor();
      assert.equal(await runs(old.page), builds.buildA);
      // Build A's module files may still be in the browser's HTTP cache (then the old tab gets
      // a module of its own build, which is right too); this test is of the tab that can't.
      const cdp = await context.newCDPSession(old.page);
      await cdp.send('Network.clearBrowserCache');

      // Experiment: build A's page asks for its own build's module and meets B's, which
      // starts nothing and says a reload is needed (no view that could misread the table).
      await old.button('Experiment').click();
      const tools = old.page.locator('.tools-loading');
      await tools.getByText('A new version of Score is ready.').waitFor();
      assert.ok(asked.includes(`/tools-boot.js?v=${buildA}`), `asked: ${asked.join(' ')}`);
      assert.ok(!asked.some((p) => p.startsWith('/score-tools_bg.wasm')), `no module of B started: ${asked.join(' ')}`);
      assert.equal(await tools.getByRole('button', { name: 'Try again' }).count(), 0);

      // The class room: the same, with the way back to the table.
      await old.button('Class room').click();
      const room = old.page.locator('.room-loading');
      await room.getByText('A new version of Score is ready.').waitFor();
      assert.ok(asked.includes(`/room-boot.js?v=${buildA}`), `asked: ${asked.join(' ')}`);
      await room.getByRole('button', { name: 'Back to solitaire' }).click();
      await old.button('Experiment').click();

      // Reload brings the page and the module to build B, and the tool opens on the roll.
      await Promise.all([old.page.waitForEvent('load', { timeout: 10_000 }), tools.getByRole('button', { name: 'Reload' }).click()]);
      assert.equal(await runs(old.page), builds.buildB);
      await old.button('Experiment').click();
      await old.page.getByRole('textbox', { name: 'Numbers' }).waitFor();
      assert.equal(await old.page.getByRole('textbox', { name: 'Numbers' }).inputValue(), '2 5 12 12');
      old.assertNoConsoleErrors();
    });
  } finally {
    server.stop();
  }
});

test("a class room told its page is older than the server: its Reload comes up on the new build, past the old build's worker", async () => {
  const s = site();
  const server = await serveDist(s.dir, '/');
  try {
    await withPage(browser, async (score, page, context) => {
      await score.open(server.url);
      await score.waitForServiceWorker();
      s.to(builds.b);
      // The server now speaks a newer protocol: it refuses this page's hello (the early
      // shape, which every page reads).
      await context.routeWebSocket(/\/ws\?room=/, (ws) => {
        ws.onMessage(() => ws.send(JSON.stringify({ type: 'Error', code: 'OldPage', why: { type: 'OldPage' }, message: 'Reload.' })));
      });
      await page.goto(`${server.url}?room=ABC234`);
      assert.equal(await runs(page), builds.buildA, 'the page comes from the old build’s worker');
      await page.getByRole('textbox', { name: 'Your name' }).fill('Ana');
      await score.button('Join').click();
      const notice = page.locator('.notice').filter({ hasText: 'Score was updated on the server' });
      await Promise.all([page.waitForEvent('load'), notice.getByRole('button', { name: 'Reload' }).click()]);
      await page.getByRole('textbox', { name: 'Your name' }).waitFor();
      assert.equal(await runs(page), builds.buildB, 'the Reload brought the new build, not the same page again');
      // The old build's page met the new build's student module on its way (it is not precached).
      score.errors = score.errors.filter((e) => !/another build|stale/i.test(e));
    });
  } finally {
    server.stop();
  }
});

test('an invite opened as the server updates: its page loads again once, then the room opens, of one build', async () => {
  const server = await serveDist(builds.b, '/');
  const context = await browser.newContext({ serviceWorkers: 'block' });
  try {
    const page = await context.newPage();
    // The page (its boot script within) comes from build A; the server has build B by the
    // time the room's module is asked for.
    const fromA = new Set(['/']);
    await page.route('**/*', (route) => {
      const path = new URL(route.request().url()).pathname;
      if (!fromA.has(path)) return route.continue();
      fromA.delete(path);
      const file = path === '/' ? 'index.html' : path.slice(1);
      const type = path === '/' ? 'text/html' : 'text/javascript';
      return route.fulfill({ contentType: type, body: readFileSync(join(builds.a, file), 'utf8') });
    });
    const loads = [];
    page.on('load', () => loads.push(page.url()));
    await page.goto(`${server.url}?room=ABC234`);
    await page.getByRole('textbox', { name: 'Your name' }).waitFor();
    assert.equal(await runs(page), builds.buildB);
    assert.equal(loads.length, 2, `loads: ${loads.join(' ')}`);
    assert.equal(await page.getByRole('button', { name: 'Try again' }).count(), 0);
  } finally {
    await context.close();
    server.stop();
  }
});

test("each module's files are precached as this build's (but the student's class room), and its boot script names the build", () => {
  for (const dir of [builds.a, builds.b]) {
    const html = readFileSync(join(dir, 'index.html'), 'utf8');
    const build = /<meta name="score-build" content="([0-9a-f]+)"/.exec(html)[1];
    const sw = readFileSync(join(dir, 'sw.js'), 'utf8');
    for (const f of ['tools-boot.js', 'score-tools.js', 'score-tools_bg.wasm', 'room-boot.js', 'score-room.js', 'score-room_bg.wasm']) {
      assert.ok(sw.includes(`"./${f}?v=${build}"`), `${dir}: sw.js precaches ${f} of build ${build}`);
    }
    // The student's class room module is not precached (only an invite starts it, online):
    // offline, an invite's page falls back to the app and its precached Class room view.
    for (const f of ['join-boot.js', 'score-join.js', 'score-join_bg.wasm']) {
      assert.ok(!sw.includes(`"./${f}`), `${dir}: sw.js doesn't precache ${f}`);
    }
    for (const [boot, module] of [['tools-boot.js', 'score-tools.js'], ['room-boot.js', 'score-room.js'], ['join-boot.js', 'score-join.js']]) {
      const text = readFileSync(join(dir, boot), 'utf8');
      assert.ok(text.includes(`const BUILD = "${build}";`), `${boot} names build ${build}`);
      assert.ok(text.includes(`"./${module}?v=${build}"`), `${boot} imports ${module} of build ${build}`);
    }
  }
});

// Build B must really differ from A where it matters.
test('build B renames every hashed file of build A', () => {
  const hashed = (dir) => files(dir).filter((f) => /-[0-9a-f]{8,}(?:_bg)?\.(?:js|wasm|css)$/.test(f)).sort();
  const a = hashed(builds.a);
  const b = hashed(builds.b);
  assert.equal(a.length, b.length);
  assert.ok(a.length >= 3, a.join(' ')); // the stylesheet, the app's script and wasm
  for (const f of a) assert.ok(!b.includes(f), f);
  assert.notEqual(readFileSync(join(builds.a, 'sw.js'), 'utf8'), readFileSync(join(builds.b, 'sw.js'), 'utf8'));
  assert.ok(statSync(join(builds.a, 'index.html')).mtimeMs < Date.now() - 25 * DAY);
});
