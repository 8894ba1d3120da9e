//! The flat row: what the indexer keeps of one line.
//!
//! A row never holds a body. Every string it names is an interned symbol
//! (short identifiers: ids, names, versions); anything longer (prompts,
//! titles, tool output) is re-read from the file by the row's byte range
//! when it is shown.

use super::intern::Sym;

/// Why a line could not be read as a JSON object.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Malformed {
    /// The line is not valid UTF-8.
    InvalidUtf8 = 1,
    /// The line is valid JSON but not an object (an array, a string, ...).
    NotAnObject,
    /// The line ends before the JSON value does.
    Truncated,
    /// A byte that JSON does not allow at that position.
    Syntax,
    /// A number too large for a double.
    NumberOutOfRange,
    /// Nesting deeper than the reader accepts (127 levels).
    TooDeep,
}

impl Malformed {
    /// A short phrase for people: "line 21: truncated JSON".
    pub fn describe(self) -> &'static str {
        match self {
            Malformed::InvalidUtf8 => "not valid UTF-8",
            Malformed::NotAnObject => "not a JSON object",
            Malformed::Truncated => "truncated JSON",
            Malformed::Syntax => "invalid JSON",
            Malformed::NumberOutOfRange => "number out of range",
            Malformed::TooDeep => "nested too deeply",
        }
    }
}

/// `message.role`, when it is one of the two the format knows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Role {
    #[default]
    None = 0,
    User,
    Assistant,
    /// A string other than "user" / "assistant".
    Other,
}

/// What the first block of `message.content` is (or that content is a string).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Content {
    #[default]
    None = 0,
    /// `content` is a string (a typed prompt, a command, a summary).
    String,
    Text,
    Thinking,
    RedactedThinking,
    ToolUse,
    ToolResult,
    Image,
    /// A block whose `type` is missing or unknown.
    Other,
}

/// Boolean facts of a row, as bits. All positive ("is", "has").
pub mod flag {
    /// The record has a `uuid` key (bookkeeping records do not).
    pub const HAS_UUID: u16 = 1 << 0;
    /// `parentUuid` is absent or null.
    pub const PARENT_NONE: u16 = 1 << 1;
    /// `isSidechain === true`.
    pub const SIDECHAIN: u16 = 1 << 2;
    /// `isApiErrorMessage === true`.
    pub const API_ERROR: u16 = 1 << 3;
    /// `toolDenialKind` is present and not null.
    pub const DENIAL: u16 = 1 << 4;
    /// `isCompactSummary === true`.
    pub const COMPACT_SUMMARY: u16 = 1 << 5;
    /// `isMeta === true`.
    pub const META: u16 = 1 << 6;
    /// `timestamp` is present (a string) but does not parse as RFC 3339.
    pub const BAD_TIMESTAMP: u16 = 1 << 7;
    /// `message` is present and is an object.
    pub const HAS_MESSAGE: u16 = 1 << 8;
    /// `message.usage` is present and is an object: the token counters
    /// below were recorded (absent ones read 0; without this flag none was).
    pub const HAS_USAGE: u16 = 1 << 9;
    /// `message.content` is a string that starts with `<task-notification>`:
    /// a background task's answer (`model::background`), not a prompt.
    pub const TASK_NOTIFICATION: u16 = 1 << 10;
    /// `message.usage.speed === "fast"`: the API served the turn in fast
    /// mode (premium pricing).
    pub const FAST: u16 = 1 << 11;
}

/// Token counters of `message.usage`. Missing or non-integer values are 0;
/// values above `u32::MAX` saturate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Usage {
    pub input_tokens: u32,
    pub output_tokens: u32,
    pub cache_creation_input_tokens: u32,
    pub cache_read_input_tokens: u32,
    /// Of `cache_creation_input_tokens`, those written with the 1-hour
    /// lifetime (`cache_creation.ephemeral_1h_input_tokens`); the rest are
    /// 5-minute writes.
    pub cache_creation_1h_input_tokens: u32,
    /// `server_tool_use.web_search_requests`: web searches the API ran
    /// (priced per search).
    pub web_search_requests: u32,
}

