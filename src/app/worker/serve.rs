//! The worker's end: the page's own wasm, started by `worker.js` (written
//! beside it at build time by `tools/externalize-boot.mjs`); finding no
//! `window`, `main` calls [`serve`] instead of mounting the app. Each job
//! ([`super::jobs`]) runs as a task of its own until it ends or the page
//! cancels it.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

use super::protocol::{post, FromWorker, JobId, ToWorker};
use crate::app::task::Cancel;

/// Answers the page's requests for the lifetime of the worker.
pub fn serve() {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let jobs: Rc<RefCell<HashMap<JobId, Cancel>>> = Rc::default();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| match ToWorker::decode(e.data()) {
        Ok(ToWorker::Read { id, blob }) => spawn(&jobs, id, move |cancel| super::jobs::read(id, blob, cancel)),
        Ok(ToWorker::Survey { id, tree, files, order }) => spawn(&jobs, id, move |cancel| super::jobs::survey(id, tree, files, order, cancel)),
        Ok(ToWorker::Search { id, query, files, keys }) => spawn(&jobs, id, move |cancel| super::jobs::search(id, query, files, keys, cancel)),
        Ok(ToWorker::Cancel { id }) => {
            if let Some(c) = jobs.borrow_mut().remove(&id) {
                c.cancel();
            }
        }
        Err(e) => post(FromWorker::Unreadable { message: e.to_string() }),
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // Lives as long as the worker.
    on_message.forget();
}

/// Runs job `id` as a task of its own, cancellable by the page.
fn spawn<F: std::future::Future<Output = ()> + 'static>(jobs: &Rc<RefCell<HashMap<JobId, Cancel>>>, id: JobId, job: impl FnOnce(Cancel) -> F) {
    let cancel = Cancel::default();
    jobs.borrow_mut().insert(id, cancel.clone());
    let (jobs, fut) = (jobs.clone(), job(cancel));
    wasm_bindgen_futures::spawn_local(async move {
        fut.await;
        jobs.borrow_mut().remove(&id);
    });
}
