//! Score in the browser: a panic hook, then the app.
#![deny(clippy::unwrap_used, clippy::expect_used)]
use score_app::app::App;

fn main() {
    score_app::crash::install_panic_hook();
    leptos::mount::mount_to_body(App);
}
