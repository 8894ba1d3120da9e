//! The naive reference indexer: `split(b'\n')` + `serde_json::Value`.
//!
//! Slow and obviously right; the property tests and the fuzz target hold the
//! real indexer to it. [`resolve`] turns either one's output into plain
//! strings so the two can be compared with `==` whatever their symbol order.

use serde_json::Value;

use super::intern::{Interner, Sym};
use super::row::{flag, Compaction, Content, Malformed, OddBlock, Role, Row, Title, ToolResult, ToolUse, Usage};
use super::scan::{content_kind, PERSISTED_TAG, RESULT_BLOCK_TYPES, TASK_NOTIFICATION_TAG, TITLE_KEYS, TITLE_TYPES};
use super::time::parse_rfc3339_ms;
use super::Index;

/// Indexes `bytes` the slow way.
pub fn index(bytes: &[u8]) -> Index {
    let mut ix = Index { strings: Interner::new(), len_bytes: bytes.len() as u64, ..Index::default() };
    let mut offset = 0u64;
    let parts: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    let n = parts.len();
    for (k, raw) in parts.into_iter().enumerate() {
        let start = offset;
        offset += raw.len() as u64 + 1;
        // `split` yields a final "" after a trailing newline (or for an empty file).
        if k == n - 1 && raw.is_empty() {
            break;
        }
        ix.physical_lines += 1;
        let (mut line, mut off) = (raw, start);
        if start == 0 && line.starts_with(b"\xEF\xBB\xBF") {
            line = &line[3..];
            off += 3;
        }
        if line.last() == Some(&b'\r') {
            line = &line[..line.len() - 1];
        }
        ix.max_line_bytes = ix.max_line_bytes.max(line.len() as u32);
        if line.iter().all(|b| b" \t\r".contains(b)) {
            ix.blank_lines += 1;
            continue;
        }
        let base = Row {
            offset: off,
            len_bytes: line.len() as u32,
            line_no: ix.physical_lines,
            tool_uses_start: ix.tool_uses.len() as u32,
            tool_results_start: ix.tool_results.len() as u32,
            ..Row::default()
        };
        let row = match serde_json::from_slice::<Value>(line) {
            Ok(Value::Object(map)) => record(&mut ix, base, &map, line),
            Ok(_) => Row { malformed: Some(Malformed::NotAnObject), ..base },
            Err(_) => Row { malformed: Some(Malformed::Syntax), ..base },
        };
        if row.malformed.is_some() {
            ix.malformed_lines += 1;
        }
        ix.rows.push(row);
    }
    ix
}

type Map = serde_json::Map<String, Value>;

fn sym(strings: &mut Interner, v: Option<&Value>) -> Sym {
    match v {
        Some(Value::String(s)) => strings.intern(s),
        _ => Sym::NONE,
    }
}

fn is_true(v: Option<&Value>) -> bool {
    v == Some(&Value::Bool(true))
}

fn u32_of(v: Option<&Value>) -> u32 {
    v.and_then(Value::as_u64).map_or(0, |n| n.min(u32::MAX as u64) as u32)
}

