//! One list item: reads the bodies it needs when it mounts (from the cache
//! or by `Blob.slice`), then shows a prompt, an API turn, a system row, a
//! divider, a bookkeeping row or a malformed line.

use std::collections::HashMap;
use std::rc::Rc;

use yew::prelude::*;

use super::bodies;
use super::shared::Shared;
use super::tool;
use super::viewer::Ctx;
use crate::fmt;
use crate::index::{flag, Row};
use crate::model::body::Body;
use crate::model::view::{is_command_text, split_ide_context, Item, ItemKind};

#[derive(Properties, PartialEq)]
pub struct Props {
    pub ctx: Shared<Ctx>,
    pub id: u32,
    pub current: bool,
    pub hit: bool,
    pub on_resize: Callback<()>,
}

type Bodies = Rc<HashMap<u32, Rc<Body>>>;

/// Estimated height in pixels, before an item has been measured.
pub fn estimate(item: &Item) -> f32 {
    match item.kind {
        ItemKind::Turn(_) => 170.0,
        ItemKind::User => 90.0,
        ItemKind::System | ItemKind::Other | ItemKind::Malformed => 40.0,
        ItemKind::Idle { .. } | ItemKind::Resume { .. } => 44.0,
    }
}

fn needs_bodies(ctx: &Ctx, item: &Item) -> bool {
    match item.kind {
        ItemKind::Idle { .. } | ItemKind::Resume { .. } | ItemKind::Malformed => false,
        ItemKind::System => ctx.ix().str(ctx.ix().rows[item.row as usize].subtype) != "compact_boundary",
        _ => true,
    }
}

fn time_of(row: &Row) -> Html {
    match row.timestamp_ms {
        Some(ms) => {
            let full = fmt::utc_ms(ms);
            html! { <time title={full.clone()}>{ full.get(11..19).unwrap_or("").to_string() }</time> }
        }
        None => html! {},
    }
}

#[function_component(ItemView)]
pub fn item_view(p: &Props) -> Html {
    let ctx = p.ctx.clone();
    let item = ctx.view.items[p.id as usize];
    let rows = use_memo((p.ctx.clone(), p.id), |(c, id)| c.view.rows_of(c.ix(), &c.view.items[*id as usize]));
    // The bodies held, with the rows they are for: when the file grows
    // under a mounted item (the preview becoming the whole file), its rows
    // may too, and bodies for the old rows are not the item's any more.
    let held = use_state(|| {
        let mut cache = ctx.cache.borrow_mut();
        let got: HashMap<u32, Rc<Body>> = rows.iter().filter_map(|&r| cache.get(r).map(|b| (r, b))).collect();
        (got.len() == rows.len()).then(|| (rows.clone(), Rc::new(got)))
    });
    let bodies: Option<Bodies> = held.as_ref().filter(|(for_rows, _)| **for_rows == *rows).map(|(_, b)| b.clone());
    {
        let (held, rows, ctx) = (held.clone(), rows.clone(), p.ctx.clone());
        let want = needs_bodies(&ctx, &item) && bodies.is_none();
        use_effect_with((p.ctx.clone(), p.id), move |_| {
            if want {
                yew::platform::spawn_local(async move {
                    let got = bodies::fetch(&ctx.loaded.blob, &ctx.loaded.head, ctx.ix(), &ctx.cache, &rows).await;
                    held.set(Some((rows, Rc::new(got.into_iter().filter_map(|(r, b)| b.map(|b| (r, b))).collect()))));
                });
            }
        });
    }
    {
        let on_resize = p.on_resize.clone();
        use_effect_with(bodies.is_some(), move |_| on_resize.emit(()));
    }
    let ix = ctx.ix();
    let row = &ix.rows[item.row as usize];
    let kind_class = match item.kind {
        ItemKind::User => "user",
        ItemKind::Turn(_) => "turn",
        ItemKind::System => "system",
        ItemKind::Other => "other",
        ItemKind::Malformed => "malformed",
        ItemKind::Idle { .. } | ItemKind::Resume { .. } => "divider",
    };
    let content = match item.kind {
        ItemKind::Idle { gap_ms } => html! {
            <div class="divider-line" data-testid="idle-divider">{ format!("idle {}", fmt::duration_secs(gap_ms as f64 / 1000.0)) }</div>
        },
        ItemKind::Resume { session, client } => {
            let mut words = vec!["resumed".to_string()];
            if let Some(c) = client {
                words.push(format!("from {}", ix.str(c)));
            }
            if let Some(s) = session {
                words.push(format!("· new session {}", ix.str(s)));
            }
            html! { <div class="divider-line" data-testid="resume-divider">{ words.join(" ") }</div> }
        }
        ItemKind::Malformed => html! {
            <div class="compact-row">
                <span class="tag bad">{ "skipped" }</span>
                { format!("line {} could not be read: {}", row.line_no, row.malformed.map_or("", |m| m.describe())) }
            </div>
        },
        _ => match &bodies {
            None if needs_bodies(&ctx, &item) => placeholder(&ctx, &item),
            b => {
                let empty = Rc::new(HashMap::new());
                let b = b.clone().unwrap_or(empty);
                match item.kind {
                    ItemKind::Turn(t) => super::turn::turn(&ctx, t, &b, &p.on_resize),
                    ItemKind::User => user(&ctx, item.row, &b, &p.on_resize),
                    ItemKind::System => system(&ctx, item.row, &b),
                    _ => other(&ctx, item.row, &b),
                }
            }
        },
    };
    let line = row.line_no;
    let show_gutter = !item.is_divider();
    // Settled: showing its real content, so its height can be measured.
    let settled = bodies.is_some() || !needs_bodies(&ctx, &item);
    html! {
        <article class={classes!("item", kind_class, item.failed.then_some("failed"), p.current.then_some("current"), p.hit.then_some("hit"),
                row.has(flag::SIDECHAIN).then_some("sidechain"))}
            data-item={p.id.to_string()} data-line={line.to_string()} data-kind={kind_class} data-settled={settled.then_some("")}
            data-turn={match item.kind { ItemKind::Turn(t) => Some(t.to_string()), _ => None }}>
            if show_gutter {
                <div class="gutter">
                    <a class="ln" href={format!("#L{line}")} title="Link to this line">{ format!("L{line}") }</a>
                    { time_of(row) }
                </div>
            }
            <div class="item-body">{ content }</div>
        </article>
    }
}

