//! The Yew viewer (wasm only). One reducer state ([`state::State`]); each
//! component gets data plus `Callback`s. Big data sits behind `Rc`.

mod bodies;
mod header;
mod item;
mod md;
mod picker;
mod progress;
mod reader;
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

/// How often the progress bar is redrawn while a file is read.
const PROGRESS_MS: f64 = 100.0;

const IDLE_GAP_MS: i64 = DEFAULT_IDLE_GAP_SECS as i64 * 1000;

/// Everything the page shows of an index.
fn loaded(name: &str, size_bytes: u64, blob: &Blob, index: crate::index::Index, first_bytes: &[u8], elapsed_ms: f64, index_ms: f64) -> Loaded {
    let t0 = now_ms();
    let stats = Stats::compute(&index, DEFAULT_IDLE_GAP_SECS);
    let verdict = verdict::judge(&index, first_bytes);
    let view = Rc::new(View::build(&index, IDLE_GAP_MS));
    let build_ms = now_ms() - t0;
    Loaded { name: name.to_string(), size_bytes, blob: blob.clone(), index, stats, verdict, view, elapsed_ms, index_ms, build_ms }
}

/// Where the bytes come from.
#[derive(Clone, PartialEq)]
pub enum Source {
    File(web_sys::File),
    /// `sample.jsonl`, shipped beside the page.
    Sample,
}

/// Mounts the app on `<body>`.
pub fn start() {
    yew::Renderer::<App>::new().render();
}

fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
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
    let progress = dispatch.clone();
    let preview = dispatch.clone();
    let on_first = |first: &[u8]| {
        // The whole lines of the first chunk, indexed on their own: the start
        // of the list is on screen while the rest of a big file is read.
        if (first.len() as u64) < size_bytes {
            if let Some(end) = memchr::memrchr(b'\n', first) {
                let t0 = now_ms();
                let index = Indexer::index_bytes(&first[..=end]);
                let index_ms = now_ms() - t0;
                let l = loaded(&name, size_bytes, &blob, index, first, now_ms() - started, index_ms);
                preview.dispatch(Action::Preview { generation, loaded: Rc::new(l) });
            }
        }
    };
    // The progress bar is redrawn at most every PROGRESS_MS: a redraw
    // costs as much as indexing a chunk once the preview is on screen.
    let mut shown_ms = f64::NEG_INFINITY;
    let outcome = read_blob(&blob, CHUNK_BYTES, on_first, |read_bytes| {
        if latest.get() != generation {
            return false;
        }
        let now = now_ms();
        if now - shown_ms >= PROGRESS_MS || read_bytes == size_bytes {
            shown_ms = now;
            progress.dispatch(Action::Progress { generation, read_bytes });
        }
        true
    })
    .await;
    match outcome {
        Ok(ReadOutcome { index, first_bytes, index_ms }) => {
            let l = loaded(&name, size_bytes, &blob, index, &first_bytes, now_ms() - started, index_ms);
            dispatch.dispatch(Action::Finished { generation, loaded: Rc::new(l) });
        }
        Err(ReadError::Superseded) => {}
        Err(ReadError::Browser(message)) => {
            let message = format!("The browser could not read this file: {message}.");
            dispatch.dispatch(Action::Failed { generation, name, message: message.into() });
        }
    }
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
    let body = match &state.phase {
        Phase::Empty => html! {},
        Phase::Reading { name, size_bytes, read_bytes, preview } => html! {
            <>
                <progress::Progress name={name.clone()} size_bytes={*size_bytes} read_bytes={*read_bytes} />
                if let Some(p) = preview {
                    <viewer::Viewer key={format!("preview-{generation}")} loaded={Shared(p.clone())} view={Shared(p.view.clone())} partial=true />
                }
            </>
        },
        Phase::Done(loaded) if matches!(loaded.verdict, verdict::Verdict::Transcript { .. }) => html! {
            <viewer::Viewer key={format!("done-{generation}")} loaded={Shared(loaded.clone())} view={Shared(loaded.view.clone())} />
        },
        Phase::Done(loaded) => html! { <summary::Summary loaded={summary::LoadedRef(loaded.clone())} /> },
        Phase::Failed { name, message } => html! {
            <section class="notice error" role="alert" data-testid="error">
                <h2>{ format!("Could not open {name}") }</h2>
                <p>{ message.to_string() }</p>
            </section>
        },
    };
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
