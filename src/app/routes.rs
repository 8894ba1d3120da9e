//! What the page shows for each route, and the callbacks that move between
//! them: the landing page or the one file picked, a folder's session
//! browser, and a conversation (or run) of the folder with a breadcrumb
//! back to the list.

use std::rc::Rc;

use yew::prelude::*;

use super::files::Files;
use super::browser::browser::SessionBrowser;
use crate::state::browser::OpenAt;
use super::listing::{self, PickedFile};
use super::shared::Shared;
use super::conversation::in_folder::InFolder;
use super::blob::ReadError;
use super::redact::Redaction;
use super::conversation;
use super::hub::Hub;
use super::open::Source;
use super::progress;
use super::remembered::Remembered;
use crate::state::browser::{Browser, ListUi, Scope};
use crate::state::state::{Action, Phase, Route, State};
use crate::state::doc::FileId;

/// Everything the page's components may ask the app to do.
#[derive(Clone, PartialEq)]
pub struct Callbacks {
    pub open: Callback<Source>,
    pub files: Callback<(Vec<PickedFile>, bool)>,
    pub list: Callback<ListUi>,
    pub open_at: Callback<OpenAt>,
    /// Search this folder (as it is now: its search serial, what it shows).
    pub search: Callback<(Rc<Browser>, String, Scope)>,
    pub memory: Callback<(u32, Callback<Result<String, ReadError>>)>,
    pub back: Callback<MouseEvent>,
    /// A dropped folder's entries to walk.
    pub walk: Callback<Vec<wasm_bindgen::JsValue>>,
    pub cancel_walk: Callback<MouseEvent>,
    /// Files or folders picked or dropped as handles.
    pub handles: Callback<Vec<wasm_bindgen::JsValue>>,
    /// A remembered handle to open again (from a click: the browser asks).
    pub reopen: Callback<wasm_bindgen::JsValue>,
    /// Forget a remembered handle (its key), or all of them.
    pub forget: Callback<Option<f64>>,
    /// The "Follow" toggle.
    pub follow: Callback<bool>,
}

/// A folder search's query, opened with its hit: shown in that file's
/// search box (never in another file's, shown while this one is read).
#[derive(Clone, PartialEq)]
pub struct Highlight {
    pub file: FileId,
    pub query: Rc<str>,
}

