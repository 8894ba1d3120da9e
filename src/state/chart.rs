//! The insights' drawings as numbers, without the DOM: the context chart's
//! geometry (where a column or a mark sits, its SVG paths, what a column
//! says in words) and the timeline's bars. `app::conversation::{chart,
//! timeline}` turn them into SVG.

use std::fmt::Write;

use crate::fmt;
use crate::index::Index;
use crate::model::items::Items;
use crate::model::report::{turn_model, turn_tokens};
use crate::model::time::Stretch;
use crate::state::insights::Chart;

/// The most columns drawn (about one per pixel of a wide screen's chart).
pub const COLUMNS: usize = 720;

pub const W: f64 = 1000.0;
pub const X0: f64 = 56.0;
pub const X1: f64 = 992.0;
pub const CTX_TOP: f64 = 14.0;
pub const CTX_BOTTOM: f64 = 150.0;
pub const OUT_TOP: f64 = 162.0;
pub const OUT_BOTTOM: f64 = 204.0;
pub const H: f64 = 214.0;

pub fn x_of(chart: &Chart, col: usize) -> f64 {
    X0 + (col as f64 + 0.5) * (X1 - X0) / chart.columns.len().max(1) as f64
}

pub fn x_before_turn(chart: &Chart, turn: u32) -> f64 {
    X0 + turn as f64 / chart.turns.max(1) as f64 * (X1 - X0)
}

/// What a column says in words, for the readout and screen readers.
pub fn describe(ix: &Index, view: &Items, chart: &Chart, col: usize) -> String {
    let c = &chart.columns[col];
    let t0 = &view.turns[c.first_turn as usize];
    let line = ix.rows[t0.rows[0] as usize].line_no;
    let which = if c.first_turn == c.last_turn {
        let model = turn_model(ix, t0);
        let model = if model.is_some() { format!(" · {}", ix.str(model)) } else { String::new() };
        let tokens = match turn_tokens(ix, t0) {
            Some(_) => format!("context {} · output {}", fmt::count(t0.context_tokens), fmt::count(t0.output_tokens)),
            None => "no token counts recorded".to_string(),
        };
        format!("Turn {} of {} · line {line} · {tokens}{model}", c.first_turn + 1, fmt::count(chart.turns as u64))
    } else {
        let tokens = match (c.context_tokens, c.output_tokens) {
            (Some(cx), Some(o)) => format!("largest context {} · largest output {}", fmt::count(cx), fmt::count(o)),
            _ => "no token counts recorded".to_string(),
        };
        format!("Turns {}–{} of {} · from line {line} · {tokens}", c.first_turn + 1, c.last_turn + 1, fmt::count(chart.turns as u64))
    };
    if c.failed {
        format!("{which} · a step failed")
    } else {
        which
    }
}

/// The paths: context area and line, output ticks, failure ticks, selection.
pub fn paths(chart: &Chart) -> [String; 5] {
    let max = chart.max_tokens.max(1) as f64;
    let y_ctx = |v: u64| CTX_BOTTOM - v as f64 / max * (CTX_BOTTOM - CTX_TOP);
    let max_out = chart.columns.iter().filter_map(|c| c.output_tokens).max().unwrap_or(0).max(1) as f64;
    let cw = (X1 - X0) / chart.columns.len().max(1) as f64;
    let (mut area, mut line, mut out, mut failed, mut selected) = (String::new(), String::new(), String::new(), String::new(), String::new());
    let mut run: Vec<(f64, f64)> = Vec::new();
    let flush = |run: &mut Vec<(f64, f64)>, area: &mut String, line: &mut String| {
        if let (Some(first), Some(last)) = (run.first(), run.last()) {
            let _ = write!(area, "M{:.1},{CTX_BOTTOM}", first.0);
            for (k, (x, y)) in run.iter().enumerate() {
                let _ = write!(area, "L{x:.1},{y:.1}");
                let _ = write!(line, "{}{x:.1},{y:.1}", if k == 0 { "M" } else { "L" });
            }
            let _ = write!(area, "L{:.1},{CTX_BOTTOM}Z", last.0);
        }
        run.clear();
    };
    for (k, c) in chart.columns.iter().enumerate() {
        let x = x_of(chart, k);
        match c.context_tokens {
            Some(v) => run.push((x, y_ctx(v))),
            None => flush(&mut run, &mut area, &mut line),
        }
        if let Some(o) = c.output_tokens {
            let y = OUT_BOTTOM - o as f64 / max_out * (OUT_BOTTOM - OUT_TOP);
            let _ = write!(out, "M{x:.1},{OUT_BOTTOM}V{y:.1}");
        }
        if c.failed {
            let _ = write!(failed, "M{x:.1},{:.1}l3.5,6h-7z", CTX_TOP - 8.0);
        }
        if c.selected {
            let _ = write!(selected, "M{:.1},{CTX_TOP}h{:.2}V{OUT_BOTTOM}h{:.2}Z", x - cw / 2.0, cw, -cw);
        }
    }
    flush(&mut run, &mut area, &mut line);
    [area, line, out, failed, selected]
}

/// The timeline's width and the room a break between stretches takes.
pub const TIMELINE_W: f64 = 1000.0;
pub const TIMELINE_GAP: f64 = 26.0;
/// The narrowest a stretch is drawn (a stretch of one record has no length).
pub const MIN_BAR: f64 = 4.0;

