//! The conversation view's effects: what lives outside Yew (the address,
//! the keyboard) and the work the state asks for (another idle threshold's
//! list, a search) done in tasks that report back as actions.

use std::rc::Rc;

use gloo::events::{EventListener, EventListenerOptions};
use wasm_bindgen::JsCast;
use web_sys::Blob;
use yew::prelude::*;

use crate::app::shared::Shared;
use crate::app::task::{yield_to_page, Cancel};
use crate::model::items::Items;
use crate::state::conversation::{key_command, Action, Key, Ui};
use crate::state::Doc;

/// `#<prefix>L123` → 123.
fn hash_line(prefix: &str) -> Option<u32> {
    crate::state::address::line_in(&crate::app::address::current(), prefix)
}

/// Hands a new document to a mounted viewer; whether the state still shows
/// the old one.
#[hook]
pub fn use_replace(ui: &UseReducerHandle<Ui>, doc: &Shared<Doc>) -> bool {
    let stale = !Rc::ptr_eq(&ui.doc, &doc.0);
    let dispatch = ui.dispatcher();
    use_effect_with((doc.clone(), stale), move |(doc, stale)| {
        if *stale {
            dispatch.dispatch(Action::Replace(doc.0.clone()));
        }
    });
    stale
}

/// `#<prefix>L<line>` in the address (which never leaves the browser): read
/// on open and whenever it changes; written (replaced: no history entry per
/// key press, no request) as the current item moves.
#[hook]
pub fn use_address(ui: &UseReducerHandle<Ui>, prefix: &Rc<str>) {
    let dispatch = ui.dispatcher();
    let at = prefix.clone();
    // The line last gone to: a longer document (the whole file after its
    // preview, a followed file that grew) goes to the address's line only
    // if it is another (the address follows the reading, which must stay put).
    let gone_to = use_mut_ref(|| None::<u32>);
    let shown = gone_to.clone();
    use_effect_with((Shared(ui.doc.clone()), Shared(ui.view.clone())), move |(doc, view)| {
        let (doc, view) = (doc.clone(), view.clone());
        let goto = move |again: bool| {
            let Some(line) = hash_line(&at) else { return };
            if !again && *gone_to.borrow() == Some(line) {
                return;
            }
            if let Some(id) = view.item_at_line(&doc.index, line) {
                *gone_to.borrow_mut() = Some(line);
                dispatch.dispatch(Action::Goto(id));
            }
        };
        goto(false);
        let listener = web_sys::window().map(|w| EventListener::new(&w, "hashchange", move |_| goto(true)));
        move || drop(listener)
    });
    // What the address says is where the view is: written here, it is
    // never a place to go to.
    let write = {
        let prefix = prefix.clone();
        move |l: u32| {
            *shown.borrow_mut() = Some(l);
            crate::app::address::replace(&format!("{prefix}L{l}"));
        }
    };
    let chosen = write.clone();
    use_effect_with(ui.current_line(), move |line| {
        if let Some(l) = *line {
            chosen(l);
        }
    });
    // And it follows the reading position as the person scrolls: the line
    // of the item at the top, once the scroll has rested (no history entry).
    let timer = use_mut_ref(|| None::<gloo::timers::callback::Timeout>);
    use_effect_with(ui.reading_line(), move |line| {
        *timer.borrow_mut() = line.map(|l| {
            let write = write.clone();
            gloo::timers::callback::Timeout::new(ADDRESS_REST_MS, move || write(l))
        });
    });
}

/// How long a scroll rests before the address follows it.
const ADDRESS_REST_MS: u32 = 300;

/// The keyboard outside text fields (`state::conversation::key_command`); `Esc` in
/// the search box clears the search and leaves the box.
#[hook]
pub fn use_keys(ui: &UseReducerHandle<Ui>, search_input: NodeRef) {
    let dispatch = ui.dispatcher();
    use_effect_with((), move |_| {
        let listener = web_sys::window().and_then(|w| w.document()).map(|doc| {
            // Not passive: a handled key must not also scroll or type.
            EventListener::new_with_options(&doc, "keydown", EventListenerOptions::enable_prevent_default(), move |e| {
                let Some(e) = e.dyn_ref::<web_sys::KeyboardEvent>() else { return };
                if e.ctrl_key() || e.meta_key() || e.alt_key() {
                    return;
                }
                let typing = e
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                    .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "SELECT" | "TEXTAREA"));
                let input = || search_input.cast::<web_sys::HtmlElement>();
                let key = key_command(&e.key());
                if typing {
                    if let (Some(Key::Clear), Some(i)) = (key, input()) {
                        if e.target().is_some_and(|t| t == ***i) {
                            dispatch.dispatch(Action::SearchClear);
                        }
                        let _ = i.blur();
                    }
                    return;
                }
                let Some(key) = key else { return };
                e.prevent_default();
                match key {
                    Key::Step(walk, forward) => dispatch.dispatch(Action::Step(walk, forward)),
                    Key::FocusSearch => {
                        if let Some(i) = input() {
                            let _ = i.focus();
                        }
                    }
                    Key::Clear => dispatch.dispatch(Action::SearchClear),
                    Key::Insights => dispatch.dispatch(Action::ToggleInsights),
                }
            })
        });
        move || drop(listener)
    });
}

/// Builds the list at a new idle threshold in a task of its own (on a big
/// file that takes a while), then hands it to the state.
#[hook]
pub fn use_idle_rebuild(ui: &UseReducerHandle<Ui>) {
    let wanted = ui.view_pending.then_some(ui.idle_gap_secs);
    let (dispatch, doc) = (ui.dispatcher(), ui.doc.clone());
    use_effect_with((wanted, Shared(doc)), move |(wanted, doc)| {
        let cancel = Cancel::default();
        if let Some(secs) = *wanted {
            let (doc, cancel) = (doc.0.clone(), cancel.clone());
            yew::platform::spawn_local(async move {
                yield_to_page().await;
                if !cancel.is_cancelled() {
                    let view = Rc::new(Items::build(&doc.index, secs));
                    dispatch.dispatch(Action::ViewBuilt { idle_gap_secs: secs, view });
                }
            });
        }
        move || cancel.cancel()
    });
}

/// Runs the search the state asks for; a newer one (or leaving) cancels it.
#[hook]
pub fn use_search(ui: &UseReducerHandle<Ui>, blob: &Blob) {
    let running = crate::app::search::running(&ui.search).map(|(serial, _)| serial);
    let client = use_context::<crate::app::worker::Client>();
    let (dispatch, search, blob) = (ui.dispatcher(), ui.search.clone(), blob.clone());
    use_effect_with(running, move |_| {
        let cancel = Cancel::default();
        if let (Some((serial, query)), Some(client)) = (crate::app::search::running(&search), client) {
            yew::platform::spawn_local(crate::app::search::run(client, blob, serial, query, dispatch, cancel.clone()));
        }
        move || cancel.cancel()
    });
}
