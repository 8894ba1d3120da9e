//! The conversation view of one loaded file: header, toolbar, the list.
//!
//! Its state ([`Ui`]) is one reducer: the view (rebuilt when the idle
//! threshold changes), the filter and the items it lets through, the current
//! item, the last jump request and the search. Effects handle what lives
//! outside Yew: keyboard shortcuts, `#L<line>` in the address (which never
//! leaves the browser) and the search task.

use std::cell::Cell;
use std::rc::Rc;

use gloo::events::{EventListener, EventListenerOptions};
use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::bodies::{BodyCache, SharedCache, CACHE_BUDGET_BYTES};
use super::item::{estimate, ItemView};
use super::shared::Shared;
use super::state::Loaded;
use super::vlist::{Target, VList};
use crate::index::Index;
use crate::model::view::{Filter, ItemKind, View};

/// What every item component reads: the file, its view, the body cache.
pub struct Ctx {
    pub loaded: Rc<Loaded>,
    pub view: Rc<View>,
    pub cache: SharedCache,
}

impl Ctx {
    pub fn ix(&self) -> &Index {
        &self.loaded.index
    }
}

/// The idle threshold a view starts with (the one `Loaded::view` was built at).
const DEFAULT_IDLE_MINS: u32 = (crate::model::DEFAULT_IDLE_GAP_SECS / 60) as u32;

#[derive(Clone, PartialEq)]
pub enum Search {
    Idle,
    Running { query: Rc<str>, read_bytes: u64 },
    /// `items`: ids of items with a match, ascending; `at`: the one shown.
    Done { query: Rc<str>, items: Rc<Vec<u32>>, matches: u64, at: Option<usize> },
}

#[derive(Clone)]
pub struct Ui {
    pub ctx: Shared<Ctx>,
    pub filter: Filter,
    pub visible: Shared<Vec<u32>>,
    pub idle_mins: u32,
    pub current: Option<u32>,
    pub target: Option<Target>,
    pub search: Search,
    pub search_generation: u64,
    /// First item in view, written by the list.
    pub top: Rc<Cell<u32>>,
}

/// Which items `j`/`k`, `n`/`N` and the search arrows step through.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Walk {
    Turns,
    Failures,
    Hits,
}

pub enum Action {
    SetFilter(Filter),
    SetIdleMins(u32),
    /// Show item `id` (from a link, `#L`, a click).
    Goto(u32),
    Step(Walk, bool),
    SearchStart { generation: u64, query: Rc<str> },
    SearchProgress { generation: u64, read_bytes: u64 },
    SearchDone { generation: u64, query: Rc<str>, items: Rc<Vec<u32>>, matches: u64 },
    SearchClear,
    /// The file grew under the view: the preview became the whole file.
    /// Rows and (for the part already shown) items keep their numbers.
    Replace { loaded: Rc<Loaded>, view: Rc<View> },
}

impl Ui {
    pub fn new(loaded: Rc<Loaded>, view: Rc<View>) -> Ui {
        let ctx = Shared::new(Ctx { loaded, view, cache: Rc::new(std::cell::RefCell::new(BodyCache::new(CACHE_BUDGET_BYTES))) });
        let filter = Filter::default();
        let visible = Shared::new(filter.apply(ctx.ix(), &ctx.view));
        Ui {
            ctx,
            filter,
            visible,
            idle_mins: DEFAULT_IDLE_MINS,
            current: None,
            target: None,
            search: Search::Idle,
            search_generation: 0,
            top: Rc::new(Cell::new(0)),
        }
    }

    fn with(&self, f: impl FnOnce(&mut Ui)) -> Rc<Ui> {
        let mut next = self.clone();
        f(&mut next);
        Rc::new(next)
    }

    /// The visible item at or after `id` (the list may hide `id` itself).
    fn visible_at_or_after(&self, id: u32) -> Option<u32> {
        let k = self.visible.partition_point(|&v| v < id);
        self.visible.get(k).or_else(|| self.visible.last()).copied()
    }

