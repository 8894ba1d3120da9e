//! The Yew viewer (wasm only): thin glue over `state`. [`App`] holds the
//! one app state (`state::state::State`, where its actions are handled);
//! [`hub::Hub`] the picked files, the reading worker and the work under way
//! (opening a pick is [`open`], a folder's background work
//! [`browser::tasks`]); what is on screen for each route is [`routes`].
//!
//! ```text
//!   mod (App) ──► landing, routes ──► conversation::Conversation ──► conversation::{header, toolbar, vlist, item, runs, …}
//!      │                        └──► browser::SessionBrowser ──► browser::{table, projects, search, dashboard}
//!      ├──► hub ──► open, browser::tasks ──► worker::client ──► worker::jobs (or the worker: worker::serve ──► worker::jobs)
//!      └──► listing, address                  bodies, search ──► blob, task
//!   ctx, shared, files, in_folder: data only, no HTML; nothing imports back up (tools/imports.mjs).
//! ```

mod address;
mod blob;
mod bodies;
mod ctx;
mod files;
mod follow;
mod handles;
mod remembered;
mod browser;
mod hub;
mod open;
mod listing;
mod live;
mod landing;
mod progress;
pub mod redact;
mod routes;
mod search;
mod shared;
mod task;
mod theme;
mod conversation;
mod worker;

use std::rc::Rc;

use gloo::events::EventListener;
use wasm_bindgen::JsCast;
use yew::prelude::*;

pub use blob::{blob_of, read_all, read_range, Chunks, ReadError, CHUNK_BYTES, FIRST_CHUNK_BYTES};
pub use open::Source;
pub use task::yield_to_page;
pub use worker::protocol::{FromWorker, ToWorker};

use files::Files;
use hub::Hub;
use crate::state::state::{Action, Route, State};

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        State::reduce(self, action)
    }
}

/// The app inside what the whole page shares (redaction).
#[function_component(Root)]
fn root() -> Html {
    html! { <redact::RedactionProvider><App /></redact::RedactionProvider> }
}

/// Mounts the app on `<body>`; in a worker (no `window`), serves reads.
pub fn start() {
    if web_sys::window().is_some() {
        yew::Renderer::<Root>::new().render();
    } else {
        worker::serve::serve();
    }
}

