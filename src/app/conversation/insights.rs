//! The insights panel of a conversation: the context chart, the timeline,
//! and the statistics — per tool, failures by signal, per model with an
//! estimated cost, time, subagent runs. Computed when the person opens it
//! (`model::report`), from the list already built; every row links to the
//! list filtered to what it counts.

use std::rc::Rc;

use yew::prelude::*;

use super::chart::ContextChart;
use super::files::FilesChanged;
use super::history::FileHistory;
use super::tasks::TaskHistory;
use super::plans::PlanFiles;
use super::unknown::NotUnderstood;
use crate::state::chart::COLUMNS;
use super::timeline::Timeline;
use crate::app::ctx::Ctx;
use crate::app::shared::Shared;
use crate::fmt;
use crate::folder::totals::with_runs;
use crate::model::prices::PRICES_TAKEN;
use crate::model::report::{ModelStats, Report};
use crate::model::items::Filter;
use crate::state::insights::Chart;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub ctx: Shared<Ctx>,
    /// Items the filter lets through.
    pub visible: Shared<Vec<u32>>,
    pub filter: Filter,
    pub on_goto: Callback<u32>,
    pub on_filter: Callback<Filter>,
}

fn ms(v: Option<i64>) -> String {
    fmt::or_dash(v, fmt::duration_ms)
}

fn tok(v: Option<u64>) -> String {
    fmt::or_dash(v, fmt::count)
}

fn model_row(m: &ModelStats) -> Html {
    html! {
        <tr data-testid="model-row" data-model={m.model.clone().unwrap_or_default()} data-turns={m.api_turns.to_string()}
            data-output={m.output_tokens.map(|v| v.to_string())} data-cost={m.cost_usd.map(|v| v.to_string())}>
            <td><code>{ m.model.clone().unwrap_or_else(|| "(no model named)".into()) }</code></td>
            <td class="num">{ fmt::count(m.api_turns) }</td>
            <td class="num">{ tok(m.input_tokens) }</td>
            <td class="num" title={m.cache_write_1h_tokens.filter(|&n| n > 0).map(|n| format!("{} of them with the 1-hour lifetime", fmt::count(n)))}>{ tok(m.cache_creation_tokens) }</td>
            <td class="num">{ tok(m.cache_read_tokens) }</td>
            <td class="num" data-testid="model-output">{ tok(m.output_tokens) }</td>
            <td class="num" data-testid="model-cost">{ m.cost_usd.map_or("no price".into(), fmt::usd) }</td>
        </tr>
    }
}

