//! Opening a pick: where its bytes are read and indexed (the reading Web
//! Worker, else the page), the preview of its first lines, and the
//! [`Action`]s that tell the page how far it got.
//!
//! A file larger than its first read goes to the worker, which reads and
//! indexes all of it off the main thread and hands over its first chunk on
//! the way; the page indexes that chunk's whole lines on its own and shows
//! them (the preview) while the rest is read. Where no worker can run (or it
//! dies), the page reads the file itself, chunk by chunk. Every `Action`
//! carries the pick's generation: once a newer pick replaced this one, the
//! reducer ignores it and the read stops at its next chunk.

use std::cell::Cell;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Blob, Response};
use yew::prelude::*;

use super::reader::{self, read_blob, ReadError, CHUNK_BYTES, FIRST_CHUNK_BYTES};
use super::state::{Action, Loaded, State};
use super::{bodies, now_ms, worker, PROGRESS_MS};
use crate::index::{Index, Indexer};
use crate::model::view::View;
use crate::model::{verdict, Stats, DEFAULT_IDLE_GAP_SECS};

const IDLE_GAP_MS: i64 = DEFAULT_IDLE_GAP_SECS as i64 * 1000;

/// Where the bytes come from.
#[derive(Clone, PartialEq)]
pub enum Source {
    File(web_sys::File),
    /// `sample.jsonl`, shipped beside the page.
    Sample,
}

/// How a read went, for the page's data attributes (the benchmark reads them).
pub(super) struct Timing {
    /// From the pick until the index was in the page.
    pub elapsed_ms: f64,
    /// Of that, time spent inside the indexer,
    pub index_ms: f64,
    /// and time the reader waited for the browser to hand over chunks.
    pub wait_ms: f64,
    /// The worker's wasm memory, when a worker read the file.
    pub worker_memory_bytes: Option<f64>,
}

/// Everything the page shows of an index, built in one task.
/// `head` is the file's first bytes as read (any number).
pub(super) fn loaded(name: &str, size_bytes: u64, blob: &Blob, index: Index, head: Rc<[u8]>, timing: Timing) -> Loaded {
    let t0 = now_ms();
    let stats = Stats::compute(&index, DEFAULT_IDLE_GAP_SECS);
    with_stats(name, size_bytes, blob, index, head, timing, stats, now_ms() - t0)
}

/// [`loaded`] once the stats are computed (in `stats_ms`): the file's
/// verdict and the list's view.
#[allow(clippy::too_many_arguments)]
fn with_stats(name: &str, size_bytes: u64, blob: &Blob, index: Index, head: Rc<[u8]>, timing: Timing, stats: Stats, stats_ms: f64) -> Loaded {
    let t0 = now_ms();
    let verdict = verdict::judge(&index, &head);
    let view = Rc::new(View::build(&index, IDLE_GAP_MS));
    let build_ms = stats_ms + (now_ms() - t0);
    let Timing { elapsed_ms, index_ms, wait_ms, worker_memory_bytes } = timing;
    Loaded { name: name.to_string(), size_bytes, blob: blob.clone(), head, index, stats, verdict, view, elapsed_ms, index_ms, wait_ms, build_ms, worker_memory_bytes }
}

/// What the person is told when the browser could not read the file.
fn read_failed(why: &str) -> Rc<str> {
    format!("The browser could not read this file: {why}.").into()
}

async fn sample_blob() -> Result<Blob, String> {
    let window = web_sys::window().ok_or("no window")?;
    let resp = JsFuture::from(window.fetch_with_str("sample.jsonl")).await.map_err(|_| "the sample could not be loaded")?;
    let resp: Response = resp.dyn_into().map_err(|_| "the sample could not be loaded")?;
    if !resp.ok() {
        return Err(format!("the sample could not be loaded (HTTP {})", resp.status()));
    }
    let blob = JsFuture::from(resp.blob().map_err(|_| "the sample could not be read")?).await.map_err(|_| "the sample could not be read")?;
    blob.dyn_into::<Blob>().map_err(|_| "the sample could not be read".into())
}

