//! An [`Index`] as bytes: how the Web Worker that reads a file hands its
//! index to the page (two wasm instances share no memory).
//!
//! ```text
//!   header   "CCIX" version:u32  len_bytes:u64  physical_lines blank_lines
//!            max_line_bytes malformed_lines:u32  then six counts:u32
//!            (strings rows tool_uses tool_results compactions titles odd_blocks)
//!   strings  len:u32 bytes   — symbols 1.. in order (0 is the empty NONE)
//!   rows     ROW_BYTES each, fixed layout (see `put_row`)
//!   tool_uses, tool_results, compactions, titles, odd_blocks   fixed width each
//! ```
//!
//! Little-endian throughout. The encoder hands out pieces of about
//! `piece_bytes` as it goes, so neither side ever holds the whole encoding
//! next to the whole index. The decoder checks every enum value, every
//! symbol and every table range, so a model built on a decoded index can
//! slice it without panicking even if the bytes were damaged.

use thiserror::Error;

use super::intern::{Interner, Sym};
use super::row::{Compaction, Content, Malformed, OddBlock, Role, Row, Title, ToolResult, ToolUse, Usage};
use super::Index;

const MAGIC: &[u8; 4] = b"CCIX";
/// 2: compaction token counts may be absent (a presence byte before each).
/// 3: a seventh table, odd blocks.
const VERSION: u32 = 3;
/// Bytes of one encoded row.
pub const ROW_BYTES: usize = 8 + 1 + 8 + 4 + 4 + 1 + 11 * 4 + 1 + 1 + 2 + 4 + 4 + 6 * 4 + 4 * 4;
const TOOL_USE_BYTES: usize = 12;
const TOOL_RESULT_BYTES: usize = 4 + 4 + 1 + 1 + 4;
const COMPACTION_BYTES: usize = 4 + 1 + 8 + 1 + 8 + 4;
const TITLE_BYTES: usize = 4 + 4 + 4 + 1;
const ODD_BLOCK_BYTES: usize = 4 + 1 + 4;

/// Why bytes could not be read back as an index.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum WireError {
    #[error("index data ends early, at byte {at_byte}")]
    Truncated { at_byte: u64 },
    #[error("not index data of this version of ccscope")]
    NotAnIndex,
    #[error("index data is damaged near byte {at_byte}: {what}")]
    Damaged { at_byte: u64, what: &'static str },
}

/// Where decoded bytes come from: a slice, or pieces kept outside wasm.
pub trait Input {
    /// Fills `out` completely, or fails with `Truncated`.
    fn read_exact(&mut self, out: &mut [u8]) -> Result<(), WireError>;
    /// Bytes consumed so far (for error messages).
    fn position(&self) -> u64;
    /// Bytes in all (consumed or not).
    fn total_bytes(&self) -> u64;
}

/// A byte slice as [`Input`].
pub struct SliceInput<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> SliceInput<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        SliceInput { bytes, pos: 0 }
    }
}

impl Input for SliceInput<'_> {
    fn read_exact(&mut self, out: &mut [u8]) -> Result<(), WireError> {
        let end = self.pos + out.len();
        let src = self.bytes.get(self.pos..end).ok_or(WireError::Truncated { at_byte: self.bytes.len() as u64 })?;
        out.copy_from_slice(src);
        self.pos = end;
        Ok(())
    }
    fn position(&self) -> u64 {
        self.pos as u64
    }
    fn total_bytes(&self) -> u64 {
        self.bytes.len() as u64
    }
}

struct Writer<F: FnMut(Vec<u8>)> {
    buf: Vec<u8>,
    piece_bytes: usize,
    flush: F,
}

impl<F: FnMut(Vec<u8>)> Writer<F> {
    fn u8(&mut self, v: u8) {
        self.buf.push(v);
    }
    fn u16(&mut self, v: u16) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }
    fn u32(&mut self, v: u32) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }
    fn u64(&mut self, v: u64) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }
    fn sym(&mut self, s: Sym) {
        self.u32(s.0);
    }
    fn len(&mut self, n: usize) {
        self.u32(u32::try_from(n).unwrap_or(u32::MAX));
    }
    /// Hands the buffer out once it holds a piece's worth.
    fn maybe_flush(&mut self) {
        if self.buf.len() >= self.piece_bytes {
            let full = std::mem::replace(&mut self.buf, Vec::with_capacity(self.piece_bytes + ROW_BYTES));
            (self.flush)(full);
        }
    }
}