    fn jump(&mut self, id: u32) {
        let nonce = self.target.map_or(1, |t| t.nonce + 1);
        self.current = Some(id);
        self.target = Some(Target { id, nonce });
    }

    fn matches(&self, walk: Walk, id: u32) -> bool {
        let item = &self.ctx.view.items[id as usize];
        match walk {
            Walk::Turns => matches!(item.kind, ItemKind::Turn(_) | ItemKind::User),
            Walk::Failures => item.failed,
            Walk::Hits => matches!(&self.search, Search::Done { items, .. } if items.binary_search(&id).is_ok()),
        }
    }
}

impl Reducible for Ui {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        match action {
            Action::SetFilter(filter) => self.with(|u| {
                u.visible = Shared::new(filter.apply(u.ctx.ix(), &u.ctx.view));
                u.filter = filter;
                if let Some(id) = u.current.and_then(|c| u.visible_at_or_after(c)) {
                    u.jump(id);
                }
            }),
            Action::SetIdleMins(mins) => self.with(|u| {
                let view = Rc::new(View::build(u.ctx.ix(), mins as i64 * 60_000));
                // A new view renumbers items: keep the place by its row.
                let row = u.current.map(|c| u.ctx.view.items[c as usize].row);
                u.ctx = Shared::new(Ctx { loaded: u.ctx.loaded.clone(), view, cache: u.ctx.cache.clone() });
                u.visible = Shared::new(u.filter.apply(u.ctx.ix(), &u.ctx.view));
                u.idle_mins = mins;
                u.search = Search::Idle;
                u.current = None;
                if let Some(id) = row.map(|r| u.ctx.view.item_of_row[r as usize]) {
                    u.jump(id);
                }
            }),
            Action::Goto(id) => match self.visible_at_or_after(id) {
                Some(v) => self.with(|u| u.jump(v)),
                None => self,
            },
            Action::Step(walk, forward) => {
                let from = self.current.unwrap_or_else(|| self.top.get());
                let pos = self.visible.partition_point(|&v| v < from);
                let found = if forward {
                    let start = if self.visible.get(pos) == Some(&from) && self.current.is_some() { pos + 1 } else { pos };
                    self.visible[start.min(self.visible.len())..].iter().copied().find(|&id| self.matches(walk, id))
                } else {
                    self.visible[..pos].iter().rev().copied().find(|&id| self.matches(walk, id))
                };
                match found {
                    Some(id) => self.with(|u| {
                        u.jump(id);
                        if let Search::Done { items, at, .. } = &mut u.search {
                            if walk == Walk::Hits {
                                *at = items.binary_search(&id).ok();
                            }
                        }
                    }),
                    None => self,
                }
            }
            Action::SearchStart { generation, query } => self.with(|u| {
                u.search_generation = generation;
                u.search = Search::Running { query, read_bytes: 0 };
            }),
            Action::SearchProgress { generation, read_bytes } if generation == self.search_generation => match &self.search {
                Search::Running { query, .. } => {
                    let query = query.clone();
                    self.with(|u| u.search = Search::Running { query, read_bytes })
                }
                _ => self,
            },
            Action::SearchDone { generation, query, items, matches } if generation == self.search_generation => self.with(|u| {
                let first = items.iter().copied().find(|id| u.visible.binary_search(id).is_ok());
                u.search = Search::Done { query, items: items.clone(), matches, at: first.and_then(|f| items.binary_search(&f).ok()) };
                if let Some(id) = first {
                    u.jump(id);
                }
            }),
            Action::Replace { loaded, view } => self.with(|u| {
                let view = if u.idle_mins == DEFAULT_IDLE_MINS { view } else { Rc::new(View::build(&loaded.index, u.idle_mins as i64 * 60_000)) };
                u.ctx = Shared::new(Ctx { loaded, view, cache: u.ctx.cache.clone() });
                u.visible = Shared::new(u.filter.apply(u.ctx.ix(), &u.ctx.view));
                // Its hits were mapped to the preview's items.
                u.search_generation += 1;
                u.search = Search::Idle;
            }),
            Action::SearchClear => self.with(|u| {
                u.search_generation += 1;
                u.search = Search::Idle;
            }),
            _ => self,
        }
    }
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub loaded: Shared<Loaded>,
    pub view: Shared<View>,
    /// Still reading: what is shown is the start of the file.
    #[prop_or_default]
    pub partial: bool,
    /// The start-up rehearsal ([`super::rehearsal`]): leaves the address
    /// and the keyboard alone.
    #[prop_or_default]
    pub rehearsal: bool,
}

