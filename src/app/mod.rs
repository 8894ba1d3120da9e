//! The Yew viewer (wasm only). One reducer state ([`state::State`]); each
//! component gets data plus `Callback`s. Big data sits behind `Rc`.

mod bodies;
mod header;
mod item;
mod md;
mod picker;
mod progress;
mod reader;
mod rehearsal;
mod search;
mod shared;
mod state;
mod summary;
mod theme;
mod tool;
mod toolbar;
mod turn;
mod viewer;
mod vlist;
mod worker;

use std::cell::Cell;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Blob, Response};
use yew::prelude::*;

pub use reader::{read_blob, ReadError, ReadOutcome, CHUNK_BYTES, FIRST_CHUNK_BYTES};
use state::{Action, Loaded, Phase, State};

use crate::index::Indexer;
use crate::model::view::View;
use crate::model::{verdict, Stats, DEFAULT_IDLE_GAP_SECS};
use shared::Shared;

/// How often the progress bar is redrawn while a file is read (and how often
/// the reading worker reports progress).
const PROGRESS_MS: f64 = 100.0;

const IDLE_GAP_MS: i64 = DEFAULT_IDLE_GAP_SECS as i64 * 1000;

/// How a read went, for the page's data attributes (the benchmark reads them).
struct Timing {
    /// From the pick until the index was in the page.
    elapsed_ms: f64,
    /// Of that, time spent inside the indexer,
    index_ms: f64,
    /// and time the reader waited for the browser to hand over chunks.
    wait_ms: f64,
    /// The worker's wasm memory, when a worker read the file.
    worker_memory_bytes: Option<f64>,
}

/// Everything the page shows of an index.
fn loaded(name: &str, size_bytes: u64, blob: &Blob, index: crate::index::Index, first_bytes: &[u8], timing: Timing) -> Loaded {
    let t0 = now_ms();
    let stats = Stats::compute(&index, DEFAULT_IDLE_GAP_SECS);
    let verdict = verdict::judge(&index, first_bytes);
    let view = Rc::new(View::build(&index, IDLE_GAP_MS));
    let build_ms = now_ms() - t0;
    let Timing { elapsed_ms, index_ms, wait_ms, worker_memory_bytes } = timing;
    Loaded { name: name.to_string(), size_bytes, blob: blob.clone(), index, stats, verdict, view, elapsed_ms, index_ms, wait_ms, build_ms, worker_memory_bytes }
}

/// What the person is told when the browser could not read the file.
fn read_failed(why: &str) -> Rc<str> {
    format!("The browser could not read this file: {why}.").into()
}

/// Where the bytes come from.
#[derive(Clone, PartialEq)]
pub enum Source {
    File(web_sys::File),
    /// `sample.jsonl`, shipped beside the page.
    Sample,
}

/// Mounts the app on `<body>`; in a worker (no `window`), serves reads.
pub fn start() {
    if web_sys::window().is_some() {
        yew::Renderer::<App>::new().render();
        worker::prepare();
        rehearsal::start();
    } else {
        worker::serve();
    }
}

