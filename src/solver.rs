//! Long computations off the page: each [`Task`] runs one [`Job`] in a Web Worker
//! (`score-worker`), so clocks repaint and buttons answer while it works. Dropping a
//! running task (Cancel, a new request, leaving the view) stops its worker at once; a
//! finished task hands its worker back for the next job, and [`warm_up`] loads one ahead of
//! need. Where no worker can start (a page without the worker's files), the job runs on
//! the page instead.
//!
//! A worker says which build it is of when it has loaded ([`Reply::Ready`]), and the page
//! takes none of another build's (an update can leave a page of one build with the worker
//! files of the next, whose replies it could not read): it reloads, once, to come up on the
//! build its service worker and server now hold ([`refuse`]), or runs the job itself.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use gloo_timers::callback::Timeout;
use wasm_bindgen::prelude::*;
use web_sys::{MessageEvent, Worker};

use crate::codec;
use crate::storage::{set_tab_note, tab_note};
use crate::work::{Job, Outcome, Reply, Request};

/// The worker's loader, beside `index.html` (a relative URL: works from any sub-path).
const WORKER_URL: &str = "./score-worker_loader.js";

/// The tab's note of the last pair of builds (page, worker) it reloaded for.
const REFUSED_NOTE: &str = "score-worker-refused";

type Done = Rc<RefCell<Option<Box<dyn FnOnce(Outcome)>>>>;
type OnMessage = Closure<dyn FnMut(MessageEvent)>;

/// A worker with nothing to do, whether it has loaded, and whether it failed to.
struct Idle {
    worker: Worker,
    ready: Rc<Cell<bool>>,
    broken: Rc<Cell<bool>>,
    _on_message: OnMessage,
    _on_error: Option<Closure<dyn FnMut(web_sys::Event)>>,
}

/// How a job runs on the page where no worker can start.
pub type Fallback = fn(Job) -> Outcome;

thread_local! {
    static IDLE: RefCell<Option<Idle>> = const { RefCell::new(None) };
    static FALLBACK: Cell<Fallback> = const { Cell::new(crate::work::run_play) };
}

/// Sets how jobs run on this module's page when no worker can start: the page's own jobs by
/// default ([`crate::work::run_play`]); the tools module sets [`crate::work::run_all`], which
/// is where the tables and worksheets are linked in.
pub fn set_fallback(f: Fallback) {
    FALLBACK.set(f);
}

