//! The clock of a transcript: clamped to a running maximum (file order is the
//! truth; timestamps run backwards now and then), active vs wall time.

use crate::index::Index;

/// Time facts of one file. All durations in milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Timeline {
    /// Records with a parseable timestamp.
    pub timestamped: u64,
    /// Timestamped records earlier than the previous timestamped record.
    pub backward_steps: u64,
    pub first_ms: Option<i64>,
    /// The running maximum at the end: the latest time seen.
    pub last_ms: Option<i64>,
    /// Sum of the gaps between consecutive clamped timestamps that are at
    /// most the idle threshold.
    pub active_ms: i64,
    /// Gaps longer than the idle threshold: `(row index, gap_ms)`.
    pub idle_gaps: Vec<(u32, i64)>,
}

impl Timeline {
    /// Last (clamped) minus first; 0 without timestamps.
    pub fn wall_ms(&self) -> i64 {
        match (self.first_ms, self.last_ms) {
            (Some(a), Some(b)) => b - a,
            _ => 0,
        }
    }
}

/// Walks the rows in file order. `idle_gap_ms`: a gap longer than this is
/// idle (the person was away), shorter or equal counts as active.
pub fn timeline(ix: &Index, idle_gap_ms: i64) -> Timeline {
    let mut t = Timeline::default();
    let mut prev_raw: Option<i64> = None;
    for (i, row) in ix.rows.iter().enumerate() {
        let Some(ts) = row.timestamp_ms else { continue };
        t.timestamped += 1;
        if prev_raw.is_some_and(|p| ts < p) {
            t.backward_steps += 1;
        }
        prev_raw = Some(ts);
        match t.last_ms {
            None => {
                t.first_ms = Some(ts);
                t.last_ms = Some(ts);
            }
            Some(clamped) if ts > clamped => {
                let gap = ts - clamped;
                if gap <= idle_gap_ms {
                    t.active_ms += gap;
                } else {
                    t.idle_gaps.push((i as u32, gap));
                }
                t.last_ms = Some(ts);
            }
            Some(_) => {}
        }
    }
    t
}
