// Starts the tools module (score-tools: Experiment, Impossible rolls, Worksheets, Rules):
// fetched only when a player opens one of them, as `tools-boot.js?v=<build>`.
// scripts/postbuild.py writes the build's id into BUILD and into the module's URLs, as it does
// for the solver's worker: the browser's cache never mixes two builds' files in one module.
// A page of another build (an old tab after an update) is told "score-tools:stale" and starts
// nothing, since a reload is what mends it. If the wasm can't be fetched, the page is told
// ("score-tools:failed") and may ask again ("score-tools:retry").
import init from "./score-tools.js";

const BUILD = "";
const NAME = "score-tools";

function start() {
  const page = document.querySelector('meta[name="score-build"]')?.content ?? "";
  if (BUILD && page && BUILD !== page) {
    window.dispatchEvent(new Event(`${NAME}:stale`));
    return;
  }
  const wasm = new URL(`./${NAME}_bg.wasm${BUILD ? `?v=${BUILD}` : ""}`, import.meta.url);
  init({ module_or_path: wasm }).catch((e) => {
    console.error("Score: the tools module failed to start", e);
    window.addEventListener(`${NAME}:retry`, start, { once: true });
    window.dispatchEvent(new Event(`${NAME}:failed`));
  });
}

start();
