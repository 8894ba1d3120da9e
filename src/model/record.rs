//! Every record kind in words, and the kinds ccscope does not understand,
//! named. One list per level says what is understood — record `type`s,
//! `system` subtypes, `attachment` types, content-block types — and
//! [`words`] says what each understood bookkeeping, system or attachment
//! record says; whatever a file holds beyond the lists is
//! [`not_understood`], counted with the writer versions and the first line
//! of each, so a new shape of the next writer is named, never silently lost.
//!
//! Shapes: d-kimuson/claude-code-viewer `src/lib/conversation-schema/entry/`
//! (SystemEntrySchema: `stop_hook_summary`, `local_command`,
//! `turn_duration`, `compact_boundary`; `mode`, `pr-link`,
//! `queue-operation`), the real 2.1.114 file of daaain/claude-code-log's
//! test data (`permission-mode`, `last-prompt`, `away_summary`, the
//! attachments it lists), `../shared/fixtures/README.md` (record types and
//! subtypes seen in the wild) and public schemas of
//! `microcompactMetadata` (`trigger`, `preTokens`, `tokensSaved`).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::body::{Attachment, Body};
use crate::fmt;
use crate::index::{FxHashMap, Index, Sym};

/// Record `type`s ccscope understands.
pub const RECORD_TYPES: [&str; 15] = [
    "user", "assistant", "system", "summary", "custom-title", "ai-title", "last-prompt", "file-history-snapshot", "queue-operation", "progress", "attachment",
    "permission-mode", "mode", "pr-link", "agent-name",
];
/// `system` subtypes ccscope understands (a system record without one is
/// shown by its `content`).
pub const SYSTEM_SUBTYPES: [&str; 8] = ["compact_boundary", "microcompact_boundary", "api_error", "turn_duration", "stop_hook_summary", "away_summary", "local_command", "informational"];
/// `attachment` types ccscope puts in words.
pub const ATTACHMENT_TYPES: [&str; 27] = [
    "hook_success", "hook_non_blocking_error", "hook_blocking_error", "hook_cancelled", "hook_additional_context", "hook_system_message", "plan_mode", "plan_mode_exit",
    "plan_mode_reentry", "edited_text_file", "file", "already_read_file", "directory", "opened_file_in_ide", "selected_lines_in_ide", "queued_command", "skill_listing",
    "task_reminder", "todo_reminder", "deferred_tools_delta", "mcp_instructions_delta", "companion_intro", "date_change", "nested_memory", "task_status",
    "plan_file_reference", "compact_file_reference",
];

/// At which level a kind was not understood.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    RecordType,
    SystemSubtype,
    AttachmentType,
    /// A block of `message.content`, at any place, whose `type` the reader
    /// does not know.
    ContentBlock,
    /// An element of a tool_result's `content` array of a type the page
    /// does not show (it shows `index::scan::RESULT_BLOCK_TYPES`).
    ResultBlock,
}

impl Level {
    pub fn words(self) -> &'static str {
        match self {
            Level::RecordType => "record type",
            Level::SystemSubtype => "system subtype",
            Level::AttachmentType => "attachment type",
            Level::ContentBlock => "content block",
            Level::ResultBlock => "tool-result block",
        }
    }
}

/// One kind not understood, as `ccscope report` prints it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Unknown {
    pub level: Level,
    /// The `type` or subtype as written; `None` for a block without one.
    pub name: Option<String>,
    pub count: u64,
    pub first_line: u32,
    /// Row of the first one (for the page's link; not printed).
    #[serde(skip)]
    pub first_row: u32,
    /// Writer versions of the records, in order of first appearance.
    pub versions: Vec<String>,
}