/// The file's index, how it was read, and its leading bytes (for sniffing).
struct Read {
    index: Index,
    timing: Timing,
    /// The file's first chunk, as read.
    head: Rc<[u8]>,
}

/// Why a read gave no index.
enum Stop {
    /// A newer pick replaced this one: nothing more to show.
    Superseded,
    /// Told to the person as it is.
    Failed(Rc<str>),
    /// The worker could not do it (why, for the console): read in the page.
    NoWorker(String),
}

impl From<worker::WorkerError> for Stop {
    fn from(e: worker::WorkerError) -> Self {
        match e {
            worker::WorkerError::Unavailable(why) => Stop::NoWorker(why),
            worker::WorkerError::Browser(why) => Stop::Failed(read_failed(&why)),
            worker::WorkerError::Superseded => Stop::Superseded,
        }
    }
}

/// Reads one source to the end, dispatching progress; drops out quietly
/// when a newer pick (a higher generation) replaced it.
pub(super) async fn load(source: Source, generation: u64, latest: Rc<Cell<u64>>, dispatch: UseReducerDispatcher<State>) {
    let (name, blob): (Rc<str>, Result<Blob, String>) = match source {
        Source::File(f) => (f.name().into(), Ok(f.into())),
        Source::Sample => ("sample.jsonl".into(), sample_blob().await),
    };
    let blob = match blob {
        Ok(b) => b,
        Err(message) => {
            dispatch.dispatch(Action::Failed { generation, name, message: message.into() });
            return;
        }
    };
    let size_bytes = blob.size() as u64;
    dispatch.dispatch(Action::Start { generation, name: name.clone(), size_bytes });
    let pick = Opening { generation, latest, dispatch, name, blob, size_bytes, started_ms: now_ms(), previewed: Cell::new(false) };
    let mut read = if size_bytes > FIRST_CHUNK_BYTES { pick.in_worker().await } else { Err(Stop::NoWorker("small file".into())) };
    if let Err(Stop::NoWorker(why)) = &read {
        if size_bytes > FIRST_CHUNK_BYTES {
            web_sys::console::warn_1(&format!("ccscope: reading {} in the page, the worker could not run: {why}", pick.name).into());
        }
        read = pick.in_page().await;
    }
    match read {
        Ok(r) => pick.finish(r).await,
        Err(Stop::Failed(message)) => pick.dispatch.dispatch(Action::Failed { generation, name: pick.name.clone(), message }),
        Err(Stop::Superseded | Stop::NoWorker(_)) => {}
    }
}

/// One pick being opened.
struct Opening {
    generation: u64,
    /// The newest pick's generation.
    latest: Rc<Cell<u64>>,
    dispatch: UseReducerDispatcher<State>,
    name: Rc<str>,
    blob: Blob,
    size_bytes: u64,
    started_ms: f64,
    /// The preview is on screen (it is shown once, whoever reads).
    previewed: Cell<bool>,
}

impl Opening {
    fn current(&self) -> bool {
        self.latest.get() == self.generation
    }