fn placeholder(ctx: &Ctx, item: &Item) -> Html {
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

fn user(ctx: &Ctx, row_ix: u32, bodies: &Bodies, on_resize: &Callback<()>) -> Html {
    let row = &ctx.ix().rows[row_ix as usize];
    let Some(body) = bodies.get(&row_ix) else { return unreadable(row) };
    let full_text = body.prompt_text();
    // IDE context comes first, muted; the person's own words after it.
    let (ide_notes, text) = split_ide_context(&full_text);
    let command = is_command_text(text);
    let (who, class) = if row.has(flag::COMPACT_SUMMARY) {
        ("Compact summary", "summary")
    } else if row.has(flag::META) || command {
        ("Meta", "meta")
    } else {
        ("You", "prompt")
    };
    let images: Vec<Html> = body.blocks().iter().filter(|b| b.kind.is("image")).map(tool::image).collect();
    // Results whose call is not in this file (or not yet shown).
    let orphans: Vec<Html> = body
        .blocks()
        .iter()
        .filter(|b| b.kind.is("tool_result"))
        .map(|b| html! {
            <div class="orphan-result">
                <span class="muted">{ format!("result for {} (its call is not in this file)", b.tool_use_id.as_deref().unwrap_or("?")) }</span>
                <pre class="output">{ b.result_text().chars().take(2000).collect::<String>() }</pre>
            </div>
        })
        .collect();
    let summary_text = row.has(flag::COMPACT_SUMMARY);
    let _ = on_resize;
    html! {
        <div class={classes!("user-msg", class)} data-testid={class}>
            <div class="who">{ who }</div>
            if summary_text {
                <details class="compact-summary"><summary>{ "The conversation so far, as summarised at compaction" }</summary>
                    <div class="prose">{ super::md::render(&full_text) }</div></details>
            } else {
                { for ide_notes.iter().map(|n| html! { <div class="ide-context muted" data-testid="ide-context">{ "IDE: " }{ n.to_string() }</div> }) }
                if !text.is_empty() { <div class="prompt-text">{ text.to_string() }</div> }
            }
            { for images }
            { for orphans }
        </div>
    }
}

fn system(ctx: &Ctx, row_ix: u32, bodies: &Bodies) -> Html {
    let ix = ctx.ix();
    let row = &ix.rows[row_ix as usize];
    let subtype = ix.str(row.subtype);
    if subtype == "compact_boundary" {
        let c = ix.compactions.iter().find(|c| c.row == row_ix);
        let (pre, post, trigger) = c.map_or((0, 0, ""), |c| (c.pre_tokens, c.post_tokens, ix.str(c.trigger)));
        return html! {
            <div class="divider-line compaction" data-testid="compaction">
                { format!("compacted ({}) · {} → {} tokens", if trigger.is_empty() { "unknown trigger" } else { trigger }, fmt::count(pre), fmt::count(post)) }
            </div>
        };
    }
    let body = bodies.get(&row_ix);
    if crate::model::conversation::is_system_error(ix, row) {
        let words = body.map(|b| b.api_error_words()).unwrap_or_default();
        return html! {
            <div class="error-row" data-testid="system-error">
                <span class="tag bad">{ if subtype.is_empty() { "system error".to_string() } else { subtype.replace('_', " ") } }</span>
                { words }
                if let Some(t) = body.and_then(|b| b.content.as_deref()) { <span class="muted">{ format!(" {t}") }</span> }
            </div>
        };
    }
    let content = body.and_then(|b| b.content.as_deref()).map(|t| crate::model::tools::first_line(t, 160)).unwrap_or_default();
    html! {
        <div class="compact-row">
            <span class="tag">{ if subtype.is_empty() { "system" } else { subtype } }</span>
            <span class="muted">{ content }</span>
        </div>
    }
}

fn other(ctx: &Ctx, row_ix: u32, bodies: &Bodies) -> Html {
    let ix = ctx.ix();
    let row = &ix.rows[row_ix as usize];
    let ty = if row.record_type.is_none() { "(no type)" } else { ix.str(row.record_type) };
    let text = bodies.get(&row_ix).and_then(|b| b.custom_title.as_deref().or(b.ai_title.as_deref()).or(b.summary.as_deref()).map(|t| crate::model::tools::first_line(t, 160)));
    html! {
        <div class="compact-row">
            <span class="tag">{ ty.to_string() }</span>
            <span class="muted">{ text.unwrap_or_else(|| fmt::bytes(row.len_bytes as u64)) }</span>
        </div>
    }
}

pub fn unreadable(row: &Row) -> Html {
    html! { <div class="muted">{ format!("line {} could not be read back from the file", row.line_no) }</div> }
}

/// A parsed body as a prop.
pub fn shared(b: &Rc<Body>) -> Shared<Body> {
    Shared(b.clone())
}
