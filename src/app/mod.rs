//! The Yew viewer (wasm only): thin glue over `ui`. [`App`] holds the one
//! app state (`ui::state::State`, where its actions are handled), the
//! picked files and the reading worker; opening a pick is [`open`]; the
//! conversation view is [`view`].
//!
//! ```text
//!   mod (App) ──► picker, progress, view::Viewer ──► view::{header, toolbar, vlist, item, …}
//!      │                                                  │
//!      └──► open ──► worker::client ⇄ worker::serve       └──► bodies, search ──► blob
//!                 └──► blob, task                  ctx, shared, files: data only, no HTML
//! ```

mod blob;
mod bodies;
mod ctx;
mod files;
mod open;
mod picker;
mod progress;
mod search;
mod shared;
mod task;
mod theme;
mod view;
mod worker;

use std::rc::Rc;

use yew::prelude::*;

pub use blob::{blob_of, read_range, Chunks, ReadError, CHUNK_BYTES, FIRST_CHUNK_BYTES};
pub use open::Source;
pub use task::yield_to_page;

use files::Files;
use shared::Shared;
use task::Cancel;
use crate::ui::state::{Action, Phase, State};

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        State::reduce(self, action)
    }
}

/// Mounts the app on `<body>`; in a worker (no `window`), serves reads.
pub fn start() {
    if web_sys::window().is_some() {
        yew::Renderer::<App>::new().render();
    } else {
        worker::serve::serve();
    }
}

#[function_component(App)]
pub fn app() -> Html {
    let state = use_reducer(State::default);
    let files = use_memo((), |_| Files::default());
    let client = use_memo((), |_| worker::Client::start());
    // The read under way: a newer pick cancels it.
    let reading = use_mut_ref(Cancel::default);
    let dragging = use_state(|| false);

    let open = {
        let (dispatch, files, client) = (state.dispatcher(), (*files).clone(), (*client).clone());
        Callback::from(move |source: Source| {
            let cancel = Cancel::default();
            std::mem::replace(&mut *reading.borrow_mut(), cancel.clone()).cancel();
            let o = open::Opening { cancel, send: dispatch.to_callback(), client: client.clone(), files: files.clone() };
            yew::platform::spawn_local(o.run(source));
        })
    };
    let on_drop = {
        let (dragging, open) = (dragging.clone(), open.clone());
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            dragging.set(false);
            if let Some(file) = e.data_transfer().and_then(|dt| dt.files()).and_then(|fs| fs.get(0)) {
                open.emit(Source::File(file));
            }
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
        // Only when the pointer leaves the window, not a child element.
        Callback::from(move |e: DragEvent| if e.related_target().is_none() { dragging.set(false) })
    };
    let viewing = state.shown().is_some();
    html! {
        <div class={classes!("page", dragging.then_some("dragging"), viewing.then_some("viewing"))} {ondragover} {ondragleave} ondrop={on_drop}>
            <header class="top">
                <span class="logo" aria-hidden="true">{ "◎" }</span>
                <span class="brand">{ "ccscope" }</span>
                <span class="tagline">{ "Claude Code transcripts, read in your browser" }</span>
                <span class="spacer"></span>
                <span class="offline-badge" title="Files are read on this device; nothing is uploaded">{ "local only" }</span>
                <theme::ThemeToggle />
            </header>
            <main>
                <picker::Picker on_open={open} busy={state.reading()} compact={!matches!(state.phase, Phase::Empty)} />
                { notice(&state) }
                { body(&state, &files) }
            </main>
            <footer class="bottom">
                { "Private by design: files are read on this device and never uploaded. No network requests after the page has loaded." }
            </footer>
            <div class="drop-overlay" aria-hidden="true"><div>{ "Drop the transcript to open it" }</div></div>
        </div>
    }
}

fn notice(state: &UseReducerHandle<State>) -> Html {
    let Some(text) = &state.notice else { return html! {} };
    let dismiss = state.dispatcher().to_callback().reform(|_: MouseEvent| Action::DismissNotice);
    html! {
        <section class="notice warn" role="status" data-testid="notice">
            <p>{ text.to_string() }</p>
            <button class="link-button" onclick={dismiss}>{ "Dismiss" }</button>
        </section>
    }
}

/// The progress bar, the viewer (kept mounted from preview to whole file:
/// it is keyed by the open's number) and what else an open ended with.
fn body(state: &State, files: &Files) -> Html {
    let progress = match &state.phase {
        Phase::Reading { name, size_bytes, read_bytes, .. } => html! {
            <progress::Progress name={name.clone()} size_bytes={*size_bytes} read_bytes={*read_bytes} />
        },
        _ => html! {},
    };
    let viewer = match state.shown().and_then(|d| Some((d, files.get(d.file)?))) {
        Some((doc, blob)) => html! {
            <view::Viewer key={format!("view-{}", state.opened)} doc={Shared(doc.clone())} {blob} partial={state.reading()} />
        },
        None => html! {},
    };
    let other = match &state.phase {
        Phase::Done(doc) if !doc.is_transcript() => html! { <view::Summary doc={Shared(doc.clone())} /> },
        Phase::Failed { name, message } => html! {
            <section class="notice error" role="alert" data-testid="error">
                <h2>{ format!("Could not open {name}") }</h2>
                <p>{ message.to_string() }</p>
            </section>
        },
        _ => html! {},
    };
    html! { <>{ progress }{ viewer }{ other }</> }
}