/// Encodes `ix`, handing the bytes to `flush` in pieces of about
/// `piece_bytes` (the last one may be shorter; none is empty).
pub fn encode(ix: &Index, piece_bytes: usize, flush: impl FnMut(Vec<u8>)) {
    let piece_bytes = piece_bytes.max(64);
    let mut w = Writer { buf: Vec::with_capacity(piece_bytes + ROW_BYTES), piece_bytes, flush };
    w.buf.extend_from_slice(MAGIC);
    w.u32(VERSION);
    w.u64(ix.len_bytes);
    for v in [ix.physical_lines, ix.blank_lines, ix.max_line_bytes, ix.malformed_lines] {
        w.u32(v);
    }
    let strings = ix.strings.len().saturating_sub(1);
    for n in [strings, ix.rows.len(), ix.tool_uses.len(), ix.tool_results.len(), ix.compactions.len(), ix.titles.len(), ix.odd_blocks.len()] {
        w.len(n);
    }
    for k in 1..ix.strings.len() {
        let s = ix.strings.resolve(Sym(k as u32)).as_bytes();
        w.len(s.len());
        w.buf.extend_from_slice(s);
        w.maybe_flush();
    }
    for r in &ix.rows {
        put_row(&mut w, r);
        w.maybe_flush();
    }
    for t in &ix.tool_uses {
        w.u32(t.row);
        w.sym(t.id);
        w.sym(t.name);
        w.maybe_flush();
    }
    for t in &ix.tool_results {
        w.u32(t.row);
        w.sym(t.tool_use_id);
        w.u8(t.is_error as u8);
        w.u8(t.persisted as u8);
        w.u32(t.images);
        w.maybe_flush();
    }
    for c in &ix.compactions {
        w.u32(c.row);
        for v in [c.pre_tokens, c.post_tokens] {
            w.u8(v.is_some() as u8);
            w.u64(v.unwrap_or(0));
        }
        w.sym(c.trigger);
        w.maybe_flush();
    }
    for t in &ix.titles {
        w.u32(t.row);
        w.u32(t.start);
        w.u32(t.len);
        w.u8(t.escaped as u8);
        w.maybe_flush();
    }
    for o in &ix.odd_blocks {
        w.u32(o.row);
        w.u8(o.in_result as u8);
        w.sym(o.ty);
        w.maybe_flush();
    }
    if !w.buf.is_empty() {
        let rest = std::mem::take(&mut w.buf);
        (w.flush)(rest);
    }
}

fn put_row<F: FnMut(Vec<u8>)>(w: &mut Writer<F>, r: &Row) {
    w.u64(r.offset);
    w.u8(r.timestamp_ms.is_some() as u8);
    w.u64(r.timestamp_ms.unwrap_or(0) as u64);
    w.u32(r.len_bytes);
    w.u32(r.line_no);
    w.u8(r.malformed.map_or(0, |m| m as u8));
    for s in [r.record_type, r.session_id, r.entrypoint, r.version, r.agent_id, r.subtype, r.level, r.message_id, r.model, r.stop_reason, r.result_run_id] {
        w.sym(s);
    }
    w.u8(r.role as u8);
    w.u8(r.content as u8);
    w.u16(r.flags);
    w.u32(r.blocks);
    w.u32(r.images);
    let u = r.usage;
    for v in [u.input_tokens, u.output_tokens, u.cache_creation_input_tokens, u.cache_read_input_tokens, u.cache_creation_1h_input_tokens, u.web_search_requests] {
        w.u32(v);
    }
    for v in [r.tool_uses_start, r.tool_uses_len, r.tool_results_start, r.tool_results_len] {
        w.u32(v);
    }
}

/// Reads fixed-width fields from one record's bytes.
struct Fields<'a> {
    b: &'a [u8],
    at: usize,
}

