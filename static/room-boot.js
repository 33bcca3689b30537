// Starts the whole class room module (score-room): fetched when a player opens Class room,
// a host's link starts it, or a student's module hands the page over to it, as
// `room-boot.js?v=<build>`.
// scripts/postbuild.py writes the build's id into BUILD and into the module's URLs, as it does
// for the solver's worker: the browser's cache never mixes two builds' files in one module.
// A page of another build (an old tab after an update) is told "score-room:stale" and starts
// nothing, since a reload is what mends it. If the wasm can't be fetched, the page is told
// ("score-room:failed") and may ask again ("score-room:retry").
import init from "./score-room.js";

const BUILD = "";
const NAME = "score-room";

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
  init({ module_or_path: wasm }).catch((e) => {
    // Another build's wasm for this build's script (an old tab, the server updated): a
    // reload mends it, trying again can't.
    if (e instanceof WebAssembly.LinkError) {
      window.dispatchEvent(new Event(`${NAME}:stale`));
      return;
    }
    // The module started and stopped (a fault in it): the crash notice says so, and starting
    // it again can't (its instance is kept).
    if (e instanceof WebAssembly.RuntimeError) return;
    console.error("Score: the class room module failed to start", e);
    window.addEventListener(`${NAME}:retry`, start, { once: true });
    window.dispatchEvent(new Event(`${NAME}:failed`));
  });
}

start();
