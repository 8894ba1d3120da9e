//! Files changed: every file an `Edit`, `MultiEdit`, `Write` or
//! `NotebookEdit` call touched, each with its changes in file order as
//! diffs, lines added and removed, and the failed ones marked.
//!
//! A change's diff comes from its result's `toolUseResult.structuredPatch`
//! when the writer kept one (hunks with line numbers), else from the call's
//! own strings (`old_string` → `new_string`, a Write's `content`). A Write
//! whose result says `"type": "create"` made the file; one that says
//! `"update"` without a patch replaced a file whose old text the transcript
//! does not hold: its lines removed are unknown (`None`), never 0.
//!
//! The net change of a file is known when the conversation created it and
//! every later change applies to the text so far (each `old_string` found
//! where the previous steps left it): then the whole history is one diff
//! from nothing. Anything else (an edit of a file that existed before, a
//! notebook cell, a step that does not apply) leaves it unknown.
//!
//! Shapes: Claude Code's tool inputs as the format notes describe them, and
//! `toolUseResult` of Write and Edit as daaain/claude-code-log
//! `dev-docs/tools-coverage.md` and the real transcripts record them.

use std::rc::Rc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::body::Body;
use super::conversation::{CallState, ToolCall};
use super::tools::{line_diff, DiffLine};
use crate::index::{FxHashMap, Index, Sym};

/// The tools whose calls change files.
pub const EDIT_TOOLS: [&str; 4] = ["Edit", "MultiEdit", "Write", "NotebookEdit"];

/// One call's change to one file.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    /// Index into `Index::tool_uses`.
    pub tool_use: u32,
    /// The call's row and line.
    pub row: u32,
    pub line: u32,
    pub tool: String,
    pub diff: Vec<DiffLine>,
    pub added: u64,
    /// `None`: a whole-file write over text the transcript does not hold.
    pub removed: Option<u64>,
    /// The result says the call made the file.
    pub created: bool,
    /// The call failed (an error or a denial) or never got a result: the
    /// file may not hold it.
    pub failed: bool,
}

/// One file and what the conversation did to it.
#[derive(Clone, Debug, PartialEq)]
pub struct FileChanges {
    /// The path as the calls named it.
    pub path: String,
    /// The path relative to the conversation's working directory when it
    /// lies under it, else as named.
    pub shown: String,
    pub changes: Vec<Change>,
    /// The whole history as one diff from nothing (see the module's note).
    pub net: Option<Vec<DiffLine>>,
}

impl FileChanges {
    fn applied(&self) -> impl Iterator<Item = &Change> {
        self.changes.iter().filter(|c| !c.failed)
    }
    pub fn added(&self) -> u64 {
        self.applied().map(|c| c.added).sum()
    }
    /// `None` when an applied change's lines removed are unknown.
    pub fn removed(&self) -> Option<u64> {
        self.applied().map(|c| c.removed).sum()
    }
    pub fn failed(&self) -> u64 {
        self.changes.iter().filter(|c| c.failed).count() as u64
    }
    pub fn created(&self) -> bool {
        self.applied().any(|c| c.created)
    }
}

/// What `ccscope report` prints of one file.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FileOut {
    pub path: String,
    pub changes: u64,
    pub failed: u64,
    pub added: u64,
    pub removed: Option<u64>,
    pub created: bool,
    /// Line of each change, in order.
    pub lines: Vec<u32>,
}

impl From<&FileChanges> for FileOut {
    fn from(f: &FileChanges) -> FileOut {
        FileOut {
            path: f.shown.clone(),
            changes: f.changes.len() as u64,
            failed: f.failed(),
            added: f.added(),
            removed: f.removed(),
            created: f.created(),
            lines: f.changes.iter().map(|c| c.line).collect(),
        }
    }
}

pub fn is_edit_tool(name: &str) -> bool {
    EDIT_TOOLS.contains(&name)
}

/// The calls that change files, in file order.
pub fn edit_calls(ix: &Index, calls: &[ToolCall]) -> Vec<ToolCall> {
    calls.iter().filter(|c| is_edit_tool(ix.str(ix.tool_uses[c.tool_use as usize].name))).cloned().collect()
}

