//! Subagent runs where they were spawned: under its Agent/Task call a run
//! shows its type, description, duration, calls, failures and tokens and how
//! it was linked; it expands to its own turns inline, or opens as a whole
//! transcript. The runs of the open conversation come from the folder
//! (`folder::summary`), through [`InFolder`], a context the app provides
//! when a conversation of a folder is open.

use std::cell::RefCell;
use std::rc::Rc;

use yew::prelude::*;

use super::in_folder::InFolder;
use crate::app::blob::read_all;
use crate::app::ctx::Ctx;
use crate::app::shared::Shared;
use crate::fmt;
use crate::folder::Linked;
use crate::index::Indexer;
use crate::model::subagents::Link;
use crate::state::cache::{BodyCache, CACHE_BUDGET_BYTES};
use crate::state::Doc;

/// Items of a run shown inline at most (the rest: open it as a transcript).
const INLINE_ITEMS: usize = 60;

/// Runs nested deeper than this indent no further (their depth is said).
const DEEP_FROM: u32 = 3;

/// How a run was linked, in words.
pub fn link_words(l: &Linked) -> String {
    let how = match l.link.link {
        Link::Meta => "linked by its meta file",
        Link::Result => "linked by the call's result",
        Link::Clock => "linked by the clock (the only call running then)",
        Link::Workflow => "an agent of the workflow run, by its directory",
        Link::Text => "linked by the agentId line in its call's result",
        Link::None => "not linked",
    };
    let legacy = if l.legacy { " · legacy agent file" } else { "" };
    format!("{how}{legacy}")
}

/// A run's facts in one line.
fn facts_line(l: &Linked) -> String {
    let r = &l.run;
    let mut parts = vec![fmt::plural(r.tool_calls, "tool call", "tool calls"), fmt::plural(r.failed_steps, "failure", "failures")];
    if let Some(ms) = r.duration_ms() {
        parts.insert(0, fmt::duration_ms(ms));
    }
    parts.push(fmt::or_missing(r.has_usage.then(|| format!("{} out", fmt::tokens(r.output_tokens))), "no usage"));
    parts.join(" · ")
}

#[derive(Properties, PartialEq)]
pub struct CardProps {
    pub in_folder: InFolder,
    pub agent_id: Rc<str>,
    pub on_resize: Callback<()>,
}

