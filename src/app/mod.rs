//! The Yew viewer (wasm only): thin glue over `ui`. [`App`] holds the one
//! app state (`ui::state::State`, where its actions are handled), the
//! picked files and the reading worker; opening a pick is [`open`], a
//! folder's background work [`browser::tasks`]; what is on screen for each
//! route is [`routes`].
//!
//! ```text
//!   mod (App) ──► picker, routes ──► conversation::Viewer ──► conversation::{header, toolbar, vlist, item, runs, …}
//!      │                       └──► browser::SessionBrowser ──► folder::{table, projects, search}
//!      ├──► open, browser::tasks ──► worker::client ⇄ worker::serve ──► worker::jobs
//!      └──► pick, address            bodies, search ──► blob, task
//!   ctx, shared, files: data only, no HTML; nothing below imports back up.
//! ```

mod address;
mod blob;
mod bodies;
mod ctx;
mod files;
mod browser;
mod open;
mod listing;
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
use yew::prelude::*;

pub use blob::{blob_of, read_all, read_range, Chunks, ReadError, CHUNK_BYTES, FIRST_CHUNK_BYTES};
pub use open::Source;
pub use task::yield_to_page;

use files::Files;
use browser::OpenAt;
use listing::PickedFile;
use task::Cancel;
use crate::folder::Tree;
use crate::state::browser::Browser;
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

/// What the app's callbacks share: the state's dispatcher, the files, the
/// worker, and the cancel flags of the work under way.
#[derive(Clone)]
pub(crate) struct Hub {
    send: Callback<Action>,
    files: Files,
    client: worker::Client,
    /// The read of the file on screen.
    reading: Rc<std::cell::RefCell<Cancel>>,
    /// The folder's survey and search, and the walk of a dropped folder.
    survey: Rc<std::cell::RefCell<Cancel>>,
    walk: Rc<std::cell::RefCell<Cancel>>,
    search: Rc<std::cell::RefCell<Cancel>>,
    /// Redaction is on: addresses name files by number, not path.
    opaque: Rc<std::cell::Cell<bool>>,
}

impl PartialEq for Hub {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.reading, &other.reading)
    }
}

/// Cancels what `slot` holds and puts a fresh flag there.
fn renew(slot: &std::cell::RefCell<Cancel>) -> Cancel {
    let fresh = Cancel::default();
    std::mem::replace(&mut *slot.borrow_mut(), fresh.clone()).cancel();
    fresh
}

impl Hub {
    fn open(&self, source: Source) {
        let o = open::Opening { cancel: renew(&self.reading), send: self.send.clone(), client: self.client.clone(), files: self.files.clone() };
        yew::platform::spawn_local(o.run(source));
    }

    /// A folder (or several files) was picked: list it at once, then sum
    /// its conversations up in the worker.
    fn open_folder(&self, picked: Vec<PickedFile>, name: String) {
        renew(&self.reading);
        renew(&self.search);
        let survey = renew(&self.survey);
        let (entries, files): (Vec<_>, Vec<_>) = picked.into_iter().map(|p| (p.entry, self.files.add(p.file.into()))).unzip();
        let folder = Rc::new(Browser::new(&name, Tree::build(entries), files));
        self.send.emit(Action::FolderPicked(folder.clone()));
        address::push("/");
        yew::platform::spawn_local(browser::tasks::survey(folder, self.files.clone(), self.client.clone(), self.send.clone(), survey));
    }

    /// Walks a dropped folder, then opens it; the entries it could not read
    /// are named.
    async fn walk(&self, entries: Vec<wasm_bindgen::JsValue>, opened: Callback<(Vec<PickedFile>, bool)>) {
        let cancel = renew(&self.walk);
        let send = self.send.clone();
        send.emit(Action::Listing(Some(0)));
        let (picked, unreadable) = listing::walk(entries, &cancel, |n| send.emit(Action::Listing(Some(n)))).await;
        if cancel.is_cancelled() {
            return;
        }
        send.emit(Action::Listing(None));
        if !unreadable.is_empty() {
            let n = unreadable.len() as u64;
            let named: Vec<&str> = unreadable.iter().take(5).map(String::as_str).collect();
            let text = format!("{} of the dropped folder could not be read and {} left out: {}", crate::fmt::plural(n, "entry", "entries"), crate::fmt::agree(n, "was", "were"), named.join(", "));
            send.emit(Action::Notice(text.into()));
        }
        if !picked.is_empty() {
            opened.emit((picked, true));
        }
    }

    fn cancel_walk(&self) {
        renew(&self.walk);
        self.send.emit(Action::Listing(None));
    }

