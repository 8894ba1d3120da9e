//! The search's words marked where they are drawn: every match of the
//! query in the items on screen (unfolded output included), through the CSS
//! Custom Highlight API — ranges over the text the list drew, styled by
//! `::highlight(ccscope-match)` — so Yew's DOM is never touched. Drawn text
//! is already redacted: a hidden name is never marked because it is not
//! there. The matching rule is `state::search::marks_utf16`; a match that
//! spans two pieces of differently styled text is not marked.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::timers::callback::Timeout;
use js_sys::{Array, Function, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::state::search::marks_utf16;

/// The highlight's name in `CSS.highlights` (and in the stylesheet).
const NAME: &str = "ccscope-match";
/// Marks drawn at most: the screen holds far fewer.
const MAX_MARKS: usize = 2_000;
/// `NodeFilter.SHOW_TEXT`.
const SHOW_TEXT: u32 = 4;

/// `CSS.highlights`, where the browser has the Highlight API.
fn registry() -> Option<JsValue> {
    let css = Reflect::get(&js_sys::global(), &"CSS".into()).ok()?;
    Reflect::get(&css, &"highlights".into()).ok().filter(|r| !r.is_undefined())
}

fn call(target: &JsValue, method: &str, args: &Array) {
    if let Ok(f) = Reflect::get(target, &method.into()).and_then(|f| f.dyn_into::<Function>()) {
        let _ = f.apply(target, args);
    }
}

/// Marks every match of `query` in the text under `root`'s item list (none
/// for no query).
fn paint(root: &web_sys::Element, query: Option<&str>) {
    let Some(registry) = registry() else { return };
    let ranges = Array::new();
    if let (Some(q), Some(doc), Ok(Some(list))) = (query, root.owner_document(), root.query_selector("[data-testid=turn-list]")) {
        if let Ok(walker) = doc.create_tree_walker_with_what_to_show(&list, SHOW_TEXT) {
            while let Ok(Some(node)) = walker.next_node() {
                let text = node.node_value().unwrap_or_default();
                for m in marks_utf16(&text, q, MAX_MARKS - ranges.length() as usize) {
                    if let Ok(r) = doc.create_range() {
                        if r.set_start(&node, m.start).is_ok() && r.set_end(&node, m.end).is_ok() {
                            ranges.push(&r);
                        }
                    }
                }
                if ranges.length() as usize >= MAX_MARKS {
                    break;
                }
            }
        }
    }
    if ranges.length() == 0 {
        return call(&registry, "delete", &Array::of1(&NAME.into()));
    }
    let highlight = Reflect::get(&js_sys::global(), &"Highlight".into())
        .and_then(|c| c.dyn_into::<Function>())
        .and_then(|c| Reflect::construct(&c, &ranges));
    if let Ok(h) = highlight {
        call(&registry, "set", &Array::of2(&NAME.into(), &h));
    }
}

/// Keeps the marks on the items `viewer` draws for `query`: painted now,
/// and again (once per burst) whenever the list's DOM changes — a scroll
/// draws new rows, an unfold more text.
#[hook]
pub fn use_marks(viewer: NodeRef, query: Option<Rc<str>>) {
    use_effect_with(query, move |query| {
        let root = viewer.cast::<web_sys::Element>();
        let query = query.clone();
        let pending: Rc<RefCell<Option<Timeout>>> = Rc::default();
        let observer = root.as_ref().and_then(|root| {
            paint(root, query.as_deref());
            let (root, pending) = (root.clone(), pending.clone());
            let again = Closure::<dyn FnMut()>::new(move || {
                if pending.borrow().is_some() {
                    return;
                }
                let (root, query, done) = (root.clone(), query.clone(), pending.clone());
                *pending.borrow_mut() = Some(Timeout::new(0, move || {
                    done.borrow_mut().take();
                    paint(&root, query.as_deref());
                }));
            });
            let observer = web_sys::MutationObserver::new(again.as_ref().unchecked_ref()).ok()?;
            let opts = web_sys::MutationObserverInit::new();
            opts.set_child_list(true);
            opts.set_subtree(true);
            opts.set_character_data(true);
            observer.observe_with_options(viewer.cast::<web_sys::Node>()?.as_ref(), &opts).ok()?;
            Some((observer, again))
        });
        move || {
            if let Some((o, _again)) = observer {
                o.disconnect();
            }
            pending.borrow_mut().take();
            if let Some(r) = registry() {
                call(&r, "delete", &Array::of1(&NAME.into()));
            }
        }
    });
}
