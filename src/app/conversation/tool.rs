//! One tool call beside its result: name, a readable summary of the input,
//! duration, state (ok / error / denied / no result) and the result itself,
//! collapsed past a few lines. In a folder, an Agent call shows the runs it
//! spawned ([`super::runs`]), a Workflow call its run ([`super::workflow`]),
//! and a `<persisted-output>` result offers the full output from
//! `tool-results/`.

use std::rc::Rc;

use yew::prelude::*;

use super::output::{image, Folded, FullOutput};
use super::in_folder::InFolder;
use super::answer::AnswerLink;
use super::runs::RunCard;
use super::workflow::WorkflowRuns;
use crate::app::ctx::Ctx;
use crate::app::shared::Shared;
use crate::index::scan::RESULT_BLOCK_TYPES;
use crate::fmt;
use crate::model::body::{persisted_preview, Block, Body};
use crate::model::conversation::CallState;
use super::diff::diff_view;
use crate::model::tools::summarize;

/// Lines of an Edit's diff drawn at most.
const DIFF_LINES: usize = 400;

#[derive(Properties, PartialEq)]
pub struct Props {
    /// The record holding the tool_use block, and the block's position.
    pub call: Shared<Body>,
    pub block: usize,
    /// The record holding the result, once read (absent: no result, or not yet read).
    pub result: Option<Shared<Body>>,
    pub state: CallState,
    pub duration_ms: Option<i64>,
    /// The result exists in the file but its body is still being read.
    pub result_pending: bool,
    /// No result yet and nothing from the person since (see
    /// `state::live::running`): while the file is followed, it runs.
    #[prop_or_default]
    pub running: bool,
    /// The call record's time (ms since 1970): a running call counts from it.
    #[prop_or_default]
    pub started_ms: Option<i64>,
    /// The file it is in, and its record's row (a background call links
    /// to where its answer arrived).
    pub ctx: Shared<Ctx>,
    pub row: u32,
    pub on_resize: Callback<()>,
}

fn state_badge(state: CallState) -> (&'static str, &'static str) {
    match state {
        CallState::Ok => ("ok", "ok"),
        CallState::Error => ("error", "error"),
        CallState::Denied => ("denied", "denied"),
        CallState::NoResult => ("none", "no result"),
    }
}

#[function_component(ToolCall)]
pub fn tool_call(p: &Props) -> Html {
    let in_folder = use_context::<InFolder>();
    let Some(block) = p.call.blocks().get(p.block) else { return html! {} };
    let name = block.name.as_deref().unwrap_or("(unnamed tool)");
    let id = block.id.as_deref().unwrap_or("");
    let summary = summarize(name, block.input.as_ref().unwrap_or(&serde_json::Value::Null));
    // While the file is followed, a call without its result runs, its duration moving.
    let clock = use_context::<crate::app::ctx::LiveClock>();
    let running = clock.filter(|_| p.running && p.state == CallState::NoResult);
    let (state_class, state_word) = if running.is_some() { ("running", "running") } else { state_badge(p.state) };
    let duration_ms = match running {
        Some(now) => p.started_ms.map(|t| now.0 - t),
        None => p.duration_ms,
    };
    let input = html! {
        <>
            if let Some(plan) = &summary.plan {
                <div class="plan-card" data-testid="plan"><p class="plan-label">{ "Plan" }</p>{ super::md::render(plan) }</div>
            }
            if let Some(code) = summary.code.as_ref().filter(|c| !c.is_empty()) {
                <Folded text={Rc::<str>::from(code.as_str())} class="code input" on_resize={p.on_resize.clone()} />
            }
            if !summary.diff.is_empty() {
                { diff_view(&summary.diff, DIFF_LINES, "the whole input is in the export") }
            }
        </>
    };
    let result = match (&p.result, p.result_pending) {
        (Some(body), _) => match body.result_for(id) {
            Some(r) => result_view(&p.ctx, r, id, in_folder.as_ref(), &p.on_resize),
            None => html! { <div class="result muted">{ "result record has no matching block" }</div> },
        },
        (None, true) => html! { <div class="result muted">{ "reading result…" }</div> },
        (None, false) => html! {},
    };
    html! {
        <div class={classes!("call", format!("state-{state_class}"))} data-testid="tool-call" data-tool={name.to_string()} data-state={state_class}>
            <div class="call-head">
                <span class="tool-name">{ name.to_string() }</span>
                <span class="headline" title={summary.headline.clone()}>{ summary.headline.clone() }</span>
                if let Some(ms) = duration_ms {
                    <span class="duration" data-testid="duration">{ fmt::duration_ms(ms) }</span>
                }
                <span class={classes!("badge", state_class)} data-testid="call-state">{ state_word }</span>
            </div>
            { input }
            { result }
            if block.input.as_ref().and_then(|i| i.get("run_in_background")).and_then(serde_json::Value::as_bool) == Some(true) {
                <AnswerLink ctx={p.ctx.clone()} call_id={Rc::<str>::from(id)} after_row={p.row} on_resize={p.on_resize.clone()} />
            }
            { for in_folder.iter().flat_map(|f| f.runs_of(id)).map(|l| html! {
                <RunCard in_folder={in_folder.clone().expect("runs come from it")} agent_id={Rc::<str>::from(l.link.agent_id.as_str())} on_resize={p.on_resize.clone()} />
            }) }
            if let (Some(f), true) = (&in_folder, name == crate::model::workflow::WORKFLOW_TOOL) {
                <WorkflowRuns in_folder={f.clone()} tool_use_id={Rc::<str>::from(id)} on_resize={p.on_resize.clone()} />
            }
        </div>
    }
}

