//! The page's end of its reading worker. The worker starts with the page
//! (it instantiates the page's already compiled wasm; nothing else runs
//! there until a file is picked) and serves it for the page's lifetime:
//! starting another would fetch `worker.js` again, and the page makes no
//! request after it has loaded. Each read is a [`Job`]; dropping an
//! unfinished job cancels the read in the worker.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::{Rc, Weak};

use futures::channel::mpsc::{unbounded, UnboundedReceiver, UnboundedSender};
use futures::StreamExt;
use js_sys::Array;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Blob, MessageEvent, Worker, WorkerOptions, WorkerType};

use super::protocol::{FromWorker, JobId, ProtocolError, ToWorker};
use crate::state::search::HitText;
use crate::folder::{SessionFacts, Tree};

/// The worker script, beside `index.html`.
const WORKER_URL: &str = "worker.js";

/// What the worker says about a read.
pub enum Reply {
    Progress(u64),
    /// The index as `index::wire` pieces.
    Indexed(Array),
    /// The browser could not read the file.
    Failed(String),
    Summary { conversation: u32, facts: Box<SessionFacts> },
    SummaryFailed { conversation: u32, message: String },
    Hits { key: u32, matches: u64, hits: Vec<HitText> },
    /// A survey or a search is over.
    Done,
}

/// Why the worker cannot do a read.
#[derive(Debug, thiserror::Error)]
pub enum WorkerError {
    /// No worker here (blocked, failed to load, died): the page reads itself.
    #[error("no reading worker: {0}")]
    Unavailable(String),
    /// The worker answered in a way this page cannot read.
    #[error(transparent)]
    Protocol(#[from] ProtocolError),
}

enum Event {
    Reply(Reply),
    Broken(WorkerError),
}

struct Inner {
    worker: Option<Worker>,
    /// Why there is no worker, once there is none.
    gone: Option<String>,
    next_id: JobId,
    jobs: HashMap<JobId, UnboundedSender<Event>>,
    _on_message: Option<Closure<dyn FnMut(MessageEvent)>>,
    _on_error: Option<Closure<dyn FnMut(web_sys::Event)>>,
}

impl Inner {
    /// Ends every job with `e` (made afresh per job) and forgets the worker.
    fn break_all(&mut self, e: impl Fn() -> WorkerError) {
        for (_, tx) in self.jobs.drain() {
            let _ = tx.unbounded_send(Event::Broken(e()));
        }
    }
}

/// The page's one worker (cheap to clone; equal when it is the same).
#[derive(Clone)]
pub struct Client(Rc<RefCell<Inner>>);

impl PartialEq for Client {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl Client {
    /// Starts the worker and sends it the page's compiled module right away
    /// (so it neither downloads nor compiles it again; `worker.js` holds
    /// later messages until the module runs). Without a worker the client
    /// answers every read with [`WorkerError::Unavailable`].
    pub fn start() -> Client {
        let inner = Rc::new(RefCell::new(Inner { worker: None, gone: None, next_id: 1, jobs: HashMap::new(), _on_message: None, _on_error: None }));
        if let Err(why) = Client::spawn(&inner) {
            web_sys::console::warn_1(&format!("ccscope: no reading worker ({why}); files are read in the page").into());
            inner.borrow_mut().gone = Some(why);
        }
        Client(inner)
    }

