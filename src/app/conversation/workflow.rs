//! A workflow run under the `Workflow` call that launched it: its name and
//! status (a failed run's error folded), its totals, its phases with their
//! agents — each with its model, state, duration, calls, tokens and result,
//! and its transcript inline or opened whole ([`RunCard`]). A running run
//! (no snapshot yet) lists its agents in launch order, without phases.
//! The runs come from the folder (`folder::summary::PlacedWorkflow`).

use std::rc::Rc;

use yew::prelude::*;

use super::in_folder::InFolder;
use super::output::Folded;
use super::runs::RunCard;
use crate::fmt;
use crate::folder::PlacedWorkflow;
use crate::model::workflow::{Agent, CallLink, Workflow};

/// How a run was found for its call, in words.
fn link_words(link: CallLink) -> &'static str {
    match link {
        CallLink::RunId => "linked by the call's runId",
        CallLink::TaskId => "linked by the Task ID in the call's result",
        CallLink::TranscriptDir => "linked by the transcript dir in the call's result",
    }
}

/// The run's status word and badge class.
fn status(w: &Workflow) -> (String, &'static str) {
    match w.status.as_deref() {
        None => ("running".into(), "running"),
        Some("completed") => ("completed".into(), "ok"),
        Some(s @ ("failed" | "error" | "cancelled" | "killed")) => (s.into(), "error"),
        Some(s) => (s.into(), "none"),
    }
}

/// The run's totals in one line (absent stays absent).
fn totals(w: &Workflow) -> String {
    let mut parts = Vec::new();
    if let Some(ms) = w.duration_ms {
        parts.push(fmt::duration_ms(ms));
    }
    parts.push(fmt::plural(w.agents.len() as u64, "agent", "agents"));
    if let Some(n) = w.total_tool_calls {
        parts.push(fmt::plural(n, "tool call", "tool calls"));
    }
    parts.push(fmt::or_missing(w.total_tokens.map(|t| format!("{} tokens", fmt::tokens(t))), "tokens unknown"));
    parts.join(" · ")
}

/// An agent's facts in one line.
fn agent_line(a: &Agent) -> String {
    let mut parts = Vec::new();
    parts.extend(a.model.clone());
    if let Some(ms) = a.duration_ms {
        parts.push(fmt::duration_ms(ms));
    }
    if let Some(n) = a.tool_calls {
        parts.push(fmt::plural(n, "tool call", "tool calls"));
    }
    if let Some(t) = a.tokens {
        parts.push(format!("{} tokens", fmt::tokens(t)));
    }
    parts.join(" · ")
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub in_folder: InFolder,
    /// The `Workflow` call whose runs are shown.
    pub tool_use_id: Rc<str>,
    pub on_resize: Callback<()>,
}

/// The workflow runs the call `tool_use_id` launched (one, in practice).
#[function_component(WorkflowRuns)]
pub fn workflow_runs(p: &Props) -> Html {
    let Some(facts) = p.in_folder.folder.facts(p.in_folder.conv) else { return html! {} };
    let placed = facts.workflows.iter().filter(|w| w.call.as_ref().is_some_and(|(id, _)| **id == *p.tool_use_id));
    placed.map(|w| html! { <WorkflowCard in_folder={p.in_folder.clone()} run_id={Rc::<str>::from(w.workflow.run_id.as_str())} on_resize={p.on_resize.clone()} /> }).collect::<Html>()
}

#[derive(Properties, PartialEq)]
struct CardProps {
    in_folder: InFolder,
    run_id: Rc<str>,
    on_resize: Callback<()>,
}