/// The rows whose bodies [`files_changed`] reads: each call's and its
/// result's, ascending.
pub fn rows_to_read(ix: &Index, edits: &[ToolCall]) -> Vec<u32> {
    let mut rows: Vec<u32> = edits
        .iter()
        .flat_map(|c| [Some(ix.tool_uses[c.tool_use as usize].row), c.tool_result.map(|r| ix.tool_results[r as usize].row)])
        .flatten()
        .collect();
    rows.sort_unstable();
    rows.dedup();
    rows
}

/// The rows [`rows_to_read`] gives, found from the index alone (no pairing
/// of calls and results): every edit call's row, and every result row that
/// answers an edit call's id. A superset of what [`read_back`] reads, for a
/// reader that fetches before it sums up (the folder's survey).
pub fn edit_rows(ix: &Index) -> Vec<u32> {
    let edits = ix.tool_uses.iter().filter(|u| is_edit_tool(ix.str(u.name)));
    let mut ids: Vec<Sym> = edits.clone().map(|u| u.id).filter(|id| id.is_some()).collect();
    ids.sort_unstable();
    let answers = ix.tool_results.iter().filter(|r| ids.binary_search(&r.tool_use_id).is_ok()).map(|r| r.row);
    let mut rows: Vec<u32> = edits.map(|u| u.row).chain(answers).collect();
    rows.sort_unstable();
    rows.dedup();
    rows
}

/// The files `calls`' edits changed, their lines read back through `read`
/// (a row's body; `None` when it cannot be read). One way for the CLI, the
/// folder's survey and the page alike.
pub fn read_back(ix: &Index, calls: &[ToolCall], mut read: impl FnMut(u32) -> Option<Body>) -> Vec<FileChanges> {
    let edits = edit_calls(ix, calls);
    let bodies: FxHashMap<u32, Rc<Body>> = rows_to_read(ix, &edits).into_iter().filter_map(|r| Some((r, Rc::new(read(r)?)))).collect();
    files_changed(ix, &edits, &bodies)
}

fn s<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

/// The diff of a `structuredPatch`, with each hunk's header; `None` when
/// there is none or it holds no line.
fn patch_diff(patch: Option<&Value>) -> Option<Vec<DiffLine>> {
    let mut out = Vec::new();
    for h in patch?.as_array()? {
        let n = |k: &str| h.get(k).and_then(Value::as_u64).map_or("?".into(), |v| v.to_string());
        out.push(DiffLine::Hunk(format!("@@ -{},{} +{},{} @@", n("oldStart"), n("oldLines"), n("newStart"), n("newLines"))));
        for l in h.get("lines").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str) {
            out.push(match l.split_at(l.chars().next().map_or(0, char::len_utf8)) {
                ("-", rest) => DiffLine::Removed(rest.to_string()),
                ("+", rest) => DiffLine::Added(rest.to_string()),
                (" ", rest) => DiffLine::Context(rest.to_string()),
                _ => DiffLine::Context(l.to_string()),
            });
        }
    }
    out.iter().any(|d| !matches!(d, DiffLine::Hunk(_))).then_some(out)
}

fn counts(diff: &[DiffLine]) -> (u64, u64) {
    let added = diff.iter().filter(|d| matches!(d, DiffLine::Added(_))).count() as u64;
    let removed = diff.iter().filter(|d| matches!(d, DiffLine::Removed(_))).count() as u64;
    (added, removed)
}

/// One file's text as the conversation's changes leave it, while every
/// step applies.
struct Chain {
    start: String,
    now: String,
    steps: usize,
}

/// Applies an `old_string` → `new_string` step; `false` when `old` is not
/// in the text (the file changed in a way the transcript does not show).
fn apply(text: &mut String, old: &str, new: &str, all: bool) -> bool {
    if old.is_empty() || !text.contains(old) {
        return false;
    }
    *text = if all { text.replace(old, new) } else { text.replacen(old, new, 1) };
    true
}

