//! Bytes → flat rows, in one pass, push-based, with no I/O.
//!
//! ```text
//!            push(chunk)                      finish()
//!   ┌──────┐ ──────────► ┌────────────────┐ ─────────► Index
//!   │ idle │             │ carry: partial │
//!   └──────┘ ◄────────── │ line (maybe "")│
//!            chunk ended └────────────────┘
//!            on "\n"
//! ```
//!
//! [`Indexer`] keeps three things between pushes: the bytes of the line that is
//! still open (`carry`), the absolute offset where that line starts
//! (`line_start`) and the absolute offset of the next byte to arrive (`pos`).
//! Invariant: `line_start <= pos` and `pos - line_start == carry.len()`, except
//! that a line found whole inside one chunk is scanned in place and never
//! copied. Lines split on 0x0A (found by the scan itself, or by memchr); one
//! trailing `\r` is dropped, and a
//! UTF-8 BOM at the very start of the file. A last line without a newline is
//! a line. Whitespace-only lines are counted as blank and get no row.

pub mod cursor;
pub mod follow;
pub mod intern;
// Also built for wasm, where a test checks the simd128 scanner against it;
// nothing in the app calls it, so the linker leaves it out of the page.
pub mod reference;
pub mod row;
pub mod scan;
// Bytes → matches: the full-text search's matcher, here (not in `state`)
// to be built for speed with the indexer (`ccscope::state::search`).
pub mod search;
mod simd;
pub mod tables;
pub mod time;
pub mod wire;

pub use intern::{FxHashMap, Interner, Sym};
use tables::{grow_push, Tables};

pub use row::{flag, Compaction, Content, Malformed, OddBlock, Role, Row, Title, ToolResult, ToolUse, Usage};

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The chunk size readers push (the CLI's `read`, the browser's
/// `Blob.slice`, the bench): large enough that per-chunk overhead vanishes,
/// small enough that indexing one chunk stays far below a 50 ms task.
pub const CHUNK_BYTES: usize = 4 << 20;

/// Everything the indexer learnt about a file.
#[derive(Clone, Debug, Default)]
pub struct Index {
    /// One row per non-blank line, in file order.
    pub rows: Vec<Row>,
    pub tool_uses: Vec<ToolUse>,
    pub tool_results: Vec<ToolResult>,
    pub compactions: Vec<Compaction>,
    /// Title texts of custom-title / ai-title / last-prompt / summary records.
    pub titles: Vec<Title>,
    /// Content blocks of shapes the page has no view for, in file order.
    pub odd_blocks: Vec<OddBlock>,
    pub strings: Interner,
    /// Bytes pushed in all.
    pub len_bytes: u64,
    /// Physical lines seen (blank ones included).
    pub physical_lines: u32,
    pub blank_lines: u32,
    /// Longest line, without its terminator.
    pub max_line_bytes: u32,
    pub malformed_lines: u32,
}

impl Index {
    /// Rows that are malformed lines, with their line number and reason.
    pub fn malformed(&self) -> impl Iterator<Item = (&Row, Malformed)> {
        self.rows.iter().filter_map(|r| r.malformed.map(|m| (r, m)))
    }

    /// This row's tool_use blocks.
    pub fn tool_uses_of(&self, row: &Row) -> &[ToolUse] {
        let s = row.tool_uses_start as usize;
        &self.tool_uses[s..s + row.tool_uses_len as usize]
    }

    /// This row's tool_result blocks.
    pub fn tool_results_of(&self, row: &Row) -> &[ToolResult] {
        let s = row.tool_results_start as usize;
        &self.tool_results[s..s + row.tool_results_len as usize]
    }

    /// The string of a symbol (`""` for none).
    pub fn str(&self, sym: Sym) -> &str {
        self.strings.resolve(sym)
    }

    /// Where the scanner appends a line's side entries.
    fn tables(&mut self) -> Tables<'_> {
        Tables {
            tool_uses: &mut self.tool_uses,
            tool_results: &mut self.tool_results,
            compactions: &mut self.compactions,
            titles: &mut self.titles,
            odd_blocks: &mut self.odd_blocks,
            strings: &mut self.strings,
        }
    }

    /// Approximate heap bytes held (rows, tables, strings).
    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        self.rows.capacity() * size_of::<Row>()
            + self.tool_uses.capacity() * size_of::<ToolUse>()
            + self.tool_results.capacity() * size_of::<ToolResult>()
            + self.compactions.capacity() * size_of::<Compaction>()
            + self.titles.capacity() * size_of::<Title>()
            + self.odd_blocks.capacity() * size_of::<OddBlock>()
            + self.strings.heap_bytes()
    }
}

/// The push-based line indexer. See the module docs for its state.
#[derive(Debug)]
pub struct Indexer {
    index: Index,
    /// Bytes of the open line that arrived in earlier chunks.
    carry: Vec<u8>,
    /// Absolute offset of the open line's first byte.
    line_start: u64,
    /// Absolute offset of the next byte to be pushed.
    pos: u64,
}

impl Default for Indexer {
    fn default() -> Self {
        Self::new()
    }
}

impl Indexer {
    pub fn new() -> Self {
        Indexer {
            index: Index { strings: Interner::new(), ..Index::default() },
            carry: Vec::new(),
            line_start: 0,
            pos: 0,
        }
    }

    /// Indexes a whole buffer in one go.
    pub fn index_bytes(bytes: &[u8]) -> Index {
        let mut ix = Indexer::new();
        ix.push(bytes);
        ix.finish()
    }

    /// Bytes pushed so far.
    pub fn bytes_seen(&self) -> u64 {
        self.pos
    }