/// One run under its call.
#[function_component(RunCard)]
pub fn run_card(p: &CardProps) -> Html {
    let open = use_state(|| false);
    {
        let on_resize = p.on_resize.clone();
        use_effect_with(*open, move |_| on_resize.emit(()));
    }
    let red = crate::app::redact::use_redaction();
    let Some(l) = p.in_folder.all_runs().and_then(|runs| runs.iter().find(|l| *l.link.agent_id == *p.agent_id)) else { return html! {} };
    let meta = l.run.meta.clone().unwrap_or_default();
    let depth = p.in_folder.depth_of(&p.agent_id);
    let inside = InFolder { run: Some(p.agent_id.clone()), ..p.in_folder.clone() };
    let kind = meta.agent_type.clone().unwrap_or_else(|| "subagent".into());
    let toggle = {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| open.set(!*open))
    };
    let open_full = {
        let (cb, id) = (p.in_folder.open_run.clone(), p.agent_id.clone());
        Callback::from(move |_: MouseEvent| cb.emit(id.clone()))
    };
    html! {
        <div class={classes!("run", depth.is_some_and(|d| d > DEEP_FROM).then_some("deep"))} data-testid="run" data-agent={p.agent_id.to_string()}
            data-link={format!("{:?}", l.link.link).to_ascii_lowercase()} data-depth={depth.map(|d| d.to_string())}>
            <div class="run-head">
                <span class="tag run-kind">{ kind }</span>
                if let Some(d) = depth.filter(|&d| d > 1) { <span class="tag" data-testid="run-depth" title="How deep this run is nested: spawned by a run spawned by …">{ format!("depth {d}") }</span> }
                if let Some(d) = &meta.description { <span class="run-desc">{ red.text(d) }</span> }
                <span class="muted small">{ facts_line(l) }</span>
            </div>
            if let Some(d) = l.doubt.as_ref().filter(|d| !d.unplaced()) {
                <div class="run-doubt small" data-testid="run-doubt">{ format!("⚠ {}", red.text(&d.describe())) }</div>
            }
            <div class="run-foot muted small">
                <span data-testid="run-link">{ link_words(l) }</span>
                { format!(" · agent-{}", p.agent_id) }
                <button class="link-button" onclick={toggle} aria-expanded={open.to_string()} data-testid="run-expand">
                    { if *open { "Hide its turns" } else { "Show its turns" } }
                </button>
                <button class="link-button" onclick={open_full} data-testid="run-open">{ "Open as a transcript" }</button>
            </div>
            if *open {
                // Inside it, its own calls' runs sit under them (at any depth).
                <ContextProvider<InFolder> context={inside.clone()}>
                    <RunInline in_folder={inside} entry={l.run.entry} on_resize={p.on_resize.clone()} />
                </ContextProvider<InFolder>>
            }
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct InlineProps {
    pub in_folder: InFolder,
    pub entry: u32,
    pub on_resize: Callback<()>,
}

/// A run's first items, read from its file when expanded.
#[function_component(RunInline)]
fn run_inline(p: &InlineProps) -> Html {
    let ctx = use_state(|| None::<Result<Shared<Ctx>, crate::app::blob::ReadError>>);
    let redaction = crate::app::redact::use_redaction();
    {
        let (ctx, f, entry, redactor) = (ctx.clone(), p.in_folder.clone(), p.entry, redaction.active());
        use_effect_with((entry, redaction.on), move |_| {
            yew::platform::spawn_local(async move {
                let Some((id, blob)) = f.blob(entry) else { return ctx.set(Some(Err(crate::app::blob::ReadError::NotPicked))) };
                let name = crate::fmt::file_name(&f.folder.tree.entry(entry).path).to_string();
                match read_all(&blob).await {
                    Ok(bytes) => {
                        let head: Rc<[u8]> = bytes.into();
                        let doc = Rc::new(Doc::build(id, &name, head.len() as u64, head.clone(), Indexer::index_bytes(&head), true));
                        let cache = Rc::new(RefCell::new(BodyCache::new(CACHE_BUDGET_BYTES)));
                        // Its line links open the run as a transcript at that line.
                        let address = Rc::from(crate::app::address::prefix(&f.folder.tree.entry(entry).path, entry, redactor.is_some()));
                        ctx.set(Some(Ok(Shared::new(Ctx { view: doc.view.clone(), doc, blob, cache, address, redactor, grew: None }))));
                    }
                    Err(e) => ctx.set(Some(Err(e))),
                }
            });
        });
    }
    {
        let on_resize = p.on_resize.clone();
        use_effect_with(ctx.is_some(), move |_| on_resize.emit(()));
    }
    match &*ctx {
        None => html! { <div class="run-body muted">{ "reading the run…" }</div> },
        Some(Err(why)) => html! { <div class="run-body bad">{ format!("The run could not be read: {why}") }</div> },
        Some(Ok(c)) => {
            let ids: Vec<u32> = crate::model::items::Filter::default().apply(c.ix(), &c.view);
            let more = ids.len().saturating_sub(INLINE_ITEMS);
            html! {
                <div class="run-body" data-testid="run-body">
                    { for ids.iter().take(INLINE_ITEMS).map(|&id| html! {
                        <div key={id}>{ p.in_folder.render_item.emit((c.clone(), id, p.on_resize.clone())) }</div>
                    }) }
                    if more > 0 { <p class="muted small">{ format!("{} more — open it as a transcript", fmt::plural(more as u64, "item", "items")) }</p> }
                </div>
            }
        }
    }
}

/// The header's account of this conversation's runs: how many sit under
/// their calls, and each one that does not — not linked, or linked by a meta
/// file to a call the conversation does not have — with why, openable as a
/// transcript of its own.
pub fn runs_fact(f: &InFolder, red: &crate::app::redact::Redaction) -> Html {
    let Some(runs) = f.runs() else { return html! { <span class="muted">{ "being read…" }</span> } };
    // Workflow runs no call names (their agents, if any, are listed as unplaced too).
    let lost_workflows: Vec<&str> = match (&f.run, f.folder.facts(f.conv)) {
        (None, Some(facts)) => facts.workflows.iter().filter(|w| w.call.is_none()).map(|w| w.workflow.run_id.as_str()).collect(),
        _ => Vec::new(),
    };
    if runs.is_empty() && lost_workflows.is_empty() {
        return html! { <span class="value">{ "none" }</span> };
    }
    // (A run's own runs sit under its calls by their meta: none is "unplaced" there.)
    let unplaced = |l: &Linked| f.run.is_none() && l.unplaced();
    let placed = runs.iter().filter(|l| !unplaced(l)).count() as u64;
    html! {
        <span class="value runs-fact" data-testid="runs-fact">
            { format!("{} under their calls", fmt::count(placed)) }
            { for runs.iter().filter(|l| unplaced(l)).map(|l| {
                let why = match (&l.doubt, l.declined) {
                    (Some(d), _) => d.describe(),
                    (None, Some(d)) => d.describe(),
                    (None, None) => "no reason known".to_string(),
                };
                let open = {
                    let (cb, id) = (f.open_run.clone(), Rc::<str>::from(l.link.agent_id.as_str()));
                    Callback::from(move |_: MouseEvent| cb.emit(id.clone()))
                };
                html! {
                    <span class="declined" data-testid="run-declined" data-agent={l.link.agent_id.clone()}>
                        { format!(" · agent-{} unplaced: {} ", l.link.agent_id, red.text(&why)) }
                        <button class="link-button" onclick={open} data-testid="run-unplaced-open">{ "open it" }</button>
                    </span>
                }
            }) }
            { for lost_workflows.iter().map(|id| html! {
                <span class="declined" data-testid="workflow-unplaced" data-run={id.to_string()}>
                    { format!(" · workflow run {id} unplaced: no Workflow call of this conversation names it (by its runId, Task ID or transcript dir)") }
                </span>
            }) }
        </span>
    }
}