fn record(ix: &mut Index, mut row: Row, m: &Map, line: &[u8]) -> Row {
    let row_index = ix.rows.len() as u32;
    let s = &mut ix.strings;
    row.record_type = sym(s, m.get("type"));
    row.session_id = sym(s, m.get("sessionId"));
    row.entrypoint = sym(s, m.get("entrypoint"));
    row.version = sym(s, m.get("version"));
    row.agent_id = sym(s, m.get("agentId"));
    row.subtype = sym(s, m.get("subtype"));
    if row.subtype.is_none() {
        // An attachment's kind stands in for the subtype (as the scanner).
        if let Some(Value::Object(a)) = m.get("attachment") {
            row.subtype = sym(s, a.get("type"));
        }
    }
    row.level = sym(s, m.get("level"));
    let mut flags = 0;
    let mut set = |f: u16, on: bool| {
        if on {
            flags |= f
        }
    };
    set(flag::HAS_UUID, m.contains_key("uuid"));
    set(flag::PARENT_NONE, matches!(m.get("parentUuid"), None | Some(Value::Null)));
    set(flag::SIDECHAIN, is_true(m.get("isSidechain")));
    set(flag::API_ERROR, is_true(m.get("isApiErrorMessage")));
    set(flag::COMPACT_SUMMARY, is_true(m.get("isCompactSummary")));
    set(flag::META, is_true(m.get("isMeta")));
    set(flag::DENIAL, !matches!(m.get("toolDenialKind"), None | Some(Value::Null)));
    if let Some(Value::String(ts)) = m.get("timestamp") {
        row.timestamp_ms = parse_rfc3339_ms(ts.as_bytes());
        set(flag::BAD_TIMESTAMP, row.timestamp_ms.is_none());
    }
    if let Some(Value::Object(tur)) = m.get("toolUseResult") {
        // A subagent run's id, else a workflow run's (as the scanner).
        let named = |k: &str| tur.get(k).filter(|v| v.is_string());
        row.result_run_id = sym(s, named("agentId").or(named("runId")));
    }
    if let Some(Value::Object(cm)) = m.get("compactMetadata") {
        ix.compactions.push(Compaction {
            row: row_index,
            pre_tokens: cm.get("preTokens").and_then(Value::as_u64),
            post_tokens: cm.get("postTokens").and_then(Value::as_u64),
            trigger: sym(s, cm.get("trigger")),
        });
    }
    let title_key = TITLE_TYPES.iter().position(|&t| t == s.resolve(row.record_type)).map(|n| TITLE_KEYS[n]);
    if let Some((key, Value::String(text))) = title_key.and_then(|k| Some((k, m.get(k)?))) {
        if let Some(title) = raw_string_span(line, key, text) {
            ix.titles.push(Title { row: row_index, ..title });
        }
    }
    if let Some(Value::Object(msg)) = m.get("message") {
        set(flag::HAS_MESSAGE, true);
        row.message_id = sym(s, msg.get("id"));
        row.model = sym(s, msg.get("model"));
        row.stop_reason = sym(s, msg.get("stop_reason"));
        row.role = match msg.get("role") {
            Some(Value::String(r)) if r == "user" => Role::User,
            Some(Value::String(r)) if r == "assistant" => Role::Assistant,
            Some(Value::String(_)) => Role::Other,
            _ => Role::None,
        };
        if let Some(Value::Object(u)) = msg.get("usage") {
            set(flag::HAS_USAGE, true);
            row.usage = Usage {
                input_tokens: u32_of(u.get("input_tokens")),
                output_tokens: u32_of(u.get("output_tokens")),
                cache_creation_input_tokens: u32_of(u.get("cache_creation_input_tokens")),
                cache_read_input_tokens: u32_of(u.get("cache_read_input_tokens")),
                cache_creation_1h_input_tokens: match u.get("cache_creation") {
                    Some(Value::Object(c)) => u32_of(c.get("ephemeral_1h_input_tokens")),
                    _ => 0,
                },
                web_search_requests: match u.get("server_tool_use") {
                    Some(Value::Object(s)) => u32_of(s.get("web_search_requests")),
                    _ => 0,
                },
            };
            set(flag::FAST, matches!(u.get("speed"), Some(Value::String(s)) if s == "fast"));
        }
        match msg.get("content") {
            Some(Value::String(text)) => {
                row.content = Content::String;
                if text.starts_with(TASK_NOTIFICATION_TAG) {
                    row.flags |= flag::TASK_NOTIFICATION;
                }
            }
            Some(Value::Array(blocks)) => {
                row.blocks = blocks.len() as u32;
                for (k, b) in blocks.iter().enumerate() {
                    let kind = match b {
                        Value::Object(b) => block(ix_tables(ix), row_index, &mut row, b),
                        _ => {
                            ix.odd_blocks.push(OddBlock { row: row_index, in_result: false, ty: Sym::NONE });
                            Content::Other
                        }
                    };
                    if k == 0 {
                        row.content = kind;
                    }
                }
            }
            _ => {}
        }
    }
    row.flags = flags;
    row.tool_uses_len = ix.tool_uses.len() as u32 - row.tool_uses_start;
    row.tool_results_len = ix.tool_results.len() as u32 - row.tool_results_start;
    row
}

struct Tables<'a> {
    tool_uses: &'a mut Vec<ToolUse>,
    tool_results: &'a mut Vec<ToolResult>,
    odd_blocks: &'a mut Vec<OddBlock>,
    strings: &'a mut Interner,
}