#[function_component(Insights)]
pub fn insights(p: &Props) -> Html {
    let ctx = &p.ctx;
    let report = use_memo(Shared(ctx.view.clone()), {
        let ctx = ctx.clone();
        move |_| Rc::new(Report::compute(ctx.ix(), &ctx.view, &ctx.doc.stats))
    });
    let chart = use_memo((Shared(ctx.view.clone()), p.visible.clone()), {
        let ctx = ctx.clone();
        move |(_, visible)| Shared::new(Chart::build(ctx.ix(), &ctx.view, visible, COLUMNS))
    });
    let r: &Report = &report;
    let ix = ctx.ix();
    let show = |f: Filter| {
        let on_filter = p.on_filter.clone();
        Callback::from(move |_: MouseEvent| on_filter.emit(f.clone()))
    };
    let base = Filter { show_bookkeeping: p.filter.show_bookkeeping, ..Filter::default() };
    let tool_filter = |name: &str, failures_only: bool| Filter { tool: ix.strings.get(name), failures_only, ..base.clone() };
    let f = &r.failures;
    let total_tokens = |m: &ModelStats| [m.input_tokens, m.cache_creation_tokens, m.cache_read_tokens, m.output_tokens];
    let sum = |k: usize| r.models.iter().filter_map(|m| total_tokens(m)[k]).reduce(|a, b| a + b);
    let in_folder = use_context::<super::in_folder::InFolder>();
    let runs = in_folder.as_ref().and_then(|f| f.runs()).filter(|r| !r.is_empty());
    let all_cost = runs.as_ref().and_then(|runs| with_runs(r.cost_usd, runs.iter().map(|l| l.run.cost_usd)));
    html! {
        <section class="insights" data-testid="insights" aria-label="Insights">
            <div class="card">
                <ContextChart ctx={ctx.clone()} chart={(*chart).clone()} narrowed={p.filter.narrows()} on_goto={p.on_goto.clone()} />
                <Timeline ctx={ctx.clone()} chart={(*chart).clone()} on_goto={p.on_goto.clone()} />
            </div>
            <div class="insight-grid">
                <div class="card">
                    <h3>{ "Tools" }</h3>
                    if r.tools.is_empty() { <p class="muted">{ "No tool was called." }</p> } else {
                    <div class="table-wrap"><table class="figures" data-testid="tool-stats">
                        <thead><tr><th>{ "Tool" }</th><th class="num">{ "Calls" }</th><th class="num">{ "Failed" }</th><th class="num">{ "Rate" }</th>
                            <th class="num">{ "p50" }</th><th class="num">{ "p95" }</th><th class="num">{ "Total" }</th></tr></thead>
                        <tbody>
                        { for r.tools.iter().map(|t| html! {
                            <tr data-testid="tool-row" data-tool={t.name.clone()} data-calls={t.calls.to_string()} data-failures={t.failures.to_string()}
                                data-p50={t.p50_ms.map(|v| v.to_string())} data-p95={t.p95_ms.map(|v| v.to_string())}>
                                <td><code>{ t.name.clone() }</code></td>
                                <td class="num"><button class="link" data-testid="tool-calls" onclick={show(tool_filter(&t.name, false))}
                                    title={format!("Show the turns that call {}", t.name)}>{ fmt::count(t.calls) }</button></td>
                                <td class="num">if t.failures > 0 {
                                    <button class="link fail-text" data-testid="tool-failures" onclick={show(tool_filter(&t.name, true))}
                                        title={format!("Show the failed {} calls ({} errors, {} denials)", t.name, t.errors, t.denials)}>{ fmt::count(t.failures) }</button>
                                } else { { "0" } }</td>
                                <td class="num">{ fmt::percent(t.failures, t.calls).unwrap_or_default() }</td>
                                <td class="num">{ ms(t.p50_ms) }</td>
                                <td class="num">{ ms(t.p95_ms) }</td>
                                <td class="num">{ ms(t.total_ms) }</td>
                            </tr>
                        }) }
                        </tbody>
                    </table></div>
                    <p class="muted small">{ "Durations run from the call's record to its result's; p50/p95 are nearest-rank over the calls with both times." }</p>
                    }
                </div>
                <div class="card">
                    <h3>{ "Failures by signal" }</h3>
                    <dl class="stats small-stats" data-testid="failure-signals">
                        { for [("Tool errors", f.tool_errors), ("API errors", f.api_errors), ("System errors", f.system_errors), ("Denials", f.denials)].into_iter().map(|(label, n)| html! {
                            <div class="stat"><dt>{ label }</dt><dd>{ fmt::count(n) }</dd></div>
                        }) }
                    </dl>
                    <button class="link" onclick={show(Filter { failures_only: true, ..base.clone() })}>{ "Show every failed step in the list" }</button>
                    <h3 class="spaced">{ "Time" }</h3>
                    <dl class="stats small-stats">
                        <div class="stat"><dt>{ "Active" }</dt><dd data-testid="insight-active">{ r.active_seconds.map_or("— (no timestamps)".into(), fmt::duration_secs) }</dd></div>
                        <div class="stat"><dt>{ "Wall" }</dt><dd>{ r.wall_seconds.map_or("— (no timestamps)".into(), fmt::duration_secs) }</dd></div>
                    </dl>
                    if !r.idle_gaps.is_empty() {
                        <ul class="gaps small" data-testid="idle-gaps">
                            { for view_gaps(ctx, p) }
                        </ul>
                    }
                </div>
            </div>
            <div class="card">
                <h3>{ "Models and tokens" }</h3>
                if r.models.is_empty() { <p class="muted">{ "No API turn." }</p> } else {
                <div class="table-wrap"><table class="figures" data-testid="model-stats">
                    <thead><tr><th>{ "Model" }</th><th class="num">{ "API turns" }</th><th class="num">{ "Input" }</th><th class="num">{ "Cache write" }</th>
                        <th class="num">{ "Cache read" }</th><th class="num">{ "Output" }</th><th class="num">{ "Est. cost" }</th></tr></thead>
                    <tbody>{ for r.models.iter().map(model_row) }</tbody>
                    <tfoot><tr><th>{ "Total" }</th><td class="num">{ fmt::count(r.api_turns) }</td><td class="num">{ tok(sum(0)) }</td><td class="num">{ tok(sum(1)) }</td>
                        <td class="num">{ tok(sum(2)) }</td><td class="num">{ tok(sum(3)) }</td>
                        <td class="num" data-testid="total-cost" data-cost={r.cost_usd.map(|v| v.to_string())}>{ r.cost_usd.map_or("no price".into(), fmt::usd) }</td></tr></tfoot>
                </table></div>
                <p class="muted small" data-testid="cost-note">{ format!("Estimated API-equivalent cost at Anthropic's list prices taken {PRICES_TAKEN}: \
                    each cache write at its lifetime's rate (5 minutes or 1 hour), web searches at $10 per 1,000; \
                    a subscription is billed differently. Output tokens come from each message's last record.") }
                    if r.web_search_requests > 0 { { format!(" {} included.", fmt::plural(r.web_search_requests, "web search", "web searches")) } }
                    if !r.unpriced_models.is_empty() { { format!(" No price for: {}.", r.unpriced_models.join(", ")) } }</p>
                if r.fast_turns > 0 {
                    <p class="notice warn small" data-testid="fast-turns">{ format!("{} ran in fast mode: priced here at standard rates, \
                        while fast mode costs a multiple of them (by model; see Anthropic's pricing page). The estimate is low by that premium.",
                        fmt::plural(r.fast_turns, "API turn", "API turns")) }</p>
                }
                }
            </div>
            <FilesChanged ctx={ctx.clone()} on_goto={p.on_goto.clone()} />
            <FileHistory ctx={ctx.clone()} on_goto={p.on_goto.clone()} />
            <TaskHistory ctx={ctx.clone()} on_goto={p.on_goto.clone()} />
            <PlanFiles ctx={ctx.clone()} />
            <NotUnderstood ctx={ctx.clone()} on_goto={p.on_goto.clone()} />
            if let Some(runs) = &runs {
                <div class="card">
                    <h3>{ "Subagent runs" }</h3>
                    <div class="table-wrap"><table class="figures" data-testid="run-stats">
                        <thead><tr><th>{ "Run" }</th><th class="num">{ "API turns" }</th><th class="num">{ "Tool calls" }</th><th class="num">{ "Failed" }</th>
                            <th class="num">{ "Output" }</th><th class="num">{ "Tokens" }</th><th class="num">{ "Est. cost" }</th><th class="num">{ "Duration" }</th></tr></thead>
                        <tbody>{ for runs.iter().map(|l| html! {
                            <tr data-agent={l.run.agent_id.clone()} data-cost={l.run.cost_usd.map(|v| v.to_string())}>
                                <td><code>{ l.run.meta.as_ref().and_then(|m| m.agent_type.clone()).unwrap_or_else(|| format!("agent-{}", l.run.agent_id)) }</code></td>
                                <td class="num">{ fmt::count(l.run.assistant_messages) }</td><td class="num">{ fmt::count(l.run.tool_calls) }</td>
                                <td class="num">{ fmt::count(l.run.failed_steps) }</td>
                                <td class="num">{ if l.run.has_usage { fmt::count(l.run.output_tokens) } else { fmt::MISSING.into() } }</td>
                                <td class="num">{ tok(l.run.tokens) }</td><td class="num">{ l.run.cost_usd.map_or("no price".into(), fmt::usd) }</td>
                                <td class="num">{ ms(l.run.duration_ms()) }</td></tr>
                        }) }</tbody>
                    </table></div>
                    // Runs are real API spend: the conversation's figures above are its own file's.
                    <p class="small" data-testid="cost-with-runs" data-cost={all_cost.map(|v| v.to_string())}>
                        { format!("With its {}: {} estimated.", fmt::plural(runs.len() as u64, "run", "runs"), all_cost.map_or("no price".into(), fmt::usd)) }
                    </p>
                </div>
            }
        </section>
    }
}

/// The idle gaps, each a link to where work resumed.
fn view_gaps(ctx: &Ctx, p: &Props) -> Vec<Html> {
    let ix = ctx.ix();
    ctx.view
        .timeline
        .idle_gaps
        .iter()
        .map(|&(row, gap)| {
            let item = ctx.view.item_of_row.get(row as usize).copied().unwrap_or(0);
            let on_goto = p.on_goto.clone();
            let when = ix.rows[row as usize].timestamp_ms.map(fmt::utc_minute).unwrap_or_default();
            html! { <li><button class="link" onclick={Callback::from(move |_| on_goto.emit(item))}>
                { format!("{} away, back {when} (line {})", fmt::duration_ms(gap), ix.rows[row as usize].line_no) }</button></li> }
        })
        .collect()
}
