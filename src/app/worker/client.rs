//! The page's end of its reading worker. The worker starts with the page
//! (it instantiates the page's already compiled wasm; nothing else runs
//! there until a file is picked) and serves it for the page's lifetime:
//! starting another would fetch `worker.js` again, and the page makes no
//! request after it has loaded. Each request is a [`Job`]; dropping an
//! unfinished job cancels it.
//!
//! **Without a worker** — it could not start (blocked, no module workers
//! here), it died, or it cannot read the picked files (WebKit's workers
//! cannot read the files of a `file://` page) — the same jobs ([`super::jobs`]) run on the page, in
//! chunks between frames, for a single file and a folder alike: a job the
//! worker was doing when it stopped starts again on the page. The results are
//! the same, so the person is not told (the console is).

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::{Rc, Weak};

use futures::channel::mpsc::{unbounded, UnboundedReceiver, UnboundedSender};
use futures::StreamExt;
use js_sys::Array;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Blob, MessageEvent, Worker, WorkerOptions, WorkerType};

use super::jobs;
use super::protocol::{FromWorker, JobId, ProtocolError, ToWorker};
use crate::app::task::Cancel;
use crate::folder::{SessionFacts, Tree};
use crate::state::search::HitText;

/// The worker script, beside `index.html`.
const WORKER_URL: &str = "worker.js";

/// What a job says, without its number.
pub enum Reply {
    Progress(u64),
    /// The index as `index::wire` pieces.
    Indexed(Array),
    /// The browser could not read the file.
    Failed(String),
    Summary { conversation: u32, facts: Box<SessionFacts> },
    SummaryFailed { conversation: u32, message: String },
    Hits { key: u32, matches: u64, hits: Vec<HitText> },
    Offsets { offsets: Vec<u64>, matches: u64 },
    Listed { files: Array, handles: Array, paths: Vec<String>, unreadable: Vec<String> },
    /// A survey, a search or a walk is over.
    Done,
}

impl Reply {
    /// A message from a job as the job's reply (`Err`: not one a job sends).
    fn of(msg: FromWorker) -> Result<(JobId, Reply), String> {
        Ok(match msg {
            FromWorker::Progress { id, read_bytes } => (id, Reply::Progress(read_bytes)),
            FromWorker::Indexed { id, pieces } => (id, Reply::Indexed(pieces)),
            FromWorker::Failed { id, message } => (id, Reply::Failed(message)),
            FromWorker::Summary { id, conversation, facts } => (id, Reply::Summary { conversation, facts }),
            FromWorker::SummaryFailed { id, conversation, message } => (id, Reply::SummaryFailed { conversation, message }),
            FromWorker::Hits { id, key, matches, hits } => (id, Reply::Hits { key, matches, hits }),
            FromWorker::Offsets { id, offsets, matches } => (id, Reply::Offsets { offsets, matches }),
            FromWorker::Listed { id, files, handles, paths, unreadable } => (id, Reply::Listed { files, handles, paths, unreadable }),
            FromWorker::Done { id } => (id, Reply::Done),
            FromWorker::Unreadable { message } => return Err(message),
        })
    }
}

