//! The Yew viewer (wasm only). One reducer state ([`state::State`]); each
//! component gets data plus `Callback`s. Big data sits behind `Rc`.

mod picker;
mod progress;
mod reader;
mod state;
mod summary;

use std::cell::Cell;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Blob, Response};
use yew::prelude::*;

pub use reader::{read_blob, ReadError, ReadOutcome, CHUNK_BYTES};
use state::{Action, Loaded, Phase, State};

use crate::model::{verdict, Stats, DEFAULT_IDLE_GAP_SECS};

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
    let outcome = read_blob(&blob, CHUNK_BYTES, |read_bytes| {
        if latest.get() != generation {
            return false;
        }
        progress.dispatch(Action::Progress { generation, read_bytes });
        true
    })
    .await;
    match outcome {
        Ok(ReadOutcome { index, first_bytes }) => {
            let stats = Stats::compute(&index, DEFAULT_IDLE_GAP_SECS);
            let verdict = verdict::judge(&index, &first_bytes);
            let loaded = Loaded { name: name.to_string(), size_bytes, index, stats, verdict, elapsed_ms: now_ms() - started };
            dispatch.dispatch(Action::Finished { generation, loaded: Rc::new(loaded) });
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

    let body = match &state.phase {
        Phase::Empty => html! {},
        Phase::Reading { name, size_bytes, read_bytes } => html! {
            <progress::Progress name={name.clone()} size_bytes={*size_bytes} read_bytes={*read_bytes} />
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
    html! {
        <div class={classes!("page", dragging.then_some("dragging"))} {ondragover} {ondragleave} {ondrop}>
            <header class="top">
                <span class="logo" aria-hidden="true">{ "◎" }</span>
                <span class="brand">{ "ccscope" }</span>
                <span class="tagline">{ "Claude Code transcripts, read in your browser" }</span>
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
