//! Search across the folder: one query over every conversation and
//! subagent run (or one project's), run by the worker over the raw bytes;
//! results come in grouped by conversation with a snippet per hit, and a
//! hit opens its conversation at its line with the matches marked.

use std::rc::Rc;

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::app::redact::{use_redaction, Redaction};
use crate::app::shared::Shared;
use crate::fmt;
use crate::state::browser::{Browser, OpenAt, Scope};
use crate::state::search::HITS_PER_FILE;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub folder: Shared<Browser>,
    pub on_search: Callback<(Rc<Browser>, String, Scope)>,
    pub on_open: Callback<OpenAt>,
}

/// The conversation a result belongs to, in words (redacted when on).
fn label(folder: &Browser, conv: u32, run: Option<&str>, red: &Redaction) -> String {
    let title = red.text(&folder.title(conv));
    match run {
        Some(agent) => format!("{title} › subagent {agent}"),
        None => title,
    }
}

/// Hits shown per file (the worker sends as many), and files shown before
/// "Show more": a common word matches millions of times, and the page draws
/// only what a person reads.
const HITS_SHOWN: usize = HITS_PER_FILE;
const FILES_SHOWN: usize = 50;
/// Characters of a hit's string shown on each side of it.
const SNIPPET_CHARS: usize = 70;

#[function_component(FolderSearchView)]
pub fn folder_search(p: &Props) -> Html {
    let shown_files = use_state(|| FILES_SHOWN);
    let more = {
        let shown_files = shown_files.clone();
        Callback::from(move |_: MouseEvent| shown_files.set(*shown_files + FILES_SHOWN))
    };
    let input = use_node_ref();
    let scope = use_node_ref();
    let folder = &p.folder;
    let red = use_redaction();
    let s = &folder.search;
    let submit = {
        let (on_search, input, scope, folder) = (p.on_search.clone(), input.clone(), scope.clone(), p.folder.0.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let query = input.cast::<HtmlInputElement>().map(|i| i.value()).unwrap_or_default();
            let scope = match scope.cast::<HtmlSelectElement>().map(|s| s.value()).unwrap_or_default().parse::<u32>() {
                Ok(p) => Scope::Project(p),
                Err(_) => Scope::All,
            };
            on_search.emit((folder.clone(), query, scope));
        })
    };
    let total: u64 = s.results.iter().map(|r| r.matches).sum();
    let status = if s.query.is_empty() {
        String::new()
    } else if s.finished {
        format!("{} in {}", fmt::plural(total, "match", "matches"), fmt::plural(s.results.len() as u64, "file", "files"))
    } else {
        let pct = if s.total_bytes == 0 { 100.0 } else { s.done_bytes as f64 * 100.0 / s.total_bytes as f64 };
        format!("searching… {pct:.0}% · {} so far", fmt::plural(total, "match", "matches"))
    };
    let highlight: Rc<str> = s.query.clone();
    html! {
        <div class="folder-search">
            <form class="search" role="search" onsubmit={submit}>
                <input ref={input} type="search" class="search-input" placeholder="Search every conversation in the folder"
                    aria-label="Search across conversations" data-testid="folder-search" spellcheck="false" autocomplete="off" />
                <select ref={scope} aria-label="Search in" data-testid="folder-search-scope">
                    <option value="all" selected=true>{ "All conversations" }</option>
                    { for folder.tree.projects.iter().enumerate().map(|(k, _)| html! { <option value={k.to_string()}>{ red.text(&folder.project_dir(k as u32)) }</option> }) }
                </select>
                <button class="button" type="submit">{ "Search" }</button>
                <span class="search-status muted" data-testid="folder-search-status" data-files={s.results.len().to_string()}
                    data-matches={total.to_string()} data-finished={s.finished.then_some("")} aria-live="polite">{ status }</span>
            </form>
            if !s.results.is_empty() {
                <ul class="results" data-testid="folder-results">
                    { for s.results.iter().take(*shown_files).filter_map(|r| Some((r, folder.owner_of(r.entry)?))).map(|(r, (conv, run))| {
                        let run: Option<Rc<str>> = run.map(Rc::from);
                        let path = &folder.tree.entry(r.entry).path;
                        let file = crate::fmt::file_name(&path);
                        let project = red.text(&folder.project_dir(folder.tree.conversations[conv as usize].project));
                        html! {
                            <li class="result-group" data-path={red.text(path)}>
                                <div class="result-head">
                                    <span class="title-text">{ label(folder, conv, run.as_deref(), &red) }</span>
                                    <span class="muted small">{ fmt::plural(r.matches, "match", "matches") }</span>
                                    <div class="conv-meta muted small"><code>{ red.text(file) }</code>{ " in " }{ project }</div>
                                </div>
                                { for r.hits.iter().take(HITS_SHOWN).map(|h| {
                                    let (on_open, run, highlight, line) = (p.on_open.clone(), run.clone(), highlight.clone(), h.line_no);
                                    let onclick = Callback::from(move |_: MouseEvent| on_open.emit(OpenAt { conv, run: run.clone(), line: Some(line), highlight: Some(highlight.clone()) }));
                                    // Redacted whole, then cut around the hit.
                                    let (before, hit, after) = red.snippet(h, SNIPPET_CHARS);
                                    html! {
                                        <button class="hit" {onclick} data-line={line.to_string()}>
                                            <span class="ln">{ format!("L{line}") }</span>
                                            <span class="snippet">{ before }<mark>{ hit }</mark>{ after }</span>
                                        </button>
                                    }
                                }) }
                                if r.matches > HITS_SHOWN as u64 {
                                    <span class="muted small">{ format!("and {} more in this file", fmt::count(r.matches - HITS_SHOWN as u64)) }</span>
                                }
                            </li>
                        }
                    }) }
                </ul>
                if s.results.len() > *shown_files {
                    <button class="link-button" onclick={more}>{ format!("Show {} more files", fmt::count((s.results.len() - *shown_files).min(FILES_SHOWN) as u64)) }</button>
                }
            }
        </div>
    }
}
