// Score's service worker, written by scripts/postbuild.py for one build:
// it precaches every file of that build and serves them cache-first, so the game
// works offline and from any sub-path (every URL here is relative to this file).
const VERSION = __VERSION__;
const FILES = __FILES__;
const CACHE = `score-${VERSION}`;

// Every file comes from the server itself (`cache: 'reload'`), never from the browser's HTTP
// cache: a host that sends no Cache-Control leaves the last build's index.html and unhashed
// files fresh there for days, and one of them here would mix two builds in this cache.
self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES.map((f) => new Request(f, { cache: 'reload' })))));
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
    // Pages (with any query, e.g. a shared roll) are the one index.html.
    const key = request.mode === 'navigate' ? './' : request;
    const hit = await cache.match(key, { ignoreSearch: request.mode === 'navigate' });
    return hit ?? fetch(request);
  })());
});
