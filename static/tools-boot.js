// Starts the tools module (score-tools: Experiment, Impossible rolls, Worksheets): fetched
// only when a player opens one of them. If its wasm can't be fetched, the page is told
// ("score-tools:failed") and may ask again ("score-tools:retry").
import init from "./score-tools.js";

function start() {
  init().catch((e) => {
    console.error("Score: the tools module failed to start", e);
    window.addEventListener("score-tools:retry", start, { once: true });
    window.dispatchEvent(new Event("score-tools:failed"));
  });
}

start();