impl Fields<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0; N];
        out.copy_from_slice(&self.b[self.at..self.at + N]);
        self.at += N;
        out
    }
    fn u8(&mut self) -> u8 {
        self.take::<1>()[0]
    }
    fn u16(&mut self) -> u16 {
        u16::from_le_bytes(self.take())
    }
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }
    fn u64(&mut self) -> u64 {
        u64::from_le_bytes(self.take())
    }
}

struct Reader<'i, I: Input> {
    input: &'i mut I,
    symbols: u32,
}

impl<I: Input> Reader<'_, I> {
    fn damaged(&self, what: &'static str) -> WireError {
        WireError::Damaged { at_byte: self.input.position(), what }
    }
    fn record<const N: usize>(&mut self) -> Result<[u8; N], WireError> {
        let mut b = [0; N];
        self.input.read_exact(&mut b)?;
        Ok(b)
    }
    fn sym(&self, f: &mut Fields) -> Result<Sym, WireError> {
        let s = f.u32();
        if s >= self.symbols {
            return Err(self.damaged("a string number out of range"));
        }
        Ok(Sym(s))
    }
    fn flag(&self, f: &mut Fields) -> Result<bool, WireError> {
        match f.u8() {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(self.damaged("a yes/no field that is neither")),
        }
    }
    /// A count, refused when the input cannot possibly hold that many
    /// records (so damaged bytes never make us reserve gigabytes).
    fn count(&mut self, f: &mut Fields, record_bytes: usize) -> Result<usize, WireError> {
        let n = f.u32();
        if n as u64 * record_bytes as u64 > self.input.total_bytes() {
            return Err(self.damaged("more records than the data can hold"));
        }
        Ok(n as usize)
    }

    fn row(&self, b: &[u8; ROW_BYTES]) -> Result<Row, WireError> {
        let mut f = Fields { b, at: 0 };
        let offset = f.u64();
        let has_ts = self.flag(&mut f)?;
        let ts = f.u64() as i64;
        let len_bytes = f.u32();
        let line_no = f.u32();
        let malformed = match f.u8() {
            0 => None,
            1 => Some(Malformed::InvalidUtf8),
            2 => Some(Malformed::NotAnObject),
            3 => Some(Malformed::Truncated),
            4 => Some(Malformed::Syntax),
            5 => Some(Malformed::NumberOutOfRange),
            6 => Some(Malformed::TooDeep),
            _ => return Err(self.damaged("an unknown reason for a malformed line")),
        };
        let mut syms = [Sym::NONE; 11];
        for s in &mut syms {
            *s = self.sym(&mut f)?;
        }
        let [record_type, session_id, entrypoint, version, agent_id, subtype, level, message_id, model, stop_reason, result_run_id] = syms;
        let role = match f.u8() {
            0 => Role::None,
            1 => Role::User,
            2 => Role::Assistant,
            3 => Role::Other,
            _ => return Err(self.damaged("an unknown role")),
        };
        let content = match f.u8() {
            0 => Content::None,
            1 => Content::String,
            2 => Content::Text,
            3 => Content::Thinking,
            4 => Content::RedactedThinking,
            5 => Content::ToolUse,
            6 => Content::ToolResult,
            7 => Content::Image,
            8 => Content::Other,
            _ => return Err(self.damaged("an unknown content kind")),
        };
        let flags = f.u16();
        let blocks = f.u32();
        let images = f.u32();
        let usage = Usage {
            input_tokens: f.u32(),
            output_tokens: f.u32(),
            cache_creation_input_tokens: f.u32(),
            cache_read_input_tokens: f.u32(),
            cache_creation_1h_input_tokens: f.u32(),
            web_search_requests: f.u32(),
        };
        Ok(Row {
            offset,
            timestamp_ms: has_ts.then_some(ts),
            len_bytes,
            line_no,
            malformed,
            record_type,
            session_id,
            entrypoint,
            version,
            agent_id,
            subtype,
            level,
            message_id,
            model,
            stop_reason,
            result_run_id,
            role,
            content,
            flags,
            blocks,
            images,
            usage,
            tool_uses_start: f.u32(),
            tool_uses_len: f.u32(),
            tool_results_start: f.u32(),
            tool_results_len: f.u32(),
        })
    }
}

