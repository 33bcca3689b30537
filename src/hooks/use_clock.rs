//! The wall clock: a `now` signal refreshed by an interval while the page lives.
//!
//! Clocks in Score are deadlines (see `score_engine::round`), so the interval
//! only refreshes the display and settles a claim once its deadline passes;
//! a throttled tab that ticks late never stretches a clock.

use gloo_timers::callback::Interval;
use leptos::prelude::*;

thread_local! {
    /// The epoch time of `performance.now()`'s zero, as this page measures it.
    static ANCHOR: std::cell::Cell<Option<f64>> = const { std::cell::Cell::new(None) };
}

/// Where the page's time stands, kept in storage while a clock runs (and as the page is
/// hidden), so that a page opened later never starts its time below it: a device clock set
/// back before a reload can't fill a SCORE clock again.
pub fn not_before(mark_ms: u64) {
    let perf = web_sys::window().and_then(|w| w.performance()).map(|p| p.now());
    let Some(perf) = perf else { return };
    let wall = js_sys::Date::now();
    ANCHOR.with(|a| a.set(Some(floored(a.get(), wall, perf, mark_ms as f64))));
}

/// The anchor at `perf` with the device's clock at `wall`, raised so that the page's time
/// is `mark` at least.
fn floored(counted: Option<f64>, wall: f64, perf: f64, mark: f64) -> f64 {
    next_anchor(counted, wall, perf).max(mark - perf)
}

/// Milliseconds since the epoch, as the page measures them: the monotonic
/// `performance.now()` from an anchor on the device's clock. Setting the device's clock back
/// never stretches a clock running on the page. The device's clock running ahead of the
/// page's count is taken, though: some systems pause `performance.now()` while a laptop
/// sleeps, and time slept is real time.
pub fn now_ms() -> u64 {
    let perf = web_sys::window().and_then(|w| w.performance()).map(|p| p.now());
    let Some(perf) = perf else { return js_sys::Date::now().max(0.0) as u64 };
    let wall = js_sys::Date::now();
    let anchor = ANCHOR.with(|a| {
        let v = next_anchor(a.get(), wall, perf);
        a.set(Some(v));
        v
    });
    (anchor + perf).max(0.0) as u64
}

/// The anchor after reading the device's clock (`wall`) at `perf`: the first reading sets
/// it; later ones move it forward only (by more than a second's drift), never back.
fn next_anchor(counted: Option<f64>, wall: f64, perf: f64) -> f64 {
    match counted {
        Some(c) if wall - perf <= c + 1_000.0 => c,
        _ => wall - perf,
    }
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

#[cfg(test)]
mod tests {
    use super::next_anchor;

    // Pins a bug: the device's clock set back an hour under a SCORE clock showed 3,630 s left.
    #[test]
    fn the_pages_clock_follows_real_time_not_the_devices_clock_set_back() {
        let t0 = 1_800_000_000_000.0;
        let a = next_anchor(None, t0, 500.0);
        assert_eq!(a + 500.0, t0);
        // Ten seconds on, the device's clock set back an hour: the page's time runs on.
        let b = next_anchor(Some(a), t0 + 10_000.0 - 3_600_000.0, 10_500.0);
        assert_eq!(b + 10_500.0, t0 + 10_000.0);
        // A laptop that slept ten minutes while the page's count paused: real time is taken.
        let c = next_anchor(Some(b), t0 + 610_000.0, 10_600.0);
        assert_eq!(c + 10_600.0, t0 + 610_000.0);
        // The two clocks' own drift, under a second, moves nothing.
        assert_eq!(next_anchor(Some(c), c + 20_000.0 + 700.0, 20_000.0), c);
    }

    // Pins a bug: SCORE, the device's clock set back, a reload: the SCORE clock was full
    // again, as often as one liked. The page's time starts at the stored mark at least.
    #[test]
    fn a_page_never_starts_its_time_below_the_stored_mark() {
        let mark = 1_800_000_025_000.0;
        // Reloaded 200 ms into the new page, the device's clock an hour behind.
        let a = super::floored(None, mark - 3_600_000.0, 200.0, mark);
        assert_eq!(a + 200.0, mark);
        // And it runs on in real time from there.
        assert_eq!(next_anchor(Some(a), mark - 3_600_000.0 + 5_000.0, 5_200.0) + 5_200.0, mark + 5_000.0);
        // A device clock ahead of the mark is taken as it is.
        let b = super::floored(None, mark + 60_000.0, 200.0, mark);
        assert_eq!(b + 200.0, mark + 60_000.0);
    }
}
