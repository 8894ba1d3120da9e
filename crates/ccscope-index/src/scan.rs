//! The per-line scanner: one JSON object in, one [`Row`] (plus tool and
//! compaction entries) out.
//!
//! It validates the whole line exactly as strictly as `serde_json` does (so a
//! line is malformed here iff `serde_json::from_slice::<Value>` rejects it or
//! yields a non-object), but it only *reads* the handful of fields the model
//! needs. Every other value is skipped without being materialised: strings
//! are skipped 64 bytes at a time by `cursor::Cur` (SIMD, `simd::skip_string`), which also
//! rejects raw control bytes and notes non-ASCII, so a 1 MB base64 image costs
//! one vector scan. Only a string with non-ASCII bytes is then validated as
//! UTF-8 (simdutf8), right after it was skipped, while it is in cache: bytes
//! >= 0x80 outside strings are a syntax error, so that checks the line.

use super::cursor::{Cur, Str, R};
use super::intern::{Interner, Sym};
use super::row::{flag, Compaction, Content, Malformed, OddBlock, Role, Row, Title, ToolResult, ToolUse, Usage};
use super::tables::{grow_push, Tables};
use super::time::parse_rfc3339_ms;

/// The tag Claude Code writes when it moved a tool's output to `tool-results/`.
pub const PERSISTED_TAG: &str = "<persisted-output>";
/// How a background task's answer starts (`model::background`).
pub const TASK_NOTIFICATION_TAG: &str = "<task-notification>";

/// Scans one line (no terminator, no BOM) into `row`, appending this line's
/// tool_use / tool_result / compaction entries to `t`.
///
/// On `Err` the caller must roll back `t`'s vectors to their previous
/// lengths; `row` is then left in an unspecified state.
pub fn scan_line(line: &[u8], row_index: u32, row: &mut Row, t: &mut Tables) -> R<()> {
    let mut c = Cur::new(line);
    c.ws();
    if c.peek() != Some(b'{') {
        c.skip_value()?;
        c.end()?;
        return Err(Malformed::NotAnObject);
    }
    let rec = Record::scan(&mut c, row, row_index, t)?;
    c.end()?;
    rec.finish(t);
    Ok(())
}

/// Scans the line that starts at `buf[0]` without knowing where it ends:
/// the end is found by the scan itself (the `\n` after the object and its
/// trailing whitespace), so the indexer need not look for newlines first.
///
/// Returns the index of that `\n` when the line is a well-formed object that
/// [`scan_line`] would accept on `buf[..nl]` (minus one trailing `\r`) with
/// the same row and entries. Returns `None` for anything else — a malformed
/// or non-object line, a line break inside the object, or a line that runs
/// past `buf` — and the caller then falls back to finding the newline and
/// calling [`scan_line`]; it must roll back `t`'s vectors as after an error.
pub fn scan_line_to_newline(buf: &[u8], row_index: u32, row: &mut Row, t: &mut Tables) -> Option<usize> {
    let mut c = Cur::new(buf);
    c.ws();
    if c.peek() != Some(b'{') {
        return None;
    }
    let rec = Record::scan(&mut c, row, row_index, t).ok()?;
    // Whitespace inside the object may have crossed a line break: that is
    // two lines, for the slow path to judge.
    if c.newline {
        return None;
    }
    while let Some(b' ' | b'\t' | b'\r') = c.peek() {
        c.i += 1;
    }
    if c.peek() != Some(b'\n') {
        return None;
    }
    rec.finish(t);
    Some(c.i)
}

/// State of the record being scanned that is decided only at its end
/// (keys come in any order).
struct Record<'r> {
    row: &'r mut Row,
    row_index: u32,
    parent_none: bool,
    /// customTitle, aiTitle, lastPrompt, summary (the one matching `type` is kept).
    titles: [Option<Str>; 4],
    compaction: Option<Compaction>,
    /// `attachment.type`: the row's `subtype` when it has none.
    attachment: Sym,
    /// Length of `odd_blocks` before this record (a repeated `content` key
    /// drops what the earlier one pushed).
    odd_start: u32,
}

