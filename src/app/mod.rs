//! The Yew viewer (wasm only). One reducer state ([`state::State`]); each
//! component gets data plus `Callback`s. Big data sits behind `Rc`.

mod bodies;
mod header;
mod item;
mod load;
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
use yew::prelude::*;

pub use bodies::{fetch as fetch_bodies, BodyCache, CACHE_BUDGET_BYTES};
pub use load::Source;
pub use reader::{read_blob, ReadError, ReadOutcome, CHUNK_BYTES, FIRST_CHUNK_BYTES};
use state::{Phase, State};

use crate::model::verdict;
use shared::Shared;

/// How often the progress bar is redrawn while a file is read (and how often
/// the reading worker reports progress).
const PROGRESS_MS: f64 = 100.0;

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
            yew::platform::spawn_local(load::load(source, generation, latest.clone(), dispatch.clone()));
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