/// The kinds `ix` holds that ccscope does not understand, by level, then by
/// first appearance.
pub fn not_understood(ix: &Index) -> Vec<Unknown> {
    let known = |list: &[&str]| -> Vec<Sym> { list.iter().filter_map(|s| ix.strings.get(s)).collect() };
    let (types, subtypes, attachments) = (known(&RECORD_TYPES), known(&SYSTEM_SUBTYPES), known(&ATTACHMENT_TYPES));
    let sym = |s: &str| ix.strings.get(s).unwrap_or(Sym(u32::MAX));
    let (system, attachment, user, assistant) = (sym("system"), sym("attachment"), sym("user"), sym("assistant"));
    let mut out: Vec<Unknown> = Vec::new();
    let mut slot: FxHashMap<(Level, Sym), usize> = FxHashMap::default();
    let mut count = |key: (Level, Sym), r: u32| {
        let row = &ix.rows[r as usize];
        let k = *slot.entry(key).or_insert_with(|| {
            out.push(Unknown { level: key.0, name: key.1.is_some().then(|| ix.str(key.1).to_string()), count: 0, first_line: row.line_no, first_row: r, versions: Vec::new() });
            out.len() - 1
        });
        let u = &mut out[k];
        u.count += 1;
        if row.version.is_some() && !u.versions.iter().any(|v| v == ix.str(row.version)) {
            u.versions.push(ix.str(row.version).to_string());
        }
    };
    for (r, row) in ix.rows.iter().enumerate() {
        if row.malformed.is_some() || row.record_type.is_none() {
            continue;
        }
        if !types.contains(&row.record_type) {
            count((Level::RecordType, row.record_type), r as u32);
        } else if row.record_type == system && row.subtype.is_some() && !subtypes.contains(&row.subtype) {
            count((Level::SystemSubtype, row.subtype), r as u32);
        } else if row.record_type == attachment && row.subtype.is_some() && !attachments.contains(&row.subtype) {
            count((Level::AttachmentType, row.subtype), r as u32);
        }
    }
    for odd in &ix.odd_blocks {
        let rt = ix.rows[odd.row as usize].record_type;
        if rt == user || rt == assistant {
            count((if odd.in_result { Level::ResultBlock } else { Level::ContentBlock }, odd.ty), odd.row);
        }
    }
    crate::sort::by_key(&mut out, |u| (u.level, u.first_line));
    out
}

fn first(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(super::tools::first_line(s, 160)),
        Value::Array(a) => a.iter().find_map(first),
        Value::Object(m) => m.get("text").or_else(|| m.get("content")).and_then(first),
        _ => None,
    }
}

fn names(v: Option<&Value>) -> usize {
    v.and_then(Value::as_array).map_or(0, Vec::len)
}