impl<'r> Record<'r> {
    /// Scans the record's object at the cursor (on `{`) into `row`.
    fn scan(c: &mut Cur, row: &'r mut Row, row_index: u32, t: &mut Tables) -> R<Self> {
        row.tool_uses_start = t.tool_uses.len() as u32;
        row.tool_results_start = t.tool_results.len() as u32;
        let odd_start = t.odd_blocks.len() as u32;
        let mut rec = Record { row, row_index, parent_none: true, titles: [None; 4], compaction: None, attachment: Sym::NONE, odd_start };
        c.object(|c, key| rec.top_field(c, key, t))?;
        Ok(rec)
    }

    fn set(&mut self, f: u16, on: bool) {
        if on {
            self.row.flags |= f;
        } else {
            self.row.flags &= !f;
        }
    }

    fn top_field(&mut self, c: &mut Cur, key: Str, t: &mut Tables) -> R<()> {
        let key = c.key(key);
        match &*key {
            b"type" => self.row.record_type = c.opt_sym(t.strings)?,
            b"uuid" => {
                self.row.flags |= flag::HAS_UUID;
                c.skip_value()?;
            }
            b"parentUuid" => self.parent_none = c.is_null()?,
            b"sessionId" => self.row.session_id = c.opt_sym(t.strings)?,
            b"entrypoint" => self.row.entrypoint = c.opt_sym(t.strings)?,
            b"version" => self.row.version = c.opt_sym(t.strings)?,
            b"agentId" => self.row.agent_id = c.opt_sym(t.strings)?,
            b"subtype" => self.row.subtype = c.opt_sym(t.strings)?,
            b"level" => self.row.level = c.opt_sym(t.strings)?,
            b"timestamp" => {
                let s = c.opt_str()?;
                let (ts, bad) = match s {
                    Some(s) => {
                        let ts = parse_rfc3339_ms(c.text(s).as_bytes());
                        (ts, ts.is_none())
                    }
                    None => (None, false),
                };
                self.row.timestamp_ms = ts;
                self.set(flag::BAD_TIMESTAMP, bad);
            }
            b"isSidechain" => {
                let on = c.is_true()?;
                self.set(flag::SIDECHAIN, on)
            }
            b"isApiErrorMessage" => {
                let on = c.is_true()?;
                self.set(flag::API_ERROR, on)
            }
            b"isCompactSummary" => {
                let on = c.is_true()?;
                self.set(flag::COMPACT_SUMMARY, on)
            }
            b"isMeta" => {
                let on = c.is_true()?;
                self.set(flag::META, on)
            }
            b"toolDenialKind" => {
                let on = !c.is_null()?;
                self.set(flag::DENIAL, on)
            }
            b"compactMetadata" => self.compaction = c.compact_metadata(self.row_index, t.strings)?,
            b"toolUseResult" => self.row.result_run_id = c.tool_use_result(t.strings)?,
            b"attachment" => self.attachment = c.attachment_type(t.strings)?,
            b"message" => self.message(c, t)?,
            k => match TITLE_KEYS.iter().position(|tk| tk.as_bytes() == k) {
                Some(n) => self.titles[n] = c.opt_str()?,
                None => c.skip_value()?,
            },
        }
        Ok(())
    }

