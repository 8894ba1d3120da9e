//! What the insights panel draws, computed without the DOM: the context
//! chart's columns and markers, the timeline's bars. The app turns these
//! into SVG; every mark carries the list item it jumps to.
//!
//! The chart's x axis is the API turn (file order). With more turns than
//! pixel columns, turns are folded into columns (each column the largest
//! context and output of its turns), so a 10 000-turn file draws at most
//! [`Chart::build`]'s `columns` shapes.

use crate::index::Index;
use crate::model::report::{compaction_rows, turn_model};
use crate::model::SYNTHETIC_MODEL;
use crate::model::items::{ItemKind, Items};

/// A run of consecutive API turns drawn as one column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Column {
    /// Turns `first_turn..=last_turn` (indices into `view.turns`).
    pub first_turn: u32,
    pub last_turn: u32,
    /// The largest context (all three input counters) over its turns;
    /// `None` when none of them recorded `usage`.
    pub context_tokens: Option<u64>,
    pub output_tokens: Option<u64>,
    /// One of its turns holds a failed step.
    pub failed: bool,
    /// One of its turns passes the list's filter.
    pub selected: bool,
    /// The list item of its first turn.
    pub item: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MarkKind {
    /// A compaction boundary (`row` holds its metadata, if any).
    Compaction,
    /// A gap over the idle threshold.
    Idle { gap_ms: i64 },
    /// A new session id or client.
    Resume,
}

/// A mark between turns: `before_turn` turns precede it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    pub kind: MarkKind,
    pub before_turn: u32,
    pub row: u32,
    pub item: u32,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Chart {
    pub turns: u32,
    pub columns: Vec<Column>,
    pub marks: Vec<Mark>,
    /// The y axis' top: the largest context or output drawn.
    pub max_tokens: u64,
}

impl Chart {
    /// The chart of `view` at most `columns` wide; `visible` are the item
    /// ids the filter lets through (ascending).
    pub fn build(ix: &Index, view: &Items, visible: &[u32], columns: usize) -> Chart {
        let n = view.turns.len();
        let per = n.div_ceil(columns.max(1)).max(1);
        let item_of_turn = |t: usize| view.item_of_row[view.turns[t].rows[0] as usize];
        // A failed API call (`<synthetic>`) records zeros: no context was sent back.
        let synthetic = ix.strings.get(SYNTHETIC_MODEL).unwrap_or(crate::index::Sym(u32::MAX));
        let mut out = Vec::with_capacity(n.div_ceil(per));
        for start in (0..n).step_by(per) {
            let end = (start + per).min(n);
            let mut c = Column { first_turn: start as u32, last_turn: (end - 1) as u32, context_tokens: None, output_tokens: None, failed: false, selected: false, item: item_of_turn(start) };
            for t in start..end {
                let turn = &view.turns[t];
                if turn.has_usage && turn_model(ix, turn) != synthetic {
                    c.context_tokens = c.context_tokens.max(Some(turn.context_tokens));
                    c.output_tokens = c.output_tokens.max(Some(turn.output_tokens));
                }
                let item = item_of_turn(t);
                if let Some(it) = view.items.get(item as usize) {
                    c.failed |= it.failed && matches!(it.kind, ItemKind::Turn(_));
                }
                c.selected |= visible.binary_search(&item).is_ok();
            }
            out.push(c);
        }
        let first_rows: Vec<u32> = view.turns.iter().map(|t| t.rows[0]).collect();
        let before = |row: u32| first_rows.partition_point(|&r| r < row) as u32;
        let mut marks: Vec<Mark> = compaction_rows(ix).into_iter().map(|row| Mark { kind: MarkKind::Compaction, before_turn: before(row), row, item: view.item_of_row[row as usize] }).collect();
        for (id, item) in view.items.iter().enumerate() {
            let kind = match item.kind {
                ItemKind::Idle { gap_ms } => MarkKind::Idle { gap_ms },
                ItemKind::Resume { .. } => MarkKind::Resume,
                _ => continue,
            };
            marks.push(Mark { kind, before_turn: before(item.row), row: item.row, item: id as u32 });
        }
        crate::sort::by_key(&mut marks, |m| (m.row, m.before_turn));
        let max_tokens = out.iter().filter_map(|c| c.context_tokens.max(c.output_tokens)).max().unwrap_or(0);
        Chart { turns: n as u32, columns: out, marks, max_tokens }
    }

    /// The column holding turn `t`.
    pub fn column_of(&self, t: u32) -> Option<usize> {
        let k = self.columns.partition_point(|c| c.last_turn < t);
        (k < self.columns.len()).then_some(k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::Indexer;
    use crate::model::items::Filter;

    fn turn(id: &str, ts: &str, ctx: u32, out: u32) -> String {
        format!(
            r#"{{"type":"assistant","timestamp":"{ts}","message":{{"id":"{id}","content":"x","usage":{{"input_tokens":1,"cache_read_input_tokens":{ctx},"cache_creation_input_tokens":0,"output_tokens":{out}}}}}}}"#
        ) + "\n"
    }

    #[test]
    fn columns_fold_turns_and_marks_sit_between_them() {
        let mut text = String::new();
        for k in 0..10 {
            text += &turn(&format!("m{k}"), &format!("2026-01-01T10:00:{k:02}Z"), 1000 * (k + 1), 10 + k);
            if k == 4 {
                text += r#"{"type":"system","subtype":"compact_boundary","timestamp":"2026-01-01T10:00:04Z","compactMetadata":{"trigger":"auto","preTokens":5000}}"#;
                text += "\n";
                text += &turn("late", "2026-01-01T12:00:00Z", 2000, 1);
            }
        }
        let ix = Indexer::index_bytes(text.as_bytes());
        let view = Items::build(&ix, 900);
        let all = Filter::default().apply(&ix, &view);
        let one_each = Chart::build(&ix, &view, &all, 100);
        assert_eq!((one_each.turns, one_each.columns.len()), (11, 11), "one column per turn when they fit");
        assert_eq!(one_each.max_tokens, 10_001);
        let kinds: Vec<(MarkKind, u32)> = one_each.marks.iter().map(|m| (m.kind.clone(), m.before_turn)).collect();
        // The boundary after the fifth turn, then the 2-hour gap before the
        // late turn (the clock then runs backwards: no second gap).
        assert_eq!(kinds, [(MarkKind::Compaction, 5), (MarkKind::Idle { gap_ms: 7_196_000 }, 5)]);
        let folded = Chart::build(&ix, &view, &all, 4);
        assert_eq!(folded.columns.len(), 4, "11 turns in 4 columns of 3");
        assert_eq!(folded.columns.iter().map(|c| c.last_turn - c.first_turn + 1).sum::<u32>(), 11, "every turn in one column");
        assert_eq!(folded.columns[0].context_tokens, Some(3001), "a column shows its largest context");
        assert_eq!(folded.column_of(10), Some(3));
        // A filter that keeps nothing selects no column.
        let none = Chart::build(&ix, &view, &[], 4);
        assert!(none.columns.iter().all(|c| !c.selected));
    }
}
