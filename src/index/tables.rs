//! Where the scanner appends a line's side entries (tool uses and results,
//! compactions, titles, interned strings), and how those tables grow.

use super::intern::Interner;
use super::row::{Compaction, Title, ToolResult, ToolUse};

/// Where a scanned line's side entries go.
pub struct Tables<'a> {
    pub tool_uses: &'a mut Vec<ToolUse>,
    pub tool_results: &'a mut Vec<ToolResult>,
    pub compactions: &'a mut Vec<Compaction>,
    pub titles: &'a mut Vec<Title>,
    pub strings: &'a mut Interner,
}

/// Pushes `x`, growing a full `v` by an eighth (at least 1024 items) rather
/// than doubling it. The tables of a 2 GB file hold ~70 MB; doubling made
/// the indexer's peak heap 169 MiB (the old and the new buffer at the
/// moment of a move, and up to half of the last one unused), which wasm
/// memory keeps for good. Amortised cost stays O(1) per push.
pub(crate) fn grow_push<T>(v: &mut Vec<T>, x: T) {
    if v.len() == v.capacity() {
        v.reserve_exact((v.len() / 8).max(1024));
    }
    v.push(x);
}
