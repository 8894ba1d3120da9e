//! One line's body, read back by byte range when it is shown, parsed into
//! only what the view displays.
//!
//! The parse is lenient and selective: every field is optional, a field of
//! an unexpected JSON type reads as absent instead of failing the line, and
//! fields the view never shows (thinking `signature`, most of `toolUseResult`,
//! usage details, ...) are skipped by serde without being materialised.

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::Value;
use std::fmt;

/// What the view shows of one record.
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Body {
    #[serde(rename = "type")]
    pub record_type: Lenient<String>,
    pub message: Option<Message>,
    pub subtype: Lenient<String>,
    pub level: Lenient<String>,
    /// System records: a string (compact_boundary, informational notes).
    pub content: Lenient<String>,
    /// API errors: a string ("overloaded") on assistant records, an object
    /// (`{status, error: {type}}`) on system `api_error` records.
    pub error: Option<Value>,
    pub api_error_status: Option<Value>,
    pub retry_in_ms: Lenient<f64>,
    pub retry_attempt: Lenient<f64>,
    pub max_retries: Lenient<f64>,
    pub custom_title: Lenient<String>,
    pub ai_title: Lenient<String>,
    pub summary: Lenient<String>,
    /// The working directory the record was written in.
    pub cwd: Lenient<String>,
    /// `turn_duration` system records: how long the turn took.
    pub duration_ms: Lenient<f64>,
    /// `stop_hook_summary` system records: hooks run, their errors, and
    /// whether (and why) they stopped the turn.
    pub hook_count: Lenient<f64>,
    pub hook_errors: Option<Value>,
    pub prevented_continuation: Lenient<bool>,
    pub stop_reason: Lenient<String>,
    /// Tool results: what the tool reported beside the model's text (only
    /// the fields the view shows; the rest is skipped unread).
    pub tool_use_result: LenientObj<UseResult>,
    /// Bookkeeping records' own fields (`model::record` puts them in
    /// words): `permission-mode`, `mode`, `pr-link`, `queue-operation`,
    /// `agent-name`, a `microcompact_boundary`'s metadata, an
    /// `attachment`, a `progress` record's `data`.
    pub permission_mode: Lenient<String>,
    pub mode: Lenient<String>,
    pub pr_number: Lenient<f64>,
    pub pr_url: Lenient<String>,
    pub pr_repository: Lenient<String>,
    pub operation: Lenient<String>,
    pub agent_name: Lenient<String>,
    pub microcompact_metadata: Option<Value>,
    pub attachment: LenientObj<Attachment>,
    pub data: LenientObj<Attachment>,
    /// `file-history-snapshot` records: the backup of each tracked file at
    /// this checkpoint (`model::checkpoints` reads it).
    pub snapshot: LenientObj<Snapshot>,
}

/// A `file-history-snapshot`'s `snapshot`: `trackedFileBackups` maps each
/// tracked file's path to `{backupFileName, version, backupTime}` (kept as
/// JSON: any field may be absent or null).
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Snapshot {
    pub tracked_file_backups: Option<Value>,
}

/// An `attachment` record's payload (or a `progress` record's `data`):
/// the fields `model::record` puts in words, by `type`. Shapes from the
/// real 2.1.114 file of daaain/claude-code-log's test data (`hook_success`,
/// `hook_additional_context`, `deferred_tools_delta`, `skill_listing`,
/// `task_reminder`), d-kimuson/claude-code-viewer
/// `src/lib/conversation-schema/entry/AttachmentEntrySchema.ts`
/// (`mcp_instructions_delta`, `companion_intro`) and public strict schemas
/// of the attachment payloads (plan mode, hooks, files, queued commands).
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Attachment {
    #[serde(rename = "type")]
    pub kind: Lenient<String>,
    pub hook_name: Lenient<String>,
    pub hook_event: Lenient<String>,
    pub content: Option<Value>,
    pub stderr: Lenient<String>,
    pub exit_code: Lenient<f64>,
    pub blocking_error: Option<Value>,
    pub filename: Lenient<String>,
    pub display_path: Lenient<String>,
    pub path: Lenient<String>,
    pub prompt: Option<Value>,
    pub added_names: Option<Value>,
    pub removed_names: Option<Value>,
    pub name: Lenient<String>,
    pub species: Lenient<String>,
    pub item_count: Lenient<f64>,
    pub skill_count: Lenient<f64>,
    pub new_date: Lenient<String>,
    pub plan_file_path: Lenient<String>,
    pub status: Lenient<String>,
    pub description: Lenient<String>,
    pub text: Lenient<String>,
}