/// What an attachment says, by its `type`; `None` for a type not in
/// [`ATTACHMENT_TYPES`].
fn attachment(a: &Attachment) -> Option<String> {
    let hook = || {
        let name = a.hook_name.as_deref().or(a.hook_event.as_deref()).unwrap_or("a hook");
        name.to_string()
    };
    let file = || a.display_path.as_deref().or(a.filename.as_deref()).or(a.path.as_deref()).unwrap_or("a file").to_string();
    let kind = a.kind.as_deref()?;
    Some(match kind {
        "hook_success" => format!("hook {} ran", hook()),
        "hook_non_blocking_error" => {
            let code = a.exit_code.0.map(|c| format!(" (exit {c})")).unwrap_or_default();
            format!("hook {} failed{code}, the turn went on{}", hook(), a.stderr.as_deref().map(|e| format!(": {}", super::tools::first_line(e, 160))).unwrap_or_default())
        }
        "hook_blocking_error" => format!("hook {} blocked the step{}", hook(), a.blocking_error.as_ref().and_then(first).map(|e| format!(": {e}")).unwrap_or_default()),
        "hook_cancelled" => format!("hook {} was cancelled", hook()),
        "hook_additional_context" => format!("hook {} added context{}", hook(), a.content.as_ref().and_then(first).map(|c| format!(": {c}")).unwrap_or_default()),
        "hook_system_message" => format!("hook {} said{}", hook(), a.content.as_ref().and_then(first).map(|c| format!(": {c}")).unwrap_or_default()),
        "plan_mode" => "plan mode: read and plan, change nothing".into(),
        "plan_mode_exit" => "plan mode left".into(),
        "plan_mode_reentry" => "plan mode entered again".into(),
        "plan_file_reference" => format!("plan file {}", a.plan_file_path.as_deref().unwrap_or("")).trim_end().to_string(),
        "edited_text_file" => format!("{} changed outside the session", file()),
        "file" => format!("{} attached", file()),
        "already_read_file" => format!("{} attached (already read)", file()),
        "directory" => format!("folder {} attached", file()),
        "opened_file_in_ide" => format!("{} open in the IDE", file()),
        "selected_lines_in_ide" => format!("lines of {} selected in the IDE", file()),
        "compact_file_reference" => format!("{} kept across the compaction", file()),
        "nested_memory" => format!("memory file {} loaded", file()),
        "queued_command" => format!("queued while the agent worked{}", a.prompt.as_ref().and_then(first).map(|p| format!(": {p}")).unwrap_or_default()),
        "skill_listing" => a.skill_count.0.map_or("skills listed".into(), |n| fmt::plural(n as u64, "skill listed", "skills listed")),
        "task_reminder" | "todo_reminder" => {
            let n = a.item_count.0.map(|n| n as usize).unwrap_or_else(|| names(a.content.as_ref()));
            format!("reminder of the task list ({})", fmt::plural(n as u64, "task", "tasks"))
        }
        "task_status" => format!("background task {}{}", a.status.as_deref().unwrap_or("changed"), a.description.as_deref().map(|d| format!(": {d}")).unwrap_or_default()),
        "deferred_tools_delta" | "mcp_instructions_delta" => {
            let what = if kind == "deferred_tools_delta" { "tools on demand" } else { "MCP instructions" };
            format!("{what}: {} added, {} removed", names(a.added_names.as_ref()), names(a.removed_names.as_ref()))
        }
        "companion_intro" => format!("companion {} the {}", a.name.as_deref().unwrap_or("?"), a.species.as_deref().unwrap_or("?")),
        "date_change" => format!("the date changed to {}", a.new_date.as_deref().unwrap_or("?")),
        _ => return None,
    })
}

/// What a bookkeeping, system or attachment record says, in words, for a
/// compact row; `None` when its kind has no words (the row then shows its
/// `content`, or its size).
pub fn words(b: &Body) -> Option<String> {
    match b.record_type.as_deref()? {
        "system" => system(b),
        "attachment" => attachment(b.attachment.0.as_ref()?),
        "progress" => Some(format!("progress: {}", b.data.0.as_ref().and_then(|d| d.kind.as_deref()).unwrap_or("(no kind)").replace('_', " "))),
        "permission-mode" => Some(format!("permission mode: {}", b.permission_mode.as_deref()?)),
        "mode" => Some(format!("session mode: {}", b.mode.as_deref()?)),
        "agent-name" => Some(format!("agent named {}", b.agent_name.as_deref()?)),
        "pr-link" => {
            let number = b.pr_number.0.map(|n| format!(" #{n}")).unwrap_or_default();
            let repo = b.pr_repository.as_deref().map(|r| format!(" in {r}")).unwrap_or_default();
            let url = b.pr_url.as_deref().map(|u| format!(" · {u}")).unwrap_or_default();
            Some(format!("pull request{number}{repo}{url}"))
        }
        "queue-operation" => Some(match b.operation.as_deref()? {
            "enqueue" => format!("queued while the agent worked{}", b.content.as_deref().map(|c| format!(": {}", super::tools::first_line(c, 160))).unwrap_or_default()),
            "dequeue" => "taken from the queue".into(),
            "remove" => "removed from the queue".into(),
            other => format!("queue: {other}"),
        }),
        "file-history-snapshot" => Some("file checkpoint (what undo restores)".into()),
        _ => None,
    }
}

