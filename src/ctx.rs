//! What the app shell shares with the components below it: the context ([`Ctx`], read with
//! [`use_ctx`]), the local game as a table ([`LocalTable`]), and the helpers that act on
//! them. The shell (`app::App`) provides the context; this module depends on neither the
//! shell nor the components, so both can use it.

use leptos::prelude::*;
use score_engine::Rules;
use score_i18n::{Catalog, Fill, Key};

use crate::game::{Game, Source};
use crate::hooks::use_clock::now_ms;
use crate::table::{Act, Claims, Desk, TableSource};

/// Everything the components share.
#[derive(Debug, Clone, Copy)]
pub struct Ctx {
    /// The table.
    pub game: RwSignal<Game>,
    /// The wall clock, ms (refreshed for countdowns).
    pub now: RwSignal<u64>,
    /// Notices about storage and loading, shown at the top.
    pub notices: RwSignal<Vec<crate::say::Notice>>,
    /// What the live region says.
    pub announce: RwSignal<String>,
    /// The practice level chosen for new rolls (0: any roll).
    pub level: RwSignal<u8>,
    /// Whether "Share or play a roll" is open.
    pub share_open: RwSignal<bool>,
    /// Whether the "How to play" card is shown.
    pub help_open: RwSignal<bool>,
    /// The words of the page's language.
    pub words: RwSignal<Catalog>,
}

impl Ctx {
    /// The page's words, to say things with.
    pub fn say(self) -> Words {
        Words(self.words)
    }

    /// What is wrong with a form's field, in the page's language.
    pub fn form_error(self, e: &crate::forms::FormError) -> String {
        self.say().form_error(e)
    }

    /// Adds `notice` to the notices at the top, once.
    pub fn notice(self, notice: crate::say::Notice) {
        self.notices.update(|n| {
            if !n.contains(&notice) {
                n.push(notice);
            }
        });
    }

    /// The words of `key` in the page's language, placeholders filled from `fill`.
    pub fn t(self, key: Key, fill: &[Fill]) -> String {
        self.say().t(key, fill)
    }

    /// The words of `key`, following the page's language (a view's text or attribute).
    pub fn tr(self, key: Key) -> impl Fn() -> String + Copy + Send + Sync + 'static {
        self.say().tr(key)
    }

    /// The words of `key` for the count `n`, in the page's language.
    pub fn count(self, key: Key, n: u64, fill: &[Fill]) -> String {
        self.say().count(key, n, fill)
    }

    /// `text` (an operator, an expression, working) with × and ÷ written the page's way.
    pub fn signs(self, text: &str) -> String {
        self.say().signs(text)
    }
}

/// The words the app shell or a module provides (English where none does, as in a
/// component test).
pub fn use_words() -> Words {
    use_context::<Words>().unwrap_or_else(|| Words(RwSignal::new(Catalog::english())))
}

/// The words of the page's language, and the ways a view says things with them (shared by
/// the page's views and the modules it loads: each has its own catalog signal).
#[derive(Debug, Clone, Copy)]
pub struct Words(pub RwSignal<Catalog>);

impl Words {
    /// What is wrong with a form's field.
    pub fn form_error(self, e: &crate::forms::FormError) -> String {
        self.0.with_untracked(|w| crate::say::form_error(e, w))
    }

    /// The words of `key`, placeholders filled from `fill`.
    pub fn t(self, key: Key, fill: &[Fill]) -> String {
        self.0.with(|w| w.text(key, fill))
    }

    /// The words of `key`, following the language (a view's text or attribute).
    pub fn tr(self, key: Key) -> impl Fn() -> String + Copy + Send + Sync + 'static {
        move || self.t(key, &[])
    }

    /// The words of `key` for the count `n`.
    pub fn count(self, key: Key, n: u64, fill: &[Fill]) -> String {
        self.0.with(|w| w.count(key, n, fill))
    }

    /// `text` (an operator, an expression, working) with × and ÷ written the page's way.
    pub fn signs(self, text: &str) -> String {
        self.0.with(|w| w.signs(text))
    }
}

