//! Score in the browser: a panic hook, then the app.
use leptos::prelude::*;

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(|| view! { <h1>"Score"</h1> });
}