#[function_component(App)]
pub fn app() -> Html {
    let state = use_reducer(State::default);
    let hub = use_memo((), {
        let send = state.dispatcher().to_callback();
        move |_| Hub {
            send,
            files: Files::default(),
            client: worker::Client::start(),
            reading: Rc::default(),
            survey: Rc::default(),
            walk: Rc::default(),
            search: Rc::default(),
            opaque: Rc::default(),
            list_scroll: Rc::default(),
            follow_on: Rc::new(std::cell::Cell::new(true)),
        }
    });
    // Redaction on: the address names the open file by number (and back).
    let redaction = redact::use_redaction();
    {
        let (hub, folder) = ((*hub).clone(), state.folder.clone());
        use_effect_with(redaction.on, move |&on| {
            hub.opaque.set(on);
            let at = address::parse(&address::current()).zip(folder);
            if let Some(((target, line), folder)) = at {
                if let Some(e) = folder.entry_of(&target) {
                    address::replace(&address::of(&folder.tree.entry(e).path, e, on, line));
                }
            }
        });
    }
    let highlight = use_state(|| None::<routes::Highlight>);
    // Back and forward between the list and a conversation.
    {
        let (hub, folder, route) = ((*hub).clone(), state.folder.clone(), state.route.clone());
        use_effect_with((folder.clone().map(shared::Shared), route.clone()), move |_| {
            let listener = folder.zip(web_sys::window()).map(|(f, w)| EventListener::new(&w, "popstate", move |_| hub.follow(&f, &route)));
            move || drop(listener)
        });
    }
    // Made again only for a new pick (they use its tree and files): the same
    // callbacks keep the session browser's rows from redrawing on every
    // action (a read's progress, a batch of other rows' facts).
    // What was opened through handles before (read once at load, where the
    // browser gives handles; again after each change).
    let remembered = use_state(Vec::new);
    {
        let remembered = remembered.clone();
        use_effect_with((), move |_| {
            if handles::supported() {
                yew::platform::spawn_local(async move { remembered.set(remembered::list().await) });
            }
        });
    }
    let callbacks = use_memo(state.folder.as_ref().map(|f| shared::Shared(f.tree.clone())), {
        let (hub, state, highlight, remembered) = (hub.clone(), state.clone(), highlight.clone(), remembered.clone());
        move |_| routes::Callbacks::new(&hub, &state, &highlight, &remembered)
    });
    // The session list keeps its place by every route back (the breadcrumb,
    // the browser's Back, a link): the page's scroll is kept when a
    // conversation opens and put back when the list shows again.
    {
        let list_scroll = hub.list_scroll.clone();
        use_effect_with(state.route == Route::Browser, move |&on_list| {
            if let (true, Some(w)) = (on_list, web_sys::window()) {
                w.scroll_to_with_x_and_y(0.0, list_scroll.get());
            }
        });
    }
    let dragging = use_state(|| false);
    let viewing = state.viewing();
    // Something is shown: the landing panel is a bar, and a link's wish is no longer read.
    let compact = !matches!((&state.phase, &state.route), (crate::state::state::Phase::Empty, Route::Home));
    // The first Tab's stop: past the header and toolbars to what is read —
    // the open conversation's items, or the session list's first row.
    let skip_to_list = Callback::from(|_: MouseEvent| {
        let doc = web_sys::window().and_then(|w| w.document());
        let first = |sel: &str| doc.as_ref().and_then(|d| d.query_selector(sel).ok().flatten());
        let target = first("[data-testid=turn-list]").or_else(|| first(browser::ROW_LINKS)).and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
        if let Some(t) = target {
            let _ = t.focus();
        }
    });
    html! {
        <div class={classes!("page", dragging.then_some("dragging"), viewing.then_some("viewing"))}
            ondragover={routes::drag_over(&dragging)} ondragleave={routes::drag_leave(&dragging)} ondrop={routes::drop(&dragging, &callbacks)}>
            <header class="top">
                <button class="skip-link" type="button" onclick={skip_to_list} data-testid="skip-link">{ "Skip to the list" }</button>
                <span class="logo" aria-hidden="true">{ "◎" }</span>
                <span class="brand">{ "ccscope" }</span>
                <span class="tagline">{ "Claude Code transcripts, read in your browser" }</span>
                <span class="spacer"></span>
                <span class="offline-badge" title="Files are read on this device; nothing is uploaded">{ "local only" }</span>
                <redact::RedactToggle />
                <theme::ThemeToggle />
            </header>
            <main>
            <ContextProvider<worker::Client> context={hub.client.clone()}>
                <landing::Landing on_open={callbacks.open.clone()} on_files={callbacks.files.clone()} busy={state.reading()} {compact}
                    wanted={(!compact).then(|| address::describe(&address::current(), |p| redaction.text(p))).flatten()}
                    handles={handles::supported()} on_handles={callbacks.handles.clone()} remembered={(*remembered).clone()}
                    on_reopen={callbacks.reopen.clone()} on_forget={callbacks.forget.clone()} />
                { routes::notice(&state, &callbacks, &redaction) }
                { routes::body(&state, &hub.files, &callbacks, (*highlight).clone(), &redaction) }
            </ContextProvider<worker::Client>>
            </main>
            <footer class="bottom">
                { "Private by design: files are read on this device and never uploaded. No network requests after the page has loaded." }
            </footer>
            <div class="drop-overlay" aria-hidden="true"><div>{ "Drop transcripts or a folder to open them" }</div></div>
        </div>
    }
}