impl Attachment {
    fn map_strings(&mut self, f: &mut impl FnMut(&str) -> Option<String>) {
        for s in [&mut self.hook_name.0, &mut self.hook_event.0, &mut self.stderr.0, &mut self.filename.0, &mut self.display_path.0, &mut self.path.0, &mut self.name.0,
            &mut self.species.0, &mut self.new_date.0, &mut self.plan_file_path.0, &mut self.status.0, &mut self.description.0, &mut self.text.0] {
            map_field(s, f);
        }
        for v in [&mut self.content, &mut self.blocking_error, &mut self.prompt, &mut self.added_names, &mut self.removed_names].into_iter().flatten() {
            map_value_strings(v, f);
        }
    }
}

/// The part of `toolUseResult` the view shows: a Write's `type`
/// (`"create"` for a new file, `"update"` for an overwritten one) and an
/// edit's `structuredPatch` (hunks of `oldStart`, `oldLines`, `newStart`,
/// `newLines` and `lines` prefixed ` `, `-`, `+`), kept as JSON and read by
/// `model::changes`.
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct UseResult {
    #[serde(rename = "type")]
    pub kind: Lenient<String>,
    pub structured_patch: Option<Value>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Message {
    pub role: Lenient<String>,
    pub content: Content,
    pub model: Lenient<String>,
}

/// `message.content` or `tool_result.content`: a string or blocks.
#[derive(Debug, Default)]
pub enum Content {
    #[default]
    None,
    Text(String),
    Blocks(Vec<Block>),
}

/// One content block. `kind` is its `type` ("text", "thinking", "tool_use",
/// "tool_result", "image", "tool_reference", ...).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Block {
    #[serde(rename = "type")]
    pub kind: Lenient<String>,
    pub text: Lenient<String>,
    pub thinking: Lenient<String>,
    /// tool_use
    pub id: Lenient<String>,
    pub name: Lenient<String>,
    pub input: Option<Value>,
    /// tool_result
    pub tool_use_id: Lenient<String>,
    pub content: Content,
    pub is_error: Lenient<bool>,
    /// image
    pub source: Option<ImageSource>,
    /// tool_reference
    pub tool_name: Lenient<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ImageSource {
    #[serde(rename = "type")]
    pub kind: Lenient<String>,
    pub media_type: Lenient<String>,
    pub data: Lenient<String>,
}

impl Body {
    /// Parses one line. `None` when it is not a JSON object at all.
    pub fn parse(line: &[u8]) -> Option<Body> {
        serde_json::from_slice(line).ok()
    }

    pub fn blocks(&self) -> &[Block] {
        match self.message.as_ref().map(|m| &m.content) {
            Some(Content::Blocks(b)) => b,
            _ => &[],
        }
    }

    /// A string `message.content`.
    pub fn text(&self) -> Option<&str> {
        match self.message.as_ref().map(|m| &m.content) {
            Some(Content::Text(t)) => Some(t),
            _ => None,
        }
    }

    /// The tool_result block answering `tool_use_id`.
    pub fn result_for(&self, tool_use_id: &str) -> Option<&Block> {
        self.blocks().iter().find(|b| b.kind.is("tool_result") && b.tool_use_id.as_deref() == Some(tool_use_id))
    }

    /// The prompt a person would read: the string content (borrowed: a
    /// 40 MB prompt is not copied to be looked at), or the text blocks
    /// joined. Empty when the record has none.
    pub fn prompt_text(&self) -> std::borrow::Cow<'_, str> {
        if let Some(t) = self.text() {
            return std::borrow::Cow::Borrowed(t);
        }
        let texts: Vec<&str> = self.blocks().iter().filter(|b| b.kind.is("text")).filter_map(|b| b.text.as_deref()).collect();
        std::borrow::Cow::Owned(texts.join("\n\n"))
    }

    /// HTTP status and retry facts of an API error, as words:
    /// "HTTP 529 overloaded_error · retry 1 of 10 in 2.0 s".
    pub fn api_error_words(&self) -> String {
        let mut parts = Vec::new();
        let status = self.api_error_status.as_ref().and_then(Value::as_u64).or_else(|| {
            self.error.as_ref().and_then(|e| e.get("status")).and_then(Value::as_u64)
        });
        if let Some(s) = status {
            parts.push(format!("HTTP {s}"));
        }
        let kind = match &self.error {
            Some(Value::String(s)) => Some(s.clone()),
            Some(e) => e.pointer("/error/type").or_else(|| e.get("type")).and_then(Value::as_str).map(str::to_string),
            None => None,
        };
        parts.extend(kind);
        if let (Some(a), Some(m)) = (self.retry_attempt.0, self.max_retries.0) {
            let wait = self.retry_in_ms.0.map(|ms| format!(" in {}", crate::fmt::duration_secs(ms / 1000.0))).unwrap_or_default();
            parts.push(format!("retry {a} of {m}{wait}"));
        }
        parts.join(" · ")
    }
}

