//! The indexer agrees with the naive `split` + serde_json reference on every
//! fixture, whole and in every chunking we can afford.

mod common;

use ccscope::index::{reference, Indexer};

fn chunked(bytes: &[u8], size: usize) -> ccscope::index::Index {
    let mut ix = Indexer::new();
    for c in bytes.chunks(size.max(1)) {
        ix.push(c);
    }
    ix.finish()
}

#[test]
fn every_fixture_matches_the_reference() {
    for path in common::all_transcripts() {
        let bytes = std::fs::read(&path).unwrap();
        let want = reference::resolve(&reference::index(&bytes));
        let got = reference::resolve(&Indexer::index_bytes(&bytes));
        assert_eq!(want.1, got.1, "counters differ for {}", path.display());
        assert_eq!(want.2, got.2, "compactions differ for {}", path.display());
        assert_eq!(want.0.len(), got.0.len(), "row count differs for {}", path.display());
        for (w, g) in want.0.iter().zip(&got.0) {
            assert_eq!(w, g, "row differs in {} line {}", path.display(), w.row.line_no);
        }
    }
}

#[test]
fn every_fixture_gives_the_same_rows_in_any_chunking() {
    for path in common::all_transcripts() {
        let bytes = std::fs::read(&path).unwrap();
        let whole = reference::resolve(&Indexer::index_bytes(&bytes));
        // 1-byte chunks on the small files; a spread of sizes on all.
        let sizes: &[usize] = if bytes.len() < 64 * 1024 { &[1, 2, 3, 7, 64, 4096] } else { &[3, 61, 4096, 65536] };
        for &n in sizes {
            assert!(whole == reference::resolve(&chunked(&bytes, n)), "{} differs at chunk size {n}", path.display());
        }
    }
}
