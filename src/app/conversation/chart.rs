//! The context chart: per API turn (or per column of turns when they
//! outnumber the pixels), the context size as a line over an area and the
//! output tokens as ticks below; compactions, idle gaps and resumes as
//! vertical marks; failed turns as red ticks on top; the filter's selection
//! shaded. A few paths and at most [`COLUMNS`] positions, whatever the
//! length of the file. Hover or the arrow keys name a turn; click or Enter
//! opens it in the list.

use yew::prelude::*;

use crate::app::ctx::Ctx;
use crate::app::shared::Shared;
use crate::fmt;
use crate::state::chart::{describe, paths, x_before_turn, x_of, CTX_BOTTOM, CTX_TOP, H, OUT_BOTTOM, W, X0, X1};
use crate::state::insights::{Chart, MarkKind};

#[derive(Properties, PartialEq)]
pub struct Props {
    pub ctx: Shared<Ctx>,
    pub chart: Shared<Chart>,
    /// The filter narrows the list: its turns are shaded.
    pub narrowed: bool,
    pub on_goto: Callback<u32>,
}

#[function_component(ContextChart)]
pub fn context_chart(p: &Props) -> Html {
    let chart = &p.chart;
    let at = use_state(|| None::<usize>);
    let svg_ref = use_node_ref();
    let drawn = use_memo(p.chart.clone(), |c| paths(c));
    let [area, line, out, failed, selected] = &*drawn;
    let n = chart.columns.len();
    let col_at = {
        let svg_ref = svg_ref.clone();
        move |client_x: i32| -> Option<usize> {
            let el = svg_ref.cast::<web_sys::Element>()?;
            let r = el.get_bounding_client_rect();
            let x = (client_x as f64 - r.left()) / r.width().max(1.0) * W;
            (n > 0 && (X0..=X1).contains(&x)).then(|| (((x - X0) / (X1 - X0) * n as f64) as usize).min(n - 1))
        }
    };
    let onmousemove = {
        let (at, col_at) = (at.clone(), col_at.clone());
        Callback::from(move |e: MouseEvent| at.set(col_at(e.client_x())))
    };
    let onclick = {
        let (chart, on_goto, col_at) = (p.chart.clone(), p.on_goto.clone(), col_at.clone());
        Callback::from(move |e: MouseEvent| {
            if let Some(c) = col_at(e.client_x()) {
                on_goto.emit(chart.columns[c].item);
            }
        })
    };
    let onkeydown = {
        let (at, chart, on_goto) = (at.clone(), p.chart.clone(), p.on_goto.clone());
        Callback::from(move |e: KeyboardEvent| {
            let last = n.saturating_sub(1);
            let next = match (e.key().as_str(), *at) {
                ("ArrowRight", Some(c)) => Some((c + 1).min(last)),
                ("ArrowLeft", Some(c)) => Some(c.saturating_sub(1)),
                ("ArrowRight" | "ArrowLeft", None) | ("Home", _) => Some(0),
                ("End", _) => Some(last),
                ("Enter" | " ", Some(c)) => {
                    e.prevent_default();
                    on_goto.emit(chart.columns[c].item);
                    return;
                }
                _ => return,
            };
            e.prevent_default();
            if n > 0 {
                at.set(next);
            }
        })
    };
    let readout = match *at {
        Some(c) if c < n => describe(p.ctx.ix(), &p.ctx.view, chart, c),
        _ => format!(
            "{} API {} · largest context {} tokens · point at a turn, or use ←/→ and Enter",
            fmt::count(chart.turns as u64),
            fmt::agree(chart.turns as u64, "turn", "turns"),
            fmt::count(chart.max_tokens)
        ),
    };
    let cursor = at.filter(|&c| c < n).map(|c| x_of(chart, c));
    let compactions = chart.marks.iter().filter(|m| m.kind == MarkKind::Compaction).count();
    let ix = p.ctx.ix();
    let mark_title = |m: &crate::state::insights::Mark| -> String {
        let line = ix.rows[m.row as usize].line_no;
        match &m.kind {
            MarkKind::Compaction => {
                let meta = ix.compactions.iter().find(|c| c.row == m.row);
                format!("{} · line {line}", crate::model::items::compaction_words(ix, meta))
            }
            MarkKind::Idle { gap_ms } => format!("{} away · line {line}", fmt::duration_ms(*gap_ms)),
            MarkKind::Resume => format!("resumed (new session or client) · line {line}"),
        }
    };
    let max = chart.max_tokens;
    html! {
        <figure class="chart" data-testid="context-chart" data-turns={chart.turns.to_string()} data-columns={n.to_string()}
            data-compactions={compactions.to_string()} data-plot={format!("{X0} {X1} {W}")}>
            <figcaption class="chart-head">
                <span class="chart-title">{ "Context per API turn" }</span>
                <span class="legend"><i class="key ctx"></i>{ "context (input + cache write + cache read)" }<i class="key out"></i>{ "output" }
                    <i class="key cmp"></i>{ "compaction" }<i class="key idle"></i>{ "idle gap" }<i class="key fail"></i>{ "failed" }</span>
            </figcaption>
            <div class="chart-box" tabindex="0" role="group" aria-label="Context chart: arrow keys pick a turn, Enter opens it" {onkeydown}>
                <svg ref={svg_ref} viewBox={format!("0 0 {W} {H}")} preserveAspectRatio="none" class="chart-svg" aria-hidden="true"
                    {onmousemove} onmouseleave={{ let at = at.clone(); Callback::from(move |_| at.set(None)) }} {onclick}>
                    <line class="axis" x1={X0.to_string()} x2={X1.to_string()} y1={CTX_BOTTOM.to_string()} y2={CTX_BOTTOM.to_string()} />
                    <line class="grid" x1={X0.to_string()} x2={X1.to_string()} y1={CTX_TOP.to_string()} y2={CTX_TOP.to_string()} />
                    <text class="tick" x={(X0 - 6.0).to_string()} y={(CTX_TOP + 4.0).to_string()} text-anchor="end">{ fmt::tokens(max) }</text>
                    <text class="tick" x={(X0 - 6.0).to_string()} y={(CTX_BOTTOM + 4.0).to_string()} text-anchor="end">{ "0" }</text>
                    <text class="tick" x={(X0 - 6.0).to_string()} y={(OUT_BOTTOM).to_string()} text-anchor="end">{ "out" }</text>
                    if !selected.is_empty() && p.narrowed { <path class="sel" d={selected.clone()} /> }
                    <path class="ctx-area" d={area.clone()} />
                    <path class="ctx-line" d={line.clone()} />
                    <path class="out" d={out.clone()} />
                    <path class="fail" d={failed.clone()} data-testid="chart-failures" />
                    { for chart.marks.iter().map(|m| {
                        let x = x_before_turn(chart, m.before_turn);
                        let (class, testid) = match m.kind {
                            MarkKind::Compaction => ("mark cmp", "mark-compaction"),
                            MarkKind::Idle { .. } => ("mark idle", "mark-idle"),
                            MarkKind::Resume => ("mark resume", "mark-resume"),
                        };
                        html! { <line class={class} data-testid={testid} x1={format!("{x:.1}")} x2={format!("{x:.1}")} y1={CTX_TOP.to_string()} y2={OUT_BOTTOM.to_string()}><title>{ mark_title(m) }</title></line> }
                    }) }
                    if let Some(x) = cursor { <line class="cursor" x1={format!("{x:.1}")} x2={format!("{x:.1}")} y1={CTX_TOP.to_string()} y2={OUT_BOTTOM.to_string()} /> }
                </svg>
            </div>
            <div class="chart-readout small" aria-live="polite" data-testid="chart-readout">{ readout }</div>
            if !chart.marks.is_empty() {
                <ul class="marks small" aria-label="Marks on the chart">
                    { for chart.marks.iter().filter(|m| m.kind == MarkKind::Compaction).map(|m| {
                        let (on_goto, item) = (p.on_goto.clone(), m.item);
                        html! { <li><button class="link" data-testid="compaction-link" onclick={Callback::from(move |_| on_goto.emit(item))}>{ mark_title(m) }</button></li> }
                    }) }
                </ul>
            }
        </figure>
    }
}