/// A string changed by `f` (`None`: left as it is).
fn map_string(s: &mut String, f: &mut impl FnMut(&str) -> Option<String>) {
    if let Some(new) = f(s) {
        *s = new;
    }
}

/// An optional string changed by `f`, when there is one.
fn map_field(s: &mut Option<String>, f: &mut impl FnMut(&str) -> Option<String>) {
    if let Some(s) = s {
        map_string(s, f);
    }
}

/// Every string value inside `v` (object keys are left alone).
pub fn map_value_strings(v: &mut Value, f: &mut impl FnMut(&str) -> Option<String>) {
    match v {
        Value::String(s) => map_string(s, f),
        Value::Array(a) => a.iter_mut().for_each(|x| map_value_strings(x, f)),
        Value::Object(m) => m.values_mut().for_each(|x| map_value_strings(x, f)),
        _ => {}
    }
}

impl Content {
    fn map_strings(&mut self, f: &mut impl FnMut(&str) -> Option<String>) {
        match self {
            Content::None => {}
            Content::Text(t) => map_string(t, f),
            Content::Blocks(bs) => bs.iter_mut().for_each(|b| b.map_strings(f)),
        }
    }
}

impl Body {
    /// Passes every string the view may show through `f` (which returns
    /// `None` to leave one as it is): how the page redacts a body whole,
    /// before anything cuts, joins or marks its text.
    pub fn map_strings(&mut self, f: &mut impl FnMut(&str) -> Option<String>) {
        for s in [&mut self.content.0, &mut self.custom_title.0, &mut self.ai_title.0, &mut self.summary.0, &mut self.cwd.0, &mut self.subtype.0, &mut self.level.0, &mut self.stop_reason.0,
            &mut self.permission_mode.0, &mut self.mode.0, &mut self.pr_url.0, &mut self.pr_repository.0, &mut self.operation.0, &mut self.agent_name.0] {
            map_field(s, f);
        }
        for a in [&mut self.attachment.0, &mut self.data.0].into_iter().flatten() {
            a.map_strings(f);
        }
        // A snapshot's keys are paths (shown); its values name backups by
        // hash, which are not the person's text and must stay as written.
        if let Some(Value::Object(files)) = self.snapshot.0.as_mut().and_then(|s| s.tracked_file_backups.as_mut()) {
            *files = std::mem::take(files).into_iter().map(|(k, v)| (f(&k).unwrap_or(k), v)).collect();
        }
        let patch = self.tool_use_result.0.as_mut().and_then(|r| r.structured_patch.as_mut());
        for v in [self.error.as_mut(), self.api_error_status.as_mut(), self.hook_errors.as_mut(), self.microcompact_metadata.as_mut(), patch].into_iter().flatten() {
            map_value_strings(v, f);
        }
        if let Some(m) = &mut self.message {
            map_field(&mut m.model.0, f);
            m.content.map_strings(f);
        }
    }
}

