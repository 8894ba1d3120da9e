//! The worker's end: the page's own wasm, started by `worker.js` (written
//! beside it at build time by `tools/externalize-boot.mjs`); finding no
//! `window`, `main` calls [`serve`] instead of mounting the app. Each read
//! runs as a task of its own until it ends or the page cancels it.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use js_sys::Uint8Array;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Blob, DedicatedWorkerGlobalScope, MessageEvent};

use super::protocol::{FromWorker, JobId, ToWorker};
use crate::app::blob::Chunks;
use crate::app::task::{mark, mark_memory, Cancel, Throttle};
use crate::index::Indexer;

/// The worker's reads: nothing else runs on its thread, so larger chunks
/// and more reads in flight keep the browser's file reading busy while the
/// indexer works (measured in `make bench-browser`).
const WORKER_CHUNK_BYTES: u64 = 8 << 20;
const WORKER_IN_FLIGHT: usize = 2;

fn post(msg: FromWorker) {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let sent = msg.encode().and_then(|v| {
        let r = match msg.transfer() {
            Some(t) => scope.post_message_with_transfer(&v, &t),
            None => scope.post_message(&v),
        };
        r.map_err(|e| super::protocol::ProtocolError { from: "reading worker", why: format!("{e:?}") })
    });
    if let Err(e) = sent {
        web_sys::console::error_1(&format!("ccscope worker: {e}").into());
    }
}

/// Answers the page's requests for the lifetime of the worker.
pub fn serve() {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let jobs: Rc<RefCell<HashMap<JobId, Cancel>>> = Rc::default();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| match ToWorker::decode(e.data()) {
        Ok(ToWorker::Read { id, blob }) => {
            let cancel = Cancel::default();
            jobs.borrow_mut().insert(id, cancel.clone());
            let jobs = jobs.clone();
            wasm_bindgen_futures::spawn_local(async move {
                read(id, blob, cancel).await;
                jobs.borrow_mut().remove(&id);
            });
        }
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

/// Reads and indexes `blob`, telling the page as it goes.
async fn read(id: JobId, blob: Blob, cancel: Cancel) {
    mark("worker-read-start");
    let size = blob.size() as u64;
    let mut chunks = Chunks::file(&blob, WORKER_CHUNK_BYTES, WORKER_IN_FLIGHT);
    let mut ix = Indexer::new();
    let mut buf = Vec::new();
    let mut progress = Throttle::new();
    loop {
        let start = match chunks.next(&mut buf).await {
            Ok(Some(start)) => start,
            Ok(None) => break,
            Err(e) => return post(FromWorker::Failed { id, message: e.0 }),
        };
        if cancel.is_cancelled() {
            mark("worker-read-cancelled");
            return;
        }
        if start == 0 {
            // The page draws its preview from these (it need not read them again).
            post(FromWorker::First { id, bytes: Uint8Array::from(&buf[..]).buffer() });
        }
        ix.push(&buf);
        let read_bytes = start + buf.len() as u64;
        if progress.due(read_bytes == size) {
            post(FromWorker::Progress { id, read_bytes });
        }
    }
    let index = ix.finish();
    let pieces = super::pieces::encode(&index);
    drop(index);
    mark_memory("worker-read-end");
    post(FromWorker::Indexed { id, pieces });
}