impl Callbacks {
    /// `remembered`: the landing page's list of remembered handles, read
    /// again after each change.
    pub fn new(hub: &Rc<Hub>, state: &UseReducerHandle<State>, highlight: &UseStateHandle<Option<Highlight>>, remembered: &UseStateHandle<Vec<Remembered>>) -> Callbacks {
        let h = (**hub).clone();
        let open = {
            let (h, highlight) = (h.clone(), highlight.clone());
            Callback::from(move |source: Source| {
                highlight.set(None);
                h.open(source)
            })
        };
        let files = {
            let h = h.clone();
            Callback::from(move |(picked, _folder): (Vec<PickedFile>, bool)| {
                let name = listing::name_of(&picked);
                h.open_folder(picked, name, Vec::new())
            })
        };
        // The folder as picked: these callbacks use only its tree and files,
        // which a pick never changes (its facts and search do).
        let folder = state.folder.clone();
        let open_at = {
            let (h, folder, highlight) = (h.clone(), folder.clone(), highlight.clone());
            Callback::from(move |at: OpenAt| {
                if let Some(f) = &folder {
                    let file = h.open_at(f, &at, true);
                    highlight.set(file.zip(at.highlight.clone()).map(|(file, query)| Highlight { file, query }));
                }
            })
        };
        let search = {
            let h = h.clone();
            Callback::from(move |(folder, query, scope): (Rc<Browser>, String, Scope)| h.search_folder(folder, query, scope))
        };
        let memory = {
            let (files, folder) = (h.files.clone(), folder.clone());
            Callback::from(move |(entry, done): (u32, Callback<Result<String, ReadError>>)| {
                let blob = folder.as_ref().and_then(|f| files.get(*f.files.get(entry as usize)?));
                yew::platform::spawn_local(async move {
                    let Some(blob) = blob else { return done.emit(Err(ReadError::NotPicked)) };
                    done.emit(super::blob::read_all(&blob).await.map(|b| String::from_utf8_lossy(&b).into_owned()));
                });
            })
        };
        let back = {
            let send = h.send.clone();
            Callback::from(move |e: MouseEvent| {
                e.prevent_default();
                super::address::push("/");
                send.emit(Action::Navigate(Route::Browser));
            })
        };
        let list = state.dispatcher().to_callback().reform(Action::SetList);
        let walk = {
            let (h, files) = (h.clone(), files.clone());
            Callback::from(move |entries: Vec<wasm_bindgen::JsValue>| {
                let (h, files) = (h.clone(), files.clone());
                yew::platform::spawn_local(async move { h.walk(entries, files).await });
            })
        };
        let cancel_walk = {
            let h = h.clone();
            Callback::from(move |_: MouseEvent| h.cancel_walk())
        };
        let reload = {
            let remembered = remembered.clone();
            move || {
                let remembered = remembered.clone();
                async move { remembered.set(super::remembered::list().await) }
            }
        };
        let handles = {
            let (h, reload) = (h.clone(), reload.clone());
            Callback::from(move |picked: Vec<wasm_bindgen::JsValue>| {
                let (h, reload) = (h.clone(), reload.clone());
                yew::platform::spawn_local(async move {
                    h.open_handles(picked).await;
                    reload().await;
                });
            })
        };
        let reopen = {
            let (h, reload) = (h.clone(), reload.clone());
            Callback::from(move |handle: wasm_bindgen::JsValue| {
                let (h, reload) = (h.clone(), reload.clone());
                yew::platform::spawn_local(async move {
                    h.reopen(handle).await;
                    reload().await;
                });
            })
        };
        let forget = Callback::from(move |key: Option<f64>| {
            let reload = reload.clone();
            yew::platform::spawn_local(async move {
                super::remembered::forget(key).await;
                reload().await;
            });
        });
        let follow = {
            let h = h.clone();
            Callback::from(move |on: bool| h.set_follow(on))
        };
        Callbacks { open, files, list, open_at, search, memory, back, walk, cancel_walk, handles, reopen, forget, follow }
    }
}

pub fn drag_over(dragging: &UseStateHandle<bool>) -> Callback<DragEvent> {
    let dragging = dragging.clone();
    Callback::from(move |e: DragEvent| {
        e.prevent_default();
        if !*dragging {
            dragging.set(true);
        }
    })
}

pub fn drag_leave(dragging: &UseStateHandle<bool>) -> Callback<DragEvent> {
    let dragging = dragging.clone();
    // Only when the pointer leaves the window, not a child element.
    Callback::from(move |e: DragEvent| if e.related_target().is_none() { dragging.set(false) })
}

/// A drop: one file opens on its own; several, or a folder, open as a folder.
pub fn drop(dragging: &UseStateHandle<bool>, cb: &Callbacks) -> Callback<DragEvent> {
    let (dragging, cb) = (dragging.clone(), cb.clone());
    Callback::from(move |e: DragEvent| {
        e.prevent_default();
        dragging.set(false);
        let Some(dt) = e.data_transfer() else { return };
        // Everything is taken from the drop while it lasts; handles (where
        // the browser gives them) are preferred: they can be followed.
        let handles = super::handles::dropped(&dt);
        let plain = dt.files().map(|fs| listing::files_of(&fs)).unwrap_or_default();
        let entries = listing::dropped_entries(&dt);
        let cb = cb.clone();
        yew::platform::spawn_local(async move {
            if let Some(h) = super::handles::resolve_all(handles).await {
                return cb.handles.emit(h);
            }
            let is_dir = |e: &wasm_bindgen::JsValue| js_sys::Reflect::get(e, &"isDirectory".into()).ok().and_then(|v| v.as_bool()) == Some(true);
            match entries {
                Some(entries) if entries.iter().any(is_dir) || entries.len() > 1 => cb.walk.emit(entries),
                _ if plain.len() == 1 => {
                    if let Some((file, _)) = plain.into_iter().next() {
                        cb.open.emit(Source::File(file));
                    }
                }
                _ if plain.len() > 1 => cb.files.emit((listing::entries_of(plain).await, false)),
                _ => {}
            }
        });
    })
}

