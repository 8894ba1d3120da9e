//! The session browser of a picked folder: what was found, how far the
//! facts have been filled in, the filters, the projects, a search across
//! the folder, and the list of conversations.

use std::rc::Rc;

use wasm_bindgen::JsCast;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::dashboard::FolderDashboard;
use super::projects::Projects;
use super::search::FolderSearchView;
use super::table::SessionTable;
use crate::app::shared::Shared;
use crate::fmt;
use crate::state::browser::{Browser, ListUi, OpenAt, Scope};

#[derive(Properties, PartialEq)]
pub struct Props {
    pub folder: Shared<Browser>,
    pub on_list: Callback<ListUi>,
    pub on_open: Callback<OpenAt>,
    pub on_search: Callback<(Rc<Browser>, String, Scope)>,
    /// Reads a memory file's text (small; read by the page).
    pub on_memory: Callback<(u32, Callback<Result<String, crate::app::blob::ReadError>>)>,
    /// The person turned following off (a folder opened through handles).
    #[prop_or_default]
    pub paused: bool,
    #[prop_or_default]
    pub on_follow: Callback<bool>,
}

fn input_value(e: &Event) -> String {
    e.target().and_then(|t| t.dyn_into::<HtmlInputElement>().ok()).map(|i| i.value()).unwrap_or_default()
}

fn select_value(e: &Event) -> String {
    e.target().and_then(|t| t.dyn_into::<HtmlSelectElement>().ok()).map(|s| s.value()).unwrap_or_default()
}

/// The filter bar: every control emits the whole new `ListUi`.
fn filters(folder: &Browser, on_list: &Callback<ListUi>, red: &crate::app::redact::Redaction) -> Html {
    let list = folder.list.clone();
    let (clients, models) = folder.clients_and_models();
    let set = |f: fn(&mut ListUi, &Event)| {
        let (on_list, list) = (on_list.clone(), list.clone());
        Callback::from(move |e: Event| {
            let mut next = list.clone();
            f(&mut next, &e);
            on_list.emit(next);
        })
    };
    html! {
        <div class="filters folder-filters" role="group" aria-label="Filter the conversations">
            <input type="search" class="search-input narrow" placeholder="Filter by title, path or folder" aria-label="Filter by text"
                value={list.text.clone()} data-testid="list-filter" oninput={{
                    let (on_list, list) = (on_list.clone(), list.clone());
                    Callback::from(move |e: InputEvent| on_list.emit(ListUi { text: e.target_unchecked_into::<HtmlInputElement>().value(), ..list.clone() }))
                }} />
            <select aria-label="Project" data-testid="list-project" onchange={set(|l, e| l.project = select_value(e).parse().ok())}>
                <option value="" selected={list.project.is_none()}>{ "All projects" }</option>
                { for folder.tree.projects.iter().enumerate().map(|(k, _)| html! {
                    <option value={k.to_string()} selected={list.project == Some(k as u32)}>{ red.text(&folder.project_dir(k as u32)) }</option>
                }) }
            </select>
            <select aria-label="Client" data-testid="list-client" onchange={set(|l, e| l.client = Some(select_value(e)).filter(|v| !v.is_empty()))}>
                <option value="" selected={list.client.is_none()}>{ "All clients" }</option>
                { for clients.iter().map(|c| html! { <option value={c.clone()} selected={list.client.as_ref() == Some(c)}>{ c.clone() }</option> }) }
            </select>
            <select aria-label="Model" data-testid="list-model" onchange={set(|l, e| l.model = Some(select_value(e)).filter(|v| !v.is_empty()))}>
                <option value="" selected={list.model.is_none()}>{ "All models" }</option>
                { for models.iter().map(|m| html! { <option value={m.clone()} selected={list.model.as_ref() == Some(m)}>{ m.clone() }</option> }) }
            </select>
            <label class="check">{ "From " }<input type="date" aria-label="Active from (UTC)" data-testid="list-from"
                value={list.from_ms.map(fmt::utc_date).unwrap_or_default()} onchange={set(|l, e| l.from_ms = fmt::parse_date_ms(&input_value(e)))} /></label>
            <label class="check">{ "to " }<input type="date" aria-label="Active until (UTC)" data-testid="list-to"
                value={list.to_ms.map(|ms| fmt::utc_date(ms - 86_400_000)).unwrap_or_default()}
                onchange={set(|l, e| l.to_ms = fmt::parse_date_ms(&input_value(e)).map(|d| d + 86_400_000))} /></label>
            <label class="check"><input type="checkbox" checked={list.failures_only} data-testid="list-failures"
                onchange={set(|l, e| l.failures_only = e.target_unchecked_into::<HtmlInputElement>().checked())} />{ "Has failures" }</label>
            if let Some(tool) = &list.tool_failing {
                <span class="chip warn" data-testid="list-tool-failing">{ format!("{tool} failed ") }
                    <button class="link-button" aria-label={format!("Stop showing only conversations where {tool} failed")}
                        onclick={{ let (on_list, list) = (on_list.clone(), list.clone()); Callback::from(move |_: MouseEvent| on_list.emit(ListUi { tool_failing: None, ..list.clone() })) }}>{ "×" }</button></span>
            }
            <button class={classes!("button", "insights-toggle", list.dashboard.then_some("on"))} aria-pressed={list.dashboard.to_string()} data-testid="dashboard-toggle"
                onclick={{ let (on_list, list) = (on_list.clone(), list.clone()); Callback::from(move |_: MouseEvent| on_list.emit(ListUi { dashboard: !list.dashboard, ..list.clone() })) }}>
                { if list.dashboard { "Hide the dashboard" } else { "Dashboard" } }</button>
        </div>
    }
}

