//! What a read file showed: its name and size, a verdict, every contract-v1
//! fact (each element carries `data-stat` / `data-value`), skipped lines.

use serde_json::Value;
use yew::prelude::*;

use crate::app::shared::Shared;
use crate::fmt;
use crate::model::verdict::Verdict;
use crate::state::Doc;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub doc: Shared<Doc>,
}

/// Sections of facts: (heading, [(key, label)]).
const SECTIONS: &[(&str, &[(&str, &str)])] = &[
    ("File", &[("bytes", "Size"), ("lines", "Lines"), ("malformed_lines", "Skipped lines"), ("max_line_bytes", "Longest line")]),
    ("Conversation", &[
        ("assistant_messages", "API turns"), ("tool_calls", "Tool calls"), ("tool_results", "Tool results"),
        ("unpaired_tool_calls", "Calls without a result"), ("roots", "Conversation roots"), ("compactions", "Compactions"),
        ("sidechain_records", "Sidechain records"), ("images", "Images"), ("persisted_outputs", "Outputs saved to tool-results/"),
    ]),
    ("Failures", &[
        ("failed_steps", "Failed steps"), ("tool_errors", "Tool errors"), ("api_errors", "API errors"),
        ("system_errors", "System errors"), ("denials", "Denied permissions"),
    ]),
    ("Time", &[
        ("active_seconds", "Active time"), ("wall_seconds", "Wall time"), ("timestamped", "Timestamped records"),
        ("backward_steps", "Clock steps backwards"),
    ]),
    ("Tokens", &[("peak_context_tokens", "Peak context"), ("output_tokens", "Output tokens")]),
    ("Sessions and clients", &[("session_ids", "Session ids (resumes)"), ("entrypoints", "Clients"), ("subagents", "Subagent runs")]),
    ("Record types", &[("types", "Records by type")]),
];

/// A fact as a person reads it; one the file did not record (no
/// timestamps, no usage) is shown as missing, not as its contract value 0.
fn human(doc: &Doc, key: &str, v: &Value) -> Html {
    let n = v.as_u64().unwrap_or(0);
    let missing = |why: &str| html! { <span class="muted">{ format!("— ({why})") }</span> };
    match (key, v) {
        ("active_seconds" | "wall_seconds", _) if doc.stats.timestamped == 0 => missing("no timestamps"),
        ("peak_context_tokens" | "output_tokens", _) if !doc.facts.has_usage => missing("no usage recorded"),
        ("bytes" | "max_line_bytes", _) => html! { fmt::bytes(n) },
        ("active_seconds" | "wall_seconds", Value::Number(x)) => html! { fmt::duration_secs(x.as_f64().unwrap_or(0.0)) },
        ("subagents", Value::Array(a)) if a.is_empty() => {
            html! { <span class="muted">{ "none linked (runs live beside the file: open its folder to see them)" }</span> }
        }
        (_, Value::Array(a)) if a.is_empty() => html! { <span class="muted">{ "none" }</span> },
        (_, Value::Array(a)) => html! {
            <ul class="values">{ for a.iter().map(|x| html! { <li><code>{ x.as_str().map_or_else(|| x.to_string(), str::to_string) }</code></li> }) }</ul>
        },
        (_, Value::Object(m)) => html! {
            <ul class="values types">{ for m.iter().map(|(k, c)| html! {
                <li><code>{ k.clone() }</code><span class="count">{ fmt::count(c.as_u64().unwrap_or(0)) }</span></li>
            }) }</ul>
        },
        (_, Value::Number(_)) => html! { fmt::count(n) },
        _ => html! { v.to_string() },
    }
}

#[function_component(Summary)]
pub fn summary(props: &Props) -> Html {
    let l = &props.doc;
    let red = crate::app::redact::use_redaction();
    let name = red.text(&l.name);
    // In a folder, the runs beside the file are linked (by the survey).
    let in_folder = use_context::<super::in_folder::InFolder>();
    let mut stats = l.stats.clone();
    let main_file = |f: &super::in_folder::InFolder| f.folder.files.get(f.folder.tree.conversations[f.conv as usize].entry as usize) == Some(&l.file);
    if let Some(facts) = in_folder.as_ref().filter(|f| main_file(f)).and_then(|f| f.folder.facts(f.conv)) {
        stats.subagents = facts.line.stats.subagents.clone();
    }
    let facts = serde_json::to_value(&stats).unwrap_or(Value::Null);
    // Record types, session ids, entrypoints and run names are the file's
    // strings: redacted (keys too) with the rest of the page.
    let facts = match red.active() {
        Some(r) => crate::state::example::redact_json(facts, &mut r.borrow_mut(), None),
        None => facts,
    };
    // For something that is not a transcript, only the file facts mean anything.
    let is_transcript = l.is_transcript();
    let wide = |k: &str| matches!(k, "types" | "session_ids" | "entrypoints" | "subagents");
    let verdict = match &l.verdict {
        Verdict::NotATranscript(msg) => html! {
            <section class="notice warn" role="alert" data-testid="not-transcript"><p>{ msg.clone() }</p></section>
        },
        Verdict::Transcript { malformed: 0 } => html! {},
        Verdict::Transcript { malformed } => html! {
            <section class="notice warn" data-testid="skipped">
                <p>{ format!("{} could not be read and {} skipped; everything else is shown.",
                    fmt::plural(u64::from(*malformed), "line", "lines"), fmt::agree(u64::from(*malformed), "was", "were")) }</p>
                <ul class="skipped">
                    { for l.index.malformed().take(50).map(|(row, why)| html! {
                        <li data-line={row.line_no.to_string()}>{ format!("{name}: line {} — {}", row.line_no, why.describe()) }</li>
                    }) }
                </ul>
            </section>
        },
    };
    html! {
        <section class="card result" data-testid="result">
            <div class="result-head">
                <h2 class="file-name" data-testid="file-name">{ name.clone() }</h2>
                <span class="muted" data-testid="size">{ fmt::bytes(l.size_bytes) }</span>
            </div>
            { verdict }
            { for SECTIONS.iter().take(if is_transcript { SECTIONS.len() } else { 1 }).map(|(title, keys)| html! {
                <div class="section">
                    <h3>{ *title }</h3>
                    <dl class="stats">
                        { for keys.iter().map(|(key, label)| {
                            let v = facts.get(*key).cloned().unwrap_or(Value::Null);
                            html! {
                                <div class={classes!("stat", wide(key).then_some("wide"))} data-stat={*key} data-value={v.to_string()}>
                                    <dt>{ *label }</dt>
                                    <dd>{ human(l, key, &v) }</dd>
                                </div>
                            }
                        }) }
                    </dl>
                </div>
            }) }
        </section>
    }
}