/// Size of this wasm instance's linear memory now (it only grows): read by
/// the browser benchmark, and reported by the reading worker of its own.
pub(super) fn wasm_memory_bytes() -> u32 {
    wasm_bindgen::memory().dyn_into::<js_sys::WebAssembly::Memory>().map_or(0, |m| {
        m.buffer().dyn_into::<js_sys::ArrayBuffer>().map_or(0, |b| b.byte_length())
    })
}

/// `#L123` → 123.
fn hash_line() -> Option<u32> {
    let hash = web_sys::window()?.location().hash().ok()?;
    hash.strip_prefix("#L")?.parse().ok()
}

fn set_hash_line(line: u32) {
    if let Some(h) = web_sys::window().and_then(|w| w.history().ok()) {
        // replaceState: no history entry per key press, no hashchange loop, no request.
        let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("#L{line}")));
    }
}

#[function_component(Viewer)]
pub fn viewer(p: &Props) -> Html {
    let ui = use_reducer({
        let (loaded, view) = (p.loaded.0.clone(), p.view.0.clone());
        move || Ui::new(loaded, view)
    });
    let search_input = use_node_ref();
    // New props for a mounted viewer: the whole file after its preview.
    // Until the reducer has it, everything is drawn from the state, so one
    // frame never mixes the two.
    let stale = !Rc::ptr_eq(&ui.ctx.loaded, &p.loaded.0);
    {
        let dispatch = ui.dispatcher();
        use_effect_with((p.loaded.clone(), p.view.clone(), stale), move |(loaded, view, stale)| {
            if *stale {
                dispatch.dispatch(Action::Replace { loaded: loaded.0.clone(), view: view.0.clone() });
            }
        });
    }
    let loaded = Shared(ui.ctx.loaded.clone());
    let partial = p.partial || stale;

    // #L<line>: on open and whenever the address changes.
    {
        let dispatch = ui.dispatcher();
        let ctx = ui.ctx.clone();
        let rehearsal = p.rehearsal;
        use_effect_with(ctx, move |ctx| {
            let goto = {
                let ctx = ctx.clone();
                move || {
                    if let Some(id) = hash_line().and_then(|l| ctx.view.item_at_line(ctx.ix(), l)) {
                        dispatch.dispatch(Action::Goto(id));
                    }
                }
            };
            let listener = (!rehearsal).then(|| {
                goto();
                web_sys::window().map(|w| EventListener::new(&w, "hashchange", move |_| goto()))
            });
            move || drop(listener)
        });
    }
    // The address follows the current item.
    {
        let line = ui.current.map(|c| ui.ctx.ix().rows[ui.ctx.view.items[c as usize].row as usize].line_no);
        let rehearsal = p.rehearsal;
        use_effect_with(line, move |line| {
            if let Some(l) = line.filter(|_| !rehearsal) {
                set_hash_line(l);
            }
        });
    }
    // Keyboard: j/k turns, n/N failures, / search, Esc leaves the search box.
    {
        let dispatch = ui.dispatcher();
        let input = search_input.clone();
        let rehearsal = p.rehearsal;
        use_effect_with((), move |_| {
            let listener = web_sys::window().and_then(|w| w.document()).filter(|_| !rehearsal).map(|doc| {
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
                    let key = e.key();
                    if typing {
                        if key == "Escape" {
                            if let Some(i) = input.cast::<web_sys::HtmlElement>() {
                                let _ = i.blur();
                            }
                        }
                        return;
                    }
                    let action = match key.as_str() {
                        "j" => Action::Step(Walk::Turns, true),
                        "k" => Action::Step(Walk::Turns, false),
                        "n" => Action::Step(Walk::Failures, true),
                        "N" => Action::Step(Walk::Failures, false),
                        "/" => {
                            e.prevent_default();
                            if let Some(i) = input.cast::<web_sys::HtmlElement>() {
                                let _ = i.focus();
                            }
                            return;
                        }
                        "Escape" => Action::SearchClear,
                        _ => return,
                    };
                    e.prevent_default();
                    dispatch.dispatch(action);
                })
            });
            move || drop(listener)
        });
    }

    let on_search = {
        let dispatch = ui.dispatcher();
        let blob = ui.ctx.loaded.blob.clone();
        let ctx = ui.ctx.clone();
        let generation = ui.search_generation;
        Callback::from(move |query: String| {
            let generation = generation + 1;
            if query.is_empty() {
                dispatch.dispatch(Action::SearchClear);
                return;
            }
            let query: Rc<str> = query.into();
            dispatch.dispatch(Action::SearchStart { generation, query: query.clone() });
            let (dispatch, blob, ctx) = (dispatch.clone(), blob.clone(), ctx.clone());
            yew::platform::spawn_local(async move {
                let progress = dispatch.clone();
                let found = super::search::search(&blob, &query, super::CHUNK_BYTES, |read_bytes| {
                    progress.dispatch(Action::SearchProgress { generation, read_bytes });
                    true
                })
                .await;
                if let Some(found) = found {
                    let mut items: Vec<u32> = found.offsets.iter().filter_map(|&o| ctx.view.item_at_offset(ctx.ix(), o)).collect();
                    items.sort_unstable();
                    items.dedup();
                    dispatch.dispatch(Action::SearchDone { generation, query, items: Rc::new(items), matches: found.matches });
                }
            });
        })
    };

    let ctx = ui.ctx.clone();
    let hits: Option<Rc<Vec<u32>>> = match &ui.search {
        Search::Done { items, .. } => Some(items.clone()),
        _ => None,
    };
    let current = ui.current;
    let render = {
        let ctx = ctx.clone();
        Callback::from(move |(id, on_resize): (u32, Callback<()>)| {
            let hit = hits.as_ref().is_some_and(|h| h.binary_search(&id).is_ok());
            html! { <ItemView ctx={ctx.clone()} {id} current={current == Some(id)} {hit} {on_resize} /> }
        })
    };
    let estimate = use_memo(ctx.clone(), |ctx| {
        let ctx = ctx.clone();
        Callback::from(move |id: u32| estimate(&ctx.view.items[id as usize]))
    });
    let dispatch = ui.dispatcher();
    html! {
        <div class="viewer" data-testid="viewer" data-wasm-memory-bytes={wasm_memory_bytes().to_string()}
            data-read-ms={format!("{:.0}", loaded.0.elapsed_ms)} data-build-ms={format!("{:.0}", loaded.0.build_ms)}
            data-index-ms={format!("{:.0}", loaded.0.index_ms)} data-wait-ms={format!("{:.0}", loaded.0.wait_ms)}
            data-indexed-in={if loaded.0.worker_memory_bytes.is_some() { "worker" } else { "page" }}
            data-worker-memory-bytes={loaded.0.worker_memory_bytes.map(|b| format!("{b:.0}"))}>
            <super::header::Header loaded={loaded.clone()} ctx={ctx.clone()} idle_mins={ui.idle_mins} {partial}
                on_idle={dispatch.to_callback().reform(Action::SetIdleMins)} />
            <super::toolbar::Toolbar ctx={ctx.clone()} filter={ui.filter.clone()} search={ui.search.clone()} shown={ui.visible.len()}
                input={search_input.clone()} on_search={on_search}
                on_filter={dispatch.to_callback().reform(Action::SetFilter)}
                on_step={dispatch.to_callback().reform(|(w, f)| Action::Step(w, f))} />
            <VList ids={ui.visible.clone()} all={ctx.view.items.len()} numbering={ui.idle_mins} estimate={(*estimate).clone()} {render}
                target={ui.target} top={ui.top.clone()} lean={partial} />
        </div>
    }
}
