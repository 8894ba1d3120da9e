//! The conversation at a glance: title (user content), file, writer
//! versions, models, clients and resume segments with where they start,
//! time (active vs wall with an adjustable idle threshold) and the main
//! counts. The full contract-v1 facts sit in a fold below. A figure the
//! file did not record is shown as missing, never as 0.

use wasm_bindgen::JsCast;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::app::bodies;
use crate::app::ctx::Ctx;
use crate::app::shared::Shared;
use crate::fmt;
use crate::model::conversation::Segment;
use crate::model::title::{self, Title};
use crate::state::conversation::{MAX_IDLE_GAP_SECS, MIN_IDLE_GAP_SECS};

#[derive(Properties, PartialEq)]
pub struct Props {
    pub ctx: Shared<Ctx>,
    pub idle_gap_secs: u64,
    pub partial: bool,
    /// The person has moved in the list (scrolled or jumped): the facts fold
    /// into one line (as they always do on a small screen) so the transcript
    /// gets the room — and stay folded: unfolding at the top would shrink
    /// the list under a short filter and fold again, back and forth.
    pub scrolled: bool,
    pub on_idle: Callback<u64>,
}

/// Reads the title's rows back and picks the title (`model::title`).
/// Prompt candidates are read one at a time, up to the first one a person
/// typed: a 40 MB prompt after a short one is never read for the title.
async fn resolve_title(ctx: Shared<Ctx>) -> Option<Title> {
    let mut got = Vec::new();
    for r in ctx.doc.title.rows() {
        let more = bodies::fetch(&ctx, &[r]).await;
        let typed = more.iter().any(|(_, b)| b.as_ref().is_some_and(|b| title::words_of(&b.prompt_text()).is_some()));
        got.extend(more);
        if typed {
            break;
        }
    }
    title::resolve(&ctx.doc.title, |r| got.iter().find(|(row, _)| *row == r)?.1.clone())
}

fn segments(ctx: &Ctx, segs: &[Segment], what: &str) -> Html {
    let ix = ctx.ix();
    let line_of = |row: u32| ix.rows[row as usize].line_no;
    html! {
        <span class="segments" data-testid={what.to_string()}>
            { for segs.iter().enumerate().map(|(k, s)| html! {
                <>
                    if k > 0 { <span class="arrow">{ "→" }</span> }
                    <a class="seg" href={ctx.line_href(line_of(s.start_row))} title={format!("from line {}", line_of(s.start_row))}>
                        <code>{ ix.str(s.value).to_string() }</code>
                    </a>
                </>
            }) }
        </span>
    }
}

fn fact(label: &str, value: String, key: &str) -> Html {
    html! { <div class="fact" data-fact={key.to_string()}><span class="label">{ label.to_string() }</span><span class="value">{ value }</span></div> }
}

/// A laptop's height or a phone: the facts are folded from the start.
const SMALL_SCREEN: &str = "(max-height: 860px), (max-width: 720px)";

