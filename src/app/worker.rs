//! Reading and indexing in a Web Worker, so the page never waits for it.
//!
//! The worker is the page's own wasm, started by `worker.js` (written next
//! to it at build time by `tools/externalize-boot.mjs`); finding no
//! `window`, its `main` calls [`serve`] instead of mounting the app.
//!
//! ```text
//!   page (at start-up)                         worker
//!   new Worker("worker.js")
//!   {module}                      ─────────►   init wasm from the page's compiled module, serve()
//!                                              warm_up(): a generated transcript, read 3 times
//!                                 ◄─────────   {kind: "warmed", ms}
//!   (a pick)
//!   {kind: "read", id, blob}      ─────────►   read_blob(blob) chunk by chunk
//!                                 ◄─────────   {kind: "first", id, bytes}   (the first chunk, for the preview)
//!                                 ◄─────────   {kind: "progress", id, read_bytes}   (≤ every 100 ms)
//!                                 ◄─────────   {kind: "done", id, pieces: [ArrayBuffer…], index_ms, wait_ms, memory_bytes}
//!                                              (the index as `index::wire` bytes, transferred, not copied)
//!   decode → Index   (in steps, yielding to the page between them)
//! ```
//!
//! One worker serves the page for its lifetime: starting another would
//! fetch `worker.js` again, and the page makes no request after it has
//! loaded. A newer `read` replaces an older one (the worker drops the old
//! read at its next chunk; replies carry the `id` they answer). The worker
//! keeps the wasm memory its largest file needed (wasm memory never
//! shrinks) until the page is closed.
//!
//! The `File` crosses by reference (structured clone): the worker reads the
//! same file from disk; nothing leaves the browser. If the worker cannot
//! start or dies, [`start`] or [`Pending::finish`] say so and the page reads
//! the file itself.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use js_sys::{Array, Object, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Blob, DedicatedWorkerGlobalScope, MessageEvent, Worker, WorkerOptions, WorkerType};

use super::viewer::wasm_memory_bytes;
use super::{now_ms, PROGRESS_MS};
use super::reader::{read_blob, yield_to_page, ReadError};
use crate::index::wire::{self, Input, WireError};
use crate::index::Index;

/// The worker script, beside `index.html`.
const WORKER_URL: &str = "worker.js";
/// The worker's reads: nothing else runs on its thread, so larger chunks
/// and more reads in flight keep the browser's file reading busy while the
/// indexer works (measured in `make bench-browser`).
const WORKER_CHUNK_BYTES: u64 = 8 << 20;
const WORKER_IN_FLIGHT: usize = 2;
/// The encoded index travels in pieces of this size.
const PIECE_BYTES: usize = 4 << 20;
/// Records the page decodes between two yields (about 10 ms in Chromium),
/// so a 2 GB file's index (300 k rows) never holds the page for long.
const DECODE_STEP_RECORDS: usize = 50_000;