fn result_view(ctx: &Ctx, r: &Block, tool_use_id: &str, in_folder: Option<&InFolder>, on_resize: &Callback<()>) -> Html {
    let text = r.result_text();
    let persisted = persisted_preview(&text);
    let shown: Rc<str> = persisted.unwrap_or(&text).into();
    let images: Vec<&Block> = r.inner_blocks().iter().filter(|b| b.kind.is("image")).collect();
    let refs: Vec<&str> = r.inner_blocks().iter().filter(|b| b.kind.is("tool_reference")).filter_map(|b| b.tool_name.as_deref()).collect();
    // Blocks of a type the page has no view for, named (`record::not_understood` counts them).
    let odd: Vec<String> = r.inner_blocks().iter().filter(|b| !b.kind.as_deref().is_some_and(|k| RESULT_BLOCK_TYPES.contains(&k))).map(|b| ctx.index_text(b.kind.as_deref().unwrap_or("untyped"))).collect();
    let full = persisted.and(in_folder).and_then(|f| f.tool_result(tool_use_id));
    html! {
        <div class={classes!("result", r.is_error.is_true().then_some("is-error"))} data-testid="tool-result">
            if persisted.is_some() {
                <p class="persisted" data-testid="persisted">
                    { "The full output was saved beside the transcript as " }
                    <code>{ format!("tool-results/{tool_use_id}.txt") }</code>
                    { if full.is_some() { " — read it below. Preview:" } else { " — pick the whole folder to read it here. Preview:" } }
                </p>
            }
            if !shown.is_empty() {
                <Folded text={shown.clone()} on_resize={on_resize.clone()} />
            }
            if let Some(blob) = full {
                <FullOutput {blob} on_resize={on_resize.clone()} />
            }
            { for images.iter().map(|b| image(b)) }
            if !refs.is_empty() {
                <p class="refs">{ "Tools referenced: " }{ for refs.iter().map(|n| html! { <code>{ n.to_string() }</code> }) }</p>
            }
            { for odd.iter().map(|k| html! { <div class="muted" data-testid="odd-block">{ format!("[{k} block]") }</div> }) }
            if shown.is_empty() && images.is_empty() && refs.is_empty() && odd.is_empty() {
                <span class="muted">{ "(empty result)" }</span>
            }
        </div>
    }
}

/// A placeholder while a body is being read: what the index already knows.
pub fn pending(names: &[Rc<str>]) -> Html {
    html! {
        <div class="pending muted">
            { "reading…" }
            { for names.iter().map(|n| html! { <span class="tool-name ghost">{ n.to_string() }</span> }) }
        </div>
    }
}
