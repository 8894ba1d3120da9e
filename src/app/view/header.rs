//! The session at a glance: title (user content), file, writer versions,
//! models, clients and resume segments with where they start, time (active
//! vs wall with an adjustable idle threshold) and the main counts. The full
//! contract-v1 facts sit in a fold below.

use std::rc::Rc;

use wasm_bindgen::JsCast;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::shared::Shared;
use super::state::Loaded;
use super::viewer::Ctx;
use crate::fmt;
use crate::index::{Index, Sym};
use crate::model::view::{is_command_text, split_ide_context, title_source, TitleSource};

#[derive(Properties, PartialEq)]
pub struct Props {
    pub loaded: Shared<Loaded>,
    pub ctx: Shared<Ctx>,
    pub idle_mins: u32,
    pub partial: bool,
    pub on_idle: Callback<u32>,
}

/// Distinct non-empty values of a row field, in order of first appearance.
fn distinct(ix: &Index, field: impl Fn(&crate::index::Row) -> Sym) -> Vec<String> {
    let mut seen: Vec<Sym> = Vec::new();
    for row in &ix.rows {
        let v = field(row);
        if v.is_some() && !seen.contains(&v) {
            seen.push(v);
        }
    }
    seen.into_iter().map(|s| ix.str(s).to_string()).collect()
}

async fn resolve_title(ctx: Shared<Ctx>) -> Option<(String, &'static str)> {
    let ix = ctx.ix();
    let read = |rows: Vec<u32>| {
        let ctx = ctx.clone();
        async move { super::bodies::fetch(&ctx.loaded.blob, &ctx.loaded.head, ctx.ix(), &ctx.cache, &rows).await }
    };
    match title_source(ix, &ctx.view) {
        TitleSource::Custom(r) => read(vec![r]).await.pop()?.1.and_then(|b| b.custom_title.0.clone()).map(|t| (t, "custom title")),
        TitleSource::Ai(r) => read(vec![r]).await.pop()?.1.and_then(|b| b.ai_title.0.clone()).map(|t| (t, "title by Claude")),
        TitleSource::FirstPrompt(rows) => read(rows)
            .await
            .into_iter()
            .filter_map(|(_, b)| b.map(|b| b.prompt_text()))
            .map(|t| split_ide_context(&t).1.to_string())
            .find(|t| !t.trim().is_empty() && !is_command_text(t))
            .map(|t| (crate::model::tools::first_line(&t, 140), "first prompt")),
    }
}

