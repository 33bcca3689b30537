//! The solver's Web Worker: takes [`score_app::work::Request`]s as plain objects, posts
//! progress and the outcome back, so the page never waits on a long computation.
#![deny(clippy::unwrap_used, clippy::expect_used)]

use score_app::codec;
use score_app::work::{run, Reply, Request};
use wasm_bindgen::prelude::*;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

fn post(scope: &DedicatedWorkerGlobalScope, reply: &Reply) {
    if let Some(message) = codec::to_message(reply) {
        let _ = scope.post_message(&message);
    }
}

fn main() {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let answer = scope.clone();
    let on_message = Closure::<dyn Fn(MessageEvent)>::new(move |ev: MessageEvent| {
        let reply = match codec::from_message::<Request>(ev.data()) {
            Ok(Request { id, job }) => {
                let outcome = run(job, |done, total| post(&answer, &Reply::Progress { id, done, total }));
                Reply::Done { id, outcome }
            }
            Err(e) => Reply::Unreadable(e),
        };
        post(&answer, &reply);
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    // The build this worker is of, as its loader says (scripts/postbuild.py writes it there).
    let build = js_sys::Reflect::get(&scope, &JsValue::from_str("SCORE_BUILD")).ok().and_then(|b| b.as_string());
    post(&scope, &Reply::Ready(build.unwrap_or_default()));
}