fn get(o: &JsValue, key: &str) -> JsValue {
    Reflect::get(o, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

fn message(kind: &str, fields: &[(&str, JsValue)]) -> Object {
    let o = Object::new();
    let _ = Reflect::set(&o, &"kind".into(), &kind.into());
    for (k, v) in fields {
        let _ = Reflect::set(&o, &JsValue::from_str(k), v);
    }
    o
}

// ---- the worker's side ----

thread_local! {
    /// The id of the newest read asked for; older reads stop at their next chunk.
    static NEWEST: Cell<f64> = const { Cell::new(0.0) };
}

/// Runs in the worker: answers each `{kind: "read", id, blob}` with the
/// blob's index.
pub fn serve() {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(|e: MessageEvent| {
        let data = e.data();
        let id = get(&data, "id").as_f64().unwrap_or(0.0);
        if let Ok(blob) = get(&data, "blob").dyn_into::<Blob>() {
            NEWEST.with(|n| n.set(id));
            wasm_bindgen_futures::spawn_local(async move {
                index_and_reply(id, blob, WORKER_CHUNK_BYTES, Reply::Yes).await;
            });
        }
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // Lives as long as the worker.
    on_message.forget();
    wasm_bindgen_futures::spawn_local(warm_up());
}

/// Generated transcript bytes the warm-up reads, and how many times.
const WARM_UP_BYTES: usize = 2 << 20;
const WARM_UP_ROUNDS: usize = 3;

/// Reads and encodes a generated transcript (built in memory, no request)
/// a few times at start-up, through the very path a pick takes.
///
/// Why: V8 first runs each wasm function as its baseline compiler's code
/// and swaps in optimised code only after the function has run a while.
/// Without this, a pick's first ~100 ms of indexing runs the slow code.
/// A pick that arrives meanwhile stops the warm-up at its next chunk
/// (`NEWEST` is no longer 0). It goes through [`index_and_reply`] itself,
/// not just the indexer: V8 counts heat per compiled function, and the
/// reading loop is compiled into that function (one copy per caller).
/// Tells the page `{kind: "warmed", ms}`.
async fn warm_up() {
    let t0 = now_ms();
    let text = crate::synth::transcript(WARM_UP_BYTES, 0x5eed);
    let Ok(blob) = Blob::new_with_u8_array_sequence(&Array::of1(&Uint8Array::from(text.as_bytes()))) else { return };
    drop(text);
    for _ in 0..WARM_UP_ROUNDS {
        yield_to_page().await;
        if NEWEST.with(|n| n.get()) != 0.0 {
            return;
        }
        // Id 0, which no pick has: a pick makes it stale at the next chunk.
        // Small chunks: the reading loop turns as often as on a large file.
        if !index_and_reply(0.0, blob.clone(), WORKER_CHUNK_BYTES / 64, Reply::No).await {
            return;
        }
    }
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let _ = scope.post_message(&message("warmed", &[("ms", (now_ms() - t0).into())]));
}

/// Whether [`index_and_reply`] tells the page (no: the warm-up).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reply {
    Yes,
    No,
}

/// Reads and indexes `blob` for read `id`, telling the page (first chunk,
/// progress, the index or an error) if `reply` says so. `false` if the
/// read did not finish (superseded or failed).
async fn index_and_reply(id: f64, blob: Blob, chunk_bytes: u64, reply: Reply) -> bool {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let post = |m: &Object, transfer: Option<&Array>| {
        if reply == Reply::Yes {
            let _ = match transfer {
                Some(t) => scope.post_message_with_transfer(m, t),
                None => scope.post_message(m),
            };
        }
    };
    let mut shown_ms = f64::NEG_INFINITY;
    let size = blob.size() as u64;
    let on_first = |first: &[u8]| {
        // The page draws its preview from these (it need not read them again).
        let bytes = Uint8Array::from(first).buffer();
        post(&message("first", &[("id", id.into()), ("bytes", bytes.clone().into())]), Some(&Array::of1(&bytes)));
    };
    let outcome = read_blob(&blob, chunk_bytes, WORKER_IN_FLIGHT, on_first, |read_bytes| {
        if NEWEST.with(|n| n.get()) != id {
            return false;
        }
        let now = now_ms();
        if now - shown_ms >= PROGRESS_MS || read_bytes == size {
            shown_ms = now;
            post(&message("progress", &[("id", id.into()), ("read_bytes", (read_bytes as f64).into())]), None);
        }
        true
    })
    .await;
    match outcome {
        Ok(o) => {
            let pieces = encode(&o.index);
            let memory_bytes = f64::from(wasm_memory_bytes());
            drop(o.index);
            let done = message(
                "done",
                &[
                    ("id", id.into()),
                    ("pieces", pieces.clone().into()),
                    ("index_ms", o.index_ms.into()),
                    ("wait_ms", o.wait_ms.into()),
                    ("memory_bytes", memory_bytes.into()),
                ],
            );
            post(&done, Some(&pieces));
            true
        }
        Err(ReadError::Browser(m)) => {
            post(&message("error", &[("id", id.into()), ("message", m.into())]), None);
            false
        }
        Err(ReadError::Superseded) => false,
    }
}

/// The index as `wire` bytes in transferable pieces (the worker's answer).
/// Not inlined, and [`decode`]'s steps neither: the start-up rehearsal runs
/// these very functions, so that V8 has optimised them before a pick.
#[inline(never)]
pub(super) fn encode(ix: &Index) -> Array {
    let pieces = Array::new();
    wire::encode(ix, PIECE_BYTES, |p| {
        pieces.push(&Uint8Array::from(&p[..]).buffer());
    });
    pieces
}

/// [`encode`]'s pieces back to an index, a piece at a time into wasm
/// memory, yielding to the page every [`DECODE_STEP_RECORDS`] records.
pub(super) async fn decode(pieces: Array) -> Result<Index, WireError> {
    let pieces: Vec<Uint8Array> = pieces.iter().map(|b| Uint8Array::new(&b)).collect();
    let total = pieces.iter().map(|p| p.length() as u64).sum();
    let mut input = Pieces { pieces, next: 0, buf: Vec::new(), at: 0, pos: 0, total };
    let mut decoder = wire::Decoder::start(&mut input)?;
    while !decode_step(&mut decoder, &mut input)? {
        yield_to_page().await;
    }
    decoder.finish(&mut input)
}

#[inline(never)]
fn decode_step(decoder: &mut wire::Decoder, input: &mut Pieces) -> Result<bool, WireError> {
    decoder.step(input, DECODE_STEP_RECORDS)
}

// ---- the page's side ----

/// An index read by the worker.
pub struct WorkerOutcome {
    pub index: Index,
    pub index_ms: f64,
    /// Time the worker spent waiting for the browser's reads.
    pub wait_ms: f64,
    /// The worker's wasm memory when it finished.
    pub worker_memory_bytes: f64,
}

pub enum WorkerError {
    /// No worker here (blocked, failed to load, crashed): read in the page.
    Unavailable(String),
    /// The browser could not read the file.
    Browser(String),
    /// A newer read replaced this one, or `on_progress` asked to stop.
    Superseded,
}

/// The pieces of a transferred encoding, read a piece at a time into wasm
/// memory (never the whole encoding at once).
struct Pieces {
    pieces: Vec<Uint8Array>,
    next: usize,
    buf: Vec<u8>,
    at: usize,
    pos: u64,
    total: u64,
}

impl Input for Pieces {
    fn read_exact(&mut self, out: &mut [u8]) -> Result<(), WireError> {
        let mut filled = 0;
        while filled < out.len() {
            if self.at == self.buf.len() {
                let Some(p) = self.pieces.get(self.next) else { return Err(WireError::Truncated { at_byte: self.pos }) };
                self.next += 1;
                self.buf.resize(p.length() as usize, 0);
                p.copy_to(&mut self.buf);
                self.at = 0;
            }
            let n = (out.len() - filled).min(self.buf.len() - self.at);
            out[filled..filled + n].copy_from_slice(&self.buf[self.at..self.at + n]);
            self.at += n;
            filled += n;
            self.pos += n as u64;
        }
        Ok(())
    }
    fn position(&self) -> u64 {
        self.pos
    }
    fn total_bytes(&self) -> u64 {
        self.total
    }
}

enum Event {
    Done(JsValue),
    Failed(WorkerError),
}

/// How a read ends: set once; `wake` resolves the promise `finish` awaits.
/// The first chunk arrives before the end; either wakes the waiter.
#[derive(Default)]
struct Ending {
    first: Option<Vec<u8>>,
    event: Option<Event>,
    wake: Option<js_sys::Function>,
}

impl Ending {
    fn wake(&mut self) {
        if let Some(wake) = self.wake.take() {
            let _ = wake.call0(&JsValue::NULL);
        }
    }

    fn end(&mut self, e: Event) {
        if self.event.is_none() {
            self.event = Some(e);
            self.wake();
        }
    }

    fn first(&mut self, bytes: Vec<u8>) {
        if self.first.is_none() && self.event.is_none() {
            self.first = Some(bytes);
            self.wake();
        }
    }
}

/// Resolves once `ready(ending)` holds.
async fn settled(ending: &Rc<RefCell<Ending>>, ready: impl Fn(&Ending) -> bool) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let mut e = ending.borrow_mut();
        if ready(&e) {
            let _ = resolve.call0(&JsValue::NULL);
        } else {
            e.wake = Some(resolve);
        }
    });
    let _ = JsFuture::from(promise).await;
}

