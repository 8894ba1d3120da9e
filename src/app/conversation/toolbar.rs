//! Search box with hit count and next / previous, the filters, and the
//! keyboard hints.

use std::rc::Rc;

use wasm_bindgen::JsCast;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::app::ctx::Ctx;
use crate::app::shared::Shared;
use crate::fmt;
use crate::model::items::{Filter, RoleFilter};
use crate::state::conversation::{Search, Walk};

#[derive(Properties, PartialEq)]
pub struct Props {
    pub ctx: Shared<Ctx>,
    pub filter: Filter,
    pub search: Search,
    /// Items the filter lets through.
    pub shown: usize,
    pub input: NodeRef,
    pub on_search: Callback<String>,
    pub on_filter: Callback<Filter>,
    pub on_step: Callback<(Walk, bool)>,
    /// The insights panel is shown in place of the list.
    pub insights: bool,
    pub on_insights: Callback<bool>,
    pub visible: Shared<Vec<u32>>,
    pub current: Option<u32>,
}

/// How the search went: progress, or which hit of how many, with arrows.
fn search_status(p: &Props) -> Html {
    match &p.search {
        Search::Idle => html! {},
        Search::Running { read_bytes, .. } => {
            let pct = (*read_bytes as f64 / p.ctx.doc.size_bytes.max(1) as f64 * 100.0).min(100.0);
            html! { <span class="search-status muted" data-testid="search-status">{ format!("searching… {pct:.0}%") }</span> }
        }
        Search::Done { items, matches, at, .. } => {
            let words = if *matches == 0 {
                "no match".to_string()
            } else {
                let pos = at.map_or("–".to_string(), |a| (a + 1).to_string());
                format!("{pos} of {} · {}", fmt::count(items.len() as u64), fmt::plural(*matches, "match", "matches"))
            };
            let step = |forward: bool| {
                let on_step = p.on_step.clone();
                Callback::from(move |_: MouseEvent| on_step.emit((Walk::Hits, forward)))
            };
            html! {
                <span class="search-status" data-testid="search-status" data-matches={matches.to_string()} data-items={items.len().to_string()}>
                    { words }
                    <button class="icon-button" title="Previous match (Shift+Enter)" onclick={step(false)} disabled={*matches == 0}>{ "↑" }</button>
                    <button class="icon-button" title="Next match (Enter)" onclick={step(true)} disabled={*matches == 0}>{ "↓" }</button>
                </span>
            }
        }
    }
}

#[function_component(Toolbar)]
pub fn toolbar(p: &Props) -> Html {
    let facts = &p.ctx.doc.facts;
    let tools = Rc::new(facts.tools.clone());
    let ix = p.ctx.ix();

    let onkeydown = {
        let on_search = p.on_search.clone();
        let on_step = p.on_step.clone();
        let search = p.search.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() != "Enter" {
                return;
            }
            e.prevent_default();
            let Some(input) = e.target().and_then(|t| t.dyn_into::<HtmlInputElement>().ok()) else { return };
            let q = input.value();
            match &search {
                // Enter again on the same query walks the hits.
                Search::Done { query, .. } if **query == *q => on_step.emit((Walk::Hits, !e.shift_key())),
                _ => on_search.emit(q),
            }
        })
    };
    let status = search_status(p);

    let filter_cb = |f: Rc<dyn Fn(&mut Filter, &Event)>| {
        let (on_filter, filter) = (p.on_filter.clone(), p.filter.clone());
        Callback::from(move |e: Event| {
            let mut next = filter.clone();
            f(&mut next, &e);
            on_filter.emit(next);
        })
    };
    let select_value = |e: &Event| e.target().and_then(|t| t.dyn_into::<HtmlSelectElement>().ok()).map(|s| s.value()).unwrap_or_default();
    let checked = |e: &Event| e.target().and_then(|t| t.dyn_into::<HtmlInputElement>().ok()).is_some_and(|i| i.checked());
    let on_role = filter_cb(Rc::new(move |f, e| {
        f.role = match select_value(e).as_str() {
            "user" => RoleFilter::User,
            "assistant" => RoleFilter::Assistant,
            _ => RoleFilter::All,
        }
    }));
    let tools_for_cb = tools.clone();
    let on_tool = filter_cb(Rc::new(move |f, e| {
        f.tool = select_value(e).parse::<usize>().ok().and_then(|k| tools_for_cb.get(k)).map(|t| t.name);
    }));
    let on_failures = filter_cb(Rc::new(move |f, e| f.failures_only = checked(e)));
    let on_bookkeeping = filter_cb(Rc::new(move |f, e| f.show_bookkeeping = checked(e)));
    let tool_selected = p.filter.tool.and_then(|t| tools.iter().position(|x| x.name == t));

    html! {
        <div class="toolbar" role="toolbar">
            <div class="search">
                <input ref={p.input.clone()} type="search" class="search-input" placeholder="Search the file (press /)" aria-label="Search"
                    data-testid="search" {onkeydown} spellcheck="false" autocomplete="off" />
                { status }
            </div>
            <div class="filters">
                <button class={classes!("button", "insights-toggle", p.insights.then_some("on"))} aria-pressed={p.insights.to_string()} data-testid="insights-toggle"
                    title="Charts and statistics of this conversation (i)"
                    onclick={{ let (on, now) = (p.on_insights.clone(), p.insights); Callback::from(move |_| on.emit(!now)) }}>
                    { if p.insights { "← Back to the transcript" } else { "Insights" } }</button>
                <super::export::ExportMenu ctx={p.ctx.clone()} visible={p.visible.clone()} current={p.current} />
                <select aria-label="Show" onchange={on_role} data-testid="filter-role">
                    <option value="all" selected={p.filter.role == RoleFilter::All}>{ "Everything" }</option>
                    <option value="user" selected={p.filter.role == RoleFilter::User}>{ "Prompts only" }</option>
                    <option value="assistant" selected={p.filter.role == RoleFilter::Assistant}>{ "Assistant turns only" }</option>
                </select>
                <select aria-label="Tool" onchange={on_tool} data-testid="filter-tool">
                    <option value="" selected={tool_selected.is_none()}>{ "All tools" }</option>
                    { for tools.iter().enumerate().map(|(k, t)| html! {
                        <option value={k.to_string()} selected={tool_selected == Some(k)}>{ format!("{} ({})", ix.str(t.name), t.calls) }</option>
                    }) }
                </select>
                <label class="check"><input type="checkbox" checked={p.filter.failures_only} onchange={on_failures} data-testid="filter-failures" />
                    { format!("Failures only ({})", fmt::count(facts.failed_items as u64)) }</label>
                <label class="check"><input type="checkbox" checked={p.filter.show_bookkeeping} onchange={on_bookkeeping} data-testid="filter-bookkeeping" />
                    { format!("Bookkeeping ({} hidden)", fmt::count(if p.filter.show_bookkeeping { 0 } else { facts.bookkeeping_items } as u64)) }</label>
                <span class="muted small" data-testid="shown-count">{ format!("{} shown", fmt::count(p.shown as u64)) }</span>
                <span class="keys muted small" aria-hidden="true">
                <kbd>{"j"}</kbd><kbd>{"k"}</kbd>{ " turns · " }<kbd>{"n"}</kbd><kbd>{"N"}</kbd>{ " failures · " }<kbd>{"/"}</kbd>{ " search · " }<kbd>{"i"}</kbd>{ " insights · " }<kbd>{"Esc"}</kbd>
                </span>
            </div>
        </div>
    }
}