    fn message(&mut self, c: &mut Cur, t: &mut Tables) -> R<()> {
        // A repeated `message` key replaces the earlier one, as in serde_json.
        let row = &mut *self.row;
        row.message_id = Sym::NONE;
        row.model = Sym::NONE;
        row.stop_reason = Sym::NONE;
        row.role = Role::None;
        row.usage = Usage::default();
        row.flags &= !flag::HAS_USAGE;
        self.reset_content(t);
        if c.peek() != Some(b'{') {
            self.row.flags &= !flag::HAS_MESSAGE;
            return c.skip_value();
        }
        self.row.flags |= flag::HAS_MESSAGE;
        c.object(|c, key| {
            let key = c.key(key);
            match &*key {
                b"id" => self.row.message_id = c.opt_sym(t.strings)?,
                b"model" => self.row.model = c.opt_sym(t.strings)?,
                b"stop_reason" => self.row.stop_reason = c.opt_sym(t.strings)?,
                b"role" => {
                    self.row.role = match c.opt_str()? {
                        None => Role::None,
                        Some(s) => match &*c.text(s) {
                            "user" => Role::User,
                            "assistant" => Role::Assistant,
                            _ => Role::Other,
                        },
                    }
                }
                b"usage" => match c.usage()? {
                    Some((u, fast)) => {
                        self.row.usage = u;
                        self.row.flags |= flag::HAS_USAGE;
                        if fast {
                            self.row.flags |= flag::FAST;
                        } else {
                            self.row.flags &= !flag::FAST;
                        }
                    }
                    None => {
                        self.row.usage = Usage::default();
                        self.row.flags &= !(flag::HAS_USAGE | flag::FAST);
                    }
                },
                b"content" => self.content(c, t)?,
                _ => c.skip_value()?,
            }
            Ok(())
        })
    }

    fn reset_content(&mut self, t: &mut Tables) {
        let row = &mut *self.row;
        row.content = Content::None;
        row.flags &= !flag::TASK_NOTIFICATION;
        row.blocks = 0;
        row.images = 0;
        t.tool_uses.truncate(row.tool_uses_start as usize);
        t.tool_results.truncate(row.tool_results_start as usize);
        t.odd_blocks.truncate(self.odd_start as usize);
    }

    fn content(&mut self, c: &mut Cur, t: &mut Tables) -> R<()> {
        self.reset_content(t);
        match c.peek() {
            Some(b'"') => {
                let s = c.string()?;
                self.row.content = Content::String;
                if c.starts_with(s, TASK_NOTIFICATION_TAG) {
                    self.row.flags |= flag::TASK_NOTIFICATION;
                }
                Ok(())
            }
            Some(b'[') => c.array(|c| {
                self.row.blocks += 1;
                let kind = if c.peek() == Some(b'{') {
                    self.block(c, t)?
                } else {
                    c.skip_value()?;
                    grow_push(t.odd_blocks, OddBlock { row: self.row_index, in_result: false, ty: Sym::NONE });
                    Content::Other
                };
                if self.row.blocks == 1 {
                    self.row.content = kind;
                }
                Ok(())
            }),
            _ => c.skip_value(),
        }
    }

    /// One element of `message.content` that is an object.
    fn block(&mut self, c: &mut Cur, t: &mut Tables) -> R<Content> {
        let mut ty = None;
        let (mut id, mut name, mut tool_use_id) = (None, None, None);
        let mut is_error = false;
        let mut persisted = false;
        let mut nested_images = 0u32;
        let odd_mark = t.odd_blocks.len();
        c.object(|c, key| {
            let key = c.key(key);
            match &*key {
                b"type" => ty = c.opt_str()?,
                b"id" => id = c.opt_str()?,
                b"name" => name = c.opt_str()?,
                b"tool_use_id" => tool_use_id = c.opt_str()?,
                b"is_error" => is_error = c.is_true()?,
                b"content" => {
                    persisted = false;
                    nested_images = 0;
                    t.odd_blocks.truncate(odd_mark);
                    match c.peek() {
                        Some(b'"') => {
                            let s = c.string()?;
                            persisted = c.starts_with(s, PERSISTED_TAG);
                        }
                        Some(b'[') => nested_images = c.result_blocks(self.row_index, t)?,
                        _ => c.skip_value()?,
                    }
                }
                _ => c.skip_value()?,
            }
            Ok(())
        })?;
        let kind = match ty.map(|s| c.text(s)) {
            Some(ty) => content_kind(&ty),
            None => Content::Other,
        };
        let row = self.row_index;
        // `content` may come before `type`: its elements count only in a tool_result.
        if kind != Content::ToolResult {
            t.odd_blocks.truncate(odd_mark);
        }
        if kind == Content::Other {
            grow_push(t.odd_blocks, OddBlock { row, in_result: false, ty: c.sym(ty, t.strings) });
        }
        match kind {
            Content::ToolUse => grow_push(t.tool_uses, ToolUse {
                row,
                id: c.sym(id, t.strings),
                name: c.sym(name, t.strings),
            }),
            Content::ToolResult => {
                grow_push(t.tool_results, ToolResult {
                    row,
                    tool_use_id: c.sym(tool_use_id, t.strings),
                    is_error,
                    persisted,
                    images: nested_images,
                });
                self.row.images += nested_images;
            }
            Content::Image => self.row.images += 1,
            _ => {}
        }
        Ok(kind)
    }