    /// `on_progress` for the readers: `false` once superseded. The progress
    /// bar is redrawn at most every [`PROGRESS_MS`]: a redraw costs as much
    /// as indexing a chunk once the preview is on screen.
    fn on_progress(&self) -> impl FnMut(u64) -> bool + Clone + 'static {
        let (dispatch, latest, generation, size_bytes) = (self.dispatch.clone(), self.latest.clone(), self.generation, self.size_bytes);
        let mut shown_ms = f64::NEG_INFINITY;
        move |read_bytes: u64| {
            if latest.get() != generation {
                return false;
            }
            let now = now_ms();
            if now - shown_ms >= PROGRESS_MS || read_bytes == size_bytes {
                shown_ms = now;
                dispatch.dispatch(Action::Progress { generation, read_bytes });
            }
            true
        }
    }

    /// The whole lines of the first chunk, indexed on their own, unless a
    /// preview is up already or the chunk is the whole file.
    fn preview(&self, first: &Rc<[u8]>) -> Option<Rc<Loaded>> {
        if self.previewed.get() || first.len() as u64 >= self.size_bytes {
            return None;
        }
        let end = memchr::memrchr(b'\n', first)?;
        self.previewed.set(true);
        let t0 = now_ms();
        let index = Indexer::index_bytes(&first[..=end]);
        let timing = Timing { elapsed_ms: now_ms() - self.started_ms, index_ms: now_ms() - t0, wait_ms: 0.0, worker_memory_bytes: None };
        Some(Rc::new(loaded(&self.name, self.size_bytes, &self.blob, index, first.clone(), timing)))
    }

    fn show_preview(&self, l: Rc<Loaded>) {
        self.dispatch.dispatch(Action::Preview { generation: self.generation, loaded: l });
    }

    /// Read and indexed by the worker; the preview from the first chunk it
    /// hands over (or, if it ends without one, that the page reads itself).
    async fn in_worker(&self) -> Result<Read, Stop> {
        let pending = worker::start(&self.blob, self.on_progress())?;
        let first = match pending.first().await {
            Some(f) => Some(f),
            None => bodies::read_range(&self.blob, 0, FIRST_CHUNK_BYTES).await,
        };
        let Some(first) = first else {
            return Err(Stop::Failed("The browser could not read this file.".into()));
        };
        let first: Rc<[u8]> = first.into();
        if let Some(l) = self.preview(&first) {
            // Drawn in a task of its own, after the one that built it.
            reader::yield_to_page().await;
            self.show_preview(l);
        }
        let w = pending.finish().await?;
        let timing = Timing { elapsed_ms: now_ms() - self.started_ms, index_ms: w.index_ms, wait_ms: w.wait_ms, worker_memory_bytes: Some(w.worker_memory_bytes) };
        Ok(Read { index: w.index, timing, head: first })
    }

    /// Read and indexed in the page, chunk by chunk.
    async fn in_page(&self) -> Result<Read, Stop> {
        let head: Cell<Rc<[u8]>> = Cell::new(Rc::from(&[][..]));
        let on_first = |first: &[u8]| {
            let first: Rc<[u8]> = first.into();
            if let Some(l) = self.preview(&first) {
                self.show_preview(l);
            }
            head.set(first);
        };
        match read_blob(&self.blob, CHUNK_BYTES, 1, on_first, self.on_progress()).await {
            Ok(o) => {
                let timing = Timing { elapsed_ms: now_ms() - self.started_ms, index_ms: o.index_ms, wait_ms: o.wait_ms, worker_memory_bytes: None };
                Ok(Read { index: o.index, timing, head: head.take() })
            }
            Err(ReadError::Superseded) => Err(Stop::Superseded),
            Err(ReadError::Browser(why)) => Err(Stop::Failed(read_failed(&why))),
        }
    }

    /// Receiving the index, computing its stats, building the list's view
    /// and drawing them: each in a task of its own, so that on a 2 GB file
    /// (300 k rows) none of them holds the page for long.
    async fn finish(&self, r: Read) {
        reader::yield_to_page().await;
        if !self.current() {
            return;
        }
        let t0 = now_ms();
        let stats = Stats::compute(&r.index, DEFAULT_IDLE_GAP_SECS);
        let stats_ms = now_ms() - t0;
        reader::yield_to_page().await;
        if !self.current() {
            return;
        }
        let l = with_stats(&self.name, self.size_bytes, &self.blob, r.index, r.head, r.timing, stats, stats_ms);
        reader::yield_to_page().await;
        self.dispatch.dispatch(Action::Finished { generation: self.generation, loaded: Rc::new(l) });
    }
}