#[function_component(WorkflowCard)]
fn workflow_card(p: &CardProps) -> Html {
    let red = crate::app::redact::use_redaction();
    let Some(placed) = p.in_folder.folder.facts(p.in_folder.conv).and_then(|f| f.workflows.iter().find(|w| *w.workflow.run_id == *p.run_id)) else { return html! {} };
    let PlacedWorkflow { workflow: w, call, .. } = placed;
    let (word, class) = status(w);
    let agent = |k: &u32| w.agents.get(*k as usize).map(|a| html! { <AgentRow in_folder={p.in_folder.clone()} agent={a.clone()} on_resize={p.on_resize.clone()} /> });
    let outside = w.outside_phases();
    html! {
        <div class="run workflow" data-testid="workflow" data-run={w.run_id.clone()} data-status={word.clone()}>
            <div class="run-head">
                <span class="tag run-kind">{ "workflow" }</span>
                <span class="run-desc">{ red.text(w.name.as_deref().unwrap_or(&w.run_id)) }</span>
                <span class={classes!("badge", class)} data-testid="workflow-status">{ word }</span>
                <span class="muted small" data-testid="workflow-totals">{ totals(w) }</span>
            </div>
            if let Some(s) = &w.summary { <p class="wf-summary small">{ red.text(s) }</p> }
            if let Some(e) = &w.error {
                <details class="wf-error" data-testid="workflow-error">
                    <summary>{ "Why it failed" }</summary>
                    <pre class="output">{ red.text(e) }</pre>
                </details>
            }
            { for w.problems.iter().map(|m| html! { <div class="run-doubt small" data-testid="workflow-problem">{ format!("⚠ {}", red.text(m)) }</div> }) }
            { for w.phases.iter().enumerate().map(|(k, ph)| html! {
                <section class="wf-phase" data-testid="workflow-phase" data-title={red.text(&ph.title)}>
                    <h4 class="wf-phase-title">
                        { format!("Phase {} · {}", k + 1, red.text(&ph.title)) }
                        <span class="muted small">{ format!(" · {}", fmt::plural(ph.agents.len() as u64, "agent", "agents")) }</span>
                    </h4>
                    if let Some(d) = &ph.detail { <p class="muted small">{ red.text(d) }</p> }
                    { for ph.agents.iter().filter_map(agent) }
                </section>
            }) }
            if !outside.is_empty() {
                <section class="wf-phase" data-testid="workflow-unphased">
                    <h4 class="wf-phase-title">
                        { if w.running() { "Agents, in launch order (no phases until the run ends)" } else { "Agents in no phase" } }
                    </h4>
                    { for outside.iter().filter_map(agent) }
                </section>
            }
            if w.agents.is_empty() && !w.running() {
                <p class="muted small">{ "It launched no agent." }</p>
            }
            <div class="run-foot muted small">
                <span data-testid="workflow-link">{ call.as_ref().map(|(_, l)| link_words(*l)).unwrap_or("not linked") }</span>
                { format!(" · run {}", w.run_id) }
            </div>
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct AgentProps {
    in_folder: InFolder,
    agent: Agent,
    on_resize: Callback<()>,
}

/// One agent of a run: what the journal and snapshot say of it, then its
/// transcript's card when its file was picked.
#[function_component(AgentRow)]
fn agent_row(p: &AgentProps) -> Html {
    let red = crate::app::redact::use_redaction();
    let a = &p.agent;
    let has_file = p.in_folder.all_runs().is_some_and(|runs| runs.iter().any(|l| l.link.agent_id == a.agent_id));
    let state = match (&a.state, a.in_flight) {
        (Some(s), _) => s.clone(),
        (None, true) => "running".into(),
        (None, false) if a.result.is_some() => "answered".into(),
        (None, false) => "no state".into(),
    };
    html! {
        <div class="wf-agent" data-testid="workflow-agent" data-agent={a.agent_id.clone()}>
            <div class="run-head">
                <span class="run-desc">{ red.text(a.label.as_deref().unwrap_or(&a.agent_id)) }</span>
                <span class={classes!("badge", if a.in_flight { "running" } else if state == "failed" { "error" } else { "none" })} data-testid="workflow-agent-state">{ state }</span>
                <span class="muted small">{ agent_line(a) }</span>
            </div>
            if let Some(r) = &a.result {
                <Folded text={Rc::<str>::from(red.text(r))} on_resize={p.on_resize.clone()} />
            }
            if has_file {
                <RunCard in_folder={p.in_folder.clone()} agent_id={Rc::<str>::from(a.agent_id.as_str())} on_resize={p.on_resize.clone()} />
            } else {
                <p class="muted small">{ format!("agent-{}: its transcript was not picked", a.agent_id) }</p>
            }
        </div>
    }
}