/// The next roll: of the chosen practice level, if one is chosen and such a roll exists.
pub fn next_roll(ctx: Ctx) {
    let level = ctx.level.get_untracked();
    ctx.game.update(|g| {
        let rules = g.rules.clone();
        let picked = match level {
            0 => None,
            crate::game::AT_MY_LEVEL if rules.dice.len() > crate::game::RATED_DICE => {
                score_engine::practice::roll_of_difficulty(&rules, 3, random_u32)
            }
            crate::game::AT_MY_LEVEL => {
                let target = g.my_target_seconds();
                // Not a roll played on this device before (it would rate nothing).
                let log = &g.daily_log;
                let fresh = |r: &[i64]| !log.saw(crate::game::roll_key(&rules, r));
                score_engine::practice::roll_near(&rules, target, fresh, random_u32)
            }
            l => score_engine::practice::roll_of_difficulty(&rules, l, random_u32),
        };
        // A roll of a chosen level is practice (every one has a solution): RULES §6.
        let (roll, source) = match picked {
            Some(roll) => (roll, Source::Level(level)),
            None => (roll_dice(&rules), Source::Dice),
        };
        g.deal(rules, roll, source, now_ms());
    });
}

/// The local game as a table: solitaire, or pass-and-play with a row of claims per player.
#[derive(Debug, Clone, Copy)]
pub struct LocalTable(pub Ctx);

impl TableSource for LocalTable {
    fn desk(&self) -> Desk {
        let ctx = self.0;
        ctx.game.with(|g| ctx.words.with(|w| Desk::of(&g.board, &g.rules, g.slots, g.message_in(w), g.roll_count)))
    }

    fn claims(&self) -> Claims {
        self.0.game.with(|g| self.0.words.with(|w| g.claims(w)))
    }

    fn act(&self, act: Act) {
        let t = now_ms();
        if act == Act::Next {
            next_roll(self.0);
            return;
        }
        self.0.game.update(|g| match act {
            Act::Place(slot, id) => g.place_tile(slot, id, t),
            Act::PlaceOp(op) => g.place_op(op, t),
            Act::Tap(id) => g.tap_tile(id, t),
            Act::ClearSlot(slot) => g.clear_slot(slot),
            Act::ClearSlots => g.slots = Default::default(),
            Act::Undo => g.undo(),
            Act::Clear => g.clear(),
            Act::Score(p) => g.press_score(p, t),
            Act::Impossible(p) => g.press_impossible(p, t),
            Act::Reveal => g.reveal(t),
            Act::GiveUp => g.give_up(t),
            Act::Next => {}
        });
    }
}

/// Focuses the first element matching `selector`, once the page has drawn.
pub fn focus_soon(selector: &'static str) {
    request_animation_frame(move || {
        if let Some(el) = document().query_selector(selector).ok().flatten() {
            let _ = wasm_bindgen::JsCast::unchecked_into::<web_sys::HtmlElement>(el).focus();
        }
    });
}

/// After an action in a view that deals a new roll (the daily puzzle, new settings, a
/// match, a typed roll): the table's claims come into view, so on a phone, where the views
/// sit below the table, the new roll isn't dealt out of sight. Focus stays put: a second
/// Enter on the form must not press SCORE.
pub fn show_table() {
    request_animation_frame(|| {
        if let Some(el) = document().query_selector(".claims").ok().flatten() {
            el.scroll_into_view();
        }
    });
}

/// Uses the context provided by the app shell (`app::App`).
pub fn use_ctx() -> Ctx {
    expect_context::<Ctx>()
}

/// 32 random bits from the browser's cryptographic randomness.
pub fn random_u32() -> u32 {
    getrandom::u32().unwrap_or_else(|_| (js_sys::Math::random() * 4_294_967_296.0) as u32)
}

/// Rolls `rules.dice` with the browser's cryptographic randomness.
pub fn roll_dice(rules: &Rules) -> Vec<i64> {
    score_engine::roll::roll(&rules.dice, random_u32)
}