/// Milliseconds on the page's (or the worker's) clock.
fn now_ms() -> f64 {
    thread_local! {
        static CLOCK: Option<web_sys::Performance> =
            js_sys::Reflect::get(&js_sys::global(), &"performance".into()).ok().and_then(|p| p.dyn_into().ok());
    }
    CLOCK.with(|c| c.as_ref().map_or(0.0, |p| p.now()))
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

/// Reads one source to the end, dispatching progress; drops out quietly
/// when a newer pick (a higher generation) replaced it.
///
/// A file larger than its first read goes to a Web Worker, which reads and
/// indexes all of it off the main thread; meanwhile the page reads the first
/// [`FIRST_CHUNK_BYTES`] itself and shows their whole lines. Where no worker
/// can run, the page reads the file itself, chunk by chunk.
async fn load(source: Source, generation: u64, latest: Rc<Cell<u64>>, dispatch: UseReducerDispatcher<State>) {
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
    let started = now_ms();
    // The progress bar is redrawn at most every PROGRESS_MS: a redraw
    // costs as much as indexing a chunk once the preview is on screen.
    let on_progress = {
        let (progress, latest) = (dispatch.clone(), latest.clone());
        let mut shown_ms = f64::NEG_INFINITY;
        move |read_bytes: u64| {
            if latest.get() != generation {
                return false;
            }
            let now = now_ms();
            if now - shown_ms >= PROGRESS_MS || read_bytes == size_bytes {
                shown_ms = now;
                progress.dispatch(Action::Progress { generation, read_bytes });
            }
            true
        }
    };
    let show_preview = |first: &[u8]| {
        // The whole lines of the first chunk, indexed on their own: the start
        // of the list is on screen while the rest of a big file is read.
        if (first.len() as u64) < size_bytes {
            if let Some(end) = memchr::memrchr(b'\n', first) {
                let t0 = now_ms();
                let index = Indexer::index_bytes(&first[..=end]);
                let index_ms = now_ms() - t0;
                let l = loaded(&name, size_bytes, &blob, index, first, Timing { elapsed_ms: now_ms() - started, index_ms, wait_ms: 0.0, worker_memory_bytes: None });
                return Some(Rc::new(l));
            }
        }
        None
    };
    // Drawn in a task of its own, after the one that built it.
    let dispatch_preview = |l: Rc<Loaded>| {
        let dispatch = dispatch.clone();
        async move {
            reader::yield_to_page().await;
            dispatch.dispatch(Action::Preview { generation, loaded: l });
        }
    };
    let mut outcome = Err(worker::WorkerError::Unavailable("small file".into()));
    let mut first_bytes = Vec::new();
    if size_bytes > FIRST_CHUNK_BYTES {
        match worker::start(&blob, on_progress.clone()) {
            Ok(pending) => {
                // The worker hands over the first chunk it read; if it ends
                // without one, read it here.
                let first = match pending.first().await {
                    Some(f) => Some(f),
                    None => bodies::read_range(&blob, 0, FIRST_CHUNK_BYTES).await,
                };
                match first {
                    Some(first) => {
                        first_bytes = first[..reader::SNIFF_BYTES.min(first.len())].to_vec();
                        if let Some(l) = show_preview(&first) {
                            dispatch_preview(l).await;
                        }
                    }
                    None => {
                        let message = "The browser could not read this file.".into();
                        dispatch.dispatch(Action::Failed { generation, name, message });
                        return;
                    }
                }
                outcome = pending.finish().await;
            }
            Err(e) => outcome = Err(e),
        }
    }
    let (index, timing) = match outcome {
        Ok(w) => (w.index, Timing { elapsed_ms: now_ms() - started, index_ms: w.index_ms, wait_ms: w.wait_ms, worker_memory_bytes: Some(w.worker_memory_bytes) }),
        Err(worker::WorkerError::Superseded) => return,
        Err(worker::WorkerError::Browser(message)) => {
            dispatch.dispatch(Action::Failed { generation, name, message: read_failed(&message) });
            return;
        }
        Err(worker::WorkerError::Unavailable(why)) => {
            if size_bytes > FIRST_CHUNK_BYTES {
                web_sys::console::warn_1(&format!("ccscope: reading {name} in the page, the worker could not run: {why}").into());
            }
            // In the page, chunk by chunk (the preview is up already if there is one).
            let on_first = |first: &[u8]| {
                if first_bytes.is_empty() {
                    if let Some(l) = show_preview(first) {
                        dispatch.dispatch(Action::Preview { generation, loaded: l });
                    }
                }
            };
            match read_blob(&blob, CHUNK_BYTES, 1, on_first, on_progress).await {
                Ok(o) => {
                    first_bytes = o.first_bytes;
                    (o.index, Timing { elapsed_ms: now_ms() - started, index_ms: o.index_ms, wait_ms: o.wait_ms, worker_memory_bytes: None })
                }
                Err(ReadError::Superseded) => return,
                Err(ReadError::Browser(message)) => {
                    dispatch.dispatch(Action::Failed { generation, name, message: read_failed(&message) });
                    return;
                }
            }
        }
    };
    // Receiving the index, building the facts and drawing them: three tasks,
    // so none of them holds the page for long.
    reader::yield_to_page().await;
    if latest.get() != generation {
        return;
    }
    let l = loaded(&name, size_bytes, &blob, index, &first_bytes, timing);
    reader::yield_to_page().await;
    dispatch.dispatch(Action::Finished { generation, loaded: Rc::new(l) });
}

#[function_component(App)]
pub fn app() -> Html {
    let state = use_reducer(State::default);
    let latest = use_memo((), |_| Rc::new(Cell::new(0u64)));
    let dragging = use_state(|| false);

    let open = {
        let dispatch = state.dispatcher();
        let latest = (*latest).clone();
        Callback::from(move |source: Source| {
            rehearsal::stop();
            let generation = latest.get() + 1;
            latest.set(generation);
            yew::platform::spawn_local(load(source, generation, latest.clone(), dispatch.clone()));
        })
    };

    let ondragover = {
        let dragging = dragging.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            if !*dragging {
                dragging.set(true);
            }
        })
    };
    let ondragleave = {
        let dragging = dragging.clone();
        Callback::from(move |e: DragEvent| {
            // Only when the pointer leaves the window, not a child element.
            if e.related_target().is_none() {
                dragging.set(false);
            }
        })
    };
    let ondrop = {
        let dragging = dragging.clone();
        let open = open.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            dragging.set(false);
            if let Some(file) = e.data_transfer().and_then(|dt| dt.files()).and_then(|fs| fs.get(0)) {
                open.emit(Source::File(file));
            }
        })
    };

    let generation = state.generation;
    // Three fixed slots, so that the viewer of a preview stays mounted (and
    // keeps its place and fetched bodies) when the whole file arrives.
    let progress = match &state.phase {
        Phase::Reading { name, size_bytes, read_bytes, .. } => html! {
            <progress::Progress name={name.clone()} size_bytes={*size_bytes} read_bytes={*read_bytes} />
        },
        _ => html! {},
    };
    let (shown, partial) = match &state.phase {
        Phase::Reading { preview: Some(p), .. } => (Some(p), true),
        Phase::Done(l) if matches!(l.verdict, verdict::Verdict::Transcript { .. }) => (Some(l), false),
        _ => (None, false),
    };
    let viewer = match shown {
        Some(l) => html! {
            <viewer::Viewer key={format!("view-{generation}")} loaded={Shared(l.clone())} view={Shared(l.view.clone())} {partial} />
        },
        None => html! {},
    };
    let other = match &state.phase {
        Phase::Done(loaded) if shown.is_none() => html! { <summary::Summary loaded={summary::LoadedRef(loaded.clone())} /> },
        Phase::Failed { name, message } => html! {
            <section class="notice error" role="alert" data-testid="error">
                <h2>{ format!("Could not open {name}") }</h2>
                <p>{ message.to_string() }</p>
            </section>
        },
        _ => html! {},
    };
    let body = html! { <>{ progress }{ viewer }{ other }</> };
    let busy = matches!(state.phase, Phase::Reading { .. });
    let compact = !matches!(state.phase, Phase::Empty);
    let viewing = matches!(&state.phase, Phase::Done(l) if matches!(l.verdict, verdict::Verdict::Transcript { .. }))
        || matches!(&state.phase, Phase::Reading { preview: Some(_), .. });
    html! {
        <div class={classes!("page", dragging.then_some("dragging"), viewing.then_some("viewing"))} {ondragover} {ondragleave} {ondrop}>
            <header class="top">
                <span class="logo" aria-hidden="true">{ "◎" }</span>
                <span class="brand">{ "ccscope" }</span>
                <span class="tagline">{ "Claude Code transcripts, read in your browser" }</span>
                <span class="spacer"></span>
                <span class="offline-badge" title="Files are read on this device; nothing is uploaded">{ "local only" }</span>
                <theme::ThemeToggle />
            </header>
            <main>
                <picker::Picker on_open={open} {busy} {compact} />
                { body }
            </main>
            <footer class="bottom">
                { "Private by design: files are read on this device and never uploaded. No network requests after the page has loaded." }
            </footer>
            <div class="drop-overlay" aria-hidden="true"><div>{ "Drop the transcript to open it" }</div></div>
        </div>
    }
}
