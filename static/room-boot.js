// Starts the Class room module (score-room): fetched only when a player opens Class room.
// If its wasm can't be fetched, the page is told ("score-room:failed") and may ask again
// ("score-room:retry").
import init from "./score-room.js";

function start() {
  init().catch((e) => {
    console.error("Score: the class room module failed to start", e);
    window.addEventListener("score-room:retry", start, { once: true });
    window.dispatchEvent(new Event("score-room:failed"));
  });
}

start();