/// Reads an index written by [`encode`], all at once.
pub fn decode(input: &mut impl Input) -> Result<Index, WireError> {
    let mut d = Decoder::start(input)?;
    while !d.step(input, usize::MAX)? {}
    d.finish(input)
}

/// A decode in steps, so a page can read a large index between frames:
/// [`Decoder::start`] reads the header, each [`Decoder::step`] reads at
/// most `max_records` records (strings first, then each table in order),
/// [`Decoder::finish`] checks every table range and hands out the index.
/// The same `input` must be passed to every call.
pub struct Decoder {
    ix: Index,
    /// Records still to read per table, in encoding order: strings, rows,
    /// tool_uses, tool_results, compactions, titles, odd_blocks.
    left: [usize; 7],
}

impl Decoder {
    pub fn start(input: &mut impl Input) -> Result<Decoder, WireError> {
        let mut r = Reader { input, symbols: 1 };
        let head: [u8; 4 + 4 + 8 + 4 * 4 + 7 * 4] = r.record()?;
        if &head[..4] != MAGIC {
            return Err(WireError::NotAnIndex);
        }
        let mut f = Fields { b: &head, at: 4 };
        if f.u32() != VERSION {
            return Err(WireError::NotAnIndex);
        }
        let mut ix = Index { len_bytes: f.u64(), physical_lines: f.u32(), blank_lines: f.u32(), max_line_bytes: f.u32(), malformed_lines: f.u32(), strings: Interner::new(), ..Index::default() };
        let mut left = [0; 7];
        for (n, record_bytes) in left.iter_mut().zip([4, ROW_BYTES, TOOL_USE_BYTES, TOOL_RESULT_BYTES, COMPACTION_BYTES, TITLE_BYTES, ODD_BLOCK_BYTES]) {
            *n = r.count(&mut f, record_bytes)?;
        }
        ix.rows.reserve_exact(left[1]);
        ix.tool_uses.reserve_exact(left[2]);
        ix.tool_results.reserve_exact(left[3]);
        ix.compactions.reserve_exact(left[4]);
        ix.titles.reserve_exact(left[5]);
        ix.odd_blocks.reserve_exact(left[6]);
        Ok(Decoder { ix, left })
    }

