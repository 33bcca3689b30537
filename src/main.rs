//! Score in the browser: a panic hook, then the app.
use score_app::app::App;

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(App);
}
