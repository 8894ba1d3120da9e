//! Which byte ranges to read for a set of rows' bodies: rows close together
//! in the file share one read (each `Blob.slice` of a picked file is a round
//! trip through the browser), rows inside the bytes already held (the file's
//! head) need none.

use std::ops::Range;

use crate::index::Index;

/// Rows closer than this in the file are read together.
pub const MERGE_GAP_BYTES: u64 = 64 << 10;
/// One read covers at most this many bytes (unless a single line is longer).
pub const MERGE_MAX_BYTES: u64 = 4 << 20;

/// One read: the bytes `[start, end)` of the file hold the lines of
/// `rows[k]` for every `k` in `rows`. `from_head`: those bytes are already
/// held (the file's first chunk); nothing needs reading.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Read {
    pub start: u64,
    pub end: u64,
    pub rows: Range<usize>,
    pub from_head: bool,
}

/// Plans the reads for `rows` (row indices into `ix`, in file order; the
/// caller sorts them by offset). `head_len` is how many leading bytes of the
/// file are held. Every row is covered by exactly one read, in order.
pub fn plan(ix: &Index, rows: &[u32], head_len: u64) -> Vec<Read> {
    let span = |k: usize| {
        let r = &ix.rows[rows[k] as usize];
        (r.offset, r.end_offset())
    };
    plan_spans(rows.len(), span, head_len)
}

/// [`plan`] over any spans `span(k) = (start, end)`, ascending by start.
pub fn plan_spans(n: usize, span: impl Fn(usize) -> (u64, u64), head_len: u64) -> Vec<Read> {
    let mut out = Vec::new();
    let mut from = 0;
    for k in 1..=n {
        let split = k == n || {
            let (start, _) = span(from);
            let prev_end = span(k - 1).1;
            let (next_start, next_end) = span(k);
            let in_head = |end: u64| end <= head_len;
            next_start > prev_end + MERGE_GAP_BYTES || next_end - start > MERGE_MAX_BYTES || in_head(prev_end) != in_head(next_end)
        };
        if split {
            let (start, end) = (span(from).0, span(k - 1).1);
            out.push(Read { start, end, rows: from..k, from_head: end <= head_len });
            from = k;
        }
    }
    out
}

/// The line of a span inside the bytes of its read, if they hold it.
pub fn line_in(read_start: u64, bytes: &[u8], span: (u64, u64)) -> Option<&[u8]> {
    let from = span.0.checked_sub(read_start)? as usize;
    let to = span.1.checked_sub(read_start)? as usize;
    bytes.get(from..to)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn near_rows_share_a_read_and_head_rows_need_none() {
        let spans = [(0, 10), (11, 20), (100, 200), (1_000_000, 1_000_100), (1_000_200, 1_000_300)];
        let reads = plan_spans(spans.len(), |k| spans[k], 150);
        assert_eq!(
            reads,
            vec![
                Read { start: 0, end: 20, rows: 0..2, from_head: true },
                Read { start: 100, end: 200, rows: 2..3, from_head: false },
                Read { start: 1_000_000, end: 1_000_300, rows: 3..5, from_head: false },
            ]
        );
        assert_eq!(line_in(100, &[7u8; 100], (150, 160)).map(<[u8]>::len), Some(10));
        assert_eq!(line_in(100, &[7u8; 100], (150, 260)), None);
        assert!(plan_spans(0, |_| (0, 0), 0).is_empty());
    }

    #[test]
    fn a_line_longer_than_the_limit_is_one_read() {
        let spans = [(0, 10), (20, 20 + MERGE_MAX_BYTES + 5), (MERGE_MAX_BYTES + 30, MERGE_MAX_BYTES + 40)];
        let reads = plan_spans(3, |k| spans[k], 0);
        assert_eq!(reads.iter().map(|r| r.rows.clone()).collect::<Vec<_>>(), vec![0..1, 1..2, 2..3]);
    }

    proptest! {
        /// Any lines: each row in exactly one read, reads in order, each
        /// within the limit unless it is one row, and `from_head` exactly
        /// when the read lies inside the head.
        #[test]
        fn every_row_in_one_read(lens in proptest::collection::vec((0u64..200_000, 1u64..3_000_000), 0..40), head in 0u64..20_000_000) {
            let mut spans = Vec::new();
            let mut at = 0;
            for (gap, len) in lens {
                spans.push((at + gap, at + gap + len));
                at += gap + len + 1;
            }
            let reads = plan_spans(spans.len(), |k| spans[k], head);
            let covered: Vec<usize> = reads.iter().flat_map(|r| r.rows.clone()).collect();
            prop_assert_eq!(covered, (0..spans.len()).collect::<Vec<_>>());
            for r in &reads {
                prop_assert_eq!(r.start, spans[r.rows.start].0);
                prop_assert_eq!(r.end, spans[r.rows.end - 1].1);
                prop_assert!(r.rows.len() == 1 || r.end - r.start <= MERGE_MAX_BYTES);
                prop_assert_eq!(r.from_head, r.end <= head);
            }
        }
    }
}