/// The read the worker is doing for the page.
struct Current {
    id: f64,
    on_progress: Box<dyn FnMut(u64) -> bool>,
    ending: Rc<RefCell<Ending>>,
}

/// The page's one worker.
struct Channel {
    worker: Worker,
    next_id: f64,
    current: Option<Current>,
    // Installed once; they look the current read up here.
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::Event)>,
}

thread_local! {
    static CHANNEL: RefCell<Option<Channel>> = const { RefCell::new(None) };
}

/// Starts the worker now (at start-up), so that a pick finds its wasm
/// running. Does nothing if it runs already.
pub fn prepare() {
    CHANNEL.with(|c| {
        if c.borrow().is_none() {
            match spawn() {
                Ok(ch) => *c.borrow_mut() = Some(ch),
                Err(why) => web_sys::console::warn_1(&format!("ccscope: no reading worker ({why}); files are read in the page").into()),
            }
        }
    });
}

/// The current read's state, when `data` answers it.
fn with_current(data: &JsValue, f: impl FnOnce(&mut Current)) {
    let id = get(data, "id").as_f64();
    CHANNEL.with(|c| {
        if let Some(cur) = c.borrow_mut().as_mut().and_then(|ch| ch.current.as_mut()).filter(|cur| Some(cur.id) == id) {
            f(cur);
        }
    });
}

