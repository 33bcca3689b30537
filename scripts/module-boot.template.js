// Starts a wasm module the page fetches on demand (scripts/postbuild.py writes this as each
// module's boot script, `__NAME__` its name and `__WHAT__` what it is in a console line):
// room-boot.js, the whole class room (score-room: when a player opens Class room, on a
// host's link, or when a student's module hands the page over to it); join-boot.js, a
// student's class room (score-join: the first module of a room's invite); tools-boot.js,
// the tools (score-tools: Experiment, Impossible rolls, Worksheets, Rules, when a player
// opens one). The page asks for each as `NAME-boot.js?v=<build>` (then `&try=N`, below).
// scripts/postbuild.py writes the build's id into BUILD and into the module's URLs, as it does
// for the solver's worker: the browser's cache never mixes two builds' files in one module.
// A page of another build (an old tab after an update) is told "NAME:stale" and starts
// nothing, since a reload is what mends it. If the wasm can't be fetched, the page is told
// ("NAME:failed") and may ask again ("NAME:retry"); so, if its script can't be.
// A browser keeps a module script it couldn't fetch as failed, under its address, for the
// page's life (Chromium 148 does): the page asks for a boot script again as `&try=N`
// (src/modules.rs `script_address`), and the script for its module's script likewise, from
// its own N on, one more at each start after a failed one.

const BUILD = "";
const NAME = "__NAME__";
const SCRIPT = "./__NAME__.js";
let tries = Number(new URL(import.meta.url).searchParams.get("try")) || 0;
let script = null;
const ask = () => {
  const address = tries ? `${SCRIPT}${SCRIPT.includes("?") ? "&" : "?"}try=${tries}` : SCRIPT;
  tries += 1;
  return import(address).catch((e) => {
    script = null;
    throw e;
  });
};

function start() {
  const page = document.querySelector('meta[name="score-build"]')?.content ?? "";
  if (BUILD && page && BUILD !== page) {
    // "failed" first, for a page from before "stale" was said (it offers Try again, and
    // the way back); then "stale", which a page that knows it offers a reload for.
    window.addEventListener(`${NAME}:retry`, start, { once: true });
    window.dispatchEvent(new Event(`${NAME}:failed`));
    window.dispatchEvent(new Event(`${NAME}:stale`));
    return;
  }
  const wasm = new URL(`./${NAME}_bg.wasm${BUILD ? `?v=${BUILD}` : ""}`, import.meta.url);
  script ??= ask();
  script.then(({ default: init }) => init({ module_or_path: wasm })).catch((e) => {
    // Another build's wasm for this build's script (an old tab, the server updated): a
    // reload mends it, trying again can't.
    if (e instanceof WebAssembly.LinkError) {
      window.dispatchEvent(new Event(`${NAME}:stale`));
      return;
    }
    // The module started and stopped (a fault in it): the crash notice says so (src/crash.rs),
    // and starting it again can't (its instance is kept).
    if (e instanceof WebAssembly.RuntimeError) return window.scoreCrashed?.();
    console.error("Score: __WHAT__ failed to start", e);
    window.addEventListener(`${NAME}:retry`, start, { once: true });
    window.dispatchEvent(new Event(`${NAME}:failed`));
  });
}

start();
