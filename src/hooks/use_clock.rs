//! The wall clock: a `now` signal refreshed by an interval while the page lives.
//!
//! Clocks in Score are deadlines (see `score_engine::round`), so the interval
//! only refreshes the display and settles a claim once its deadline passes;
//! a throttled tab that ticks late never stretches a clock.

use gloo_timers::callback::Interval;
use leptos::prelude::*;

/// Milliseconds since the epoch, from the browser's clock.
pub fn now_ms() -> u64 {
    js_sys::Date::now().max(0.0) as u64
}

/// Starts the display clock: `now` is refreshed every 200 ms and `on_tick` runs after each
/// refresh, for as long as the calling component lives.
pub fn use_clock(now: RwSignal<u64>, on_tick: impl Fn(u64) + 'static) {
    let interval = Interval::new(200, move || {
        let t = now_ms();
        now.set(t);
        on_tick(t);
    });
    // Owned by the component: dropped (and so cancelled) when it unmounts.
    StoredValue::new_local(interval);
}