#[function_component(Header)]
pub fn header(p: &Props) -> Html {
    let title = use_state(|| None::<Title>);
    // The folded facts shown anyway.
    let open = use_state(|| false);
    let small = crate::app::shared::use_media(SMALL_SCREEN);
    let in_folder = use_context::<super::in_folder::InFolder>();
    let unknown = super::unknown::use_unknown(&p.ctx);
    {
        let title = title.clone();
        use_effect_with(p.ctx.clone(), move |ctx| {
            let ctx = ctx.clone();
            yew::platform::spawn_local(async move { title.set(resolve_title(ctx).await) });
        });
    }
    let ctx = &p.ctx;
    let doc = &ctx.doc;
    let red = crate::app::redact::use_redaction();
    let name = red.text(&doc.name);
    let (stats, facts, view) = (&doc.stats, &doc.facts, &ctx.view);
    let ix = ctx.ix();
    let t = &view.timeline;
    let on_idle = {
        let cb = p.on_idle.clone();
        Callback::from(move |e: Event| {
            if let Some(mins) = e.target().and_then(|t| t.dyn_into::<HtmlInputElement>().ok()).and_then(|i| i.value().parse::<u64>().ok()) {
                cb.emit(mins.saturating_mul(60));
            }
        })
    };
    // A run opened as a transcript is titled by what its spawn asked for.
    let description = in_folder.as_ref().and_then(|f| f.this_run()?.run.meta.as_ref()?.description.clone());
    let (title_text, title_kind) = match (description, &*title) {
        (Some(d), _) => (red.text(&d), "the run's description, from its meta file"),
        (None, Some(t)) => (t.text.clone(), t.kind.describe()),
        (None, None) => (name.clone(), "file name"),
    };
    let time = |f: fn((i64, i64)) -> i64| fmt::or_missing(t.measured().map(|m| fmt::duration_ms(f(m))), "no timestamps");
    let tokens = |n: u64| fmt::or_missing(facts.has_usage.then(|| fmt::tokens(n)), "no usage recorded");
    let first_failure = view.failures.first().map(|&r| ix.rows[r as usize].line_no);
    // Folded (a small screen, or once the person has moved in the list) the
    // facts are one line so the transcript gets the screen; a button shows them all.
    let toggle = {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| open.set(!*open))
    };
    let brief = format!(
        "{} · {} · {} · {} failed · {} active",
        fmt::plural(stats.lines, "line", "lines"),
        fmt::plural(stats.assistant_messages, "API turn", "API turns"),
        fmt::plural(stats.tool_calls, "tool call", "tool calls"),
        fmt::count(stats.failed_steps),
        time(|(active, _)| active)
    );
    html! {
        <section class={classes!("session", "card", (p.scrolled || small).then_some("folded"), (*open).then_some("facts-open"))} data-testid="session">
            <div class="title-row">
                <h1 class="session-title" data-testid="title" title={format!("{title_kind} (written by the person or the client, shown as text)")}>{ title_text }</h1>
                <span class="muted small">{ title_kind }</span>
                <button class="link-button facts-toggle" onclick={toggle} aria-expanded={open.to_string()} data-testid="facts-toggle">
                    { if *open { "Fewer facts ▴" } else { "Facts ▾" } }</button>
            </div>
            <p class="facts-brief muted small" data-testid="facts-brief">{ brief }</p>
            <div class="meta-line">
                <code class="fname">{ name.clone() }</code>
                <span>{ fmt::bytes(doc.size_bytes) }</span>
                <span data-testid="line-count">{ fmt::plural(stats.lines, "line", "lines") }</span>
                if p.partial { <span class="chip warn">{ "still reading — showing the start" }</span> }
                if !facts.versions.is_empty() { <span title="Claude Code versions that wrote this file">{ format!("v{}", facts.versions.join(", v")) }</span> }
                { for facts.models.iter().map(|m| html! { <span class="chip">{ m.clone() }</span> }) }
            </div>
            <div class="facts-grid">
                if !view.clients.is_empty() {
                    <div class="fact wide"><span class="label">{ "Clients" }</span>{ segments(ctx, &view.clients, "clients") }</div>
                }
                if view.sessions.len() > 1 {
                    <div class="fact wide"><span class="label">{ format!("Resumed {}", fmt::plural(view.sessions.len() as u64 - 1, "time", "times")) }</span>
                        { segments(ctx, &view.sessions, "sessions") }</div>
                }
                if let (Some(a), Some(b)) = (t.first_ms, t.last_ms) {
                    <div class="fact wide"><span class="label">{ "Time" }</span>
                        <span class="value">{ format!("{} → {}", fmt::utc_ms(a), fmt::utc_ms(b)) }</span></div>
                }
                { fact("Active", time(|(active, _)| active), "active") }
                { fact("Wall", time(|(_, wall)| wall), "wall") }
                <div class="fact">
                    <label class="label" for="idle-mins">{ "Idle after (min)" }</label>
                    <input id="idle-mins" class="idle-input" type="number" min={(MIN_IDLE_GAP_SECS / 60).to_string()} max={(MAX_IDLE_GAP_SECS / 60).to_string()}
                        value={(p.idle_gap_secs / 60).to_string()} onchange={on_idle} data-testid="idle-mins" />
                </div>
                { fact("API turns", fmt::count(stats.assistant_messages), "turns") }
                { fact("Tool calls", fmt::count(stats.tool_calls), "tool_calls") }
                <div class="fact" data-fact="failures">
                    <span class="label">{ "Failed steps" }</span>
                    <span class={classes!("value", (stats.failed_steps > 0).then_some("bad"))}>
                        if let Some(line) = first_failure {
                            <a href={ctx.line_href(line)} title="First failure (n walks them)">{ fmt::count(stats.failed_steps) }</a>
                        } else { { "0" } }
                    </span>
                </div>
                { fact("Compactions", fmt::count(stats.compactions), "compactions") }
                if let Some(f) = &in_folder {
                    <div class="fact wide" data-fact="runs"><span class="label">{ if f.run.is_some() { "Runs it spawned" } else { "Subagent runs" } }</span>{ super::runs::runs_fact(f, &red) }</div>
                }
                { fact("Peak context", tokens(stats.peak_context_tokens), "peak") }
                { fact("Output tokens", tokens(stats.output_tokens), "output") }
            </div>
            { skipped(ctx) }
            { super::unknown::brief(ctx, &unknown) }
            if !p.partial {
                <details class="all-facts">
                    <summary>{ "All facts (ccscope stats)" }</summary>
                    <super::summary::Summary doc={Shared(doc.clone())} />
                </details>
            }
        </section>
    }
}

/// The first few malformed lines, each a link to where it was.
fn skipped(ctx: &Ctx) -> Html {
    let ix = ctx.ix();
    let n = u64::from(ix.malformed_lines);
    if n == 0 {
        return html! {};
    }
    html! {
        <p class="notice warn small" data-testid="skipped-brief">
            { format!("{} could not be read and {} skipped: ", fmt::plural(n, "line", "lines"), fmt::agree(n, "was", "were")) }
            { for ix.malformed().take(5).map(|(row, why)| html! {
                <a href={ctx.line_href(row.line_no)}>{ format!("line {} ({}) ", row.line_no, why.describe()) }</a>
            }) }
        </p>
    }
}
