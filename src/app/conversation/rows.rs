//! The items that are not API turns: prompts, system rows, bookkeeping,
//! dividers, malformed lines, and the placeholder while bodies are read.

use std::collections::HashMap;
use std::rc::Rc;

use yew::prelude::*;

use super::output::Folded;
use super::tool;
use crate::app::ctx::Ctx;
use crate::fmt;
use crate::index::{flag, Index, Row, Sym};
use crate::model::body::Body;
use crate::model::conversation::is_system_error;
use crate::model::tools::first_line;
use crate::model::background::{task_notification, TaskNotification};
use crate::model::items::{compaction_words, is_command_text, split_ide_context, Item, ItemKind};
use crate::model::COMPACT_BOUNDARY;

/// Parsed bodies by row.
pub type Bodies = Rc<HashMap<u32, Rc<Body>>>;

/// Markdown longer than this is shown as plain text, folded (parsing and
/// drawing megabytes of markup would hold the page).
const MARKDOWN_MAX_BYTES: usize = 64 << 10;
/// Characters of a system or bookkeeping record's text on its one line.
const ROW_TEXT_CHARS: usize = 160;

/// Text written as Markdown (assistant text, a compaction summary): drawn
/// as Markdown up to [`MARKDOWN_MAX_BYTES`], folded plain text beyond.
pub fn prose(text: &str, on_resize: &Callback<()>) -> Html {
    if text.len() <= MARKDOWN_MAX_BYTES {
        return html! { <div class="prose">{ super::md::render(text) }</div> };
    }
    html! {
        <div class="prose long" data-testid="long-prose">
            <p class="muted small">{ format!("{} of Markdown, shown as plain text", fmt::bytes(text.len() as u64)) }</p>
            <Folded text={Rc::<str>::from(text)} tag="div" class="prompt-text" on_resize={on_resize.clone()} />
        </div>
    }
}

pub fn unreadable(row: &Row) -> Html {
    html! { <div class="muted">{ format!("line {} could not be read back from the file", row.line_no) }</div> }
}

pub fn idle(gap_ms: i64) -> Html {
    html! { <div class="divider-line" data-testid="idle-divider">{ format!("idle {}", fmt::duration_ms(gap_ms)) }</div> }
}

pub fn resume(ix: &Index, session: Option<Sym>, client: Option<Sym>) -> Html {
    let mut words = vec!["resumed".to_string()];
    if let Some(c) = client {
        words.push(format!("from {}", ix.str(c)));
    }
    if let Some(s) = session {
        words.push(format!("· new session {}", ix.str(s)));
    }
    html! { <div class="divider-line" data-testid="resume-divider">{ words.join(" ") }</div> }
}

pub fn malformed(row: &Row) -> Html {
    html! {
        <div class="compact-row">
            <span class="tag bad">{ "skipped" }</span>
            { format!("line {} could not be read: {}", row.line_no, row.malformed.map_or("", |m| m.describe())) }
        </div>
    }
}

/// What the index already knows while the bodies are read: the tools called.
pub fn placeholder(ctx: &Ctx, item: &Item) -> Html {
    let ix = ctx.ix();
    let names: Vec<Rc<str>> = match item.kind {
        ItemKind::Turn(t) => ctx.view.turns[t as usize]
            .rows
            .iter()
            .flat_map(|&r| ix.tool_uses_of(&ix.rows[r as usize]).iter().map(|u| Rc::from(ix.str(u.name))))
            .collect(),
        _ => Vec::new(),
    };
    tool::pending(&names)
}

pub fn user(ctx: &Ctx, row_ix: u32, bodies: &Bodies, on_resize: &Callback<()>) -> Html {
    let row = &ctx.ix().rows[row_ix as usize];
    let Some(body) = bodies.get(&row_ix) else { return unreadable(row) };
    let full_text = body.prompt_text();
    // IDE context comes first, muted; the person's own words after it.
    let (ide_notes, text) = split_ide_context(&full_text);
    if let Some(n) = task_notification(text) {
        return task_answer(ctx, &n, on_resize);
    }
    if let Some(m) = crate::model::teammate::message(text) {
        return teammates(&m, on_resize);
    }
    let (who, class) = if row.has(flag::COMPACT_SUMMARY) {
        ("Compact summary", "summary")
    } else if row.has(flag::META) || is_command_text(text) {
        ("Meta", "meta")
    } else {
        ("You", "prompt")
    };
    let images: Vec<Html> = body.blocks().iter().filter(|b| b.kind.is("image")).map(super::output::image).collect();
    // Results whose call is not in this file (or not yet shown).
    let orphans = body.blocks().iter().filter(|b| b.kind.is("tool_result")).map(|b| html! {
        <div class="orphan-result">
            <span class="muted">{ format!("result for {} (its call is not in this file)", b.tool_use_id.as_deref().unwrap_or("?")) }</span>
            <Folded text={Rc::<str>::from(b.result_text())} on_resize={on_resize.clone()} />
        </div>
    });
    html! {
        <div class={classes!("user-msg", class)} data-testid={class}>
            <div class="who">{ who }</div>
            if row.has(flag::COMPACT_SUMMARY) {
                <details class="compact-summary"><summary>{ "The conversation so far, as summarised at compaction" }</summary>
                    { prose(&full_text, on_resize) }</details>
            } else {
                { for ide_notes.iter().map(|n| html! { <div class="ide-context muted" data-testid="ide-context">{ "IDE: " }{ n.to_string() }</div> }) }
                if !text.is_empty() { <Folded text={Rc::<str>::from(text)} tag="div" class="prompt-text" on_resize={on_resize.clone()} /> }
            }
            { for images }
            { for orphans }
        </div>
    }
}