/// A new worker, sent this page's compiled wasm module right away (so it
/// neither downloads nor compiles it again; `worker.js` holds later
/// messages until the module runs).
fn spawn() -> Result<Channel, String> {
    let opts = WorkerOptions::new();
    opts.set_type(WorkerType::Module);
    let worker = Worker::new_with_options(WORKER_URL, &opts).map_err(|e| format!("{e:?}"))?;
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
        let data = e.data();
        match get(&data, "kind").as_string().as_deref() {
            Some("progress") => {
                let read_bytes = get(&data, "read_bytes").as_f64().unwrap_or(0.0) as u64;
                with_current(&data, |cur| {
                    if !(cur.on_progress)(read_bytes) {
                        cur.ending.borrow_mut().end(Event::Failed(WorkerError::Superseded));
                    }
                });
            }
            Some("first") => {
                let bytes = Uint8Array::new(&get(&data, "bytes")).to_vec();
                with_current(&data, |cur| cur.ending.borrow_mut().first(bytes));
            }
            Some("warmed") => {
                // For the browser benchmark, which waits for it as a person would be still choosing a file.
                if let Some(html) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
                    let ms = get(&data, "ms").as_f64().unwrap_or(0.0);
                    let _ = html.set_attribute("data-worker-warmed", &format!("{ms:.0}"));
                }
            }
            Some("done") => with_current(&data, |cur| cur.ending.borrow_mut().end(Event::Done(data.clone()))),
            Some("error") => with_current(&data, |cur| {
                let message = get(&data, "message").as_string().unwrap_or_default();
                cur.ending.borrow_mut().end(Event::Failed(WorkerError::Browser(message)));
            }),
            _ => {}
        }
    });
    let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |e: web_sys::Event| {
        e.prevent_default();
        let what = e.dyn_ref::<web_sys::ErrorEvent>().map(|e| e.message()).unwrap_or_else(|| "the worker failed".into());
        // A dead worker: the read it had goes to the page, and so do later ones.
        let gone = CHANNEL.with(|c| c.borrow_mut().take());
        if let Some(mut ch) = gone {
            ch.worker.terminate();
            if let Some(cur) = ch.current.take() {
                cur.ending.borrow_mut().end(Event::Failed(WorkerError::Unavailable(what)));
            }
            // Not dropped here: this handler is one of its closures.
            wasm_bindgen_futures::spawn_local(async move { drop(ch) });
        }
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    worker.set_onmessageerror(Some(on_error.as_ref().unchecked_ref()));
    worker.post_message(&message("module", &[("module", wasm_bindgen::module())])).map_err(|e| format!("{e:?}"))?;
    Ok(Channel { worker, next_id: 1.0, current: None, _on_message: on_message, _on_error: on_error })
}

