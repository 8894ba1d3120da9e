//! One conversation of a folder, summed up: the sessions contract v1 line
//! (`ccscope sessions`) and what the session browser shows beside it. The
//! CLI (reading from disk) and the reading worker (from `File`s) index the
//! files their own way and call the same functions here; the few small
//! reads a summary needs (title rows, sidecars) go through [`ReadAt`].

use serde::{Deserialize, Serialize};

use super::tree::{Conversation, Tree};
use crate::index::{flag, Index};
use crate::model::body::Body;
use crate::model::report::Report;
use crate::model::{conversation, facts};
use crate::model::subagents::{self, Decline, SubagentLink, SubagentRun};
use crate::model::title::{self, TitleKind};
use crate::model::verdict;
use crate::model::{is_agent_tool, Stats};

/// Small reads of the picked files, by entry number.
pub trait ReadAt {
    /// The bytes `[start, end)` of entry `entry`; `None` when unreadable.
    fn read_at(&mut self, entry: u32, start: u64, end: u64) -> Option<Vec<u8>>;
    /// A whole (small) file.
    fn read_all(&mut self, entry: u32) -> Option<Vec<u8>>;
}

/// `agent-<id>.meta.json`, every field optional.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Meta {
    pub agent_type: Option<String>,
    /// Written from the prompt that spawned the run: user content.
    pub description: Option<String>,
    pub spawn_depth: Option<u64>,
    pub tool_use_id: Option<String>,
}

impl Meta {
    pub fn parse(bytes: &[u8]) -> Meta {
        let Ok(serde_json::Value::Object(m)) = serde_json::from_slice::<serde_json::Value>(bytes) else { return Meta::default() };
        let s = |k: &str| m.get(k).and_then(|v| v.as_str()).map(str::to_string);
        Meta { agent_type: s("agentType"), description: s("description"), spawn_depth: m.get("spawnDepth").and_then(|v| v.as_u64()), tool_use_id: s("toolUseId") }
    }
}

/// A subagent run (or a legacy root-level `agent-*.jsonl`), from its own index.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Run {
    pub agent_id: String,
    pub entry: u32,
    pub meta: Option<Meta>,
    /// The first `sessionId` in the run (how a legacy run finds its conversation).
    pub first_session_id: Option<String>,
    pub span_ms: Option<(i64, i64)>,
    pub bytes: u64,
    pub assistant_messages: u64,
    pub tool_calls: u64,
    pub failed_steps: u64,
    pub output_tokens: u64,
    pub has_usage: bool,
    /// Its own Agent/Task calls: where nested runs were spawned.
    pub agent_calls: Vec<String>,
    /// Set when it is not a transcript at all (empty, not JSON lines).
    pub not_a_transcript: Option<String>,
}

impl Run {
    pub fn from_index(agent_id: &str, entry: u32, ix: &Index, head: &[u8], meta: Option<Meta>) -> Run {
        let stats = Stats::compute(ix, crate::model::DEFAULT_IDLE_GAP_SECS);
        let first_session_id = ix.rows.iter().find(|r| r.session_id.is_some()).map(|r| ix.str(r.session_id).to_string());
        let agent_calls = ix.tool_uses.iter().filter(|u| is_agent_tool(ix.str(u.name)) && u.id.is_some()).map(|u| ix.str(u.id).to_string()).collect();
        Run {
            agent_id: agent_id.to_string(),
            entry,
            meta,
            first_session_id,
            span_ms: subagents::span_of(ix),
            bytes: ix.len_bytes,
            assistant_messages: stats.assistant_messages,
            tool_calls: stats.tool_calls,
            failed_steps: stats.failed_steps,
            output_tokens: stats.output_tokens,
            has_usage: facts::has_usage(ix),
            agent_calls,
            not_a_transcript: verdict::judge(ix, head).reason().map(str::to_string),
        }
    }

    fn linkable(&self) -> SubagentRun {
        SubagentRun { agent_id: self.agent_id.clone(), meta_tool_use_id: self.meta.as_ref().and_then(|m| m.tool_use_id.clone()), span_ms: self.span_ms }
    }

