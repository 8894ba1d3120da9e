//! One API turn: every record sharing a `message.id`, shown as one message —
//! thinking folded, text as markdown, each tool call with its result.

use yew::prelude::*;

use super::rows::{unreadable, Bodies};
use super::output::Folded;
use super::tool::ToolCall;
use crate::app::ctx::Ctx;
use crate::app::shared::Shared;
use crate::fmt;
use crate::index::flag;
use crate::model::conversation::{CallState, Turn};
use crate::model::SYNTHETIC_MODEL;

/// The turn's token figures, when the file recorded them.
fn tokens(turn: &Turn) -> Html {
    if !turn.has_usage {
        return html! {};
    }
    html! {
        <span class="muted small" title="output tokens · prompt size (input + cache write + cache read)">
            { format!("{} out · {} context", fmt::tokens(turn.output_tokens), fmt::tokens(turn.context_tokens)) }
        </span>
    }
}

pub fn turn(ctx: &Shared<Ctx>, t: u32, bodies: &Bodies, on_resize: &Callback<()>) -> Html {
    let ix = ctx.ix();
    let view = &ctx.view;
    let turn = &view.turns[t as usize];
    let first = &ix.rows[turn.rows[0] as usize];
    let model = ix.str(first.model);
    let api_error = turn.rows.iter().any(|&r| ix.rows[r as usize].has(flag::API_ERROR));
    let mut parts: Vec<Html> = Vec::new();
    for &r in &turn.rows {
        let row = &ix.rows[r as usize];
        let Some(body) = bodies.get(&r) else {
            parts.push(unreadable(row));
            continue;
        };
        if row.has(flag::API_ERROR) {
            parts.push(html! {
                <div class="error-row" data-testid="api-error">
                    <span class="tag bad">{ "API error" }</span>
                    { body.api_error_words() }
                    <span class="muted">{ format!(" {}", body.prompt_text()) }</span>
                </div>
            });
            continue;
        }
        let uses = ix.tool_uses_of(row);
        for (k, b) in body.blocks().iter().enumerate() {
            let kind = b.kind.as_deref().unwrap_or("");
            let html = match kind {
                "text" => match b.text.as_deref() {
                    Some(text) if !text.trim().is_empty() => super::rows::prose(text, on_resize),
                    _ => html! {},
                },
                "thinking" => {
                    let text = b.thinking.as_deref().unwrap_or("");
                    html! {
                        <details class="thinking">
                            <summary>{ format!("Thinking · {}", fmt::plural(text.split_whitespace().count() as u64, "word", "words")) }</summary>
                            <Folded text={std::rc::Rc::<str>::from(text)} tag="div" class="thinking-text" on_resize={on_resize.clone()} />
                        </details>
                    }
                }
                "redacted_thinking" => html! { <div class="thinking muted">{ "Thinking (redacted by the API)" }</div> },
                "tool_use" => {
                    let id = b.id.as_deref().unwrap_or("");
                    let use_ix = uses.iter().position(|u| ix.str(u.id) == id).map(|p| row.tool_uses_start + p as u32);
                    let call = use_ix.and_then(|u| view.call_of(u));
                    let result_row = call.and_then(|c| c.tool_result).map(|res| ix.tool_results[res as usize].row);
                    let result = result_row.and_then(|rr| bodies.get(&rr)).map(|b| Shared(b.clone()));
                    html! {
                        <ToolCall call={Shared(body.clone())} block={k} result={result.clone()}
                            state={call.map_or(CallState::NoResult, |c| c.state)}
                            duration_ms={call.and_then(|c| c.duration_ms)}
                            result_pending={result.is_none() && result_row.is_some()}
                            running={use_ix.is_some_and(|u| ctx.doc.running.binary_search(&u).is_ok())}
                            started_ms={row.timestamp_ms}
                            ctx={ctx.clone()} row={r}
                            on_resize={on_resize.clone()} />
                    }
                }
                "image" => super::output::image(b),
                "" => html! {},
                other => html! { <div class="muted" data-testid="odd-block">{ format!("[{} block]", ctx.index_text(other)) }</div> },
            };
            parts.push(html);
        }
        if let Some(text) = body.text() {
            parts.push(super::rows::prose(text, on_resize));
        }
    }
    let calls = turn.rows.iter().map(|&r| ix.rows[r as usize].tool_uses_len).sum::<u32>();
    html! {
        <div class={classes!("assistant-msg", api_error.then_some("api-error"))}>
            <div class="who">
                { "Assistant" }
                if !model.is_empty() && model != SYNTHETIC_MODEL { <span class="chip">{ model.to_string() }</span> }
                if turn.rows.len() > 1 { <span class="muted small">{ fmt::plural(turn.rows.len() as u64, "line", "lines") }</span> }
                { tokens(turn) }
                if calls > 0 { <span class="muted small">{ fmt::plural(u64::from(calls), "tool call", "tool calls") }</span> }
            </div>
            { for parts }
        </div>
    }
}