/// A notice names paths and files: with Redact on, as the rest of the page does.
pub fn notice(state: &UseReducerHandle<State>, cb: &Callbacks, red: &Redaction) -> Html {
    if let Some(n) = state.listing {
        return html! {
            <section class="notice" role="status" data-testid="listing">
                <p>{ format!("Listing the folder… {} so far", crate::fmt::plural(n as u64, "file", "files")) }</p>
                <button class="link-button" onclick={cb.cancel_walk.clone()}>{ "Cancel" }</button>
            </section>
        };
    }
    let Some(text) = &state.notice else { return html! {} };
    let dismiss = state.dispatcher().to_callback().reform(|_: MouseEvent| Action::DismissNotice);
    html! {
        <section class="notice warn" role="status" data-testid="notice">
            <p>{ red.text(text) }</p>
            <button class="link-button" onclick={dismiss}>{ "Dismiss" }</button>
        </section>
    }
}

/// The breadcrumb above a folder's conversation: back to the list, the
/// project, the conversation (and, for a run, back to the call that spawned it).
fn crumbs(folder: &Browser, conv: u32, run: Option<&Rc<str>>, cb: &Callbacks, red: &Redaction) -> Html {
    let c = &folder.tree.conversations[conv as usize];
    let title = red.text(&folder.title(conv));
    let to_call = run.and_then(|agent| {
        let call = folder.facts(conv)?.runs.iter().find(|l| *l.link.agent_id == **agent)?.link.tool_use_id.clone()?;
        let open_at = cb.open_at.clone();
        Some(Callback::from(move |e: MouseEvent| {
            e.prevent_default();
            open_at.emit(OpenAt { conv, run: None, line: None, highlight: Some(call.clone().into()) });
        }))
    });
    let open_conv = {
        let open_at = cb.open_at.clone();
        Callback::from(move |e: MouseEvent| {
            e.prevent_default();
            open_at.emit(OpenAt { conv, run: None, line: None, highlight: None })
        })
    };
    html! {
        <nav class="crumbs" aria-label="Breadcrumb" data-testid="crumbs">
            <a href="#/" onclick={cb.back.clone()} data-testid="back">{ "← All conversations" }</a>
            <span class="sep">{ "›" }</span>
            <span class="muted">{ red.text(&folder.project_dir(c.project)) }</span>
            <span class="sep">{ "›" }</span>
            if let Some(agent) = run {
                <a href="#" onclick={open_conv}>{ title }</a>
                <span class="sep">{ "›" }</span>
                <span>{ format!("subagent {agent}") }</span>
                if let Some(back) = to_call { <a href="#" class="to-call" onclick={back} data-testid="to-call">{ "back to its call" }</a> }
            } else {
                <span>{ title }</span>
            }
        </nav>
    }
}

