// Score's service worker, written by scripts/postbuild.py for one build:
// it precaches every file of that build and serves them cache-first, so the game
// works offline and from any sub-path (every URL here is relative to this file).
const VERSION = __VERSION__;
const FILES = __FILES__;
// The build's id: the page asks for a language's catalog as `i18n/<code>.json?v=<build>`.
const BUILD = __BUILD__;
const CACHE = `score-${VERSION}`;
// A language's catalog, by its path: `i18n/<code>.json`.
const CATALOG = /\/i18n\/([A-Za-z-]+)\.json$/;

// Every file is this build's as the server has it, never a copy the browser's HTTP cache
// merely holds fresh: a host that sends no Cache-Control leaves the last build's index.html
// and unhashed files fresh there for days, and one of them here would mix two builds in this
// cache. Those files are fetched afresh (`cache: 'reload'`).
// A language's catalog is not precached (a player needs one of them at most), but the one a
// player fetched is kept: this build's copy of each language an older build's cache held is
// fetched with the build, so an update never leaves an offline player without their language.
// A language that can't be fetched then is fetched when next asked for, not a failed install.
// A file whose address names its build (a hash in its name, or `?v=<build>`) is asked of the
// server with the copy the page fetched a moment ago (`cache: 'no-cache'`): the server answers
// "not modified" and the HTTP cache's copy is taken, or sends the file if it differs (an upload
// not yet whole when the page came, a stylesheet written again under its name). On a
// classroom's one link the install then fetches only what the page hasn't (the other
// modules), not the first load a second time. (A student's page, started by an invite, ran
// the student's module, which is not precached; the whole room module is fetched here.)
const OF_ITS_BUILD = /-[0-9a-f]{16}[._]|\?v=/;
self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(FILES.map((f) => new Request(f, { cache: OF_ITS_BUILD.test(f) ? 'no-cache' : 'reload' })));
    const languages = new Set();
    for (const key of await caches.keys()) {
      if (!key.startsWith('score-') || key === CACHE) continue;
      for (const request of await (await caches.open(key)).keys()) {
        const m = new URL(request.url).pathname.match(CATALOG);
        if (m) languages.add(m[1]);
      }
    }
    await Promise.allSettled([...languages].map((code) => cache.add(new Request(`./i18n/${code}.json?v=${BUILD}`, { cache: 'reload' }))));
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith('score-') && key !== CACHE) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

// The page asks the waiting worker to take over when the player accepts the update.
self.addEventListener('message', (event) => {
  if (event.data === 'skip-waiting') self.skipWaiting();
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    // Pages (with any query, e.g. a shared roll) are the one index.html. A module's script
    // asked for again under a new address (`&try=N`: a browser keeps one it couldn't fetch as
    // failed, under its address) is the same file: this build's copy, as at the first ask.
    const again = new URL(request.url);
    again.searchParams.delete('try');
    const key = request.mode === 'navigate' ? './' : again.href === request.url ? request : again.href;
    const hit = await cache.match(key, { ignoreSearch: request.mode === 'navigate' });
    if (hit) return hit;
    let response;
    try {
      response = await fetch(request);
    } catch (offline) {
      // Offline, a file this build doesn't hold under that query (an old tab asking for its
      // own build's module after this build took over): this build's copy, which says a
      // reload is needed, rather than no answer.
      const any = await cache.match(request, { ignoreSearch: true });
      if (any) return any;
      throw offline;
    }
    // A language's catalog, fetched when chosen, is kept for offline play.
    if (response.ok && CATALOG.test(new URL(request.url).pathname)) {
      // Storage full: the language is not kept, but this page has it.
      await cache.put(request, response.clone()).catch(() => {});
    }
    return response;
  })());
});
