//! The folder dashboard: over the conversations the list shows, active
//! time, API turns, tokens and estimated cost — by day (a calendar), by
//! project and by model — the tools that fail most, and the longest and the
//! most expensive conversations. Every figure narrows the list to the
//! conversations behind it (or opens the conversation).

use yew::prelude::*;

use crate::fmt;
use crate::folder::totals::with_runs;
use crate::model::prices::PRICES_TAKEN;
use crate::model::report::ModelStats;
use crate::state::dashboard::{calendar, Dashboard};
use crate::state::browser::ListUi;

use super::table::ListProps;

fn cost(v: Option<f64>) -> String {
    v.map_or("no price".into(), fmt::usd)
}

fn tokens(v: Option<u64>) -> String {
    fmt::or_dash(v, fmt::tokens)
}

/// A calendar cell's size, with its gap.
const CELL: f64 = 16.0;

const WEEKDAYS: [&str; 7] = ["Mon", "", "Wed", "", "Fri", "", "Sun"];

#[function_component(FolderDashboard)]
pub fn folder_dashboard(p: &ListProps) -> Html {
    let d = use_memo((p.folder.clone(), p.rows.clone()), |(f, rows)| Dashboard::build(f, rows));
    let folder = &p.folder;
    let t = &d.totals;
    let list = folder.list.clone();
    let narrow_to = |f: Box<dyn Fn(&mut ListUi)>| {
        let (on_list, list) = (p.on_list.clone(), list.clone());
        Callback::from(move |()| {
            let mut next = list.clone();
            f(&mut next);
            on_list.emit(next);
        })
    };
    let narrow = |f: Box<dyn Fn(&mut ListUi)>| narrow_to(f).reform(|_: MouseEvent| ());
    let open = |c: u32| {
        let on_open = p.on_open.clone();
        Callback::from(move |_: MouseEvent| on_open.emit(c))
    };
    let cells = calendar(&t.days);
    let weeks = cells.last().map_or(0, |c| c.week + 1);
    let project_index = |name: &str| folder.tree.projects.iter().position(|p| p.name == name).map(|k| k as u32);
    let red = crate::app::redact::use_redaction();
    let title_of = |c: u32| red.text(&folder.title(c));
    let total_tokens: Option<u64> = t.models.iter().filter_map(ModelStats::tokens).reduce(|a, b| a + b);
    html! {
        <section class="dashboard" data-testid="dashboard" aria-label="Dashboard"
            data-conversations={t.conversations.to_string()} data-turns={t.api_turns.to_string()} data-tool-calls={t.tool_calls.to_string()}
            data-active={format!("{:.3}", t.active_seconds)} data-cost={t.cost_usd.map(|c| c.to_string())}>
            <dl class="stats totals-line">
                <div class="stat"><dt>{ "Conversations" }</dt><dd>{ format!("{}", fmt::count(t.conversations)) }
                    if d.summed < p.rows.len() { <span class="muted small">{ format!(" of {} (reading)", fmt::count(p.rows.len() as u64)) }</span> }</dd></div>
                <div class="stat"><dt>{ "Active time" }</dt><dd>{ fmt::duration_secs(t.active_seconds) }</dd></div>
                <div class="stat"><dt>{ "API turns" }</dt><dd>{ fmt::count(t.api_turns) }</dd></div>
                <div class="stat"><dt>{ "Tokens" }</dt><dd>{ tokens(total_tokens) }</dd></div>
                <div class="stat"><dt>{ "Est. cost" }</dt><dd data-testid="dashboard-cost">{ cost(t.cost_usd) }</dd></div>
                // Runs are real API spend, beside the conversations' own figures (above).
                if t.runs.runs > 0 {
                    <div class="stat" data-testid="dashboard-runs" data-runs={t.runs.runs.to_string()} data-cost={t.runs.cost_usd.map(|c| c.to_string())}>
                        <dt>{ format!("Their {}", fmt::plural(t.runs.runs, "subagent run", "subagent runs")) }</dt>
                        <dd>{ format!("{} tokens · {}", tokens(t.runs.tokens), cost(t.runs.cost_usd)) }</dd>
                    </div>
                    <div class="stat"><dt>{ "Est. cost with runs" }</dt><dd data-testid="dashboard-cost-with-runs">{ cost(with_runs(t.cost_usd, [t.runs.cost_usd])) }</dd></div>
                }
            </dl>
            if t.duplicates.messages > 0 {
                <p class="small muted" data-testid="dashboard-duplicates" data-messages={t.duplicates.messages.to_string()}>
                    { format!("{} appear in more than one file (a resumed session's file copies the earlier messages): counted once; \
                        {} and {} tokens left out of the totals.", fmt::plural(t.duplicates.messages, "API message", "API messages"),
                        cost(t.duplicates.cost_usd), tokens(t.duplicates.tokens)) }
                </p>
            }
            if !cells.is_empty() {
                <div class="calendar-wrap">
                    <h3>{ "Activity by day (UTC)" }</h3>
                    <svg class="calendar" data-testid="calendar" width={(CELL * (weeks as f64 + 2.0)).to_string()} height={(CELL * 7.0).to_string()}
                        viewBox={format!("0 0 {} {}", CELL * (weeks as f64 + 2.0), CELL * 7.0)} role="group" aria-label="Activity by day">
                        { for WEEKDAYS.iter().enumerate().map(|(k, w)| html! { <text class="wd" x="0" y={format!("{:.1}", CELL * k as f64 + 10.0)}>{ *w }</text> }) }
                        { for cells.iter().map(|c| {
                            let date = fmt::utc_date(c.day_ms);
                            let title = match &c.day {
                                Some(day) => format!("{date}: {} active · {} · {} tokens · {}", fmt::duration_secs(day.active_seconds),
                                    fmt::plural(day.api_turns, "API turn", "API turns"), tokens(day.tokens), cost(day.cost_usd)),
                                None => format!("{date}: nothing"),
                            };
                            let day_ms = c.day_ms;
                            let (x, y) = (CELL * (c.week as f64 + 2.0), CELL * c.weekday as f64);
                            let active = c.day.is_some();
                            let pick = active.then(|| narrow_to(Box::new(move |l| { l.from_ms = Some(day_ms); l.to_ms = Some(day_ms + 86_400_000); })));
                            let onclick = pick.clone().map(|cb| cb.reform(|_: MouseEvent| ()));
                            let onkeydown = pick.map(|cb| Callback::from(move |e: KeyboardEvent| if e.key() == "Enter" || e.key() == " " {
                                e.prevent_default();
                                cb.emit(());
                            }));
                            html! {
                                <rect class={format!("day l{}", c.level)} x={format!("{x:.1}")} y={format!("{y:.1}")} width={(CELL - 3.0).to_string()} height={(CELL - 3.0).to_string()} rx="3"
                                    data-date={date} role={active.then_some("button")} tabindex={active.then_some("0")} aria-label={active.then(|| title.clone())} {onclick} {onkeydown}>
                                    <title>{ title }</title></rect>
                            }
                        }) }
                    </svg>
                </div>
            }
            <div class="dash-grid">
                <div>
                    <h3>{ "By project" }</h3>
                    <div class="table-wrap"><table class="figures" data-testid="by-project">
                        <thead><tr><th>{ "Project" }</th><th class="num">{ "Conv." }</th><th class="num">{ "Active" }</th><th class="num">{ "Turns" }</th><th class="num">{ "Tokens" }</th><th class="num">{ "Est. cost" }</th></tr></thead>
                        <tbody>{ for t.projects.iter().map(|pr| {
                            let k = project_index(&pr.project);
                            let label = red.text(&k.map_or_else(|| pr.project.clone(), |k| folder.project_dir(k)));
                            html! { <tr data-project={red.text(&pr.project)} data-turns={pr.api_turns.to_string()}>
                                <td class="clip"><button class="link" onclick={narrow(Box::new(move |l| l.project = k))} title={red.text(&pr.project)}>{ label }</button></td>
                                <td class="num">{ fmt::count(pr.conversations) }</td><td class="num">{ fmt::duration_secs(pr.active_seconds) }</td>
                                <td class="num">{ fmt::count(pr.api_turns) }</td><td class="num">{ tokens(pr.tokens) }</td><td class="num">{ cost(pr.cost_usd) }</td></tr> }
                        }) }</tbody>
                    </table></div>
                    <h3 class="spaced">{ "By model" }</h3>
                    <div class="table-wrap"><table class="figures" data-testid="by-model">
                        <thead><tr><th>{ "Model" }</th><th class="num">{ "Turns" }</th><th class="num">{ "Tokens" }</th><th class="num">{ "Est. cost" }</th></tr></thead>
                        <tbody>{ for t.models.iter().map(|m| {
                            let name = m.model.clone();
                            html! { <tr data-model={red.text(m.model.as_deref().unwrap_or_default())}>
                                <td><button class="link" onclick={narrow(Box::new(move |l| l.model = name.clone()))}><code>{ m.model.as_deref().map_or_else(|| "(no model named)".into(), |m| red.text(m)) }</code></button></td>
                                <td class="num">{ fmt::count(m.api_turns) }</td><td class="num">{ tokens(m.tokens()) }</td><td class="num">{ cost(m.cost_usd) }</td></tr> }
                        }) }</tbody>
                    </table></div>
                    <p class="muted small">{ format!("Estimated at Anthropic's list prices taken {PRICES_TAKEN}.") }
                        if !t.unpriced_models.is_empty() { { format!(" No price for: {}.", red.text(&t.unpriced_models.join(", "))) } }</p>
                </div>
                <div>
                    <h3>{ "Tools that fail most" }</h3>
                    <div class="table-wrap"><table class="figures" data-testid="failing-tools">
                        <thead><tr><th>{ "Tool" }</th><th class="num">{ "Failed" }</th><th class="num">{ "Calls" }</th><th class="num">{ "Rate" }</th><th class="num">{ "In conv." }</th></tr></thead>
                        <tbody>{ for t.tools.iter().filter(|x| x.failures > 0).take(8).map(|x| {
                            let name = x.name.clone();
                            html! { <tr data-tool={red.text(&x.name)} data-failing-conversations={x.failing_conversations.to_string()}>
                                <td><button class="link" onclick={narrow(Box::new(move |l| l.tool_failing = Some(name.clone())))}
                                    title="Show the conversations where it failed"><code>{ red.text(&x.name) }</code></button></td>
                                <td class="num">{ fmt::count(x.failures) }</td><td class="num">{ fmt::count(x.calls) }</td>
                                <td class="num">{ fmt::percent(x.failures, x.calls).unwrap_or_default() }</td><td class="num">{ fmt::count(x.failing_conversations) }</td></tr> }
                        }) }</tbody>
                    </table></div>
                    <h3 class="spaced">{ "Longest (active time)" }</h3>
                    <ol class="top-list" data-testid="longest">{ for d.longest.iter().map(|&c| html! {
                        <li><button class="link" onclick={open(c)}>{ title_of(c) }</button>
                            <span class="muted small">{ format!(" {}", fmt::duration_secs(folder.facts(c).and_then(|f| f.report.active_seconds).unwrap_or(0.0))) }</span></li>
                    }) }</ol>
                    <h3 class="spaced">{ "Most expensive (estimated)" }</h3>
                    <ol class="top-list" data-testid="priciest">{ for d.priciest.iter().map(|&c| html! {
                        <li><button class="link" onclick={open(c)}>{ title_of(c) }</button>
                            <span class="muted small">{ format!(" {}", cost(folder.facts(c).and_then(|f| f.report.cost_usd))) }</span></li>
                    }) }</ol>
                    <h3 class="spaced">{ "Files changed most" }</h3>
                    if t.files.is_empty() { <p class="muted small">{ "No edit call changed a file." }</p> } else {
                    <div class="table-wrap"><table class="figures" data-testid="files-changed-most">
                        <thead><tr><th>{ "File" }</th><th class="num">{ "Changes" }</th><th class="num">{ "Lines" }</th><th class="num">{ "In conv." }</th></tr></thead>
                        <tbody>{ for t.files.iter().take(10).map(|x| html! {
                            <tr data-path={red.text(&x.path)} data-changes={x.changes.to_string()} data-conversations={x.conversations.to_string()}>
                                <td class="clip" title={red.text(&x.project)}><code>{ red.text(&x.path) }</code></td>
                                <td class="num">{ fmt::count(x.changes) }{ if x.failed > 0 { format!(" ({} failed)", x.failed) } else { String::new() } }</td>
                                <td class="num">{ format!("+{} −{}", fmt::count(x.added), x.removed.map_or("?".into(), fmt::count)) }</td>
                                <td class="num">{ fmt::count(x.conversations) }</td></tr>
                        }) }</tbody>
                    </table></div>
                    <p class="muted small">{ format!("By Edit, MultiEdit, Write and NotebookEdit calls; {} in all.", fmt::plural(t.files.len() as u64, "file", "files")) }</p>
                    }
                    if !t.unknown.is_empty() {
                        <h3 class="spaced">{ "Not understood" }</h3>
                        <ul class="top-list" data-testid="folder-unknown">{ for t.unknown.iter().zip(&d.unknown_first).map(|(u, first)| {
                            let name = u.name.as_deref().map_or_else(|| "of a type not known".to_string(), |n| red.text(n));
                            html! { <li data-testid="folder-unknown-kind" data-name={u.name.as_deref().map(|n| red.text(n))} data-count={u.count.to_string()} data-conversations={u.conversations.to_string()}>
                                { format!("{} ", u.level.words()) }<code>{ name }</code>{ format!(" ×{} in {}", fmt::count(u.count), fmt::plural(u.conversations, "conversation", "conversations")) }
                                if !u.versions.is_empty() { <span class="muted small">{ format!(" · v{}", u.versions.join(", v")) }</span> }
                                if let Some(c) = *first { { " · " }<button class="link" onclick={open(c)}>{ "open the first" }</button> }
                            </li> }
                        }) }</ul>
                        <p class="muted small">{ "Kinds of record this ccscope has no handling for, shown as plain rows; each conversation's insights list its own." }</p>
                    }
                </div>
            </div>
        </section>
    }
}