impl Block {
    fn map_strings(&mut self, f: &mut impl FnMut(&str) -> Option<String>) {
        for s in [&mut self.text.0, &mut self.thinking.0, &mut self.name.0, &mut self.tool_name.0] {
            map_field(s, f);
        }
        if let Some(v) = &mut self.input {
            map_value_strings(v, f);
        }
        self.content.map_strings(f);
    }

    /// The text of a tool_result: its string content or its text blocks.
    pub fn result_text(&self) -> String {
        match &self.content {
            Content::None => String::new(),
            Content::Text(t) => t.clone(),
            Content::Blocks(bs) => {
                bs.iter().filter(|b| b.kind.is("text")).filter_map(|b| b.text.as_deref()).collect::<Vec<_>>().join("\n")
            }
        }
    }

    /// Blocks inside a tool_result's content array (images, references).
    pub fn inner_blocks(&self) -> &[Block] {
        match &self.content {
            Content::Blocks(b) => b,
            _ => &[],
        }
    }

    /// An image the page may show: `(media type, base64 data)`. Only raster
    /// types a browser draws inertly; anything else is described, not shown.
    pub fn image(&self) -> Option<(&str, &str)> {
        let src = self.source.as_ref()?;
        let media = src.media_type.as_deref()?;
        let data = src.data.as_deref()?;
        let ok = matches!(media, "image/png" | "image/jpeg" | "image/gif" | "image/webp");
        let base64 = data.bytes().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'='));
        (src.kind.is("base64") && ok && base64).then_some((media, data))
    }
}

/// `<persisted-output>` results: the preview the writer kept inline.
pub fn persisted_preview(text: &str) -> Option<&str> {
    let rest = text.strip_prefix(crate::index::scan::PERSISTED_TAG)?;
    let body = rest.strip_suffix("</persisted-output>").unwrap_or(rest);
    Some(body.trim())
}

/// A value of the expected JSON type, or absent (`None`) for any other type
/// (which is skipped, not materialised).
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Lenient<T>(pub Option<T>);

impl<T> std::ops::Deref for Lenient<T> {
    type Target = Option<T>;
    fn deref(&self) -> &Option<T> {
        &self.0
    }
}

impl Lenient<String> {
    pub fn is(&self, s: &str) -> bool {
        self.0.as_deref() == Some(s)
    }
    pub fn as_deref(&self) -> Option<&str> {
        self.0.as_deref()
    }
}

impl Lenient<bool> {
    pub fn is_true(&self) -> bool {
        self.0 == Some(true)
    }
}

/// Which JSON scalar a [`Lenient`] keeps.
pub trait Scalar: Sized {
    fn from_str(_: &str) -> Option<Self> {
        None
    }
    fn from_bool(_: bool) -> Option<Self> {
        None
    }
    fn from_f64(_: f64) -> Option<Self> {
        None
    }
}
impl Scalar for String {
    fn from_str(s: &str) -> Option<Self> {
        Some(s.to_string())
    }
}
impl Scalar for bool {
    fn from_bool(b: bool) -> Option<Self> {
        Some(b)
    }
}
impl Scalar for f64 {
    fn from_f64(x: f64) -> Option<Self> {
        Some(x)
    }
}

struct LenientVisitor<T>(std::marker::PhantomData<T>);

impl<'de, T: Scalar> Visitor<'de> for LenientVisitor<T> {
    type Value = Lenient<T>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Self::Value, E> {
        Ok(Lenient(T::from_str(s)))
    }
    fn visit_string<E: de::Error>(self, s: String) -> Result<Self::Value, E> {
        Ok(Lenient(T::from_str(&s)))
    }
    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Self::Value, E> {
        Ok(Lenient(T::from_bool(b)))
    }
    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Self::Value, E> {
        Ok(Lenient(T::from_f64(n as f64)))
    }
    fn visit_i64<E: de::Error>(self, n: i64) -> Result<Self::Value, E> {
        Ok(Lenient(T::from_f64(n as f64)))
    }
    fn visit_f64<E: de::Error>(self, n: f64) -> Result<Self::Value, E> {
        Ok(Lenient(T::from_f64(n)))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Lenient(None))
    }
    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Lenient(None))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Lenient(None))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Lenient(None))
    }
}