/// A background task's answer: not the person's words but what the task
/// launched by a call reported, with the way back to that call.
fn task_answer(ctx: &Ctx, n: &TaskNotification, on_resize: &Callback<()>) -> Html {
    let ix = ctx.ix();
    let call_line = n.tool_use_id.and_then(|id| ix.tool_uses.iter().find(|u| ix.str(u.id) == id)).map(|u| ix.rows[u.row as usize].line_no);
    let status = n.status.unwrap_or("no status");
    html! {
        <div class="user-msg task-answer" data-testid="task-answer" data-status={status.to_string()}>
            <div class="who">{ "Background task" }
                <span class={classes!("tag", n.failed().then_some("bad"))}>{ status.to_string() }</span>
                if let Some(id) = n.task_id { <span class="small muted">{ format!("task {id}") }</span> }
            </div>
            if let Some(s) = n.summary { <div class="task-summary">{ s.to_string() }</div> }
            if let Some(r) = n.result { <Folded text={Rc::<str>::from(r)} tag="div" class="prompt-text" on_resize={on_resize.clone()} /> }
            <div class="small muted">
                { match (call_line, n.tool_use_id) {
                    (Some(line), _) => html! { <a href={ctx.line_href(line)} data-testid="task-call">{ format!("↑ launched by the call on line {line}") }</a> },
                    (None, Some(id)) => html! { { format!("launched by call {id}, which is not in this file") } },
                    (None, None) => html! { "the call that launched it is not named" },
                } }
                if let Some(f) = n.output_file { { format!(" · output written to {f}") } }
            </div>
            if !n.after.is_empty() { <div class="small muted">{ n.after.to_string() }</div> }
        </div>
    }
}

/// Teammates' words to the lead (agent teams): each block under its
/// teammate's name, in its colour (one of a fixed palette), not as the
/// person's prompt; the team's own notices muted.
fn teammates(m: &crate::model::teammate::Message, on_resize: &Callback<()>) -> Html {
    let plain = |t: &str| (!t.is_empty()).then(|| html! { <Folded text={Rc::<str>::from(t)} tag="div" class="prompt-text" on_resize={on_resize.clone()} /> });
    html! {
        <div class="user-msg teammates" data-testid="teammate-messages">
            { for plain(m.before) }
            { for m.blocks.iter().map(|b| {
                let colour = crate::model::teammate::palette(b.color).map(|c| format!("tm-{c}"));
                let name = b.teammate_id.unwrap_or("a teammate");
                html! {
                    <div class={classes!("teammate-msg", colour, b.is_system().then_some("system"))} data-testid="teammate-message" data-teammate={name.to_string()}>
                        <div class="who">
                            { if b.is_system() { "Team notice".to_string() } else { name.to_string() } }
                            if !b.is_system() { <span class="small muted">{ " · teammate" }</span> }
                        </div>
                        if let Some(s) = b.summary { <div class="task-summary">{ s.to_string() }</div> }
                        // Teammates write Markdown, as the assistant does.
                        if !b.body.is_empty() { { prose(b.body, on_resize) } }
                    </div>
                }
            }) }
            { for plain(m.after) }
        </div>
    }
}

pub fn system(ctx: &Ctx, row_ix: u32, bodies: &Bodies) -> Html {
    let ix = ctx.ix();
    let row = &ix.rows[row_ix as usize];
    let subtype = ctx.index_text(ix.str(row.subtype));
    if subtype == COMPACT_BOUNDARY {
        let c = ix.compactions.iter().find(|c| c.row == row_ix);
        return html! { <div class="divider-line compaction" data-testid="compaction">{ compaction_words(ix, c) }</div> };
    }
    let body = bodies.get(&row_ix);
    if is_system_error(ix, row) {
        let words = body.map(|b| b.api_error_words()).unwrap_or_default();
        return html! {
            <div class="error-row" data-testid="system-error">
                <span class="tag bad">{ if subtype.is_empty() { "system error".to_string() } else { subtype.replace('_', " ") } }</span>
                { words }
                if let Some(t) = body.and_then(|b| b.content.as_deref()) { <span class="muted">{ format!(" {t}") }</span> }
            </div>
        };
    }
    let content = body.and_then(|b| crate::model::record::words(b).or_else(|| b.content.as_deref().map(|t| first_line(t, ROW_TEXT_CHARS)))).unwrap_or_default();
    html! {
        <div class="compact-row">
            <span class="tag">{ if subtype.is_empty() { "system".to_string() } else { subtype } }</span>
            <span class="muted">{ content }</span>
        </div>
    }
}

pub fn other(ctx: &Ctx, row_ix: u32, bodies: &Bodies) -> Html {
    let ix = ctx.ix();
    let row = &ix.rows[row_ix as usize];
    let ty = if row.record_type.is_none() { "(no type)".to_string() } else { ctx.index_text(ix.str(row.record_type)) };
    let text = bodies.get(&row_ix).and_then(|b| {
        let title = b.custom_title.as_deref().or(b.ai_title.as_deref()).or(b.summary.as_deref()).map(|t| first_line(t, ROW_TEXT_CHARS));
        title.or_else(|| crate::model::record::words(b))
    });
    // An attachment's kind beside its type (`attachment · hook success`).
    let tag = match &*ctx.index_text(ix.str(row.subtype)) {
        "" => ty.clone(),
        kind => format!("{ty} · {}", kind.replace('_', " ")),
    };
    html! {
        <div class="compact-row" data-testid="record-row" data-type={ty}>
            <span class="tag">{ tag }</span>
            <span class="muted">{ text.unwrap_or_else(|| fmt::bytes(u64::from(row.len_bytes))) }</span>
        </div>
    }
}