fn ix_tables(ix: &mut Index) -> Tables<'_> {
    Tables { tool_uses: &mut ix.tool_uses, tool_results: &mut ix.tool_results, odd_blocks: &mut ix.odd_blocks, strings: &mut ix.strings }
}

fn block(t: Tables, row_index: u32, row: &mut Row, b: &Map) -> Content {
    let kind = match b.get("type") {
        Some(Value::String(ty)) => content_kind(ty),
        _ => Content::Other,
    };
    if kind == Content::Other {
        t.odd_blocks.push(OddBlock { row: row_index, in_result: false, ty: sym(t.strings, b.get("type")) });
    }
    match kind {
        Content::ToolUse => t.tool_uses.push(ToolUse {
            row: row_index,
            id: sym(t.strings, b.get("id")),
            name: sym(t.strings, b.get("name")),
        }),
        Content::ToolResult => {
            let (persisted, images) = match b.get("content") {
                Some(Value::String(c)) => (c.starts_with(PERSISTED_TAG), 0),
                Some(Value::Array(items)) => {
                    let mut images = 0;
                    for i in items {
                        match i.get("type").and_then(Value::as_str) {
                            Some("image") => images += 1,
                            Some(ty) if RESULT_BLOCK_TYPES.contains(&ty) => {}
                            _ => {
                                let ty = if i.is_object() { sym(t.strings, i.get("type")) } else { Sym::NONE };
                                t.odd_blocks.push(OddBlock { row: row_index, in_result: true, ty });
                            }
                        }
                    }
                    (false, images)
                }
                _ => (false, 0),
            };
            t.tool_results.push(ToolResult {
                row: row_index,
                tool_use_id: sym(t.strings, b.get("tool_use_id")),
                is_error: is_true(b.get("is_error")),
                persisted,
                images,
            });
            row.images += images;
        }
        Content::Image => row.images += 1,
        _ => {}
    }
    kind
}

/// Where the string value of top-level `key` sits in the raw line: the last
/// `"key"` followed by `:` and a string that decodes to `value`.
fn raw_string_span(line: &[u8], key: &str, value: &str) -> Option<Title> {
    let needle = format!("\"{key}\"");
    let ws = |i: &mut usize| {
        while line.get(*i).is_some_and(|b| b" \t\r\n".contains(b)) {
            *i += 1;
        }
    };
    let mut found = None;
    for at in memchr::memmem::find_iter(line, needle.as_bytes()) {
        let mut i = at + needle.len();
        ws(&mut i);
        if line.get(i) != Some(&b':') {
            continue;
        }
        i += 1;
        ws(&mut i);
        let mut de = serde_json::Deserializer::from_slice(&line[i..]).into_iter::<String>();
        if let Some(Ok(s)) = de.next() {
            if s == value {
                let raw = &line[i + 1..i + de.byte_offset() - 1];
                found = Some(Title { row: 0, start: (i + 1) as u32, len: raw.len() as u32, escaped: raw.contains(&b'\\') });
            }
        }
    }
    found
}

/// A row with every symbol resolved to its string, and its tool entries
/// inlined: comparable across indexers.
#[derive(Debug, PartialEq, Eq)]
pub struct Resolved {
    pub row: Row,
    pub strings: Vec<String>,
    pub tool_uses: Vec<(String, String)>,
    pub tool_results: Vec<(String, bool, bool, u32)>,
}

/// Rows, file-level counters (bytes, physical, blank, longest, malformed)
/// and compactions `(row, pre, post, trigger)`, all with symbols resolved.
/// Titles as `(row, start, len, escaped)`.
/// Odd blocks as `(row, in_result, type)`.
pub type ResolvedIndex = (Vec<Resolved>, [u64; 5], Vec<(u32, Option<u64>, Option<u64>, String)>, Vec<(u32, u32, u32, bool)>, Vec<(u32, bool, String)>);