impl<'de, T: Scalar> Deserialize<'de> for Lenient<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(LenientVisitor(std::marker::PhantomData))
    }
}

/// An object read as `T`, or absent (`None`) for any other JSON type
/// (skipped, not materialised). `T`'s own fields must be lenient: an
/// object that does not read as `T` fails the line.
#[derive(Debug, Default)]
pub struct LenientObj<T>(pub Option<T>);

struct ObjVisitor<T>(std::marker::PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for ObjVisitor<T> {
    type Value = LenientObj<T>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        T::deserialize(de::value::MapAccessDeserializer::new(map)).map(|t| LenientObj(Some(t)))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(LenientObj(None))
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
        Ok(LenientObj(None))
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Ok(LenientObj(None))
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Ok(LenientObj(None))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Ok(LenientObj(None))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Ok(LenientObj(None))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(LenientObj(None))
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for LenientObj<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ObjVisitor(std::marker::PhantomData))
    }
}

struct ContentVisitor;

impl<'de> Visitor<'de> for ContentVisitor {
    type Value = Content;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string or an array of blocks")
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Content, E> {
        Ok(Content::Text(s.to_string()))
    }
    fn visit_string<E: de::Error>(self, s: String) -> Result<Content, E> {
        Ok(Content::Text(s))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Content, A::Error> {
        let mut out = Vec::new();
        // A non-object element becomes an empty block (kind absent).
        while let Some(b) = seq.next_element::<MaybeBlock>()? {
            out.push(b.0);
        }
        Ok(Content::Blocks(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Content, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Content::None)
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Content, E> {
        Ok(Content::None)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Content, E> {
        Ok(Content::None)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Content, E> {
        Ok(Content::None)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Content, E> {
        Ok(Content::None)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Content, E> {
        Ok(Content::None)
    }
}

impl<'de> Deserialize<'de> for Content {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ContentVisitor)
    }
}

/// A block, or an empty one when the element is not an object.
struct MaybeBlock(Block);

impl<'de> Deserialize<'de> for MaybeBlock {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = MaybeBlock;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a content block")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<MaybeBlock, A::Error> {
                Block::deserialize(de::value::MapAccessDeserializer::new(map)).map(MaybeBlock)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<MaybeBlock, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(MaybeBlock(Block::default()))
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<MaybeBlock, E> {
                Ok(MaybeBlock(Block::default()))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<MaybeBlock, E> {
                Ok(MaybeBlock(Block::default()))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<MaybeBlock, E> {
                Ok(MaybeBlock(Block::default()))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<MaybeBlock, E> {
                Ok(MaybeBlock(Block::default()))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<MaybeBlock, E> {
                Ok(MaybeBlock(Block::default()))
            }
            fn visit_unit<E: de::Error>(self) -> Result<MaybeBlock, E> {
                Ok(MaybeBlock(Block::default()))
            }
        }
        d.deserialize_any(V)
    }
}

#[cfg(test)]
mod tests {

    use super::*;

    #[test]
    fn objects_read_leniently_too() {
        // toolUseResult is a string on errors; an attachment or a snapshot of another type is absent.
        let b = Body::parse(br#"{"type":"user","toolUseResult":"Error: no","attachment":"x","snapshot":[1],"data":7}"#).unwrap();
        assert!(b.tool_use_result.0.is_none() && b.attachment.0.is_none() && b.snapshot.0.is_none() && b.data.0.is_none());
        // Inside them, a field of an unexpected type is absent, not a failed line.
        let b = Body::parse(br#"{"type":"attachment","attachment":{"type":5,"hookName":["x"],"content":{"a":1}},"toolUseResult":{"type":"create","structuredPatch":"none"}}"#).unwrap();
        let a = b.attachment.0.as_ref().unwrap();
        assert_eq!((a.kind.0.as_deref(), a.hook_name.0.as_deref()), (None, None));
        assert_eq!(b.tool_use_result.0.as_ref().unwrap().kind.as_deref(), Some("create"));
    }

    #[test]
    fn odd_types_read_as_absent_not_as_failure() {
        let b = Body::parse(br#"{"type":7,"message":{"role":"user","content":[{"type":"text","text":{"x":1}},3,{"type":"text","text":"hi"}]}}"#).unwrap();
        assert_eq!(b.record_type.0, None);
        assert_eq!(b.prompt_text(), "hi");
        assert_eq!(b.blocks().len(), 3);
    }

    #[test]
    fn thinking_signature_is_not_kept_and_results_are_found() {
        let line = br#"{"type":"user","message":{"content":[{"type":"thinking","thinking":"hm","signature":"AAAA"},{"type":"tool_result","tool_use_id":"t1","is_error":true,"content":[{"type":"text","text":"boom"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBO"}}]}]}}"#;
        let b = Body::parse(line).unwrap();
        let r = b.result_for("t1").unwrap();
        assert!(r.is_error.is_true());
        assert_eq!(r.result_text(), "boom");
        assert_eq!(r.inner_blocks()[1].image(), Some(("image/png", "iVBO")));
        assert!(b.result_for("t2").is_none());
    }

    #[test]
    fn only_inert_raster_images_are_shown() {
        let svg = br#"{"message":{"content":[{"type":"image","source":{"type":"base64","media_type":"image/svg+xml","data":"PHN2Zz4="}}]}}"#;
        assert_eq!(Body::parse(svg).unwrap().blocks()[0].image(), None);
        let quote = br#"{"message":{"content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"a\"onerror"}}]}}"#;
        assert_eq!(Body::parse(quote).unwrap().blocks()[0].image(), None);
    }

    #[test]
    fn api_errors_in_words() {
        let sys = br#"{"type":"system","subtype":"api_error","level":"error","error":{"status":529,"error":{"type":"overloaded_error"}},"retryInMs":2000,"retryAttempt":1,"maxRetries":10}"#;
        assert_eq!(Body::parse(sys).unwrap().api_error_words(), "HTTP 529 · overloaded_error · retry 1 of 10 in 2.0 s");
        let asst = br#"{"type":"assistant","isApiErrorMessage":true,"error":"overloaded","apiErrorStatus":529}"#;
        assert_eq!(Body::parse(asst).unwrap().api_error_words(), "HTTP 529 · overloaded");
    }

    #[test]
    fn every_shown_string_passes_through_map_strings() {
        let line = br#"{"type":"user","cwd":"/Users/a","customTitle":"T a","message":{"role":"user","content":[{"type":"text","text":"a b"},{"type":"tool_use","name":"a","input":{"k":["a",{"x":"a"}]}},{"type":"tool_result","content":[{"type":"text","text":"a"}]},{"type":"thinking","thinking":"a"}]}}"#;
        let mut b = Body::parse(line).unwrap();
        b.map_strings(&mut |s| s.contains('a').then(|| s.replace('a', "Z")));
        assert_eq!(b.cwd.as_deref(), Some("/Users/Z"));
        assert_eq!(b.custom_title.as_deref(), Some("T Z"));
        assert_eq!(b.prompt_text(), "Z b");
        let bl = b.blocks();
        assert_eq!((bl[1].name.as_deref(), bl[1].input.as_ref().map(|v| v.to_string())), (Some("Z"), Some(r#"{"k":["Z",{"x":"Z"}]}"#.into())));
        assert_eq!((bl[2].result_text(), bl[3].thinking.as_deref()), ("Z".into(), Some("Z")));
    }

    #[test]
    fn persisted_output_preview() {
        let t = "<persisted-output>\nOutput too large (40KB). Preview:\nabc\n</persisted-output>";
        assert_eq!(persisted_preview(t), Some("Output too large (40KB). Preview:\nabc"));
        assert_eq!(persisted_preview("plain"), None);
    }
}
