// Registers Score's service worker and offers a reload when a new version is ready.
if ('serviceWorker' in navigator) {
  let accepted = false;
  let reloading = false;
  const reload = () => {
    if (reloading) return;
    reloading = true;
    window.location.reload();
  };
  // The new build's worker takes over (asked once it is installed), and the page reloads
  // once it is active: now, if another tab already activated it (this page then saw no
  // controllerchange of its own asking), or when it takes over.
  const takeOver = (worker) => {
    accepted = true;
    const take = () => {
      if (worker.state === 'activated' || worker.state === 'redundant') reload();
      else if (worker.state === 'installed') worker.postMessage('skip-waiting');
    };
    worker.addEventListener('statechange', take);
    take();
  };
  const offer = (worker) => {
    if (document.getElementById('update-banner')) return;
    const bar = document.createElement('div');
    bar.id = 'update-banner';
    bar.className = 'update-banner';
    bar.setAttribute('role', 'status');
    const text = document.createElement('span');
    const button = document.createElement('button');
    button.type = 'button';
    // In the page's language, which writes these words on <html> (English until another is
    // chosen, or while it loads: the offer is worded again when the language changes).
    const word = () => {
      const words = document.documentElement.dataset;
      text.textContent = `${words.updateReady ?? 'A new version of Score is ready.'} `;
      button.textContent = words.reload ?? 'Reload';
    };
    word();
    window.addEventListener('score-lang', word);
    button.addEventListener('click', () => takeOver(worker));
    bar.append(text, button);
    document.body.prepend(bar);
  };
  // The page's language (not English, which is compiled in) is asked for again through the
  // worker that controls the page, which keeps it: a first visit fetched it before any worker
  // controlled the page, and a new worker's cache has not got a language picked meanwhile.
  const keepLanguage = () => {
    const lang = document.documentElement.lang;
    const build = document.querySelector('meta[name="score-build"]')?.content ?? '';
    if (!navigator.serviceWorker.controller || !lang || lang === 'en') return;
    fetch(`./i18n/${lang}.json?v=${build}`).catch(() => {});
  };
  window.addEventListener('score-lang', keepLanguage);
  // Reload only when the player accepted an update (the first install also changes controller).
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (accepted) reload();
    keepLanguage();
  });
  // A view's Reload (src/modules.rs `reload` calls this: a class room told its page is older
  // than the server, a module of another build): under a worker of an older build a plain reload
  // brings the same page back. As the offer's Reload does, the new build's worker (asked
  // for now) takes over first, and the page reloads when it has; with none, a plain reload.
  window.scoreReload = () => {
    if (!navigator.serviceWorker.controller) return reload();
    accepted = true;
    (async () => {
      const reg = await navigator.serviceWorker.getRegistration();
      await reg?.update().catch(() => {});
      const worker = reg?.waiting ?? reg?.installing;
      if (!worker) return reload();
      takeOver(worker);
      setTimeout(reload, 10000);
    })().catch(reload);
  };
  // On a room's link, the precache (every module) waits for a seat: src/offline.rs says why.
  let registered = false;
  const once = () => {
    if (registered) return;
    registered = true;
    register();
  };
  const whenIdle = () => {
    if ('requestIdleCallback' in window) requestIdleCallback(once, { timeout: 2000 });
    else setTimeout(once, 200);
  };
  // A room's link as the boot script reads it (scripts/boot.template.js). On a first visit to
  // solitaire the worker waits for the page: the app says it is drawn (its table, side and
  // views, in the start's last task: src/app.rs) with score-drawn.
  const inRoom = location.search.replace(/^\?+/, '').split('&').some((p) => p.split('=')[0] === 'room');
  window.addEventListener(inRoom ? 'score-ready' : 'score-drawn', whenIdle);
  // A controlled page only checks for a new build, whose offer can't wait for a seat.
  const controlled = navigator.serviceWorker.controller != null;
  // Half a minute after solitaire's load, or after a room's page is drawn (src/offline.rs), if
  // nothing said so by then.
  const later = () => setTimeout(once, 30000);
  window.addEventListener('load', () => (controlled ? once() : inRoom ? null : later()));
  if (inRoom && !controlled) {
    window.addEventListener('score-drawn', later, { once: true });
    window.addEventListener('TrunkApplicationStarted', later, { once: true });
  }
  const register = async () => {
    try {
      const reg = await navigator.serviceWorker.register('./sw.js');
      // A worker that finishes installing while an older one controls the page is an update.
      const track = (worker) => {
        if (!worker) return;
        const check = () => {
          if (worker.state === 'installed' && navigator.serviceWorker.controller) offer(worker);
        };
        check();
        worker.addEventListener('statechange', check);
      };
      track(reg.waiting);
      track(reg.installing);
      reg.addEventListener('updatefound', () => track(reg.installing));
      keepLanguage();
    } catch (e) {
      console.warn('Score works online only: the service worker did not register.', e);
    }
  };
}
