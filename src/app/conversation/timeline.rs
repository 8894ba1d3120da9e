//! The timeline: the conversation's active stretches on the clamped clock,
//! each as wide as the time worked in it, with the idle gaps between them
//! as fixed breaks labelled by their length; resumes, client switches and
//! compactions as ticks. Click a stretch (or a tick) to open its first line.

use yew::prelude::*;

use crate::app::ctx::Ctx;
use crate::app::shared::Shared;
use crate::fmt;
use crate::model::report::clamped_ms;
use crate::state::chart::{bars, x_of_row, Bar, TIMELINE_GAP, TIMELINE_W};
use crate::state::insights::{Chart, MarkKind};


#[derive(Properties, PartialEq)]
pub struct Props {
    pub ctx: Shared<Ctx>,
    pub chart: Shared<Chart>,
    pub on_goto: Callback<u32>,
}

#[function_component(Timeline)]
pub fn timeline(p: &Props) -> Html {
    let ctx = &p.ctx;
    let view = &ctx.view;
    let ix = ctx.ix();
    let stretches = &view.timeline.stretches;
    let clock = use_memo(Shared(view.clone()), { let ctx = ctx.clone(); move |_| clamped_ms(ctx.ix()) });
    if stretches.is_empty() {
        return html! { <p class="muted" data-testid="timeline">{ "No record has a timestamp: there is no timeline to draw." }</p> };
    }
    let active_ms: i64 = stretches.iter().map(|s| s.len_ms()).sum();
    let bars = bars(stretches);
    let x_of_row = |row: u32| x_of_row(stretches, &bars, row, clock.get(row as usize).copied().flatten());
    let goto = |item: u32| {
        let on_goto = p.on_goto.clone();
        Callback::from(move |_: MouseEvent| on_goto.emit(item))
    };
    let item_of = |row: u32| view.item_of_row.get(row as usize).copied().unwrap_or(0);
    let line = |row: u32| ix.rows[row as usize].line_no;
    html! {
        <figure class="timeline" data-testid="timeline" data-stretches={stretches.len().to_string()}>
            <figcaption class="chart-head"><span class="chart-title">{ "Timeline" }</span>
                <span class="muted small">{ format!("{} active in {}; breaks are gaps over the idle threshold",
                    fmt::duration_ms(active_ms), fmt::plural(stretches.len() as u64, "stretch", "stretches")) }</span></figcaption>
            <svg viewBox={format!("0 0 {TIMELINE_W} 40")} preserveAspectRatio="none" class="timeline-svg" role="group" aria-label="Active stretches">
                { for bars.iter().enumerate().map(|(k, &Bar { x, w })| {
                    let s = &stretches[k];
                    let title = format!("{} → {} · {} · lines {}–{}", fmt::utc_minute(s.start_ms), fmt::utc_minute(s.end_ms),
                        fmt::duration_ms(s.len_ms()), line(s.first_row), line(s.last_row));
                    html! {
                        <g class="stretch" data-testid="stretch" onclick={goto(item_of(s.first_row))}>
                            <rect x={format!("{x:.1}")} y="10" width={format!("{w:.1}")} height="20" rx="3"><title>{ title }</title></rect>
                            if k + 1 < stretches.len() {
                                <text class="gap-label" x={format!("{:.1}", x + w + TIMELINE_GAP / 2.0)} y="24" text-anchor="middle">{ "⋯" }
                                    <title>{ format!("{} away", fmt::duration_ms(view.timeline.idle_gaps.get(k).map_or(0, |g| g.1))) }</title></text>
                            }
                        </g>
                    }
                }) }
                { for p.chart.marks.iter().filter(|m| !matches!(m.kind, MarkKind::Idle { .. })).filter_map(|m| {
                    let x = x_of_row(m.row)?;
                    let (class, what) = match m.kind { MarkKind::Compaction => ("tick cmp", "compaction"), _ => ("tick resume", "resume / client switch") };
                    Some(html! { <line class={class} x1={format!("{x:.1}")} x2={format!("{x:.1}")} y1="4" y2="36" onclick={goto(m.item)}>
                        <title>{ format!("{what} · line {}", line(m.row)) }</title></line> })
                }) }
            </svg>
        </figure>
    }
}
