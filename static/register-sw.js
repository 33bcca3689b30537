// Registers Score's service worker and offers a reload when a new version is ready.
if ('serviceWorker' in navigator) {
  let accepted = false;
  const offer = (worker) => {
    if (document.getElementById('update-banner')) return;
    const bar = document.createElement('div');
    bar.id = 'update-banner';
    bar.className = 'update-banner';
    bar.setAttribute('role', 'status');
    const text = document.createElement('span');
    text.textContent = 'A new version of Score is ready. ';
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = 'Reload';
    button.addEventListener('click', () => {
      accepted = true;
      worker.postMessage('skip-waiting');
    });
    bar.append(text, button);
    document.body.prepend(bar);
  };
  // Reload only when the player accepted an update (the first install also changes controller).
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (accepted) {
      accepted = false;
      window.location.reload();
    }
  });
  window.addEventListener('load', async () => {
    try {
      const reg = await navigator.serviceWorker.register('./sw.js');
      if (reg.waiting && navigator.serviceWorker.controller) offer(reg.waiting);
      reg.addEventListener('updatefound', () => {
        const next = reg.installing;
        next?.addEventListener('statechange', () => {
          if (next.state === 'installed' && navigator.serviceWorker.controller) offer(next);
        });
      });
    } catch (e) {
      console.warn('Score works online only: the service worker did not register.', e);
    }
  });
}
