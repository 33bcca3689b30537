//! The solver's Web Worker: takes [`score_app::work::Request`]s as JSON text, posts
//! progress and the outcome back, so the page never waits on a long computation.
#![deny(clippy::unwrap_used, clippy::expect_used)]

use score_app::work::{run, Reply, Request};
use wasm_bindgen::prelude::*;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

fn post(scope: &DedicatedWorkerGlobalScope, reply: &Reply) {
    if let Ok(text) = serde_json::to_string(reply) {
        let _ = scope.post_message(&JsValue::from_str(&text));
    }
}

fn main() {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let answer = scope.clone();
    let on_message = Closure::<dyn Fn(MessageEvent)>::new(move |ev: MessageEvent| {
        let text = ev.data().as_string().unwrap_or_default();
        let reply = match serde_json::from_str::<Request>(&text) {
            Ok(Request { id, job }) => {
                let outcome = run(job, |done, total| post(&answer, &Reply::Progress { id, done, total }));
                Reply::Done { id, outcome }
            }
            Err(e) => Reply::Unreadable(e.to_string()),
        };
        post(&answer, &reply);
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    post(&scope, &Reply::Ready);
}
