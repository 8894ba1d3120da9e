//! The worker hands its index to the page as bytes (`index::wire`): on every
//! fixture transcript the decoded index equals the original, table by
//! table, and the facts computed from it are the same.

mod common;

use ccscope::index::wire::{decode, encode, SliceInput};
use ccscope::index::{Indexer, Sym};
use ccscope::model::{Stats, DEFAULT_IDLE_GAP_SECS};

#[test]
fn every_fixture_index_survives_the_trip_to_the_page() {
    let files = common::all_transcripts();
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let ix = Indexer::index_bytes(&bytes);
        let mut pieces = Vec::new();
        encode(&ix, 4096, |p| pieces.push(p));
        let back = decode(&mut SliceInput::new(&pieces.concat())).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let name = path.display();
        assert_eq!(back.rows, ix.rows, "{name}: rows");
        assert_eq!(back.tool_uses, ix.tool_uses, "{name}: tool uses");
        assert_eq!(back.tool_results, ix.tool_results, "{name}: tool results");
        assert_eq!(back.compactions, ix.compactions, "{name}: compactions");
        assert_eq!(back.titles, ix.titles, "{name}: titles");
        assert_eq!(back.strings.len(), ix.strings.len(), "{name}: strings");
        for k in 0..ix.strings.len() as u32 {
            assert_eq!(back.str(Sym(k)), ix.str(Sym(k)), "{name}: string {k}");
        }
        assert_eq!(
            (back.len_bytes, back.physical_lines, back.blank_lines, back.max_line_bytes, back.malformed_lines),
            (ix.len_bytes, ix.physical_lines, ix.blank_lines, ix.max_line_bytes, ix.malformed_lines),
            "{name}: counters"
        );
        assert_eq!(Stats::compute(&back, DEFAULT_IDLE_GAP_SECS), Stats::compute(&ix, DEFAULT_IDLE_GAP_SECS), "{name}: stats");
    }
}