/// A stretch's bar: where it starts, how wide it is (in [`TIMELINE_W`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bar {
    pub x: f64,
    pub w: f64,
}

/// The timeline's bars: each stretch as wide as the time worked in it (at
/// least [`MIN_BAR`]), breaks of [`TIMELINE_GAP`] between them; together
/// they fill the width.
pub fn bars(stretches: &[Stretch]) -> Vec<Bar> {
    let gaps = stretches.len().saturating_sub(1);
    let active_ms: i64 = stretches.iter().map(|s| s.len_ms()).sum();
    let room = (TIMELINE_W - gaps as f64 * TIMELINE_GAP - stretches.len() as f64 * MIN_BAR).max(0.0);
    let mut x = 0.0;
    stretches
        .iter()
        .map(|s| {
            let w = MIN_BAR + if active_ms > 0 { s.len_ms() as f64 / active_ms as f64 * room } else { room / stretches.len() as f64 };
            let bar = Bar { x, w };
            x += w + TIMELINE_GAP;
            bar
        })
        .collect()
}

/// Where row `row` (at clamped time `at_ms`) falls on the timeline: inside
/// its stretch, by its time.
pub fn x_of_row(stretches: &[Stretch], bars: &[Bar], row: u32, at_ms: Option<i64>) -> Option<f64> {
    let k = stretches.partition_point(|s| s.first_row <= row).checked_sub(1)?;
    let (b, s) = (bars.get(k)?, &stretches[k]);
    let t = at_ms?;
    Some(b.x + if s.len_ms() > 0 { (t - s.start_ms) as f64 / s.len_ms() as f64 * b.w } else { b.w / 2.0 })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::Indexer;
    use crate::model::items::Filter;
    use proptest::prelude::*;

    fn turns(n: usize) -> String {
        (0..n)
            .map(|k| format!(r#"{{"type":"assistant","timestamp":"2026-01-01T10:{:02}:{:02}Z","message":{{"id":"m{k}","content":"x","usage":{{"input_tokens":1,"cache_read_input_tokens":{},"output_tokens":{}}}}}}}"#, (k / 60) % 60, k % 60, 100 * (k % 7 + 1), k % 5) + "\n")
            .collect()
    }

    proptest! {
        /// Any number of turns, any width: at most `columns` columns, their
        /// x positions inside the plot and rising, marks inside it too, and
        /// the paths only ever move inside the drawing.
        #[test]
        fn chart_geometry_holds_for_any_turn_count(n in 0usize..1500, columns in 1usize..800) {
            let text = turns(n);
            let ix = Indexer::index_bytes(text.as_bytes());
            let items = Items::build(&ix, 900);
            let visible = Filter::default().apply(&ix, &items);
            let chart = Chart::build(&ix, &items, &visible, columns);
            prop_assert!(chart.columns.len() <= columns);
            let xs: Vec<f64> = (0..chart.columns.len()).map(|k| x_of(&chart, k)).collect();
            prop_assert!(xs.iter().all(|&x| (X0..=X1).contains(&x)));
            prop_assert!(xs.windows(2).all(|w| w[0] < w[1]));
            for t in 0..=chart.turns {
                prop_assert!((X0..=X1).contains(&x_before_turn(&chart, t)));
            }
            for p in paths(&chart) {
                for num in p.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-')).filter(|s| !s.is_empty()) {
                    let v: f64 = num.parse().unwrap();
                    prop_assert!((-W..=W).contains(&v), "{v} in {p}");
                }
            }
        }

        /// The bars fill the width: in order, never overlapping, the last
        /// one ending at its edge.
        #[test]
        fn timeline_bars_fill_the_width(lens in proptest::collection::vec(0i64..10_000_000, 1..40)) {
            let mut at = 0;
            let stretches: Vec<Stretch> = lens.iter().enumerate().map(|(k, &l)| {
                let s = Stretch { start_ms: at, end_ms: at + l, first_row: k as u32 * 2, last_row: k as u32 * 2 + 1 };
                at += l + 3_600_000;
                s
            }).collect();
            let b = bars(&stretches);
            prop_assert_eq!(b.len(), stretches.len());
            for w in b.windows(2) {
                prop_assert!((w[0].x + w[0].w + TIMELINE_GAP - w[1].x).abs() < 1e-6);
            }
            let end = b.last().map_or(0.0, |l| l.x + l.w);
            prop_assert!(b.iter().all(|x| x.w >= MIN_BAR - 1e-9));
            prop_assert!(end <= TIMELINE_W + 1e-6 && (end - TIMELINE_W).abs() < 1e-6 || b.len() as f64 * (MIN_BAR + TIMELINE_GAP) > TIMELINE_W);
            // A row at its stretch's start is drawn at the bar's start.
            prop_assert_eq!(x_of_row(&stretches, &b, stretches[0].first_row, Some(stretches[0].start_ms)), Some(0.0));
        }
    }

    #[test]
    fn a_column_says_what_it_shows() {
        let text = turns(3);
        let ix = Indexer::index_bytes(text.as_bytes());
        let items = Items::build(&ix, 900);
        let chart = Chart::build(&ix, &items, &[], 10);
        assert_eq!(describe(&ix, &items, &chart, 1), "Turn 2 of 3 · line 2 · context 201 · output 1");
        let folded = Chart::build(&ix, &items, &[], 2);
        assert_eq!(describe(&ix, &items, &folded, 0), "Turns 1–2 of 3 · from line 1 · largest context 201 · largest output 1");
    }
}
