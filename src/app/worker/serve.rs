//! The worker's end: the page's own wasm, started by `worker.js` (written
//! beside it at build time by `tools/externalize-boot.mjs`); finding no
//! `window`, `main` calls [`serve`] instead of mounting the app. Each job
//! ([`super::jobs`]) runs as a task of its own until it ends or the page
//! cancels it; its replies are posted to the page.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

use super::jobs::{self, Out};
use super::protocol::{post, FromWorker, JobId, ToWorker};
use crate::app::task::Cancel;

/// Answers the page's requests for the lifetime of the worker.
pub fn serve() {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let running: Rc<RefCell<HashMap<JobId, Cancel>>> = Rc::default();
    let out: Out = Rc::new(post);
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| match ToWorker::decode(e.data()) {
        Ok(ToWorker::Cancel { id }) => {
            if let Some(c) = running.borrow_mut().remove(&id) {
                c.cancel();
            }
        }
        Ok(msg) => {
            let (id, cancel) = (msg.id(), Cancel::default());
            running.borrow_mut().insert(id, cancel.clone());
            let (running, out) = (running.clone(), out.clone());
            wasm_bindgen_futures::spawn_local(async move {
                jobs::run(msg, cancel, out).await;
                running.borrow_mut().remove(&id);
            });
        }
        Err(e) => post(FromWorker::Unreadable { message: e.to_string() }),
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // Lives as long as the worker.
    on_message.forget();
}
