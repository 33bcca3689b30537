//! The page's language: which one it starts in ([`score_i18n::choose`], from a link's
//! `?lang=`, the player's kept choice and the browser's languages), its catalog fetched as
//! `i18n/<code>.json` (English is compiled in), and `<html lang dir>` set to it. Switching
//! re-renders in place: the words are a signal, the game and its clock are untouched.
//!
//! The room module, a wasm of its own on the same page, follows: it reads `<html lang>` when
//! it mounts and hears `score-lang` when the language changes ([`follow`]).

use std::cell::Cell;

use leptos::prelude::*;
use score_i18n::{Catalog, Key, Lang, Ops, Texts};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use crate::storage;

/// Said on the window when the page's language changes.
pub const CHANGED: &str = "score-lang";

/// Said on the window by the room module to ask the page for a language ([`Ask`]).
pub const ASKED_FOR: &str = "score-lang-ask";

/// What the room module asks of the page's language (it can't switch it itself: the page's
/// words live in the main module).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ask {
    /// A student picked it: switch, and keep it as their choice.
    Pick(Lang),
    /// The room is in it: switch only a page whose player never chose a language.
    Room(Lang),
    /// A host screen presents the room in it: switch (the teacher's own choice is kept).
    Present(Lang),
}

impl Ask {
    /// As it travels in the event ("room:es").
    pub fn detail(self) -> String {
        let (how, lang) = match self {
            Ask::Pick(l) => ("pick", l),
            Ask::Room(l) => ("room", l),
            Ask::Present(l) => ("present", l),
        };
        format!("{how}:{}", lang.code())
    }

    /// Read from an event's detail; none for anything else.
    pub fn read(detail: &str) -> Option<Ask> {
        let (how, code) = detail.split_once(':')?;
        let lang = Lang::from_code(code)?;
        match how {
            "pick" => Some(Ask::Pick(lang)),
            "room" => Some(Ask::Room(lang)),
            "present" => Some(Ask::Present(lang)),
            _ => None,
        }
    }

    /// The language to switch to, given the language the page is in or on its way to (the
    /// last one asked for) and the player's kept choice (none: they never chose); none when
    /// the page stays as it is.
    pub fn switch_to(self, now: Lang, kept: Option<&str>) -> Option<Lang> {
        let lang = match self {
            Ask::Pick(l) | Ask::Present(l) => l,
            Ask::Room(l) if kept.and_then(Lang::from_code).is_none() => l,
            Ask::Room(_) => return None,
        };
        (lang != now || matches!(self, Ask::Pick(_))).then_some(lang)
    }

    /// Whether the language, once here, is kept as the player's choice.
    pub fn keeps(self) -> bool {
        matches!(self, Ask::Pick(_))
    }
}

/// Asks the page for a language (from the room module).
pub fn ask(ask: Ask) {
    let Some(w) = web_sys::window() else { return };
    let init = web_sys::CustomEventInit::new();
    init.set_detail(&JsValue::from_str(&ask.detail()));
    if let Ok(ev) = web_sys::CustomEvent::new_with_event_init_dict(ASKED_FOR, &init) {
        let _ = w.dispatch_event(&ev);
    }
}

/// Answers the room module's asks on this page's `words` (the main module); `unavailable`
/// is told of a language that could not be fetched.
pub fn answer(words: RwSignal<Catalog>, unavailable: impl Fn(Lang) + Clone + 'static) {
    let listener = window_event_listener_untyped(ASKED_FOR, move |ev| {
        let Some(ask) =
            ev.dyn_ref::<web_sys::CustomEvent>().and_then(|e| e.detail().as_string()).and_then(|d| Ask::read(&d))
        else {
            return;
        };
        // Against the language last asked for: one still on its way counts as the page's.
        let now = WANTED.with(Cell::get).unwrap_or_else(|| words.with_untracked(Catalog::lang));
        let Some(lang) = ask.switch_to(now, storage::text(storage::LANG_KEY).as_deref()) else { return };
        let unavailable = unavailable.clone();
        leptos::task::spawn_local(async move {
            match switch(words, lang).await {
                // Kept only when it landed: a later switch that overtook it is what shows.
                Ok(true) if ask.keeps() => keep(lang),
                Ok(_) => {}
                Err(()) => unavailable(lang),
            }
        });
    });
    on_cleanup(move || listener.remove());
}