    fn search_folder(&self, folder: Rc<Browser>, query: String, scope: crate::state::browser::Scope) {
        let cancel = renew(&self.search);
        if query.is_empty() {
            return self.send.emit(Action::FolderSearchClear);
        }
        yew::platform::spawn_local(browser::tasks::search(folder, self.files.clone(), self.client.clone(), query.into(), scope, self.send.clone(), cancel));
    }

    /// Opens a conversation of the folder (or one of its runs) at a line.
    fn open_at(&self, folder: &Browser, at: &OpenAt, push: bool) {
        let conv = &folder.tree.conversations[at.conv as usize];
        let entry = match &at.run {
            Some(agent) => conv.runs.iter().find(|r| *r.agent_id == **agent).map(|r| r.jsonl),
            None => Some(conv.entry),
        };
        let Some((entry, file)) = entry.and_then(|e| Some((e, *folder.files.get(e as usize)?))) else { return };
        let path = &folder.tree.entry(entry).path;
        let prefix = address::prefix(path, entry, self.opaque.get());
        let hash = match at.line {
            Some(l) => format!("{prefix}L{l}"),
            None => prefix.trim_end_matches(':').to_string(),
        };
        if push {
            address::push(&hash);
        } else {
            address::replace(&hash);
        }
        self.send.emit(Action::Navigate(Route::Conversation { conv: at.conv, run: at.run.clone() }));
        let name = path.rsplit('/').next().unwrap_or(path).into();
        self.open(Source::Known { file, name });
    }

    /// Follows the address: `#/` the list, `#/<path>[:L<n>]` (or
    /// `#/~<entry>[:L<n>]`) a conversation.
    fn follow(&self, folder: &Browser, route: &Route) {
        let Some((target, line)) = address::parse(&address::current()) else { return };
        let entry = match target {
            address::Target::Path(p) if p.is_empty() => return self.send.emit(Action::Navigate(Route::Browser)),
            address::Target::Path(p) => folder.tree.entries.iter().position(|e| e.path == p).map(|e| e as u32),
            address::Target::Entry(e) => ((e as usize) < folder.tree.entries.len()).then_some(e),
        };
        let Some(entry) = entry else { return };
        let Some((conv, run)) = folder.owner_of(entry) else { return };
        let run: Option<Rc<str>> = run.map(Rc::from);
        if *route != (Route::Conversation { conv, run: run.clone() }) {
            self.open_at(folder, &OpenAt { conv, run, line, highlight: None }, false);
        }
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
                let entry = match target {
                    address::Target::Path(p) => folder.tree.entries.iter().position(|e| e.path == p).map(|e| e as u32),
                    address::Target::Entry(e) => ((e as usize) < folder.tree.entries.len()).then_some(e),
                };
                if let Some(e) = entry {
                    let prefix = address::prefix(&folder.tree.entry(e).path, e, on);
                    address::replace(&line.map_or_else(|| prefix.trim_end_matches(':').to_string(), |l| format!("{prefix}L{l}")));
                }
            }
        });
    }
    let highlight = use_state(|| None::<Rc<str>>);
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
    let callbacks = use_memo(state.folder.as_ref().map(|f| shared::Shared(f.tree.clone())), {
        let (hub, state, highlight) = (hub.clone(), state.clone(), highlight.clone());
        move |_| routes::Callbacks::new(&hub, &state, &highlight)
    });
    let dragging = use_state(|| false);
    let viewing = state.shown().is_some() || state.route == Route::Browser;
    html! {
        <div class={classes!("page", dragging.then_some("dragging"), viewing.then_some("viewing"))}
            ondragover={routes::drag_over(&dragging)} ondragleave={routes::drag_leave(&dragging)} ondrop={routes::drop(&dragging, &callbacks)}>
            <header class="top">
                <span class="logo" aria-hidden="true">{ "◎" }</span>
                <span class="brand">{ "ccscope" }</span>
                <span class="tagline">{ "Claude Code transcripts, read in your browser" }</span>
                <span class="spacer"></span>
                <span class="offline-badge" title="Files are read on this device; nothing is uploaded">{ "local only" }</span>
                <redact::RedactToggle />
                <theme::ThemeToggle />
            </header>
            <main>
                <landing::Landing on_open={callbacks.open.clone()} on_files={callbacks.files.clone()} busy={state.reading()}
                    compact={!matches!((&state.phase, &state.route), (crate::state::state::Phase::Empty, Route::Home))} />
                { routes::notice(&state, &callbacks) }
                { routes::body(&state, &hub.files, &callbacks, (*highlight).clone(), &redaction) }
            </main>
            <footer class="bottom">
                { "Private by design: files are read on this device and never uploaded. No network requests after the page has loaded." }
            </footer>
            <div class="drop-overlay" aria-hidden="true"><div>{ "Drop transcripts or a folder to open them" }</div></div>
        </div>
    }
}