/// Every row of `ix` with symbols resolved, plus the file-level counters.
pub fn resolve(ix: &Index) -> ResolvedIndex {
    let s = |sym: Sym| ix.str(sym).to_string();
    let rows = ix
        .rows
        .iter()
        .map(|r| {
            let strings = [
                r.record_type, r.session_id, r.entrypoint, r.version, r.agent_id, r.subtype, r.level,
                r.message_id, r.model, r.stop_reason, r.result_run_id,
            ]
            .map(s)
            .to_vec();
            let mut row = r.clone();
            for sym in [
                &mut row.record_type, &mut row.session_id, &mut row.entrypoint, &mut row.version,
                &mut row.agent_id, &mut row.subtype, &mut row.level, &mut row.message_id, &mut row.model,
                &mut row.stop_reason, &mut row.result_run_id,
            ] {
                *sym = Sym::NONE;
            }
            // Malformed reasons differ in detail between the two; presence must not.
            row.malformed = row.malformed.map(|_| Malformed::Syntax);
            Resolved {
                strings,
                tool_uses: ix.tool_uses_of(r).iter().map(|t| (s(t.id), s(t.name))).collect(),
                tool_results: ix
                    .tool_results_of(r)
                    .iter()
                    .map(|t| (s(t.tool_use_id), t.is_error, t.persisted, t.images))
                    .collect(),
                row,
            }
        })
        .collect();
    let counters = [
        ix.len_bytes,
        ix.physical_lines as u64,
        ix.blank_lines as u64,
        ix.max_line_bytes as u64,
        ix.malformed_lines as u64,
    ];
    let compactions =
        ix.compactions.iter().map(|c| (c.row, c.pre_tokens, c.post_tokens, s(c.trigger))).collect();
    let titles = ix.titles.iter().map(|t| (t.row, t.start, t.len, t.escaped)).collect();
    let odd_blocks = ix.odd_blocks.iter().map(|o| (o.row, o.in_result, s(o.ty))).collect();
    (rows, counters, compactions, titles, odd_blocks)
}

/// Where two resolved indexes first differ, in a few words (a whole
/// [`ResolvedIndex`] in an assertion message runs to megabytes); `None` if
/// they are equal.
pub fn first_difference(got: &ResolvedIndex, want: &ResolvedIndex) -> Option<String> {
    let short = |r: &Resolved| {
        let s = format!("{r:?}");
        s.chars().take(400).collect::<String>()
    };
    if let Some((g, w)) = got.0.iter().zip(&want.0).find(|(g, w)| g != w) {
        return Some(format!("line {}:\n  got  {}\n  want {}", w.row.line_no, short(g), short(w)));
    }
    if got.0.len() != want.0.len() {
        return Some(format!("{} rows, want {}", got.0.len(), want.0.len()));
    }
    (got != want).then(|| format!("counters or tables: got {:?}, want {:?}", got.1, want.1))
}

/// The indexer against this reference on [`every_byte_in_strings`]
/// (every byte at every position of a SIMD block): what is wrong, if
/// anything. The same check runs natively and in wasm (simd128).
pub fn every_byte_disagreement() -> Option<String> {
    let bytes = every_byte_in_strings();
    let ix = super::Indexer::index_bytes(&bytes);
    if ix.rows.len() != 255 * 12 * 2 {
        return Some(format!("{} rows, not {}", ix.rows.len(), 255 * 12 * 2));
    }
    if ix.malformed().count() == 0 {
        return Some("no malformed lines, but the set holds invalid lines too".into());
    }
    first_difference(&resolve(&ix), &resolve(&index(&bytes))).map(|d| format!("the scanner and serde_json disagree at {d}"))
}

/// Lines that put every byte value but `\n` (the line break), bare and
/// after a backslash, at every
/// position of interest (around the 16- and 64-byte blocks the string
/// scanner works in) inside a long string value. Most are valid JSON, some
/// are not (a bare control byte, a lone high byte, an unknown escape): a
/// test indexes them all and compares with serde_json's reading, which
/// checks each instruction set's string scanner byte by byte.
pub fn every_byte_in_strings() -> Vec<u8> {
    const AT: [usize; 12] = [0, 1, 15, 16, 17, 31, 32, 63, 64, 65, 100, 127];
    let mut out = Vec::new();
    for byte in (0..=255u8).filter(|&b| b != b'\n') {
        for at in AT {
            for escaped in [false, true] {
                let mut s = vec![b'a'; 130];
                s[at] = byte;
                if escaped && at > 0 {
                    s[at - 1] = b'\\';
                }
                out.extend_from_slice(b"{\"type\":\"user\",\"k\":\"");
                out.extend_from_slice(&s);
                out.extend_from_slice(b"\"}\n");
            }
        }
    }
    out
}
