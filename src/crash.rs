//! The last line of defence: a fault must not leave a dead page.
//!
//! A panic in WebAssembly stops the app for good: it ends in a trap, which the browser
//! throws into the page as a `WebAssembly.RuntimeError`. The page's boot script
//! (scripts/boot.template.js) hears every such error and calls `scoreCrashed`, which each
//! module sets here: a plain notice with a reload link goes at the top of the page. Scores
//! are saved after every change, so reloading loses nothing that was earned.
//!
//! The release build (scripts/build.sh) aborts on a panic at once (`panic="immediate-abort"`):
//! no message is formatted, which keeps the formatting machinery out of every module. Other
//! builds (tests, debug) also log the Rust message, via console_error_panic_hook.

use score_i18n::Key;
use wasm_bindgen::JsCast;

/// Lets the page's boot script put the notice up when this module faults (`scoreCrashed`);
/// outside the release build, a panic's message is logged too.
pub fn install_panic_hook() {
    #[cfg(not(panic = "immediate-abort"))]
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show_notice();
    }));
    let Some(window) = web_sys::window() else { return };
    let notice = wasm_bindgen::closure::Closure::<dyn Fn()>::new(|| {
        show_notice();
    });
    let _ = js_sys::Reflect::set(&window, &"scoreCrashed".into(), notice.as_ref());
    notice.forget();
}

/// Puts the notice at the top of the page (once), in the language marked on `<html>`.
pub fn show_notice() -> Option<()> {
    let doc = web_sys::window()?.document()?;
    if doc.get_element_by_id("crash-notice").is_some() {
        return Some(());
    }
    let notice = doc.create_element("div").ok()?;
    notice.set_id("crash-notice");
    notice.set_class_name("crash-notice");
    notice.set_attribute("role", "alert").ok()?;
    // The page's language, as marked on <html> (the catalog itself may be what panicked).
    notice.set_text_content(Some(&(crate::lang::marked_words(Key::Crashed) + " ")));
    let link = doc.create_element("a").ok()?;
    link.set_attribute("href", "").ok()?;
    link.set_text_content(Some(&crate::lang::marked_words(Key::Reload)));
    notice.append_child(&link).ok()?;
    let body: web_sys::HtmlElement = doc.body()?.unchecked_into();
    body.prepend_with_node_1(&notice).ok()
}