    /// Reads up to `max_records` more records; `true` once all are read.
    pub fn step(&mut self, input: &mut impl Input, max_records: usize) -> Result<bool, WireError> {
        let ix = &mut self.ix;
        let mut budget = max_records.max(1);
        let mut text = Vec::new();
        for table in 0..self.left.len() {
            let n = self.left[table].min(budget);
            // Strings are all read before any table that refers to them.
            let mut r = Reader { input: &mut *input, symbols: ix.strings.len() as u32 };
            for _ in 0..n {
                match table {
                    0 => {
                        let len = u32::from_le_bytes(r.record()?) as usize;
                        if len as u64 > r.input.total_bytes() {
                            return Err(r.damaged("a string longer than the data"));
                        }
                        text.resize(len, 0);
                        r.input.read_exact(&mut text)?;
                        let s = std::str::from_utf8(&text).map_err(|_| r.damaged("a string that is not UTF-8"))?;
                        let k = ix.strings.len();
                        if ix.strings.intern(s).index() != k {
                            return Err(r.damaged("a string listed twice"));
                        }
                    }
                    1 => {
                        let b = r.record::<ROW_BYTES>()?;
                        ix.rows.push(r.row(&b)?);
                    }
                    2 => {
                        let b = r.record::<TOOL_USE_BYTES>()?;
                        let mut f = Fields { b: &b, at: 0 };
                        let row = f.u32();
                        let (id, name) = (r.sym(&mut f)?, r.sym(&mut f)?);
                        ix.tool_uses.push(ToolUse { row, id, name });
                    }
                    3 => {
                        let b = r.record::<TOOL_RESULT_BYTES>()?;
                        let mut f = Fields { b: &b, at: 0 };
                        let row = f.u32();
                        let tool_use_id = r.sym(&mut f)?;
                        let (is_error, persisted) = (r.flag(&mut f)?, r.flag(&mut f)?);
                        ix.tool_results.push(ToolResult { row, tool_use_id, is_error, persisted, images: f.u32() });
                    }
                    4 => {
                        let b = r.record::<COMPACTION_BYTES>()?;
                        let mut f = Fields { b: &b, at: 0 };
                        let row = f.u32();
                        let pre_tokens = r.flag(&mut f)?.then_some(f.u64());
                        let post_tokens = r.flag(&mut f)?.then_some(f.u64());
                        ix.compactions.push(Compaction { row, pre_tokens, post_tokens, trigger: r.sym(&mut f)? });
                    }
                    5 => {
                        let b = r.record::<TITLE_BYTES>()?;
                        let mut f = Fields { b: &b, at: 0 };
                        let (row, start, len) = (f.u32(), f.u32(), f.u32());
                        ix.titles.push(Title { row, start, len, escaped: r.flag(&mut f)? });
                    }
                    _ => {
                        let b = r.record::<ODD_BLOCK_BYTES>()?;
                        let mut f = Fields { b: &b, at: 0 };
                        let row = f.u32();
                        let in_result = r.flag(&mut f)?;
                        ix.odd_blocks.push(OddBlock { row, in_result, ty: r.sym(&mut f)? });
                    }
                }
            }
            self.left[table] -= n;
            budget -= n;
            if self.left[table] > 0 {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The index, once every step is done and every range checks out.
    pub fn finish(self, input: &mut impl Input) -> Result<Index, WireError> {
        let r = Reader { input, symbols: 0 };
        if self.left.iter().any(|&n| n > 0) {
            return Err(r.damaged("the index was handed out before it was all read"));
        }
        check_links(&self.ix).map_err(|what| r.damaged(what))?;
        Ok(self.ix)
    }
}

/// Every reference between tables points inside its table.
fn check_links(ix: &Index) -> Result<(), &'static str> {
    let rows = ix.rows.len() as u64;
    for r in &ix.rows {
        if r.tool_uses_start as u64 + r.tool_uses_len as u64 > ix.tool_uses.len() as u64 {
            return Err("a row's tool calls lie outside the table");
        }
        if r.tool_results_start as u64 + r.tool_results_len as u64 > ix.tool_results.len() as u64 {
            return Err("a row's tool results lie outside the table");
        }
    }
    let row_refs = ix.tool_uses.iter().map(|t| t.row).chain(ix.tool_results.iter().map(|t| t.row));
    let row_refs = row_refs.chain(ix.compactions.iter().map(|c| c.row)).chain(ix.titles.iter().map(|t| t.row));
    let row_refs = row_refs.chain(ix.odd_blocks.iter().map(|o| o.row));
    for row in row_refs {
        if row as u64 >= rows {
            return Err("a reference to a row that does not exist");
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Indexer;

    fn roundtrip(ix: &Index, piece_bytes: usize) -> Index {
        let mut pieces = Vec::new();
        encode(ix, piece_bytes, |p| pieces.push(p));
        assert!(pieces.iter().all(|p| !p.is_empty()));
        let bytes = pieces.concat();
        decode(&mut SliceInput::new(&bytes)).expect("decodes")
    }

    #[test]
    fn a_small_index_comes_back_equal_in_any_piece_size() {
        let src = b"{\"type\":\"user\",\"uuid\":\"a\",\"sessionId\":\"s\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"t1\",\"is_error\":true}]}}\nnot json\n\n{\"type\":\"assistant\",\"timestamp\":\"2025-01-01T00:00:00Z\",\"message\":{\"id\":\"m\",\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"t1\",\"name\":\"Bash\",\"input\":{}}],\"usage\":{\"input_tokens\":5}}}\n{\"type\":\"custom-title\",\"customTitle\":\"x\"}\n";
        let ix = Indexer::index_bytes(src);
        for piece in [1, 64, 100, 1 << 20] {
            let back = roundtrip(&ix, piece);
            assert_eq!(back.rows, ix.rows);
            assert_eq!(back.tool_uses, ix.tool_uses);
            assert_eq!(back.tool_results, ix.tool_results);
            assert_eq!(back.titles, ix.titles);
            assert_eq!(back.odd_blocks, ix.odd_blocks);
            assert_eq!(back.strings.len(), ix.strings.len());
            assert_eq!(back.str(Sym(1)), ix.str(Sym(1)));
            assert_eq!((back.len_bytes, back.physical_lines, back.blank_lines, back.malformed_lines), (ix.len_bytes, 5, 1, 1));
        }
    }

    #[test]
    fn a_decode_in_steps_of_any_size_gives_the_same_index() {
        let src = b"{\"type\":\"user\",\"uuid\":\"a\",\"message\":{\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"t1\"}]}}\n{\"type\":\"assistant\",\"message\":{\"id\":\"m\",\"content\":[{\"type\":\"tool_use\",\"id\":\"t1\",\"name\":\"Bash\"},{\"type\":\"tool_use\",\"id\":\"t2\",\"name\":\"Read\"}]}}\n{\"type\":\"system\",\"subtype\":\"compact_boundary\",\"compactMetadata\":{\"trigger\":\"auto\",\"preTokens\":9}}\n{\"type\":\"ai-title\",\"aiTitle\":\"t\"}\n";
        let ix = Indexer::index_bytes(src);
        let mut bytes = Vec::new();
        encode(&ix, 1 << 20, |p| bytes.extend(p));
        let whole = decode(&mut SliceInput::new(&bytes)).expect("decodes");
        for max_records in [1, 2, 3, 5, 100] {
            let mut input = SliceInput::new(&bytes);
            let mut d = Decoder::start(&mut input).expect("header");
            let mut steps = 1;
            while !d.step(&mut input, max_records).expect("step") {
                steps += 1;
            }
            let back = d.finish(&mut input).expect("finishes");
            assert_eq!(back.rows, whole.rows);
            assert_eq!((&back.tool_uses, &back.tool_results, &back.compactions, &back.titles, &back.odd_blocks), (&whole.tool_uses, &whole.tool_results, &whole.compactions, &whole.titles, &whole.odd_blocks));
            assert_eq!(back.strings.len(), whole.strings.len());
            let records = (whole.strings.len() - 1) + whole.rows.len() + 2 + 1 + 1 + 1;
            assert_eq!(steps, records.div_ceil(max_records), "in steps of {max_records}");
        }
        let mut input = SliceInput::new(&bytes);
        let mut d = Decoder::start(&mut input).expect("header");
        d.step(&mut input, 1).expect("step");
        assert!(matches!(d.finish(&mut input), Err(WireError::Damaged { .. })), "handed out half read");
    }

    #[test]
    fn every_cut_short_encoding_is_an_error_not_a_panic() {
        let ix = Indexer::index_bytes(b"{\"type\":\"assistant\",\"message\":{\"id\":\"m\",\"content\":[{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"Read\"}]}}\n");
        let mut bytes = Vec::new();
        encode(&ix, 1 << 20, |p| bytes.extend(p));
        for cut in 0..bytes.len() {
            assert!(decode(&mut SliceInput::new(&bytes[..cut])).is_err(), "cut at {cut}");
        }
        let mut bad = bytes.clone();
        bad[0] = b'X';
        assert_eq!(decode(&mut SliceInput::new(&bad)).err(), Some(WireError::NotAnIndex));
    }

    #[test]
    fn a_range_pointing_outside_its_table_is_refused() {
        let ix = Indexer::index_bytes(b"{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"Read\"}]}}\n");
        let mut bytes = Vec::new();
        encode(&ix, 1 << 20, |p| bytes.extend(p));
        // The row's tool_uses_len is the third u32 from the end of the row.
        let header = 4 + 4 + 8 + 16 + 24;
        let strings: usize = (1..ix.strings.len()).map(|k| 4 + ix.str(Sym(k as u32)).len()).sum();
        let at = header + strings + ROW_BYTES - 12;
        bytes[at] = 9;
        assert!(matches!(decode(&mut SliceInput::new(&bytes)), Err(WireError::Damaged { .. })));
    }
}