/// Puts the page's `words` in `lang` (English at once, compiled in; another as soon as it is
/// fetched) and answers the room module's asks from then on; `unavailable` is told of a
/// language that can't be fetched, `settled` once the first language is in or couldn't be.
pub fn serve_page(
    words: RwSignal<Catalog>,
    lang: Lang,
    unavailable: impl Fn(Lang) + Clone + 'static,
    settled: impl FnOnce() + 'static,
) {
    if lang == Lang::En {
        settled();
    } else {
        let unavailable = unavailable.clone();
        leptos::task::spawn_local(async move {
            if switch(words, lang).await.is_err() {
                unavailable(lang);
            }
            settled();
        });
    }
    answer(words, unavailable);
}

/// A language chosen by a link's `?lang=` (any of the codes [`Lang::from_code`] reads).
pub fn from_query(query: &str) -> Option<&str> {
    query.trim_start_matches('?').split('&').find_map(|p| p.strip_prefix("lang="))
}

/// The languages the browser asks for, in its order.
fn browser_languages() -> Vec<String> {
    let Some(nav) = web_sys::window().map(|w| w.navigator()) else { return Vec::new() };
    let list: Vec<String> = nav.languages().iter().filter_map(|l| l.as_string()).collect();
    if list.is_empty() {
        nav.language().into_iter().collect()
    } else {
        list
    }
}

/// The query without its `lang=`.
pub fn without_lang(query: &str) -> String {
    let rest: Vec<&str> =
        query.trim_start_matches('?').split('&').filter(|p| !p.is_empty() && !p.starts_with("lang=")).collect();
    if rest.is_empty() {
        String::new()
    } else {
        format!("?{}", rest.join("&"))
    }
}

/// The language this page starts in. A link's language counts as the player's choice: it is
/// kept, and taken out of the address, so a reload after another pick keeps that pick.
pub fn starting() -> Lang {
    let query = web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
    let link = from_query(&query).and_then(Lang::from_code);
    if let Some(lang) = link {
        keep(lang);
    }
    if from_query(&query).is_some() {
        crate::app::set_query(&without_lang(&query));
    }
    let chosen = storage::text(storage::LANG_KEY);
    let browser = browser_languages();
    let browser: Vec<&str> = browser.iter().map(String::as_str).collect();
    score_i18n::choose(link.map(Lang::code), chosen.as_deref(), None, &browser)
}

/// Keeps `lang` as the player's choice for later visits (a browser that keeps nothing
/// forgets it: the page says so elsewhere).
pub fn keep(lang: Lang) {
    let _ = storage::save_text(storage::LANG_KEY, lang.code());
}

/// How the player chose to write multiplication and division (none: their language's way):
/// as kept, or as chosen on this page when the browser keeps nothing.
pub fn kept_ops() -> Option<Ops> {
    storage::text(storage::OPS_KEY).and_then(|c| Ops::from_code(&c)).or_else(|| CHOSEN_OPS.with(Cell::get))
}

/// Writes multiplication and division `ops`' way on this page from now on, and keeps it as
/// the player's choice; the room module follows.
pub fn choose_ops(words: RwSignal<Catalog>, ops: Ops) {
    CHOSEN_OPS.with(|c| c.set(Some(ops)));
    let _ = storage::save_text(storage::OPS_KEY, ops.code());
    words.maybe_update(|w| w.set_ops(Some(ops)));
    if let (Some(w), Ok(ev)) = (web_sys::window(), web_sys::Event::new(CHANGED)) {
        let _ = w.dispatch_event(&ev);
    }
}

/// The words of the page's parts that can't read the catalog (the update offer in
/// register-sw.js, the crash notice), kept on `<html>` as these attributes.
pub const PLAIN_WORDS: [(&str, Key); 3] =
    [("data-update-ready", Key::UpdateReady), ("data-reload", Key::Reload), ("data-crashed", Key::Crashed)];

/// The words of `key`, one of [`PLAIN_WORDS`], as marked on `<html>` (English before a
/// language is marked): for what must not read the catalog, such as the crash notice.
pub fn marked_words(key: Key) -> String {
    let name = PLAIN_WORDS.iter().find(|(_, k)| *k == key).map(|(name, _)| *name);
    let root = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element());
    name.zip(root)
        .and_then(|(name, root)| root.get_attribute(name))
        .unwrap_or_else(|| Catalog::english().text(key, &[]))
}