/// Every file the `edits` (from [`edit_calls`]) changed, in the order each
/// was first touched. `bodies` holds the rows of [`rows_to_read`]; a call
/// whose body is missing or whose input names no path is left out. A path
/// is shown relative to the `cwd` of the record that first touched it.
pub fn files_changed(ix: &Index, edits: &[ToolCall], bodies: &FxHashMap<u32, Rc<Body>>) -> Vec<FileChanges> {
    let mut files: Vec<FileChanges> = Vec::new();
    let mut slot: FxHashMap<String, usize> = FxHashMap::default();
    let mut chains: Vec<Option<Chain>> = Vec::new();
    for call in edits {
        let tu = &ix.tool_uses[call.tool_use as usize];
        let id = ix.str(tu.id);
        let Some(body) = bodies.get(&tu.row) else { continue };
        let Some(input) = body.blocks().iter().find(|b| b.kind.is("tool_use") && b.id.as_deref() == Some(id)).and_then(|b| b.input.as_ref()) else { continue };
        let path = [s(input, "file_path"), s(input, "notebook_path")].into_iter().find(|p| !p.is_empty()).unwrap_or("");
        if path.is_empty() {
            continue;
        }
        let result = call.tool_result.and_then(|r| bodies.get(&ix.tool_results[r as usize].row)).and_then(|b| b.tool_use_result.0.as_ref());
        let failed = !matches!(call.state, CallState::Ok);
        let tool = ix.str(tu.name).to_string();
        let created = !failed && result.is_some_and(|r| r.kind.is("create"));
        let patch = patch_diff(result.and_then(|r| r.structured_patch.as_ref()));
        let (diff, removed_known) = match (tool.as_str(), patch) {
            (_, Some(p)) => (p, true),
            ("Write", None) => (s(input, "content").lines().map(|l| DiffLine::Added(l.to_string())).collect(), created),
            ("Edit", None) => (line_diff(s(input, "old_string"), s(input, "new_string")), true),
            ("MultiEdit", None) => (input.get("edits").and_then(Value::as_array).into_iter().flatten().flat_map(|e| line_diff(s(e, "old_string"), s(e, "new_string"))).collect(), true),
            (_, None) => (line_diff(s(input, "old_source"), s(input, "new_source")), true),
        };
        let (added, removed) = counts(&diff);
        let k = *slot.entry(path.to_string()).or_insert_with(|| {
            let shown = body.cwd.as_deref().and_then(|c| path.strip_prefix(c.trim_end_matches('/'))).and_then(|r| r.strip_prefix('/')).filter(|r| !r.is_empty()).unwrap_or(path);
            files.push(FileChanges { path: path.to_string(), shown: shown.to_string(), changes: Vec::new(), net: None });
            chains.push(None);
            files.len() - 1
        });
        if !failed {
            let chain = &mut chains[k];
            let first = files[k].applied().next().is_none();
            match tool.as_str() {
                "Write" if created && first => *chain = Some(Chain { start: String::new(), now: s(input, "content").to_string(), steps: 1 }),
                "Write" => {
                    // The text before is whatever the chain held (or unknown).
                    if let Some(c) = chain.as_mut() {
                        c.now = s(input, "content").to_string();
                        c.steps += 1;
                    }
                }
                "Edit" => {
                    if let Some(c) = chain.as_mut() {
                        let all = input.get("replace_all").and_then(Value::as_bool).unwrap_or(false);
                        if apply(&mut c.now, s(input, "old_string"), s(input, "new_string"), all) { c.steps += 1 } else { *chain = None }
                    }
                }
                "MultiEdit" => {
                    if let Some(c) = chain.as_mut() {
                        let steps = input.get("edits").and_then(Value::as_array).cloned().unwrap_or_default();
                        let ok = steps.iter().all(|e| apply(&mut c.now, s(e, "old_string"), s(e, "new_string"), e.get("replace_all").and_then(Value::as_bool).unwrap_or(false)));
                        if ok { c.steps += 1 } else { *chain = None }
                    }
                }
                _ => *chain = None,
            }
        }
        files[k].changes.push(Change { tool_use: call.tool_use, row: tu.row, line: ix.rows[tu.row as usize].line_no, tool, diff, added, removed: removed_known.then_some(removed), created, failed });
    }
    for (f, chain) in files.iter_mut().zip(chains) {
        f.net = chain.filter(|c| c.steps > 1).map(|c| line_diff(&c.start, &c.now));
    }
    files
}

