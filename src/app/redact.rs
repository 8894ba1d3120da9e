//! The redaction toggle and where it acts: on what the page shows and
//! exports, never on the picked files. One [`Redactor`] serves the whole
//! page, so a value keeps its placeholder everywhere.
//!
//! At the source: when it is on, every body read back from a file is
//! redacted whole as it is parsed (`bodies::fetch`), and every other text
//! the page takes from the files (titles, paths, working directories,
//! descriptions, search snippets, download names) goes through
//! [`Redaction`] before anything cuts, joins or marks it; addresses and
//! links use opaque ids instead of paths (`address`).
//!
//! As a net: a `MutationObserver` passes every text node and every
//! attribute that may carry such text ([`ATTRS`]) through the same
//! redactor as the components draw them; the originals are kept in
//! `WeakMap`s and put back when it is turned off. The choice is kept in
//! this browser's localStorage.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Object, Reflect, WeakMap};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, MutationObserver, MutationObserverInit, MutationRecord, Node};
use yew::prelude::*;

use crate::app::shared::local_storage;
use crate::state::redact::Redactor;

const KEY: &str = "ccscope-redact";
/// Attributes the page fills with text from the files.
const ATTRS: [&str; 7] = ["title", "aria-label", "alt", "href", "data-path", "data-project", "data-lang"];
/// `NodeFilter.SHOW_TEXT`.
const SHOW_TEXT: u32 = 4;

/// Whether redaction is on, and the redactor the page and exports share.
#[derive(Clone)]
pub struct Redaction {
    pub on: bool,
    pub redactor: Rc<RefCell<Redactor>>,
}

impl PartialEq for Redaction {
    fn eq(&self, other: &Self) -> bool {
        self.on == other.on && Rc::ptr_eq(&self.redactor, &other.redactor)
    }
}

impl Redaction {
    /// `text` as the page shows it: redacted when the toggle is on.
    pub fn text(&self, text: &str) -> String {
        if self.on {
            self.redactor.borrow_mut().redact(text).into_owned()
        } else {
            text.to_string()
        }
    }

    /// The redactor, when redaction is on (what a reader of bodies applies).
    pub fn active(&self) -> Option<Rc<RefCell<Redactor>>> {
        self.on.then(|| self.redactor.clone())
    }

    /// Teaches the redactor the names in `text` (a working directory)
    /// before anything shows them in another form (an encoded project name).
    pub fn learn(&self, text: &str) {
        if self.on {
            self.redactor.borrow_mut().learn(text);
        }
    }

    /// A search hit as a person reads it (see `Redactor::snippet`).
    pub fn snippet(&self, hit: &crate::state::search::HitText, context_chars: usize) -> (String, String, String) {
        if self.on {
            self.redactor.borrow_mut().snippet(&hit.text, hit.hit(), context_chars)
        } else {
            crate::state::redact::cut_around(&hit.text, hit.hit(), context_chars)
        }
    }

    /// A download's file name: the stem redacted, placeholders kept
    /// readable without the characters file systems refuse.
    pub fn file_name(&self, stem: &str, extension: &str) -> String {
        let stem = self.text(stem).replace(['<', '>'], "");
        format!("{stem}.{extension}")
    }
}

/// The page's redaction, for code outside components (defaults to off).
#[hook]
pub fn use_redaction() -> Redaction {
    use_context::<Redaction>().unwrap_or_else(|| Redaction { on: false, redactor: Rc::new(RefCell::new(Redactor::new())) })
}


/// The observer at work, and the originals it replaced.
struct Live {
    observer: MutationObserver,
    _on_change: Closure<dyn FnMut(js_sys::Array)>,
    texts: WeakMap,
    attrs: WeakMap,
}

struct Pass {
    redactor: Rc<RefCell<Redactor>>,
    texts: WeakMap,
    attrs: WeakMap,
}

impl Pass {
    fn text(&self, node: &Node) {
        let Some(value) = node.node_value() else { return };
        let red = self.redactor.borrow_mut().redact(&value).into_owned();
        if red != value {
            self.texts.set(node.as_ref(), &JsValue::from_str(&value));
            node.set_node_value(Some(&red));
        }
    }

    fn attr(&self, el: &Element, name: &str) {
        let Some(value) = el.get_attribute(name) else { return };
        let red = self.redactor.borrow_mut().redact(&value).into_owned();
        if red != value {
            let saved = self.attrs.get(el.as_ref());
            let saved: Object = if saved.is_object() { saved.unchecked_into() } else { Object::new() };
            let _ = Reflect::set(&saved, &name.into(), &value.into());
            self.attrs.set(el.as_ref(), &saved);
            let _ = el.set_attribute(name, &red);
        }
    }

    /// Every text node and attribute under `root`.
    fn tree(&self, root: &Node) {
        if root.node_type() == Node::TEXT_NODE {
            return self.text(root);
        }
        let Some(doc) = root.owner_document().or_else(|| root.clone().dyn_into::<web_sys::Document>().ok()) else { return };
        if let Ok(walker) = doc.create_tree_walker_with_what_to_show(root, SHOW_TEXT) {
            while let Ok(Some(n)) = walker.next_node() {
                self.text(&n);
            }
        }
        if let Some(el) = root.dyn_ref::<Element>() {
            for a in ATTRS {
                self.attr(el, a);
            }
            if let Ok(list) = el.query_selector_all(&selector()) {
                for k in 0..list.length() {
                    if let Some(e) = list.item(k).and_then(|n| n.dyn_into::<Element>().ok()) {
                        for a in ATTRS {
                            self.attr(&e, a);
                        }
                    }
                }
            }
        }
    }
}

