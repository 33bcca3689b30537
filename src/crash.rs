//! The last line of defence: a panic must not leave a dead page.
//!
//! A panic in WebAssembly stops the app for good, so the hook logs it (with
//! the Rust message, via console_error_panic_hook) and puts a plain notice
//! with a reload link in the page. Scores are saved after every change, so
//! reloading loses nothing that was earned.

use score_i18n::Key;
use wasm_bindgen::JsCast;

/// Installs the panic hook.
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show_notice();
    }));
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