/// This page's build id: index.html's `<meta name="score-build">` (scripts/postbuild.py
/// writes it; empty where there is none).
pub(crate) fn page_build() -> String {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector(r#"meta[name="score-build"]"#).ok().flatten())
        .and_then(|m| m.get_attribute("content"))
        .unwrap_or_default()
}

/// The build a worker's hello names: `Some(Ok(build))`; `Some(Err(..))` for a first message
/// that is no hello this page reads (a worker of before hellos named their build); `None`
/// for any other message.
fn hello(data: JsValue) -> Option<Result<String, ()>> {
    match codec::from_message::<Reply>(data) {
        Ok(Reply::Ready(build)) => Some(Ok(build)),
        Ok(_) => None,
        Err(_) => Some(Err(())),
    }
}

/// Refuses a worker of another build than the page's: reloads the page, so that it comes up
/// on the build its service worker (or server) holds now, with a worker of its own build.
/// Once per pair of builds in a tab: if that reload brought the same pair back (a host still
/// serving mixed files), it returns `false` and the caller runs the job on the page instead.
fn refuse(worker_build: Option<&str>) -> bool {
    let pair = format!("{} {}", page_build(), worker_build.unwrap_or("?"));
    if tab_note(REFUSED_NOTE).as_deref() == Some(pair.as_str()) {
        return false;
    }
    set_tab_note(REFUSED_NOTE, Some(&pair));
    // Where the tab keeps no note, a reload could come back to this forever: don't.
    if tab_note(REFUSED_NOTE).as_deref() != Some(pair.as_str()) {
        return false;
    }
    web_sys::window().is_some_and(|w| w.location().reload().is_ok())
}

/// Starts loading a worker, if none waits idle, so that the next job starts at once.
pub fn warm_up() {
    let busy = IDLE.with(|idle| idle.borrow().is_some());
    if busy {
        return;
    }
    let Ok(worker) = Worker::new(WORKER_URL) else { return };
    let ready = Rc::new(Cell::new(false));
    let flag = ready.clone();
    let broken = Rc::new(Cell::new(false));
    let (other, page) = (broken.clone(), page_build());
    // A worker of another build is kept as broken: the job that would take it starts a
    // fresh worker, and refuses that one if it is of another build too.
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| match hello(ev.data()) {
        Some(Ok(build)) if build == page => flag.set(true),
        Some(_) => other.set(true),
        None => {}
    });
    let failed = broken.clone();
    let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |ev: web_sys::Event| {
        ev.prevent_default();
        failed.set(true);
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    let idle = Idle { worker, ready, broken, _on_message: on_message, _on_error: Some(on_error) };
    IDLE.with(|slot| *slot.borrow_mut() = Some(idle));
}

/// Stops `worker` and stops listening to it.
fn stop(worker: &Worker) {
    worker.set_onmessage(None);
    worker.set_onerror(None);
    worker.terminate();
}

/// Gives a worker that finished its job back for the next one (or ends it if one waits).
fn hand_back(worker: &Worker) {
    worker.set_onmessage(None);
    worker.set_onerror(None);
    let kept = IDLE.with(|idle| {
        let mut idle = idle.borrow_mut();
        if idle.is_some() {
            return false;
        }
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(|_: MessageEvent| {});
        *idle = Some(Idle {
            worker: worker.clone(),
            ready: Rc::new(Cell::new(true)),
            broken: Rc::new(Cell::new(false)),
            _on_message: on_message,
            _on_error: None,
        });
        true
    });
    if !kept {
        worker.terminate();
    }
}

/// A running job; dropping it before it is done stops it.
pub struct Task {
    worker: Option<Worker>,
    finished: Rc<Cell<bool>>,
    _on_message: Option<OnMessage>,
    _on_error: Option<Closure<dyn FnMut(web_sys::Event)>>,
    fallback: Rc<RefCell<Option<Timeout>>>,
}

impl Drop for Task {
    fn drop(&mut self) {
        if let Some(w) = self.worker.as_ref().filter(|_| !self.finished.get()) {
            w.set_onmessage(None);
            w.set_onerror(None);
            w.terminate();
        }
        if let Some(t) = self.fallback.borrow_mut().take() {
            t.cancel();
        }
    }
}

/// Runs `job` on the page after the next paint (so "Listing…" shows first).
fn on_page(job: Job, done: Done, slot: &Rc<RefCell<Option<Timeout>>>) {
    let timeout = Timeout::new(16, move || {
        let outcome = FALLBACK.get()(job);
        if let Some(f) = done.borrow_mut().take() {
            f(outcome);
        }
    });
    *slot.borrow_mut() = Some(timeout);
}

/// Starts `job`: `progress(done, total)` as it goes, `done(outcome)` once at the end.
pub fn start(job: Job, progress: impl Fn(u64, u64) + 'static, done: impl FnOnce(Outcome) + 'static) -> Task {
    // One body for every caller's closures (a smaller wasm than one per caller).
    start_boxed(job, Box::new(progress), Rc::new(RefCell::new(Some(Box::new(done)))))
}

fn start_boxed(job: Job, progress: Box<dyn Fn(u64, u64)>, done: Done) -> Task {
    let fallback = Rc::new(RefCell::new(None));
    let finished = Rc::new(Cell::new(false));
    let idle = IDLE.with(|idle| idle.borrow_mut().take());
    if let Some(dead) = idle.as_ref().filter(|i| i.broken.get()) {
        dead.worker.terminate();
    }
    let (worker, ready) = match idle.filter(|i| !i.broken.get()) {
        Some(Idle { worker, ready, .. }) => (worker, ready.get()),
        None => match Worker::new(WORKER_URL) {
            Ok(w) => (w, false),
            Err(_) => {
                on_page(job, done, &fallback);
                return Task { worker: None, finished, _on_message: None, _on_error: None, fallback };
            }
        },
    };
    let request = codec::to_message(&Request { id: 1, job: job.clone() }).unwrap_or(JsValue::NULL);
    // The job, kept to run on the page if the worker fails or is refused.
    let spare = Rc::new(RefCell::new(Some(job)));
    let (to_worker, done_msg, over) = (worker.clone(), done.clone(), finished.clone());
    let (slot, spare_msg, page) = (fallback.clone(), spare.clone(), page_build());
    // Whether the worker said hello as one of this page's build (an idle worker did before).
    let greeted = Cell::new(ready);
    let posted = request.clone();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
        let reply = codec::from_message::<Reply>(ev.data());
        let other = match &reply {
            Ok(Reply::Ready(build)) if *build != page => Some(Some(build.clone())),
            // Before the hello, a message this page can't read is a hello of before hellos
            // named their build.
            Err(_) if !greeted.get() => Some(None),
            _ => None,
        };
        if let Some(build) = other {
            stop(&to_worker);
            if !refuse(build.as_deref()) {
                if let Some(job) = spare_msg.borrow_mut().take() {
                    on_page(job, done_msg.clone(), &slot);
                }
            }
            return;
        }
        match reply {
            Ok(Reply::Ready(_)) => {
                greeted.set(true);
                let _ = to_worker.post_message(&posted);
            }
            Ok(Reply::Progress { done, total, .. }) => progress(done, total),
            Ok(Reply::Done { outcome, .. }) => {
                over.set(true);
                hand_back(&to_worker);
                if let Some(f) = done_msg.borrow_mut().take() {
                    f(outcome);
                }
            }
            Ok(Reply::Unreadable(_)) | Err(_) => {}
        }
    });
    // The worker's files missing or broken: do the job here rather than never.
    let (slot, done_err, failed) = (fallback.clone(), done.clone(), worker.clone());
    let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |ev: web_sys::Event| {
        ev.prevent_default();
        stop(&failed);
        if let Some(job) = spare.borrow_mut().take() {
            on_page(job, done_err.clone(), &slot);
        }
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    if ready {
        let _ = worker.post_message(&request);
    }
    Task { worker: Some(worker), finished, _on_message: Some(on_message), _on_error: Some(on_error), fallback }
}