/// What a system record of a known subtype says: a turn's duration, the
/// stop hooks' summary, a microcompaction's saving, a local command.
fn system(b: &Body) -> Option<String> {
    match b.subtype.as_deref()? {
        "turn_duration" => Some(format!("the turn took {}", fmt::duration_ms(b.duration_ms.0? as i64))),
        "stop_hook_summary" => {
            let hooks = b.hook_count.0.map(|n| fmt::plural(n as u64, "stop hook", "stop hooks")).unwrap_or_else(|| "stop hooks".into());
            let errors = b.hook_errors.as_ref().and_then(Value::as_array).map_or(0, Vec::len) as u64;
            let mut words = hooks;
            if errors > 0 {
                words.push_str(&format!(" · {}", fmt::plural(errors, "error", "errors")));
            }
            if b.prevented_continuation.is_true() {
                words.push_str(" · stopped the turn");
                if let Some(why) = b.stop_reason.as_deref().filter(|w| !w.is_empty()) {
                    words.push_str(&format!(": {why}"));
                }
            }
            Some(words)
        }
        "microcompact_boundary" => {
            let m = b.microcompact_metadata.as_ref();
            let n = |k: &str| m.and_then(|m| m.get(k)).and_then(Value::as_u64);
            let mut words = "older tool results cleared from the context".to_string();
            if let Some(saved) = n("tokensSaved") {
                words.push_str(&format!(" · {} tokens saved", fmt::count(saved)));
            }
            if let Some(pre) = n("preTokens") {
                words.push_str(&format!(" (of {})", fmt::count(pre)));
            }
            Some(words)
        }
        "away_summary" => Some(format!("while you were away: {}", b.content.as_deref().map(|c| super::tools::first_line(c, 200)).unwrap_or_default())),
        "local_command" => Some(format!("local command {}", b.content.as_deref().map(|c| super::tools::first_line(c, 160)).unwrap_or_default()).trim_end().to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said(line: &str) -> Option<String> {
        words(&Body::parse(line.as_bytes()).unwrap())
    }

    #[test]
    fn known_system_subtypes_say_what_they_carry() {
        // Shapes of claude-code-viewer SystemEntrySchema.ts (turn_duration, stop_hook_summary, local_command).
        assert_eq!(said(r#"{"type":"system","subtype":"turn_duration","durationMs":83000}"#).as_deref(), Some("the turn took 1 min 23 s"));
        let hooks = r#"{"type":"system","subtype":"stop_hook_summary","hookCount":2,"hookInfos":[{"command":"lint"}],"hookErrors":["exit 1"],"preventedContinuation":true,"stopReason":"lint failed","hasOutput":true}"#;
        assert_eq!(said(hooks).as_deref(), Some("2 stop hooks · 1 error · stopped the turn: lint failed"));
        assert_eq!(said(r#"{"type":"system","subtype":"stop_hook_summary","hookCount":1,"hookErrors":[],"preventedContinuation":false}"#).as_deref(), Some("1 stop hook"));
        assert_eq!(said(r#"{"type":"system","subtype":"turn_duration"}"#), None, "absent is not 0 s");
        assert_eq!(said(r#"{"type":"system","subtype":"local_command","content":"<command-name>/mcp</command-name>"}"#).as_deref(), Some("local command <command-name>/mcp</command-name>"));
        // microcompactMetadata as public schemas give it (trigger, preTokens, tokensSaved, compactedToolIds).
        let micro = r#"{"type":"system","subtype":"microcompact_boundary","microcompactMetadata":{"trigger":"auto","preTokens":18000,"tokensSaved":3200,"compactedToolIds":["t1"],"clearedAttachmentUUIDs":[]}}"#;
        assert_eq!(said(micro).as_deref(), Some("older tool results cleared from the context · 3,200 tokens saved (of 18,000)"));
        assert_eq!(said(r#"{"type":"system","subtype":"away_summary","content":"Running a teammate experiment"}"#).as_deref(), Some("while you were away: Running a teammate experiment"));
    }

    #[test]
    fn bookkeeping_records_say_what_they_carry() {
        // permission-mode and last-prompt as the real 2.1.114 file has them; mode, pr-link and
        // queue-operation as claude-code-viewer's schemas and their tests give them.
        assert_eq!(said(r#"{"type":"permission-mode","permissionMode":"plan","sessionId":"s"}"#).as_deref(), Some("permission mode: plan"));
        assert_eq!(said(r#"{"type":"mode","mode":"normal","sessionId":"s"}"#).as_deref(), Some("session mode: normal"));
        let pr = r#"{"type":"pr-link","sessionId":"s","prNumber":167,"prUrl":"https://github.com/o/r/pull/167","prRepository":"o/r","timestamp":"2026-03-30T19:16:39.642Z"}"#;
        assert_eq!(said(pr).as_deref(), Some("pull request #167 in o/r · https://github.com/o/r/pull/167"));
        assert_eq!(said(r#"{"type":"queue-operation","operation":"enqueue","content":"also fix the tests","sessionId":"s"}"#).as_deref(), Some("queued while the agent worked: also fix the tests"));
        assert_eq!(said(r#"{"type":"queue-operation","operation":"dequeue","sessionId":"s"}"#).as_deref(), Some("taken from the queue"));
        assert_eq!(said(r#"{"type":"progress","data":{"type":"hook_progress"}}"#).as_deref(), Some("progress: hook progress"));
        assert_eq!(said(r#"{"type":"frobnicate"}"#), None);
    }

    #[test]
    fn attachments_say_what_they_carry() {
        // hook_success, hook_additional_context, deferred_tools_delta, task_reminder as the real
        // 2.1.114 file has them; companion_intro as claude-code-viewer's AttachmentEntrySchema.
        let a = |payload: &str| said(&format!(r#"{{"type":"attachment","attachment":{payload}}}"#));
        assert_eq!(a(r#"{"type":"hook_success","hookName":"SessionStart:startup","hookEvent":"SessionStart","content":"","stdout":"{}"}"#).as_deref(), Some("hook SessionStart:startup ran"));
        assert_eq!(a(r#"{"type":"hook_additional_context","content":["clmail registered"],"hookName":"SessionStart","hookEvent":"SessionStart"}"#).as_deref(), Some("hook SessionStart added context: clmail registered"));
        assert_eq!(a(r#"{"type":"deferred_tools_delta","addedNames":["A","B","C"],"addedLines":[],"removedNames":["D"]}"#).as_deref(), Some("tools on demand: 3 added, 1 removed"));
        assert_eq!(a(r#"{"type":"task_reminder","content":[{"id":"1","subject":"x"},{"id":"2","subject":"y"}],"itemCount":2}"#).as_deref(), Some("reminder of the task list (2 tasks)"));
        assert_eq!(a(r#"{"type":"companion_intro","name":"Pip","species":"otter"}"#).as_deref(), Some("companion Pip the otter"));
        assert_eq!(a(r#"{"type":"hook_non_blocking_error","hookName":"PostToolUse:Edit","hookEvent":"PostToolUse","stderr":"prettier: not found","exitCode":127}"#).as_deref(),
            Some("hook PostToolUse:Edit failed (exit 127), the turn went on: prettier: not found"));
        assert_eq!(a(r#"{"type":"edited_text_file","filename":"/p/a.rs","snippet":"x"}"#).as_deref(), Some("/p/a.rs changed outside the session"));
        assert_eq!(a(r#"{"type":"plan_mode","reminderType":"full","isSubAgent":false,"planExists":false}"#).as_deref(), Some("plan mode: read and plan, change nothing"));
        assert_eq!(a(r#"{"type":"brand_new_kind"}"#), None);
        // Every listed type has words (the list and the words are one rule).
        for t in ATTACHMENT_TYPES {
            assert!(a(&format!(r#"{{"type":"{t}"}}"#)).is_some(), "{t} is listed as understood but has no words");
        }
        for t in SYSTEM_SUBTYPES.iter().filter(|t| !["compact_boundary", "api_error", "informational", "turn_duration"].contains(t)) {
            assert!(said(&format!(r#"{{"type":"system","subtype":"{t}"}}"#)).is_some(), "{t} is listed as understood but has no words");
        }
    }
}
