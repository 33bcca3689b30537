//! When a room's page may start its service worker. The worker's install precaches every
//! file of the build, every module included (about 900 KB gzip): on a slow link that would
//! compete with what a student joining from an invite waits for (the student's room module). On a
//! room's link `static/register-sw.js` registers it once the page says it is ready (a seat or
//! a screen of the room taken) and the browser is idle, or half a minute after the room is
//! drawn if the page never says so (a join form left unfilled). A first visit to solitaire
//! registers it once the app says its page is drawn ([`DRAWN`], in the start's last task) and
//! the browser is idle, or half a minute after load; a page a worker already controls
//! registers it at load, to hear of a new build at once.

/// The event that says the page is ready for its service worker.
pub const READY: &str = "score-ready";

/// The event that says a page is drawn: solitaire's (the app's start done: its worker is
/// registered when the browser is next idle), or a room's (its forms or its table), when a
/// room's link started a room's module alone: half a minute after it, a page whose student
/// never joins registers its worker. (Not after `load`: on a slow link shared by a class,
/// `load` can come long before the room's module (the student's), and the precache would
/// take the link it needs.)
pub const DRAWN: &str = "score-drawn";

/// Tells the page it is drawn ([`DRAWN`]).
pub fn drawn() {
    say(DRAWN);
}

/// Tells the page it is ready for its service worker (said again, it changes nothing: the
/// worker is registered once). `register-sw.js` is listening by then: it runs before the app
/// can be seated, which takes a room's module and a round trip to the server.
pub fn ready() {
    say(READY);
}

fn say(event: &str) {
    if let (Some(w), Ok(ev)) = (web_sys::window(), web_sys::Event::new(event)) {
        let _ = w.dispatch_event(&ev);
    }
}