/// Marks the page as written in `words`' language: `<html lang dir>` and [`PLAIN_WORDS`],
/// then tells the room module.
pub fn mark(words: &Catalog) {
    let lang = words.lang();
    if let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
        let _ = root.set_attribute("lang", lang.code());
        let _ = root.set_attribute("dir", if lang.rtl() { "rtl" } else { "ltr" });
        for (name, key) in PLAIN_WORDS {
            let _ = root.set_attribute(name, &words.text(key, &[]));
        }
    }
    if let (Some(w), Ok(ev)) = (web_sys::window(), web_sys::Event::new(CHANGED)) {
        let _ = w.dispatch_event(&ev);
    }
}

/// The language `<html lang>` names (English if none Score speaks).
pub fn marked() -> Lang {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
        .and_then(|e| e.get_attribute("lang"))
        .and_then(|c| Lang::from_code(&c))
        .unwrap_or(Lang::En)
}

/// Fetches `lang`'s catalog, writing multiplication and division the player's way. A text
/// it lacks, or with the wrong placeholders, is read in English (the test run fails on
/// either before a build ships).
pub async fn fetch(lang: Lang) -> Result<Catalog, ()> {
    fetch_words(lang).await.map(|c| c.with_ops(kept_ops()))
}

async fn fetch_words(lang: Lang) -> Result<Catalog, ()> {
    if lang == Lang::En {
        return Ok(Catalog::english());
    }
    if let Some(words) = fetched(lang) {
        return Ok(words);
    }
    let window = web_sys::window().ok_or(())?;
    let url = format!("./i18n/{}.json?v={}", lang.code(), crate::solver::page_build());
    let response: web_sys::Response =
        JsFuture::from(window.fetch_with_str(&url)).await.map_err(drop)?.dyn_into().map_err(drop)?;
    if !response.ok() {
        return Err(());
    }
    let json = JsFuture::from(response.json().map_err(drop)?).await.map_err(drop)?;
    let object: js_sys::Object = json.dyn_into().map_err(drop)?;
    share(lang, &object);
    Ok(catalog_of(lang, &object))
}

/// Where the page keeps the catalogs it has fetched (a property of `window`), for every module
/// on it: the room and the tools read the words the page already has, the same ones, at once.
const SHARED: &str = "scoreCatalogs";

fn shelf() -> Option<js_sys::Object> {
    let window = web_sys::window()?;
    let key = JsValue::from_str(SHARED);
    match js_sys::Reflect::get(&window, &key).ok().and_then(|v| v.dyn_into::<js_sys::Object>().ok()) {
        Some(shelf) => Some(shelf),
        None => {
            let shelf = js_sys::Object::new();
            js_sys::Reflect::set(&window, &key, &shelf).ok()?;
            Some(shelf)
        }
    }
}

fn share(lang: Lang, object: &js_sys::Object) {
    if let Some(shelf) = shelf() {
        let _ = js_sys::Reflect::set(&shelf, &JsValue::from_str(lang.code()), object);
    }
}

/// `lang`'s catalog as some module on this page fetched it, if one did.
fn fetched(lang: Lang) -> Option<Catalog> {
    let shelf: JsValue = shelf()?.into();
    let object = js_sys::Reflect::get(&shelf, &JsValue::from_str(lang.code())).ok()?;
    Some(catalog_of(lang, &object.dyn_into().ok()?))
}

fn catalog_of(lang: Lang, object: &js_sys::Object) -> Catalog {
    let texts: Texts = js_sys::Object::entries(object)
        .iter()
        .filter_map(|pair| {
            let pair: js_sys::Array = pair.dyn_into().ok()?;
            Some((pair.get(0).as_string()?, pair.get(1).as_string()?))
        })
        .collect();
    Catalog::from_texts(lang, texts)
}

thread_local! {
    /// Counts the switches asked for: a catalog that arrives after a later switch was asked
    /// (a slow first fetch, two quick picks) is dropped, never set over the later one.
    static ASKED: Cell<u64> = const { Cell::new(0) };
    /// The language last asked for (none before any switch).
    static WANTED: Cell<Option<Lang>> = const { Cell::new(None) };
    /// The signs chosen on this page (kept too, where the browser keeps anything).
    static CHOSEN_OPS: Cell<Option<Ops>> = const { Cell::new(None) };
}