#[function_component(Header)]
pub fn header(p: &Props) -> Html {
    let title = use_state(|| None::<(String, &'static str)>);
    {
        let title = title.clone();
        use_effect_with(p.ctx.clone(), move |ctx| {
            let ctx = ctx.clone();
            yew::platform::spawn_local(async move { title.set(resolve_title(ctx).await) });
        });
    }
    let ctx = &p.ctx;
    let ix = ctx.ix();
    let view = &ctx.view;
    let l = &p.loaded;
    let stats = &l.stats;
    let versions = use_memo(ctx.clone(), |c| distinct(c.ix(), |r| r.version));
    let models = use_memo(ctx.clone(), |c| {
        distinct(c.ix(), |r| r.model).into_iter().filter(|m| m != "<synthetic>").collect::<Vec<_>>()
    });
    let line_of = |row: u32| ix.rows[row as usize].line_no;
    let segments = |segs: &[crate::model::conversation::Segment], what: &str| -> Html {
        html! {
            <span class="segments" data-testid={what.to_string()}>
                { for segs.iter().enumerate().map(|(k, s)| html! {
                    <>
                        if k > 0 { <span class="arrow">{ "→" }</span> }
                        <a class="seg" href={format!("#L{}", line_of(s.start_row))} title={format!("from line {}", line_of(s.start_row))}>
                            <code>{ ix.str(s.value).to_string() }</code>
                        </a>
                    </>
                }) }
            </span>
        }
    };
    let t = &view.timeline;
    let on_idle = {
        let cb = p.on_idle.clone();
        Callback::from(move |e: Event| {
            if let Some(v) = e.target().and_then(|t| t.dyn_into::<HtmlInputElement>().ok()).and_then(|i| i.value().parse::<u32>().ok()) {
                cb.emit(v.clamp(1, 10_080));
            }
        })
    };
    let fact = |label: &str, value: String, key: &str| html! {
        <div class="fact" data-fact={key.to_string()}><span class="label">{ label.to_string() }</span><span class="value">{ value }</span></div>
    };
    let (title_text, title_kind) = match &*title {
        Some((t, k)) => (t.clone(), *k),
        None => (l.name.clone(), "file name"),
    };
    let first_failure = view.failures.first().map(|&r| line_of(r));
    html! {
        <section class="session card" data-testid="session">
            <div class="title-row">
                <h1 class="session-title" data-testid="title" title={format!("{title_kind} (written by the person or the client, shown as text)")}>{ title_text }</h1>
                <span class="muted small">{ title_kind }</span>
            </div>
            <div class="meta-line">
                <code class="fname">{ l.name.clone() }</code>
                <span>{ fmt::bytes(l.size_bytes) }</span>
                <span data-testid="line-count">{ format!("{} line{}", fmt::count(stats.lines), if stats.lines == 1 { "" } else { "s" }) }</span>
                if p.partial { <span class="chip warn">{ "still reading — showing the start" }</span> }
                if !versions.is_empty() { <span title="Claude Code versions that wrote this file">{ format!("v{}", versions.join(", v")) }</span> }
                { for models.iter().map(|m| html! { <span class="chip">{ m.clone() }</span> }) }
            </div>
            <div class="facts-grid">
                if !view.clients.is_empty() {
                    <div class="fact wide"><span class="label">{ "Clients" }</span>{ segments(&view.clients, "clients") }</div>
                }
                if view.sessions.len() > 1 {
                    <div class="fact wide"><span class="label">{ format!("Resumed {} time{}", view.sessions.len() - 1, if view.sessions.len() == 2 { "" } else { "s" }) }</span>
                        { segments(&view.sessions, "sessions") }</div>
                }
                if let (Some(a), Some(b)) = (t.first_ms, t.last_ms) {
                    <div class="fact wide"><span class="label">{ "Time" }</span>
                        <span class="value">{ format!("{} → {}", fmt::utc_ms(a), fmt::utc_ms(b)) }</span></div>
                }
                { fact("Active", fmt::duration_secs(t.active_ms as f64 / 1000.0), "active") }
                { fact("Wall", fmt::duration_secs(t.wall_ms() as f64 / 1000.0), "wall") }
                <div class="fact">
                    <label class="label" for="idle-mins">{ "Idle after (min)" }</label>
                    <input id="idle-mins" class="idle-input" type="number" min="1" max="10080" value={p.idle_mins.to_string()} onchange={on_idle} data-testid="idle-mins" />
                </div>
                { fact("API turns", fmt::count(stats.assistant_messages), "turns") }
                { fact("Tool calls", fmt::count(stats.tool_calls), "tool_calls") }
                <div class="fact" data-fact="failures">
                    <span class="label">{ "Failed steps" }</span>
                    <span class={classes!("value", (stats.failed_steps > 0).then_some("bad"))}>
                        if let Some(line) = first_failure {
                            <a href={format!("#L{line}")} title="First failure (n walks them)">{ fmt::count(stats.failed_steps) }</a>
                        } else { { "0" } }
                    </span>
                </div>
                { fact("Compactions", fmt::count(stats.compactions), "compactions") }
                { fact("Peak context", fmt::tokens(stats.peak_context_tokens), "peak") }
                { fact("Output tokens", fmt::tokens(stats.output_tokens), "output") }
            </div>
            if l.index.malformed_lines > 0 {
                <p class="notice warn small" data-testid="skipped-brief">
                    { format!("{} line{} could not be read and {} skipped: ", l.index.malformed_lines,
                        if l.index.malformed_lines == 1 { "" } else { "s" }, if l.index.malformed_lines == 1 { "was" } else { "were" }) }
                    { for l.index.malformed().take(5).map(|(row, why)| html! {
                        <a href={format!("#L{}", row.line_no)}>{ format!("line {} ({}) ", row.line_no, why.describe()) }</a>
                    }) }
                </p>
            }
            if !p.partial {
                <details class="all-facts">
                    <summary>{ "All facts (ccscope stats)" }</summary>
                    <super::summary::Summary loaded={super::summary::LoadedRef(Rc::clone(&l.0))} />
                </details>
            }
        </section>
    }
}