    /// Wall time from its first to its last timestamp.
    pub fn duration_ms(&self) -> Option<i64> {
        self.span_ms.map(|(a, b)| b - a)
    }
}

/// Sessions contract v1: one line of `ccscope sessions DIR`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SessionLine {
    pub path: String,
    pub project: String,
    pub title: Option<String>,
    pub title_source: Option<TitleKind>,
    pub deleted: bool,
    pub deleted_at: Option<String>,
    pub legacy_subagents: Vec<SubagentLink>,
    pub stats: Stats,
}

/// A linked (or declined) run, with how.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Linked {
    pub run: Run,
    pub link: SubagentLink,
    pub declined: Option<Decline>,
    /// A legacy root-level run (2.0.x), not one under `subagents/`.
    pub legacy: bool,
}

/// What the session browser shows of a conversation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SessionFacts {
    pub line: SessionLine,
    pub first_ms: Option<i64>,
    pub last_ms: Option<i64>,
    /// `None` without timestamps.
    pub active_ms: Option<i64>,
    pub models: Vec<String>,
    pub has_usage: bool,
    /// The working directory a record names.
    pub cwd: Option<String>,
    /// Set when the file is not a transcript (with why).
    pub not_a_transcript: Option<String>,
    /// Subagent runs and legacy runs, each with its link.
    pub runs: Vec<Linked>,
    /// What the folder dashboard sums up.
    pub report: Report,
}

/// Records read for a `cwd` at most.
const CWD_ROWS: usize = 4;

/// The `releasedAt` of a `.desktop-released.json`.
fn released_at(bytes: &[u8]) -> Option<String> {
    serde_json::from_slice::<serde_json::Value>(bytes).ok()?.get("releasedAt")?.as_str().map(str::to_string)
}

/// What a conversation is summed up from: its index (`ix`, with `head`, its
/// first bytes), its runs under `subagents/` and its project's legacy runs.
pub struct Parts<'a> {
    pub ix: &'a Index,
    pub head: &'a [u8],
    pub runs: Vec<Run>,
    pub legacy: &'a [Run],
    pub idle_gap_secs: u64,
}

/// Every read [`summarize`] will make for `c` (whole files as `(entry, 0,
/// u64::MAX)`): a reader that must not block can fetch them first.
pub fn reads_needed(c: &Conversation, ix: &Index) -> Vec<(u32, u64, u64)> {
    let row = |r: u32| {
        let r = &ix.rows[r as usize];
        (c.entry, r.offset, r.end_offset())
    };
    let mut out: Vec<(u32, u64, u64)> = title::source_from_index(ix).rows().into_iter().map(row).collect();
    out.extend(cwd_rows(ix).map(row));
    out.extend(c.released.map(|m| (m, 0, u64::MAX)));
    out
}

/// The records a `cwd` is looked for in.
fn cwd_rows(ix: &Index) -> impl Iterator<Item = u32> + '_ {
    (0..ix.rows.len() as u32).filter(|&k| ix.rows[k as usize].has(flag::HAS_UUID)).take(CWD_ROWS)
}

/// Reads served from bytes fetched beforehand (see [`reads_needed`]).
pub struct Prefetched(pub Vec<((u32, u64, u64), Vec<u8>)>);

impl ReadAt for Prefetched {
    fn read_at(&mut self, entry: u32, start: u64, end: u64) -> Option<Vec<u8>> {
        self.0.iter().find(|(k, _)| *k == (entry, start, end)).map(|(_, b)| b.clone())
    }
    fn read_all(&mut self, entry: u32) -> Option<Vec<u8>> {
        self.read_at(entry, 0, u64::MAX)
    }
}