impl Usage {
    /// Everything the model was sent: all three input counters are prompt.
    pub fn context_tokens(&self) -> u64 {
        self.input_tokens as u64
            + self.cache_creation_input_tokens as u64
            + self.cache_read_input_tokens as u64
    }
}

/// One non-blank line of the file.
///
/// Invariants: `offset + len_bytes` lies within the file; `line_no` counts
/// physical lines from 1 (blank lines included); for a malformed row every
/// field but `offset`, `len_bytes`, `line_no` and `malformed` is default.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Row {
    /// Absolute byte offset of the line's first byte (after a BOM).
    pub offset: u64,
    /// Milliseconds since the Unix epoch of `timestamp`, if it parsed.
    pub timestamp_ms: Option<i64>,
    /// Line length without its terminator (`\n` or `\r\n`).
    pub len_bytes: u32,
    pub line_no: u32,
    pub malformed: Option<Malformed>,
    /// Top-level `type`, when it is a string.
    pub record_type: Sym,
    pub session_id: Sym,
    pub entrypoint: Sym,
    pub version: Sym,
    pub agent_id: Sym,
    /// `subtype` (a system record's kind), else `attachment.type` (an
    /// attachment record's kind: `hook_success`, `plan_mode`, …).
    pub subtype: Sym,
    pub level: Sym,
    /// `message.id`, `message.model`, `message.stop_reason`.
    pub message_id: Sym,
    pub model: Sym,
    pub stop_reason: Sym,
    /// The run a result names: `toolUseResult.agentId` (the subagent run it
    /// came back from), else `toolUseResult.runId` (the workflow run a
    /// `Workflow` call launched).
    pub result_run_id: Sym,
    pub role: Role,
    pub content: Content,
    pub flags: u16,
    /// Number of blocks in `message.content` when it is an array.
    pub blocks: u32,
    /// Image blocks in `message.content` and in tool_result content arrays.
    pub images: u32,
    pub usage: Usage,
    /// This row's tool_use blocks: `tool_uses[tool_uses_start..][..tool_uses_len]`.
    pub tool_uses_start: u32,
    pub tool_uses_len: u32,
    /// This row's tool_result blocks, likewise in `tool_results`.
    pub tool_results_start: u32,
    pub tool_results_len: u32,
}

impl Row {
    pub fn has(&self, f: u16) -> bool {
        self.flags & f != 0
    }
    /// Absolute offset just past the line's last byte.
    pub fn end_offset(&self) -> u64 {
        self.offset + self.len_bytes as u64
    }
}

/// A `tool_use` block.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ToolUse {
    /// Index of the row it sits in.
    pub row: u32,
    pub id: Sym,
    pub name: Sym,
}

/// A `tool_result` block.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ToolResult {
    pub row: u32,
    pub tool_use_id: Sym,
    /// `is_error === true` (absent means no error).
    pub is_error: bool,
    /// String content that starts with `<persisted-output>`.
    pub persisted: bool,
    /// Image blocks inside its content array.
    pub images: u32,
}

/// The raw (still JSON-escaped) text of a `customTitle` / `aiTitle` /
/// `lastPrompt` / `summary` field: user content, re-read by range when shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Title {
    pub row: u32,
    /// Byte range relative to the start of the row's line (quotes excluded).
    pub start: u32,
    pub len: u32,
    /// The range holds JSON escapes (decode before showing).
    pub escaped: bool,
}

/// A content block the page has no view of its own for: in
/// `message.content`, a `type` that is not one of [`Content`]'s (or none, or
/// an element that is not an object); inside a tool_result's `content`
/// array, a `type` not in `scan::RESULT_BLOCK_TYPES`. Rare: the scanner
/// pushes one only for such a block, so known shapes cost nothing here.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OddBlock {
    /// Index of the row it sits in.
    pub row: u32,
    /// Inside a tool_result's `content` rather than `message.content`.
    pub in_result: bool,
    /// Its `type` as written; [`Sym::NONE`] when it has none.
    pub ty: Sym,
}

/// `compactMetadata` of a `compact_boundary` system record. Each field is
/// `None` when absent (or not a whole number): some writers record only
/// `trigger` and `preTokens`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Compaction {
    pub row: u32,
    pub pre_tokens: Option<u64>,
    pub post_tokens: Option<u64>,
    pub trigger: Sym,
}