    fn finish(self, t: &mut Tables) {
        let row = self.row;
        if self.parent_none {
            row.flags |= flag::PARENT_NONE;
        }
        if row.subtype.is_none() {
            row.subtype = self.attachment;
        }
        row.tool_uses_len = t.tool_uses.len() as u32 - row.tool_uses_start;
        row.tool_results_len = t.tool_results.len() as u32 - row.tool_results_start;
        let ty = t.strings.resolve(row.record_type);
        if let Some(s) = TITLE_TYPES.iter().position(|&tt| tt == ty).and_then(|n| self.titles[n]) {
            t.titles.push(Title { row: self.row_index, start: s.start as u32, len: (s.end - s.start) as u32, escaped: s.escaped });
        }
        if let Some(cm) = self.compaction {
            t.compactions.push(cm);
        }
    }
}

/// Fields holding a bookkeeping record's text (user content).
pub const TITLE_KEYS: [&str; 4] = ["customTitle", "aiTitle", "lastPrompt", "summary"];
/// The record type whose text each of [`TITLE_KEYS`] is.
pub const TITLE_TYPES: [&str; 4] = ["custom-title", "ai-title", "last-prompt", "summary"];

/// Block types the page shows inside a tool_result's `content` array.
pub const RESULT_BLOCK_TYPES: [&str; 3] = ["text", "image", "tool_reference"];
/// Where `"image"` sits in [`RESULT_BLOCK_TYPES`].
const IMAGE_AT: usize = 1;

/// The `type` of a content block, as [`Content`].
pub fn content_kind(ty: &str) -> Content {
    match ty {
        "text" => Content::Text,
        "thinking" => Content::Thinking,
        "redacted_thinking" => Content::RedactedThinking,
        "tool_use" => Content::ToolUse,
        "tool_result" => Content::ToolResult,
        "image" => Content::Image,
        _ => Content::Other,
    }
}