/// Sums up conversation `c` of `tree`.
pub fn summarize(tree: &Tree, c: &Conversation, parts: Parts, io: &mut impl ReadAt) -> SessionFacts {
    let Parts { ix, head, runs, legacy, idle_gap_secs } = parts;
    let timeline = crate::model::time::timeline(ix, idle_gap_secs);
    let (turns, calls) = (conversation::turns(ix), conversation::tool_calls(ix));
    let mut stats = Stats::from_parts(ix, &turns, &calls, &timeline);
    let report = Report::from_parts(ix, &turns, &calls, &timeline, &stats);
    let linkable: Vec<SubagentRun> = runs.iter().map(Run::linkable).collect();
    let explained = subagents::link_explained(ix, &linkable);
    stats.subagents = explained.iter().map(|(l, _)| l.clone()).collect();
    // Legacy runs: those whose first sessionId is one of this conversation's.
    let mine: Vec<&Run> = legacy.iter().filter(|r| r.first_session_id.as_ref().is_some_and(|s| stats.session_ids.contains(s))).collect();
    let legacy_linkable: Vec<SubagentRun> = mine.iter().map(|r| SubagentRun { meta_tool_use_id: None, ..r.linkable() }).collect();
    let legacy_explained = subagents::link_explained(ix, &legacy_linkable);

    // No list is built: the browser shows none of it (and it costs as much
    // as the stats on a big file).
    let source = title::source_from_index(ix);
    let mut body = |row: u32| {
        let r = &ix.rows[row as usize];
        Body::parse(&io.read_at(c.entry, r.offset, r.end_offset())?)
    };
    let title = title::resolve(&source, &mut body);
    // The working directory, from the first records that carry one.
    let cwd = cwd_rows(ix).find_map(|k| body(k)?.cwd.0);
    let deleted_at = c.released.and_then(|m| released_at(&io.read_all(m)?));
    let by_agent = |list: &[Run], id: &str| list.iter().find(|r| r.agent_id == id).cloned();
    let mut linked: Vec<Linked> = explained
        .into_iter()
        .filter_map(|(link, declined)| Some(Linked { run: by_agent(&runs, &link.agent_id)?, link, declined, legacy: false }))
        .collect();
    let owned: Vec<Run> = mine.into_iter().cloned().collect();
    linked.extend(
        legacy_explained
            .iter()
            .filter_map(|(link, declined)| Some(Linked { run: by_agent(&owned, &link.agent_id)?, link: link.clone(), declined: *declined, legacy: true })),
    );
    let t = &timeline;
    SessionFacts {
        line: SessionLine {
            path: c.path.clone(),
            project: tree.projects[c.project as usize].name.clone(),
            title: title.as_ref().map(|t| t.text.clone()),
            title_source: title.as_ref().map(|t| t.kind),
            deleted: c.released.is_some(),
            deleted_at,
            legacy_subagents: legacy_explained.into_iter().map(|(l, _)| l).collect(),
            stats,
        },
        first_ms: t.first_ms,
        last_ms: t.last_ms,
        active_ms: t.measured().map(|(active, _)| active),
        models: facts::models(ix),
        has_usage: facts::has_usage(ix),
        cwd,
        not_a_transcript: verdict::judge(ix, head).reason().map(str::to_string),
        runs: linked,
        report,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::folder::tree::Entry;
    use crate::index::Indexer;

    struct Mem(Vec<Vec<u8>>);

    impl ReadAt for Mem {
        fn read_at(&mut self, entry: u32, start: u64, end: u64) -> Option<Vec<u8>> {
            self.0.get(entry as usize)?.get(start as usize..end as usize).map(<[u8]>::to_vec)
        }
        fn read_all(&mut self, entry: u32) -> Option<Vec<u8>> {
            self.0.get(entry as usize).cloned()
        }
    }

    #[test]
    fn a_conversation_with_a_deletion_a_run_and_a_legacy_run() {
        let conv = concat!(
            r#"{"type":"user","uuid":"u","sessionId":"s1","cwd":"/Users/a/my-app","timestamp":"2026-01-01T10:00:00Z","message":{"role":"user","content":"Audit it"}}"#, "\n",
            r#"{"type":"assistant","uuid":"a","sessionId":"s1","timestamp":"2026-01-01T10:00:01Z","message":{"id":"m","model":"claude-x","content":[{"type":"tool_use","id":"t1","name":"Task","input":{}}],"usage":{"output_tokens":5}}}"#, "\n",
            r#"{"type":"user","uuid":"r","sessionId":"s1","timestamp":"2026-01-01T10:05:00Z","toolUseResult":{"agentId":"old"},"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"done"}]}}"#, "\n",
        );
        let run = r#"{"type":"assistant","sessionId":"s1","timestamp":"2026-01-01T10:01:00Z","message":{"id":"x","content":"ok"}}"#.to_string() + "\n";
        let legacy = r#"{"type":"user","sessionId":"s1","timestamp":"2026-01-01T10:02:00Z","message":{"role":"user","content":"go"}}"#.to_string() + "\n";
        let other_legacy = r#"{"type":"user","sessionId":"s9","message":{"role":"user","content":"go"}}"#.to_string() + "\n";
        let files: Vec<(&str, Vec<u8>)> = vec![
            ("-Users-a-my-app/c.jsonl", conv.as_bytes().to_vec()),
            ("-Users-a-my-app/c.desktop-released.json", br#"{"v":1,"releasedAt":"2026-09-01T00:39:27.821Z","reason":"delete"}"#.to_vec()),
            ("-Users-a-my-app/c/subagents/agent-new.jsonl", run.into_bytes()),
            ("-Users-a-my-app/agent-old.jsonl", legacy.into_bytes()),
            ("-Users-a-my-app/agent-zzz.jsonl", other_legacy.into_bytes()),
        ];
        let tree = Tree::build(files.iter().map(|(p, b)| Entry { path: p.to_string(), size_bytes: b.len() as u64, modified_ms: None }).collect());
        let mut io = Mem(files.iter().map(|(_, b)| b.clone()).collect());
        let index_of = |e: u32| Indexer::index_bytes(&io.0[e as usize]);
        let c = &tree.conversations[0];
        let runs: Vec<Run> = c.runs.iter().map(|r| Run::from_index(&r.agent_id, r.jsonl, &index_of(r.jsonl), &[], None)).collect();
        let legacy: Vec<Run> = tree.projects[0].legacy_runs.iter().map(|(id, e)| Run::from_index(id, *e, &index_of(*e), &[], None)).collect();
        let ix = index_of(c.entry);
        let parts = Parts { ix: &ix, head: conv.as_bytes(), runs, legacy: &legacy, idle_gap_secs: crate::model::DEFAULT_IDLE_GAP_SECS };
        let f = summarize(&tree, c, parts, &mut io);
        assert_eq!(f.line.path, "-Users-a-my-app/c.jsonl");
        assert_eq!(f.line.project, "-Users-a-my-app");
        assert_eq!((f.line.title.as_deref(), f.line.title_source), (Some("Audit it"), Some(TitleKind::Prompt)));
        assert_eq!((f.line.deleted, f.line.deleted_at.as_deref()), (true, Some("2026-09-01T00:39:27.821Z")));
        assert_eq!(f.cwd.as_deref(), Some("/Users/a/my-app"), "the record's cwd keeps the dash the directory name loses");
        // The run under subagents/ fits the Task call's window; the legacy one is named by the result.
        assert_eq!(f.line.stats.subagents, vec![SubagentLink { agent_id: "new".into(), link: subagents::Link::Clock, tool_use_id: Some("t1".into()) }]);
        assert_eq!(f.line.legacy_subagents, vec![SubagentLink { agent_id: "old".into(), link: subagents::Link::Result, tool_use_id: Some("t1".into()) }]);
        assert_eq!(f.runs.len(), 2, "agent-zzz belongs to another conversation");
        assert_eq!((f.models.clone(), f.active_ms, f.has_usage), (vec!["claude-x".to_string()], Some(300_000), true));
        let json = serde_json::to_value(&f.line).unwrap();
        let keys: Vec<&str> = json.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, ["deleted", "deleted_at", "legacy_subagents", "path", "project", "stats", "title", "title_source"], "exactly the contract's keys");
    }
}