/// Why a job could not be done.
#[derive(Debug, thiserror::Error)]
pub enum WorkerError {
    /// The worker answered in a way this page cannot read (a build mismatch).
    #[error(transparent)]
    Protocol(#[from] ProtocolError),
    /// The job ended without an answer.
    #[error("the reader stopped without an answer")]
    Stopped,
}

enum Event {
    Reply(Reply),
    Broken(WorkerError),
}

/// A job under way: where its replies go, and (to start it again on the
/// page if the worker dies) what it asked for.
struct Running {
    tx: UnboundedSender<Event>,
    msg: ToWorker,
    /// Set when it runs on the page.
    local: Option<Cancel>,
}

struct Inner {
    worker: Option<Worker>,
    /// Why there is no worker, once there is none.
    gone: Option<String>,
    next_id: JobId,
    jobs: HashMap<JobId, Running>,
    _on_message: Option<Closure<dyn FnMut(MessageEvent)>>,
    _on_error: Option<Closure<dyn FnMut(web_sys::Event)>>,
}

/// The page's one worker (cheap to clone; equal when it is the same).
#[derive(Clone)]
pub struct Client(Rc<RefCell<Inner>>);

impl PartialEq for Client {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// Hands `reply` to job `id`, if it is still waiting (the borrow ends
/// before the send: a reply may start more work on the client).
fn deliver(inner: &Rc<RefCell<Inner>>, id: JobId, reply: Reply) {
    let tx = inner.borrow().jobs.get(&id).map(|r| r.tx.clone());
    if let Some(tx) = tx {
        let _ = tx.unbounded_send(Event::Reply(reply));
    }
}

/// Runs job `msg` on the page; its replies go to job `id`'s channel.
fn run_here(inner: &Rc<RefCell<Inner>>, msg: ToWorker, cancel: Cancel) {
    let weak = Rc::downgrade(inner);
    let out: jobs::Out = Rc::new(move |m: FromWorker| {
        let Some(inner) = weak.upgrade() else { return };
        if let Ok((id, reply)) = Reply::of(m) {
            deliver(&inner, id, reply);
        }
    });
    yew::platform::spawn_local(async move {
        // A turn of the event loop first: the page draws what the caller
        // just asked for before the job's first chunk.
        crate::app::task::yield_to_page().await;
        jobs::run(msg, cancel, out).await;
    });
}

/// The worker died or cannot read the picked files: it is stopped, its
/// jobs start again on the page, and later ones run there.
fn fall_back(inner: &Rc<RefCell<Inner>>, why: &str) {
    let restart: Vec<(ToWorker, Cancel)> = {
        let mut i = inner.borrow_mut();
        if let Some(w) = i.worker.take() {
            w.terminate();
        }
        web_sys::console::warn_1(&format!("ccscope: the reading worker is not used ({why}); files are read on the page").into());
        i.gone = Some(why.to_string());
        i.jobs
            .values_mut()
            .filter(|r| r.local.is_none())
            .map(|r| {
                let c = Cancel::default();
                r.local = Some(c.clone());
                (r.msg.clone(), c)
            })
            .collect()
    };
    for (msg, cancel) in restart {
        run_here(inner, msg, cancel);
    }
}

impl Client {
    /// Starts the worker and sends it the page's compiled module right away
    /// (so it neither downloads nor compiles it again; `worker.js` holds
    /// later messages until the module runs). Without a worker, jobs run on
    /// the page.
    pub fn start() -> Client {
        let inner = Rc::new(RefCell::new(Inner { worker: None, gone: None, next_id: 1, jobs: HashMap::new(), _on_message: None, _on_error: None }));
        if let Err(why) = Client::spawn(&inner) {
            web_sys::console::warn_1(&format!("ccscope: no reading worker ({why}); files are read on the page").into());
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
            let why = match FromWorker::decode(e.data()).map_err(|e| ProtocolError { from: "reading worker", why: e.why }) {
                Ok(msg) => match Reply::of(msg) {
                    // The worker could not read a picked file: WebKit's
                    // workers cannot read the files of a file:// page. The
                    // page may well read it: from now on it reads them all.
                    Ok((_, Reply::Failed(why) | Reply::SummaryFailed { message: why, .. })) => return fall_back(&inner, &format!("it could not read a file: {why}")),
                    Ok((id, reply)) => return deliver(&inner, id, reply),
                    // Our own request did not decode there: a build mismatch.
                    Err(message) => ProtocolError { from: "page", why: message },
                },
                Err(e) => e,
            };
            for (_, r) in inner.borrow_mut().jobs.drain() {
                let _ = r.tx.unbounded_send(Event::Broken(WorkerError::Protocol(ProtocolError { from: why.from, why: why.why.clone() })));
            }
        });
        let weak = Rc::downgrade(inner);
        let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |e: web_sys::Event| {
            e.prevent_default();
            let what = e.dyn_ref::<web_sys::ErrorEvent>().map(|e| e.message()).unwrap_or_else(|| "the worker failed".into());
            if let Some(inner) = weak.upgrade() {
                fall_back(&inner, &what);
            }
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

    /// Starts the job `make(id)` makes, in the worker or on the page.
    fn job(&self, make: impl FnOnce(JobId) -> ToWorker) -> Result<Job, WorkerError> {
        let mut inner = self.0.borrow_mut();
        let id = inner.next_id;
        inner.next_id += 1;
        let msg = make(id);
        let (tx, rx) = unbounded();
        let local = match inner.worker.clone() {
            Some(w) => {
                let sent = msg.encode()?;
                if let Err(e) = w.post_message(&sent) {
                    inner.gone = Some(format!("{e:?}"));
                    Some(Cancel::default())
                } else {
                    None
                }
            }
            None => Some(Cancel::default()),
        };
        inner.jobs.insert(id, Running { tx, msg: msg.clone(), local: local.clone() });
        drop(inner);
        if let Some(cancel) = local {
            run_here(&self.0, msg, cancel);
        }
        Ok(Job { id, rx, client: Rc::downgrade(&self.0), ended: false })
    }

    /// Reads and indexes `blob` (`settled`: a followed file, its unended
    /// last line left out).
    pub fn read(&self, blob: &Blob, settled: bool) -> Result<Job, WorkerError> {
        self.job(|id| ToWorker::Read { id, blob: blob.clone(), settled })
    }

    /// Sums up `tree`'s conversations in `order`; those in `keep` are
    /// followed (summed again later from where they grew).
    pub fn survey(&self, tree: &Tree, files: &Array, order: Vec<u32>, keep: Vec<u32>) -> Result<Job, WorkerError> {
        self.job(|id| ToWorker::Survey { id, tree: tree.clone(), files: files.clone(), order, keep })
    }

    /// Searches `files` (each with its key) for `query`.
    pub fn search(&self, query: &str, files: &Array, keys: Vec<u32>) -> Result<Job, WorkerError> {
        self.job(|id| ToWorker::Search { id, query: query.to_string(), files: files.clone(), keys })
    }

    /// Finds where `query` matches in `blob` (the open file).
    pub fn find(&self, query: &str, blob: &Blob) -> Result<Job, WorkerError> {
        self.job(|id| ToWorker::Find { id, query: query.to_string(), blob: blob.clone() })
    }

    /// Lists the folder of handle `dir`.
    pub fn walk(&self, dir: &JsValue) -> Result<Job, WorkerError> {
        self.job(|id| ToWorker::Walk { id, dir: dir.clone() })
    }

    /// Stops job `id` at its next chunk.
    pub fn cancel(&self, id: JobId) {
        let mut inner = self.0.borrow_mut();
        let Some(r) = inner.jobs.remove(&id) else { return };
        match r.local {
            Some(c) => c.cancel(),
            None => {
                if let (Some(w), Ok(msg)) = (&inner.worker, ToWorker::Cancel { id }.encode()) {
                    let _ = w.post_message(&msg);
                }
            }
        }
    }
}

/// A job under way.
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
            None => Err(WorkerError::Stopped),
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