/// A read the worker is doing, awaited with [`Pending::finish`].
pub struct Pending {
    ending: Rc<RefCell<Ending>>,
}

/// Asks the worker to read and index `blob`; a read still going is
/// superseded. `on_progress(read_bytes)` returns `false` to stop.
pub fn start(blob: &Blob, on_progress: impl FnMut(u64) -> bool + 'static) -> Result<Pending, WorkerError> {
    prepare();
    CHANNEL.with(|c| {
        let mut c = c.borrow_mut();
        let ch = c.as_mut().ok_or_else(|| WorkerError::Unavailable("no worker".into()))?;
        if let Some(old) = ch.current.take() {
            old.ending.borrow_mut().end(Event::Failed(WorkerError::Superseded));
        }
        let id = ch.next_id;
        ch.next_id += 1.0;
        ch.worker
            .post_message(&message("read", &[("id", id.into()), ("blob", blob.into())]))
            .map_err(|e| WorkerError::Unavailable(format!("{e:?}")))?;
        let ending = Rc::new(RefCell::new(Ending::default()));
        ch.current = Some(Current { id, on_progress: Box::new(on_progress), ending: ending.clone() });
        Ok(Pending { ending })
    })
}

impl Pending {
    /// Waits for the file's first chunk (at most `FIRST_CHUNK_BYTES`), as
    /// the worker read it; `None` if the read ended without it.
    pub async fn first(&self) -> Option<Vec<u8>> {
        settled(&self.ending, |e| e.first.is_some() || e.event.is_some()).await;
        self.ending.borrow_mut().first.take()
    }

    /// Waits for the worker's index.
    pub async fn finish(self) -> Result<WorkerOutcome, WorkerError> {
        settled(&self.ending, |e| e.event.is_some()).await;
        // This read is over: drop its callbacks (if it is still the current one).
        CHANNEL.with(|c| {
            if let Some(ch) = c.borrow_mut().as_mut() {
                if ch.current.as_ref().is_some_and(|cur| Rc::ptr_eq(&cur.ending, &self.ending)) {
                    ch.current = None;
                }
            }
        });
        let event = self.ending.borrow_mut().event.take();
        let done = match event {
            Some(Event::Done(data)) => data,
            Some(Event::Failed(e)) => return Err(e),
            None => return Err(WorkerError::Unavailable("the worker stopped without an answer".into())),
        };
        let index = decode(Array::from(&get(&done, "pieces"))).await.map_err(|e| WorkerError::Unavailable(e.to_string()))?;
        Ok(WorkerOutcome {
            index,
            index_ms: get(&done, "index_ms").as_f64().unwrap_or(0.0),
            wait_ms: get(&done, "wait_ms").as_f64().unwrap_or(0.0),
            worker_memory_bytes: get(&done, "memory_bytes").as_f64().unwrap_or(0.0),
        })
    }
}
