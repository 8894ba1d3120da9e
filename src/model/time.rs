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
    /// The active stretches between idle gaps, in file order: their
    /// lengths sum to `active_ms`.
    pub stretches: Vec<Stretch>,
}

/// A stretch of work: consecutive timestamped records with no gap over the
/// idle threshold between them. Times are on the clamped clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stretch {
    pub start_ms: i64,
    pub end_ms: i64,
    /// First and last timestamped rows of the stretch.
    pub first_row: u32,
    pub last_row: u32,
}

impl Stretch {
    pub fn len_ms(&self) -> i64 {
        self.end_ms - self.start_ms
    }
}

impl Timeline {
    /// Last (clamped) minus first; 0 without timestamps (contract v1's
    /// `wall_seconds`; for display see [`Timeline::measured`]).
    pub fn wall_ms(&self) -> i64 {
        self.measured().map_or(0, |(_, wall)| wall)
    }

    /// `(active_ms, wall_ms)`, or `None` when no record has a timestamp:
    /// then there is no time to show, not a time of 0.
    pub fn measured(&self) -> Option<(i64, i64)> {
        Some((self.active_ms, self.last_ms? - self.first_ms?))
    }
}


/// Walks the rows in file order. `idle_gap_secs`: a gap longer than this is
/// idle (the person was away), shorter or equal counts as active.
pub fn timeline(ix: &Index, idle_gap_secs: u64) -> Timeline {
    let idle_gap_ms = i64::try_from(idle_gap_secs).unwrap_or(i64::MAX / 1000).saturating_mul(1000);
    let mut t = Timeline::default();
    let mut prev_raw: Option<i64> = None;
    for (i, row) in ix.rows.iter().enumerate() {
        let Some(ts) = row.timestamp_ms else { continue };
        let i32 = i as u32;
        t.timestamped += 1;
        if prev_raw.is_some_and(|p| ts < p) {
            t.backward_steps += 1;
        }
        prev_raw = Some(ts);
        match t.last_ms {
            None => {
                t.first_ms = Some(ts);
                t.last_ms = Some(ts);
                t.stretches.push(Stretch { start_ms: ts, end_ms: ts, first_row: i32, last_row: i32 });
            }
            Some(clamped) if ts > clamped => {
                let gap = ts - clamped;
                if gap <= idle_gap_ms {
                    t.active_ms += gap;
                } else {
                    t.idle_gaps.push((i32, gap));
                    t.stretches.push(Stretch { start_ms: ts, end_ms: ts, first_row: i32, last_row: i32 });
                }
                t.last_ms = Some(ts);
            }
            Some(_) => {}
        }
        if let (Some(s), Some(now)) = (t.stretches.last_mut(), t.last_ms) {
            s.end_ms = now;
            s.last_row = i32;
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::Indexer;

    #[test]
    fn no_timestamps_is_no_time_not_zero() {
        let none = Indexer::index_bytes(b"{\"type\":\"user\"}\n");
        assert_eq!(timeline(&none, 900).measured(), None);
        let one = Indexer::index_bytes(b"{\"type\":\"user\",\"timestamp\":\"2026-01-01T00:00:00Z\"}\n");
        assert_eq!(timeline(&one, 900).measured(), Some((0, 0)), "one timestamp: a measured zero");
        let gap = Indexer::index_bytes(concat!(
            "{\"timestamp\":\"2026-01-01T00:00:00Z\"}\n",
            "{\"timestamp\":\"2026-01-01T00:10:00Z\"}\n",
            "{\"timestamp\":\"2026-01-01T00:05:00Z\"}\n",
            "{\"timestamp\":\"2026-01-01T02:10:00Z\"}\n",
        ).as_bytes());
        let t = timeline(&gap, 900);
        assert_eq!(t.measured(), Some((600_000, 7_800_000)), "the backward step is clamped; the 2 h gap is idle");
        assert_eq!((t.backward_steps, t.idle_gaps.len()), (1, 1));
        let spans: Vec<(i64, u32, u32)> = t.stretches.iter().map(|s| (s.len_ms(), s.first_row, s.last_row)).collect();
        assert_eq!(spans, [(600_000, 0, 2), (0, 3, 3)], "the backward record belongs to the first stretch");
        assert_eq!(t.stretches.iter().map(Stretch::len_ms).sum::<i64>(), t.active_ms);
    }
}