/// The file on screen: its progress bar, its viewer (kept mounted from
/// preview to whole file: keyed by the open's number), or what else its
/// open ended with.
fn document(state: &State, files: &Files, address: Rc<str>, highlight: Option<Highlight>, red: &Redaction, cb: &Callbacks) -> Html {
    let progress = match &state.phase {
        Phase::Reading { name, size_bytes, read_bytes, .. } => html! {
            <progress::Progress name={Rc::<str>::from(red.text(name))} size_bytes={*size_bytes} read_bytes={*read_bytes} />
        },
        _ => html! {},
    };
    // A followed file: its bar, and the clock its running calls count to.
    let live = state.live.as_ref().filter(|_| matches!(state.phase, Phase::Done(_)));
    let following = live.is_some_and(|l| !state.paused && l.gone.is_none());
    let bar = match live {
        Some(l) => html! { <super::live::LiveBar live={l.clone()} on={!state.paused} on_follow={cb.follow.clone()} /> },
        None => html! {},
    };
    let viewer = match state.shown().and_then(|d| Some((d, files.get(d.file)?))) {
        Some((doc, blob)) => {
            // The query is for its own file: not for the one shown while it is read.
            let highlight = highlight.filter(|h| h.file == doc.file).map(|h| h.query);
            html! {
            <conversation::Conversation key={format!("view-{}", state.opened)} doc={Shared(doc.clone())} {blob} partial={state.reading()} {address} {highlight} live={following} />
            }
        }
        None => html! {},
    };
    let viewer = match live.filter(|_| following) {
        Some(l) => html! { <ContextProvider<crate::app::ctx::LiveClock> context={crate::app::ctx::LiveClock(l.now_ms)}>{ viewer }</ContextProvider<crate::app::ctx::LiveClock>> },
        None => viewer,
    };
    let other = match &state.phase {
        Phase::Done(doc) if !doc.is_transcript() => html! { <conversation::Summary doc={Shared(doc.clone())} /> },
        Phase::Failed { name, message } => html! {
            <section class="notice error" role="alert" data-testid="error">
                <h2>{ format!("Could not open {}", red.text(name)) }</h2>
                <p>{ message.to_string() }</p>
            </section>
        },
        _ => html! {},
    };
    html! { <>{ progress }{ bar }{ viewer }{ other }</> }
}

pub fn body(state: &UseReducerHandle<State>, files: &Files, cb: &Callbacks, highlight: Option<Highlight>, red: &Redaction) -> Html {
    // The session browser stays mounted (hidden) while a conversation is
    // open: it keeps its place, scroll and filters, and going back costs nothing.
    let browser = match &state.folder {
        Some(folder) => html! {
            <div class="browser-slot" hidden={state.route != Route::Browser}>
                <SessionBrowser folder={Shared(folder.clone())} on_list={cb.list.clone()} on_open={cb.open_at.clone()}
                    on_search={cb.search.clone()} on_memory={cb.memory.clone()} paused={state.paused} on_follow={cb.follow.clone()} />
            </div>
        },
        None => html! {},
    };
    html! { <>{ browser }{ route_body(state, files, cb, highlight, red) }</> }
}

fn route_body(state: &UseReducerHandle<State>, files: &Files, cb: &Callbacks, highlight: Option<Highlight>, red: &Redaction) -> Html {
    match (&state.route, &state.folder) {
        (Route::Browser, Some(_)) => html! {},
        (Route::Conversation { conv, run }, Some(folder)) => {
            let entry = folder.file_of(*conv, run.as_deref()).unwrap_or(folder.tree.conversations[*conv as usize].entry);
            let address: Rc<str> = super::address::prefix(&folder.tree.entry(entry).path, entry, red.on).into();
            let open_run = {
                let (open_at, conv) = (cb.open_at.clone(), *conv);
                Callback::from(move |agent: Rc<str>| open_at.emit(OpenAt { conv, run: Some(agent), line: None, highlight: None }))
            };
            let render_item = Callback::from(|(ctx, id, on_resize): (Shared<crate::app::ctx::Ctx>, u32, Callback<()>)| html! {
                <conversation::item::ItemView {ctx} {id} current={false} hit={false} {on_resize} />
            });
            let in_folder = InFolder { folder: Shared(folder.clone()), conv: *conv, run: run.clone(), files: files.clone(), open_run, render_item };
            html! {
                <>
                    { crumbs(folder, *conv, run.as_ref(), cb, red) }
                    <ContextProvider<InFolder> context={in_folder}>
                        { document(state, files, address, highlight, red, cb) }
                    </ContextProvider<InFolder>>
                </>
            }
        }
        _ => document(state, files, "".into(), None, red, cb),
    }
}