/// What was found, and how far the facts are filled in (one bar for all).
fn found(folder: &Browser, on_list: &Callback<ListUi>, red: &crate::app::redact::Redaction) -> Html {
    let t = &folder.tree;
    let deleted = folder.deleted_count() as u64;
    let toggle = {
        let (on_list, list) = (on_list.clone(), folder.list.clone());
        Callback::from(move |_: MouseEvent| on_list.emit(ListUi { show_deleted: !list.show_deleted, ..list.clone() }))
    };
    let percent = if folder.total_bytes == 0 { 100.0 } else { folder.done_bytes as f64 * 100.0 / folder.total_bytes as f64 };
    html! {
        <div class="found">
            <h1 class="folder-name">{ red.text(&folder.name) }</h1>
            <span data-testid="found">
                { format!("{} in {}", fmt::plural(t.conversations.len() as u64, "conversation", "conversations"), fmt::plural(t.projects.len() as u64, "project", "projects")) }
                if t.skipped > 0 { { format!(" · {} skipped (not transcripts)", fmt::plural(u64::from(t.skipped), "file", "files")) } }
            </span>
            if deleted > 0 {
                <span class="deleted-note" data-testid="deleted-count">
                    { format!("{} deleted in the desktop app — ", fmt::count(deleted)) }
                    <button class="link-button" onclick={toggle} data-testid="show-deleted">{ if folder.list.show_deleted { "hide" } else { "show" } }</button>
                </span>
            }
            if !folder.surveyed {
                <span class="survey" data-testid="survey" role="status" aria-live="polite">
                    <progress class="bar small" max="100" value={format!("{percent:.1}")} aria-label="Reading the conversations"></progress>
                    { format!(" reading {} of {}", fmt::bytes(folder.done_bytes), fmt::bytes(folder.total_bytes)) }
                </span>
            }
        </div>
    }
}

#[function_component(SessionBrowser)]
pub fn session_browser(p: &Props) -> Html {
    let rows = use_memo(p.folder.clone(), |f| Shared::new(f.rows()));
    // The names in the working directories known so far, learnt before the
    // encoded project names that hide them are shown (`-Users-jane-doe-…`).
    let red = crate::app::redact::use_redaction();
    for f in p.folder.slots.iter().filter_map(|s| s.facts()) {
        if let Some(cwd) = &f.cwd {
            red.learn(cwd);
        }
    }
    let open_conv = use_callback(p.on_open.clone(), |conv: u32, on_open| on_open.emit(OpenAt { conv, run: None, line: None, highlight: None }));
    html! {
        <section class="folder card" data-testid="folder">
            { found(&p.folder, &p.on_list, &red) }
            if p.folder.followed {
                <div class={classes!("live-bar", (!p.paused).then_some("on"))} role="status" data-testid="live">
                    <label class="live-toggle">
                        <input type="checkbox" checked={!p.paused} onchange={p.on_follow.reform({ let on = !p.paused; move |_: Event| !on })} data-testid="follow" />
                        { " Follow" }
                    </label>
                    <span class="muted small">
                        if p.paused {
                            { "Paused: turn Follow on to see what was written since." }
                        } else {
                            <span class="live-dot" aria-hidden="true"></span>
                            { "New and changed conversations appear as Claude Code writes them (while this tab is shown)." }
                        }
                    </span>
                </div>
            }
            <FolderSearchView folder={p.folder.clone()} on_search={p.on_search.clone()} on_open={p.on_open.clone()} />
            <Projects folder={p.folder.clone()} on_list={p.on_list.clone()} on_memory={p.on_memory.clone()} />
            { filters(&p.folder, &p.on_list, &red) }
            if p.folder.list.dashboard {
                <FolderDashboard folder={p.folder.clone()} rows={(*rows).clone()} on_list={p.on_list.clone()} on_open={open_conv.clone()} />
            }
            <SessionTable folder={p.folder.clone()} rows={(*rows).clone()} on_list={p.on_list.clone()} on_open={open_conv} />
        </section>
    }
}
