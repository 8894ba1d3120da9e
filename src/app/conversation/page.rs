//! The conversation view: header, toolbar and the list, over one reducer
//! state ([`Ui`], in `state::conversation`, where every action is handled).

use std::cell::RefCell;
use std::rc::Rc;

use web_sys::Blob;
use yew::prelude::*;

use super::header::Header;
use super::insights::Insights;
use super::item::{estimate, ItemView};
use super::tasks::TaskStrip;
use super::toolbar::Toolbar;
use super::vlist::VList;
use crate::app::ctx::Ctx;
use crate::app::shared::Shared;
use crate::state::cache::{BodyCache, CACHE_BUDGET_BYTES};
use crate::state::conversation::{Action, Search, Ui};
use crate::state::Doc;

impl Reducible for Ui {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        Ui::reduce(self, action)
    }
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub doc: Shared<Doc>,
    /// The file the document was read from (bodies and search read it again).
    pub blob: Blob,
    /// Still reading: what is shown is the start of the file.
    #[prop_or_default]
    pub partial: bool,
    /// What comes before `L<line>` in the address's `#` ("" for one picked
    /// file, `/<path>:` in a folder).
    #[prop_or_default]
    pub address: Rc<str>,
    /// A search to run as the view opens (a hit chosen in a folder search).
    #[prop_or_default]
    pub highlight: Option<Rc<str>>,
    /// The file is followed as it grows: at the bottom, new items scroll
    /// in; elsewhere a pill counts them.
    #[prop_or_default]
    pub live: bool,
}

#[function_component(Conversation)]
pub fn conversation(p: &Props) -> Html {
    let ui = use_reducer({
        let doc = p.doc.0.clone();
        move || Ui::new(doc)
    });
    // Redaction on or off: bodies are read again (the cache holds one kind).
    let redaction = crate::app::redact::use_redaction();
    let redactor = redaction.active();
    let cache = use_memo(redaction.on, |_| Rc::new(RefCell::new(BodyCache::new(CACHE_BUDGET_BYTES))));
    // The document the last context was made for, with what else it
    // depended on: a context for the same file grown (same numbering,
    // address and redaction) says which items need not draw again.
    let last = use_mut_ref(|| None::<(Rc<Doc>, u64, Rc<str>, bool)>);
    let ctx = use_memo((Shared(ui.doc.clone()), Shared(ui.view.clone()), p.blob.clone(), p.address.clone(), redaction.on), |(doc, view, blob, address, on)| {
        let key = (doc.0.clone(), ui.numbering, address.clone(), *on);
        let grew = last.borrow().as_ref().filter(|(d, numbering, a, o)| d.file == doc.file && *numbering == key.1 && *a == key.2 && *o == key.3 && d.index.rows.len() <= doc.index.rows.len()).map(|(d, ..)| crate::app::ctx::Grew {
            from: Rc::as_ptr(d) as usize,
            unchanged_below: view.first_changed(&doc.index, d.index.rows.len() as u32),
        });
        *last.borrow_mut() = Some(key);
        Shared::new(Ctx { doc: doc.0.clone(), view: view.0.clone(), blob: blob.clone(), cache: (*cache).clone(), address: address.clone(), redactor, grew })
    });
    let ctx = (*ctx).clone();
    let search_input = use_node_ref();
    // A new document for a mounted viewer (the whole file after its
    // preview): until the reducer has it, all is drawn from the state.
    let stale = super::hooks::use_replace(&ui, &p.doc);
    super::hooks::use_address(&ui, &p.address);
    {
        let dispatch = ui.dispatcher();
        use_effect_with(p.highlight.clone(), move |q| {
            if let Some(query) = q.clone() {
                dispatch.dispatch(Action::SearchStart { query });
            }
        });
    }
    // The search box shows the search in force: a folder search's hit opens
    // with its query there (and the same counts); cleared, it is empty.
    {
        let query = ui.search.query().cloned();
        let input = search_input.clone();
        use_effect_with(query, move |q| {
            if let Some(i) = input.cast::<web_sys::HtmlInputElement>() {
                let want = q.as_deref().unwrap_or("");
                if i.value() != want {
                    i.set_value(want);
                }
            }
        });
    }
    // The search's words marked in the drawn items.
    let viewer = use_node_ref();
    super::marks::use_marks(viewer.clone(), ui.search.query().cloned());
    super::hooks::use_keys(&ui, search_input.clone());
    super::hooks::use_idle_rebuild(&ui);
    super::hooks::use_search(&ui, &p.blob);
    let partial = p.partial || stale;

    let hits = match &ui.search {
        Search::Done { items, .. } => Some(Shared(items.clone())),
        _ => None,
    };
    let render = use_callback((ctx.clone(), ui.current, hits), |(id, on_resize): (u32, Callback<()>), (ctx, current, hits)| {
        let hit = hits.as_ref().is_some_and(|h| h.binary_search(&id).is_ok());
        html! { <ItemView ctx={ctx.clone()} {id} current={*current == Some(id)} {hit} {on_resize} /> }
    });
    let estimate = use_callback(ctx.clone(), |id: u32, ctx| estimate(&ctx.view.items[id as usize]));
    let dispatch = ui.dispatcher();
    html! {
        <div class="viewer" data-testid="viewer" ref={viewer}>
            <Header ctx={ctx.clone()} idle_gap_secs={ui.idle_gap_secs} {partial} scrolled={ui.reading.is_some()}
                on_idle={dispatch.to_callback().reform(Action::SetIdleGapSecs)} />
            <Toolbar ctx={ctx.clone()} filter={ui.filter.clone()} search={ui.search.clone()} shown={ui.visible.len()}
                input={search_input} on_search={dispatch.to_callback().reform(|query: String| match query.is_empty() {
                    true => Action::SearchClear,
                    false => Action::SearchStart { query: query.into() },
                })}
                on_filter={dispatch.to_callback().reform(Action::SetFilter)} insights={ui.insights}
                on_insights={dispatch.to_callback().reform(Action::Insights)} visible={Shared(ui.visible.clone())} current={ui.current}
                on_step={dispatch.to_callback().reform(|(w, f)| Action::Step(w, f))} />
            if ui.insights {
                <Insights ctx={ctx.clone()} visible={Shared(ui.visible.clone())} filter={ui.filter.clone()}
                    on_goto={dispatch.to_callback().reform(Action::Reveal)} on_filter={dispatch.to_callback().reform(Action::ShowFiltered)} />
            } else {
                <TaskStrip ctx={ctx.clone()} reading={ui.reading} />
                <VList ids={ui.visible.clone()} all={ctx.view.items.len()} numbering={ui.numbering} {estimate} {render}
                    target={ui.target} on_top={dispatch.to_callback().reform(|(top, scrolled)| Action::Shown { top, scrolled })} lean={partial} live={p.live} />
            }
        </div>
    }
}