/// Switches `words` to `lang` once its catalog is here, marking the page: `Ok(true)`;
/// `Ok(false)` when a later switch overtook it (that one sets the words); `Err` (the words
/// unchanged) when it can't be fetched, e.g. offline before it was ever loaded.
pub async fn switch(words: RwSignal<Catalog>, lang: Lang) -> Result<bool, ()> {
    let mine = ASKED.with(|a| {
        a.set(a.get() + 1);
        a.get()
    });
    WANTED.with(|w| w.set(Some(lang)));
    let fetched = fetch(lang).await;
    let latest = ASKED.with(Cell::get) == mine;
    if latest {
        // This was the last asked for: what the page shows is its outcome.
        WANTED.with(|w| w.set(None));
    }
    let catalog = fetched?;
    if latest {
        words.set(catalog);
        words.with_untracked(mark);
    }
    Ok(latest)
}

/// Has `words` follow the page's language (for the room module): now, and on each change.
pub fn follow(words: RwSignal<Catalog>) {
    // A catalog that arrives after the page changed language again is dropped.
    let asked = std::rc::Rc::new(Cell::new(0u64));
    let load = move || {
        let lang = marked();
        let mine = asked.get() + 1;
        asked.set(mine);
        // The player chose another way of writing × and ÷ (in Settings): no fetch needed.
        words.maybe_update(|w| w.lang() == lang && w.set_ops(kept_ops()));
        if words.with_untracked(Catalog::lang) != lang {
            // The page has its words already: the same, at once.
            if let Some(catalog) = (lang == Lang::En).then(Catalog::english).or_else(|| fetched(lang)) {
                words.set(catalog.with_ops(kept_ops()));
                return;
            }
            let asked = asked.clone();
            leptos::task::spawn_local(async move {
                if let Ok(catalog) = fetch(lang).await {
                    if asked.get() == mine {
                        words.set(catalog);
                    }
                }
            });
        }
    };
    load();
    let listener = window_event_listener_untyped(CHANGED, move |_| load());
    on_cleanup(move || listener.remove());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ask_travels_as_text_and_back() {
        for ask in [Ask::Pick(Lang::De), Ask::Room(Lang::Es), Ask::Present(Lang::Ar), Ask::Room(Lang::PtBr)] {
            assert_eq!(Ask::read(&ask.detail()), Some(ask));
        }
        assert_eq!(Ask::read("room:xx"), None);
        assert_eq!(Ask::read("shout:es"), None);
        assert_eq!(Ask::read("es"), None);
    }

    #[test]
    fn the_rooms_language_reaches_only_a_page_whose_player_never_chose() {
        // A student who never chose starts in the room's language.
        assert_eq!(Ask::Room(Lang::Es).switch_to(Lang::En, None), Some(Lang::Es));
        // One who chose German keeps German, whatever the room speaks.
        assert_eq!(Ask::Room(Lang::Es).switch_to(Lang::De, Some("de")), None);
        // Even a kept choice that is English.
        assert_eq!(Ask::Room(Lang::Es).switch_to(Lang::En, Some("en")), None);
        // A kept value the page can't read counts as no choice.
        assert_eq!(Ask::Room(Lang::Fr).switch_to(Lang::En, Some("klingon")), Some(Lang::Fr));
        // Already in it: nothing to do.
        assert_eq!(Ask::Room(Lang::Es).switch_to(Lang::Es, None), None);
    }

    #[test]
    fn a_host_screen_presents_in_the_rooms_language_and_a_pick_is_kept() {
        assert_eq!(Ask::Present(Lang::Fr).switch_to(Lang::De, Some("de")), Some(Lang::Fr));
        assert!(!Ask::Present(Lang::Fr).keeps() && !Ask::Room(Lang::Fr).keeps());
        // A pick of the language the page is in is still kept (a browser's default made a choice).
        assert_eq!(Ask::Pick(Lang::En).switch_to(Lang::En, None), Some(Lang::En));
        assert!(Ask::Pick(Lang::En).keeps());
    }

    #[test]
    fn a_links_language_is_read_from_its_query() {
        assert_eq!(from_query("?lang=fr"), Some("fr"));
        assert_eq!(from_query("?roll=1,2,3,4&lang=pt-BR"), Some("pt-BR"));
        assert_eq!(from_query("?roll=1,2,3,4"), None);
        assert_eq!(from_query(""), None);
    }

    #[test]
    fn a_links_language_leaves_the_address_and_the_rest_stays() {
        assert_eq!(without_lang("?lang=fr"), "");
        assert_eq!(without_lang("?roll=1,2,3,4&lang=pt-BR&goal=20"), "?roll=1,2,3,4&goal=20");
        assert_eq!(without_lang("?room=ABC234"), "?room=ABC234");
    }
}