/// The fields whose values the scanner reads (beyond plain strings and
/// flags): a cursor, extended with what a record needs.
impl Cur<'_> {
    /// `Some` when `usage` is an object.
    /// `Some((usage, fast))` when `usage` is an object.
    fn usage(&mut self) -> R<Option<(Usage, bool)>> {
        let mut u = Usage::default();
        let mut fast = false;
        if self.peek() != Some(b'{') {
            self.skip_value()?;
            return Ok(None);
        }
        self.object(|c, key| {
            let key = c.key(key);
            let slot = match &*key {
                b"input_tokens" => &mut u.input_tokens,
                b"output_tokens" => &mut u.output_tokens,
                b"cache_creation_input_tokens" => &mut u.cache_creation_input_tokens,
                b"cache_read_input_tokens" => &mut u.cache_read_input_tokens,
                b"cache_creation" => return c.nested_u32(b"ephemeral_1h_input_tokens").map(|n| u.cache_creation_1h_input_tokens = n),
                b"server_tool_use" => return c.nested_u32(b"web_search_requests").map(|n| u.web_search_requests = n),
                b"speed" => {
                    fast = match c.opt_str()? {
                        Some(s) => &*c.text(s) == "fast",
                        None => false,
                    };
                    return Ok(());
                }
                _ => return c.skip_value(),
            };
            *slot = c.opt_u64()?.map_or(0, saturate_u32);
            Ok(())
        })?;
        Ok(Some((u, fast)))
    }

    /// The integer under `key` of the object at the cursor (0 when it is
    /// absent or not an integer, or the value is not an object).
    fn nested_u32(&mut self, key: &[u8]) -> R<u32> {
        if self.peek() != Some(b'{') {
            self.skip_value()?;
            return Ok(0);
        }
        let mut n = 0;
        self.object(|c, k| {
            if &*c.key(k) == key {
                n = c.opt_u64()?.map_or(0, saturate_u32);
                Ok(())
            } else {
                c.skip_value()
            }
        })?;
        Ok(n)
    }

    fn compact_metadata(&mut self, row: u32, strings: &mut Interner) -> R<Option<Compaction>> {
        if self.peek() != Some(b'{') {
            self.skip_value()?;
            return Ok(None);
        }
        let mut cm = Compaction { row, ..Compaction::default() };
        self.object(|c, key| {
            let key = c.key(key);
            match &*key {
                b"preTokens" => cm.pre_tokens = c.opt_u64()?,
                b"postTokens" => cm.post_tokens = c.opt_u64()?,
                b"trigger" => cm.trigger = c.opt_sym(strings)?,
                _ => c.skip_value()?,
            }
            Ok(())
        })?;
        Ok(Some(cm))
    }

    /// The run a result names, when `toolUseResult` is an object: its
    /// `agentId` (a subagent run), else its `runId` (a workflow run).
    fn tool_use_result(&mut self, strings: &mut Interner) -> R<Sym> {
        if self.peek() != Some(b'{') {
            self.skip_value()?;
            return Ok(Sym::NONE);
        }
        let (mut agent, mut run) = (None, None);
        self.object(|c, key| match &*c.key(key) {
            b"agentId" => c.opt_str().map(|s| agent = s),
            b"runId" => c.opt_str().map(|s| run = s),
            _ => c.skip_value(),
        })?;
        Ok(self.sym(agent.or(run), strings))
    }

    /// `type` of an `attachment` object (`hook_success`, `plan_mode`, …).
    fn attachment_type(&mut self, strings: &mut Interner) -> R<Sym> {
        if self.peek() != Some(b'{') {
            self.skip_value()?;
            return Ok(Sym::NONE);
        }
        let mut ty = None;
        self.object(|c, key| match &*c.key(key) {
            b"type" => c.opt_str().map(|s| ty = s),
            _ => c.skip_value(),
        })?;
        Ok(self.sym(ty, strings))
    }

    /// The elements of a tool_result's `content` array: the number of image
    /// blocks; any element not of [`RESULT_BLOCK_TYPES`] goes to `odd_blocks`.
    fn result_blocks(&mut self, row: u32, t: &mut Tables) -> R<u32> {
        let mut n = 0;
        self.array(|c| {
            if c.peek() != Some(b'{') {
                grow_push(t.odd_blocks, OddBlock { row, in_result: true, ty: Sym::NONE });
                return c.skip_value();
            }
            let mut ty = None;
            c.object(|c, key| {
                if &*c.key(key) == b"type" {
                    ty = c.opt_str()?;
                    Ok(())
                } else {
                    c.skip_value()
                }
            })?;
            let known = ty.map(|s| c.text(s)).and_then(|s| RESULT_BLOCK_TYPES.iter().position(|&k| k == &*s));
            match known {
                Some(IMAGE_AT) => n += 1,
                Some(_) => {}
                None => grow_push(t.odd_blocks, OddBlock { row, in_result: true, ty: c.sym(ty, t.strings) }),
            }
            Ok(())
        })?;
        Ok(n)
    }
}

fn saturate_u32(n: u64) -> u32 {
    n.min(u32::MAX as u64) as u32
}

