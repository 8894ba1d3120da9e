//! Where the scanner appends a line's side entries (tool uses and results,
//! compactions, titles, odd blocks, interned strings), and how those tables grow.

use super::intern::Interner;
use super::row::{Compaction, OddBlock, Title, ToolResult, ToolUse};

/// Where a scanned line's side entries go.
pub struct Tables<'a> {
    pub tool_uses: &'a mut Vec<ToolUse>,
    pub tool_results: &'a mut Vec<ToolResult>,
    pub compactions: &'a mut Vec<Compaction>,
    pub titles: &'a mut Vec<Title>,
    pub odd_blocks: &'a mut Vec<OddBlock>,
    pub strings: &'a mut Interner,
}

/// The tables' lengths before a line: what a line that fails is rolled
/// back to, so a malformed line leaves no entry behind.
#[derive(Clone, Copy)]
pub struct Marks([usize; 5]);

impl Tables<'_> {
    pub fn marks(&self) -> Marks {
        Marks([self.tool_uses.len(), self.tool_results.len(), self.compactions.len(), self.titles.len(), self.odd_blocks.len()])
    }

    pub fn roll_back(&mut self, Marks(m): Marks) {
        self.tool_uses.truncate(m[0]);
        self.tool_results.truncate(m[1]);
        self.compactions.truncate(m[2]);
        self.titles.truncate(m[3]);
        self.odd_blocks.truncate(m[4]);
    }
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
