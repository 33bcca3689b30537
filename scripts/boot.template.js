// Starts the page: scripts/postbuild.py writes it into index.html, before the stylesheet
// (a script after it would wait for it), with the app's files in place of Trunk's own
// loader, and its hash in the Content-Security-Policy (no 'unsafe-inline').
// On a class room's link (`?room`, read as src/forms.rs `room_link` reads it) a class room's
// module starts alone and draws the room's page itself: a student's first load is the
// room's, with no solitaire in it. Anywhere else the app starts: solitaire, and the room
// when a player opens it. What starts is chosen as the page's head is read, and its files
// asked for at once, a round trip sooner than a script file of its own could ask; it starts
// when the page is read, after register-sw.js (deferred), which listens for its start.
{
  const APP_JS = "__APP_JS__";
  const APP_JS_INTEGRITY = "__APP_JS_INTEGRITY__";
  const APP_WASM = "__APP_WASM__";
  const APP_WASM_INTEGRITY = "__APP_WASM_INTEGRITY__";
  const root = document.documentElement;
  // A module's fault ends in a trap, thrown into the page as a WebAssembly.RuntimeError: the
  // module that faulted says so (src/crash.rs sets scoreCrashed: the notice, in its words).
  const fault = (e) => {
    try {
      if (e instanceof WebAssembly.RuntimeError) window.scoreCrashed?.();
    } catch {}
  };
  addEventListener("error", (e) => fault(e.error));
  addEventListener("unhandledrejection", (e) => fault(e.reason));
  const build = document.querySelector('meta[name="score-build"]')?.content ?? "";
  const v = build ? `?v=${build}` : "";
  const ask = (rel, href, more) => {
    const link = Object.assign(document.createElement("link"), { rel, href, crossOrigin: "anonymous" }, more);
    document.head.append(link);
  };
  // The app's files with their integrity, as Trunk's loader had them (a preload also holds
  // the page's `load` back until it is here; an empty integrity checks nothing).
  const askApp = () => {
    ask("modulepreload", APP_JS, { integrity: APP_JS_INTEGRITY });
    ask("preload", APP_WASM, { as: "fetch", integrity: APP_WASM_INTEGRITY });
  };
  let app = null;
  const startApp = (asked) => {
    app ??= (async () => {
      if (!asked) askApp();
      // Compiled as it comes (a host that sends it as another type than application/wasm:
      // once it is all here), while the glue loads; then started in a task of its own: the
      // end of the compile and the app's first drawing were one long task.
      const compiling = fetch(APP_WASM).then((wasm) =>
        WebAssembly.compileStreaming(wasm.clone()).catch(() => wasm.arrayBuffer().then((bytes) => WebAssembly.compile(bytes))),
      );
      const bindings = await import(APP_JS);
      const compiled = await compiling;
      await new Promise((next) => setTimeout(next));
      const started = await bindings.default({ module_or_path: compiled });
      window.wasmBindings = bindings;
      dispatchEvent(new CustomEvent("TrunkApplicationStarted", { detail: { wasm: started } }));
    })();
  };
  const roomLink = location.search.replace(/^\?+/, "").split("&").some((p) => p.split("=")[0] === "room");
  // A host's link (its token in the fragment, or the query), or a tab that presents a room
  // (its note in session storage: a projector's reload), starts the whole class room module;
  // an invite, the student's (score-join: the forms and the student's table), which hands the
  // page to the whole one if this tab turns out to host the room.
  // (Read more loosely than `room_link`, which the module then reads: a link both read
  // differently starts the student's module, which hands over, or the whole one, which serves
  // an invite as well.)
  let hostLink = /[?#&]host=[^&#]*[A-Za-z0-9]/.test(location.search + location.hash);
  try {
    hostLink ||= !!sessionStorage.getItem("score.room.screen");
  } catch {}
  const part = hostLink ? "room" : "join";
  const name = `score-${part}`;
  if (roomLink) {
    // As its boot script loads them, each file asked for at once.
    root.dataset.start = "room";
    ask("modulepreload", `./${part}-boot.js${v}`);
    ask("modulepreload", `./${name}.js${v}`);
    ask("preload", `./${name}_bg.wasm${v}`, { as: "fetch" });
  } else {
    askApp();
  }
  // A room module that doesn't start (its files unreachable) leaves the page to the app,
  // whose room view tries the whole module (once more, or for the first time after the
  // student's), then says so with Try again (src/modules.rs).
  const fallBack = (how) => {
    if (root.dataset.start !== "room" && root.dataset.start !== "room-failed") return;
    root.dataset.start = how;
    startApp();
  };
  const startRoom = () => {
    // (After the events said with it: one of another build says "failed", then "stale".)
    // The whole module's failure is the app's to retry; the student's, the app's view fetches
    // the whole module instead.
    addEventListener(`${name}:failed`, () => queueMicrotask(() => fallBack(`${part}-failed`)));
    // Of another build than this page (the server updated while it loaded): this page's own
    // app may be gone from the server, so the page is loaded again, unless it is a reload.
    // The student's module is not precached: a page its service worker serves (of the build
    // that worker has) can meet a newer server's copy. The app and its whole room module are
    // in that worker's cache, of the page's own build: they take the page, and a reload would
    // only bring the same page back.
    addEventListener(`${name}:stale`, () => {
      if (part === "join" && navigator.serviceWorker?.controller) return fallBack("join-failed");
      const reloaded = performance.getEntriesByType?.("navigation")[0]?.type === "reload";
      if (root.dataset.start !== "room" || reloaded) return fallBack("room-stale");
      root.dataset.start = "reloading";
      location.reload();
    });
    import(`./${part}-boot.js${v}`).catch(() => fallBack("room-absent"));
  };
  document.addEventListener("DOMContentLoaded", () => (roomLink ? startRoom() : startApp(true)));
}