    /// Where the line still open starts: every byte before it belongs to
    /// a line that has ended (the index of a file still being written).
    pub fn settled_bytes(&self) -> u64 {
        self.line_start
    }

    /// The index of the lines ended so far: the line still being written is
    /// not a row (it is carried, never counted malformed) and `len_bytes`
    /// is [`Indexer::settled_bytes`]. A copy: the indexer goes on.
    pub fn settled(&self) -> Index {
        Index { len_bytes: self.line_start, ..self.index.clone() }
    }

    /// Ends the input as it stands now, for a file still being written:
    /// the line not yet ended is left out (see [`Indexer::settled`]), not
    /// copied.
    pub fn into_settled(mut self) -> Index {
        self.index.len_bytes = self.line_start;
        self.index
    }

    /// Goes on from a settled index (see [`Indexer::settled`]): the next
    /// byte pushed is the file's byte `index.len_bytes`. Pushing the rest of
    /// the file then gives the same index as indexing it whole.
    pub fn resume(index: Index) -> Indexer {
        let pos = index.len_bytes;
        Indexer { index, carry: Vec::new(), line_start: pos, pos }
    }

    /// Rows so far (for progress display).
    pub fn rows_so_far(&self) -> usize {
        self.index.rows.len()
    }

    /// Feeds the next chunk of the file. Chunks may split lines, UTF-8
    /// sequences or `\r\n` anywhere.
    ///
    /// A line that starts inside the chunk is first scanned in place by
    /// [`scan::scan_line_to_newline`], which finds its end as it goes (one
    /// pass over the bytes, not a newline search and then a scan). Anything
    /// that path declines — a malformed or blank line, the file's first line
    /// (BOM), a line running past the chunk — takes the plain path: memchr
    /// for the newline, then [`scan::scan_line`].
    pub fn push(&mut self, chunk: &[u8]) {
        let chunk_start = self.pos;
        self.pos += chunk.len() as u64;
        let mut at = 0usize;
        if !self.carry.is_empty() {
            let Some(nl) = memchr::memchr(b'\n', chunk) else {
                self.carry.extend_from_slice(chunk);
                return;
            };
            let mut carry = std::mem::take(&mut self.carry);
            carry.extend_from_slice(&chunk[..nl]);
            self.line(self.line_start, &carry);
            carry.clear();
            self.carry = carry;
            at = nl + 1;
            self.line_start = chunk_start + at as u64;
        }
        while at < chunk.len() {
            let rest = &chunk[at..];
            let fast = if self.line_start == 0 { None } else { self.line_in_place(self.line_start, rest) };
            let nl = match fast {
                Some(nl) => nl,
                None => match memchr::memchr(b'\n', rest) {
                    Some(nl) => {
                        self.line(self.line_start, &rest[..nl]);
                        nl
                    }
                    None => {
                        self.carry.extend_from_slice(rest);
                        break;
                    }
                },
            };
            at += nl + 1;
            self.line_start = chunk_start + at as u64;
        }
    }

    /// The fast path of [`Indexer::push`]: the line at `buf[0]` (absolute
    /// offset `start`), if [`scan::scan_line_to_newline`] accepts it; then the
    /// index of its `\n` in `buf`. On `None` nothing has changed.
    fn line_in_place(&mut self, start: u64, buf: &[u8]) -> Option<usize> {
        let ix = &mut self.index;
        let row_index = ix.rows.len() as u32;
        let mut row = Row { offset: start, line_no: ix.physical_lines + 1, ..Row::default() };
        let mut tables = ix.tables();
        let marks = tables.marks();
        let Some(nl) = scan::scan_line_to_newline(buf, row_index, &mut row, &mut tables) else {
            tables.roll_back(marks);
            return None;
        };
        let len = if nl > 0 && buf[nl - 1] == b'\r' { nl - 1 } else { nl };
        row.len_bytes = u32::try_from(len).unwrap_or(u32::MAX);
        ix.max_line_bytes = ix.max_line_bytes.max(row.len_bytes);
        ix.physical_lines += 1;
        grow_push(&mut ix.rows, row);
        Some(nl)
    }

    /// Ends the input: a last line without a newline becomes a line.
    pub fn finish(mut self) -> Index {
        if !self.carry.is_empty() {
            let carry = std::mem::take(&mut self.carry);
            self.line(self.line_start, &carry);
        }
        self.index.len_bytes = self.pos;
        self.index
    }

    fn line(&mut self, start: u64, raw: &[u8]) {
        let ix = &mut self.index;
        ix.physical_lines += 1;
        let mut line = raw;
        let mut offset = start;
        if start == 0 && line.starts_with(BOM) {
            line = &line[BOM.len()..];
            offset += BOM.len() as u64;
        }
        if let [head @ .., b'\r'] = line {
            line = head;
        }
        let len_bytes = u32::try_from(line.len()).unwrap_or(u32::MAX);
        ix.max_line_bytes = ix.max_line_bytes.max(len_bytes);
        if line.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r')) {
            ix.blank_lines += 1;
            return;
        }
        let row_index = ix.rows.len() as u32;
        let mut row = Row { offset, len_bytes, line_no: ix.physical_lines, ..Row::default() };
        let mut tables = ix.tables();
        let marks = tables.marks();
        if let Err(reason) = scan::scan_line(line, row_index, &mut row, &mut tables) {
            tables.roll_back(marks);
            row = Row { offset, len_bytes, line_no: ix.physical_lines, malformed: Some(reason), ..Row::default() };
            row.tool_uses_start = ix.tool_uses.len() as u32;
            row.tool_results_start = ix.tool_results.len() as u32;
            ix.malformed_lines += 1;
        }
        grow_push(&mut ix.rows, row);
    }
}