/// `[title],[aria-label],…`: every element carrying one of [`ATTRS`].
fn selector() -> String {
    ATTRS.iter().map(|a| format!("[{a}]")).collect::<Vec<_>>().join(",")
}

fn start(redactor: Rc<RefCell<Redactor>>) -> Option<Live> {
    let body: Node = web_sys::window()?.document()?.body()?.into();
    let pass = Rc::new(Pass { redactor, texts: WeakMap::new(), attrs: WeakMap::new() });
    pass.tree(&body);
    let on_change = {
        let pass = pass.clone();
        Closure::<dyn FnMut(js_sys::Array)>::new(move |records: js_sys::Array| {
            for r in records.iter() {
                let Ok(r) = r.dyn_into::<MutationRecord>() else { continue };
                match r.type_().as_str() {
                    "characterData" => {
                        if let Some(n) = r.target() {
                            pass.text(&n);
                        }
                    }
                    "attributes" => {
                        if let (Some(el), Some(name)) = (r.target().and_then(|t| t.dyn_into::<Element>().ok()), r.attribute_name()) {
                            pass.attr(&el, &name);
                        }
                    }
                    _ => {
                        let added = r.added_nodes();
                        for k in 0..added.length() {
                            if let Some(n) = added.item(k) {
                                pass.tree(&n);
                            }
                        }
                    }
                }
            }
        })
    };
    let observer = MutationObserver::new(on_change.as_ref().unchecked_ref()).ok()?;
    let init = MutationObserverInit::new();
    init.set_child_list(true);
    init.set_subtree(true);
    init.set_character_data(true);
    init.set_attributes(true);
    init.set_attribute_filter(&ATTRS.iter().map(|a| JsValue::from_str(a)).collect::<js_sys::Array>());
    observer.observe_with_options(&body, &init).ok()?;
    Some(Live { observer, _on_change: on_change, texts: pass.texts.clone(), attrs: pass.attrs.clone() })
}

/// Stops observing and puts every original back.
fn stop(live: Live) {
    live.observer.disconnect();
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    let Some(body) = doc.body() else { return };
    if let Ok(walker) = doc.create_tree_walker_with_what_to_show(&body, SHOW_TEXT) {
        while let Ok(Some(n)) = walker.next_node() {
            if let Some(orig) = live.texts.get(n.as_ref()).as_string() {
                n.set_node_value(Some(&orig));
            }
        }
    }
    if let Ok(list) = body.query_selector_all(&selector()) {
        for k in 0..list.length() {
            let Some(el) = list.item(k).and_then(|n| n.dyn_into::<Element>().ok()) else { continue };
            let saved = live.attrs.get(el.as_ref());
            if !saved.is_object() {
                continue;
            }
            for a in ATTRS {
                if let Some(v) = Reflect::get(&saved, &a.into()).ok().and_then(|v| v.as_string()) {
                    let _ = el.set_attribute(a, &v);
                }
            }
        }
    }
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub children: Html,
}

/// Provides [`Redaction`] to the page and draws the toggle where the page
/// puts [`RedactToggle`].
#[function_component(RedactionProvider)]
pub fn redaction_provider(p: &Props) -> Html {
    let on = use_state(|| local_storage().and_then(|s| s.get_item(KEY).ok()?).as_deref() == Some("on"));
    let redactor = use_memo((), |_| Rc::new(RefCell::new(Redactor::new())));
    let live = use_mut_ref(|| None::<Live>);
    {
        let (live, redactor) = (live.clone(), (*redactor).clone());
        use_effect_with(*on, move |on| {
            if let Some(old) = live.borrow_mut().take() {
                stop(old);
            }
            if *on {
                *live.borrow_mut() = start(redactor);
            }
        });
    }
    let ctx = Redaction { on: *on, redactor: (*redactor).clone() };
    let toggle = {
        let on = on.clone();
        Callback::from(move |()| {
            let next = !*on;
            if let Some(s) = local_storage() {
                let _ = if next { s.set_item(KEY, "on") } else { s.remove_item(KEY) };
            }
            on.set(next);
        })
    };
    html! {
        <ContextProvider<Redaction> context={ctx}>
            <ContextProvider<Callback<()>> context={toggle}>
                { p.children.clone() }
            </ContextProvider<Callback<()>>>
        </ContextProvider<Redaction>>
    }
}

/// The toggle in the top bar.
#[function_component(RedactToggle)]
pub fn redact_toggle() -> Html {
    let on = use_context::<Redaction>().is_some_and(|r| r.on);
    let toggle = use_context::<Callback<()>>();
    let onclick = Callback::from(move |_: MouseEvent| {
        if let Some(t) = &toggle {
            t.emit(())
        }
    });
    html! {
        <button class={classes!("theme-toggle", on.then_some("on"))} {onclick} data-testid="redact-toggle" aria-pressed={on.to_string()}
            title="Hide user names in home paths, e-mail addresses and likely secrets on screen and in exports (your files are not changed)">
            { if on { "● Redacted" } else { "○ Redact" } }</button>
    }
}