    fn spawn(inner: &Rc<RefCell<Inner>>) -> Result<(), String> {
        // The single-file build (tools/standalone.mjs) starts the worker from
        // a `blob:` URL it made of its inlined script, as a classic worker
        // (a module worker cannot start from a file:// page); hosted,
        // `worker.js` as a module.
        let global = |key: &str| js_sys::Reflect::get(&js_sys::global(), &key.into()).ok().and_then(|v| v.as_string());
        let url = global("ccscopeWorkerUrl").unwrap_or_else(|| WORKER_URL.to_string());
        let opts = WorkerOptions::new();
        if global("ccscopeWorkerType").as_deref() != Some("classic") {
            opts.set_type(WorkerType::Module);
        }
        let worker = Worker::new_with_options(&url, &opts).map_err(|e| format!("{e:?}"))?;
        let weak = Rc::downgrade(inner);
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
            let Some(inner) = weak.upgrade() else { return };
            let mut inner = inner.borrow_mut();
            let (id, reply) = match FromWorker::decode(e.data()) {
                Ok(FromWorker::Progress { id, read_bytes }) => (id, Reply::Progress(read_bytes)),
                Ok(FromWorker::Indexed { id, pieces }) => (id, Reply::Indexed(pieces)),
                Ok(FromWorker::Failed { id, message }) => (id, Reply::Failed(message)),
                Ok(FromWorker::Summary { id, conversation, facts }) => (id, Reply::Summary { conversation, facts }),
                Ok(FromWorker::SummaryFailed { id, conversation, message }) => (id, Reply::SummaryFailed { conversation, message }),
                Ok(FromWorker::Hits { id, key, matches, hits }) => (id, Reply::Hits { key, matches, hits }),
                Ok(FromWorker::Done { id }) => (id, Reply::Done),
                Ok(FromWorker::Unreadable { message }) => {
                    // Our own request did not decode there: a build mismatch.
                    return inner.break_all(|| WorkerError::Protocol(ProtocolError { from: "page", why: message.clone() }));
                }
                Err(e) => {
                    let why = e.why.clone();
                    return inner.break_all(|| WorkerError::Protocol(ProtocolError { from: "reading worker", why: why.clone() }));
                }
            };
            if let Some(tx) = inner.jobs.get(&id) {
                let _ = tx.unbounded_send(Event::Reply(reply));
            }
        });
        let weak = Rc::downgrade(inner);
        let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |e: web_sys::Event| {
            e.prevent_default();
            let what = e.dyn_ref::<web_sys::ErrorEvent>().map(|e| e.message()).unwrap_or_else(|| "the worker failed".into());
            let Some(inner) = weak.upgrade() else { return };
            let mut inner = inner.borrow_mut();
            // A dead worker: its reads, and later ones, go to the page.
            if let Some(w) = inner.worker.take() {
                w.terminate();
            }
            inner.gone = Some(what.clone());
            inner.break_all(|| WorkerError::Unavailable(what.clone()));
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        worker.set_onmessageerror(Some(on_error.as_ref().unchecked_ref()));
        let module = js_sys::Object::new();
        js_sys::Reflect::set(&module, &"module".into(), &wasm_bindgen::module()).map_err(|e| format!("{e:?}"))?;
        worker.post_message(&module).map_err(|e| format!("{e:?}"))?;
        let mut i = inner.borrow_mut();
        i.worker = Some(worker);
        i._on_message = Some(on_message);
        i._on_error = Some(on_error);
        Ok(())
    }

    /// Sends the request `make(id)` makes; its replies come to the job.
    fn job(&self, make: impl FnOnce(JobId) -> ToWorker) -> Result<Job, WorkerError> {
        let mut inner = self.0.borrow_mut();
        let worker = match (&inner.worker, &inner.gone) {
            (Some(w), _) => w.clone(),
            (None, why) => return Err(WorkerError::Unavailable(why.clone().unwrap_or_else(|| "not started".into()))),
        };
        let id = inner.next_id;
        inner.next_id += 1;
        let msg = make(id).encode()?;
        worker.post_message(&msg).map_err(|e| WorkerError::Unavailable(format!("{e:?}")))?;
        let (tx, rx) = unbounded();
        inner.jobs.insert(id, tx);
        Ok(Job { id, rx, client: Rc::downgrade(&self.0), ended: false })
    }

    /// Asks the worker to read and index `blob`.
    pub fn read(&self, blob: &Blob) -> Result<Job, WorkerError> {
        self.job(|id| ToWorker::Read { id, blob: blob.clone() })
    }

    /// Asks the worker to sum up `tree`'s conversations in `order`.
    pub fn survey(&self, tree: &Tree, files: &Array, order: Vec<u32>) -> Result<Job, WorkerError> {
        self.job(|id| ToWorker::Survey { id, tree: tree.clone(), files: files.clone(), order })
    }

    /// Asks the worker to search `files` (each with its key) for `query`.
    pub fn search(&self, query: &str, files: &Array, keys: Vec<u32>) -> Result<Job, WorkerError> {
        self.job(|id| ToWorker::Search { id, query: query.to_string(), files: files.clone(), keys })
    }
}

impl Client {
    /// Stops read `id` in the worker at its next chunk.
    pub fn cancel(&self, id: JobId) {
        let mut inner = self.0.borrow_mut();
        if inner.jobs.remove(&id).is_some() {
            if let (Some(w), Ok(msg)) = (&inner.worker, ToWorker::Cancel { id }.encode()) {
                let _ = w.post_message(&msg);
            }
        }
    }
}

/// A read the worker is doing.
pub struct Job {
    id: JobId,
    rx: UnboundedReceiver<Event>,
    client: Weak<RefCell<Inner>>,
    ended: bool,
}

impl Job {
    pub fn id(&self) -> JobId {
        self.id
    }

    /// The next reply. After `Indexed`, `Failed` or `Done` the job is over.
    pub async fn next(&mut self) -> Result<Reply, WorkerError> {
        let event = self.rx.next().await;
        let out = match event {
            Some(Event::Reply(r)) => Ok(r),
            Some(Event::Broken(e)) => Err(e),
            None => Err(WorkerError::Unavailable("the worker stopped without an answer".into())),
        };
        if matches!(out, Ok(Reply::Indexed(_) | Reply::Failed(_) | Reply::Done) | Err(_)) {
            self.ended = true;
        }
        out
    }
}

impl Drop for Job {
    fn drop(&mut self) {
        let Some(inner) = self.client.upgrade() else { return };
        if !self.ended {
            Client(inner).cancel(self.id);
        } else if let Ok(mut inner) = inner.try_borrow_mut() {
            inner.jobs.remove(&self.id);
        }
    }
}
