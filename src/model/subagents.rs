//! Linking subagent runs (`<stem>/subagents/agent-<id>.jsonl`) to the Agent /
//! Task call in the main file that spawned them.
//!
//! Three links, strongest first: the run's `.meta.json` names the call
//! (`toolUseId`); a tool_result in the main file came back from the run
//! (`toolUseResult.agentId`); or exactly one Agent/Task call's window — from
//! its call record's timestamp to its result record's — contains every
//! timestamp of the run. Several overlapping windows (parallel delegations)
//! or none: decline, never guess. (Contract v1 keeps these three; the agent
//! graph and the page add a fourth, [`Link::Text`], before the clock: an
//! `agentId:` line in a call's result, the only trace a nested spawn leaves.)

use serde::{Deserialize, Serialize};

use super::conversation::tool_calls;
use crate::index::Index;

/// What we know of one subagent run before linking it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SubagentRun {
    pub agent_id: String,
    /// `toolUseId` from `agent-<id>.meta.json`, when it is a string.
    pub meta_tool_use_id: Option<String>,
    /// Earliest and latest timestamp in the run, if any.
    pub span_ms: Option<(i64, i64)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Link {
    Meta,
    Result,
    Clock,
    /// An agent of a workflow run (by its directory,
    /// `subagents/workflows/<runId>/`), under the call that launched the run.
    Workflow,
    /// An `agentId: <id>` line in the text of a call's result: the only
    /// parent → child link a nested run's spawner leaves (its results carry
    /// no `toolUseResult`).
    Text,
    None,
}

/// Contract v1's `subagents` entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubagentLink {
    pub agent_id: String,
    pub link: Link,
    pub tool_use_id: Option<String>,
}

/// Why a run was not linked (`Link::None`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Decline {
    /// No meta, no result names it, and it has no timestamps to place it.
    NoTimestamps,
    /// No Agent/Task call with a result was running the whole time it ran.
    NoCallRunning,
    /// Several calls were running the whole time it ran: parallel delegations.
    Overlap { calls: u32 },
}

impl Decline {
    pub fn describe(self) -> String {
        match self {
            Decline::NoTimestamps => "it has no timestamps, no meta file names its call, and no result names it".into(),
            Decline::NoCallRunning => "no Agent call was running while it ran".into(),
            Decline::Overlap { calls } => format!("{calls} Agent calls overlap in time"),
        }
    }
}

/// The run an Agent call's result text names: its `agentId: <id>` line
/// ("agentId: a4ca75… (use SendMessage …)", "agentId: aaa1 — mapped").
/// (Sources: daaain/claude-code-log `dev-docs/agents.md` §5,
/// `dev-docs/teammates.md` §2.3.)
pub fn named_agent(text: &str) -> Option<&str> {
    text.lines().find_map(|l| {
        let id = l.trim_start().strip_prefix("agentId:")?.trim_start();
        let end = id.find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '@' | '.'))).unwrap_or(id.len());
        Some(id[..end].trim_end_matches('.')).filter(|id| !id.is_empty())
    })
}

/// The run named by the result of call `call_id` held in record `row_bytes`.
pub fn named_in_record(row_bytes: &[u8], call_id: &str) -> Option<String> {
    let body = super::body::Body::parse(row_bytes)?;
    let block = body.blocks().iter().find(|b| b.kind.is("tool_result") && b.tool_use_id.as_deref() == Some(call_id))?;
    named_agent(&block.result_text()).map(str::to_string)
}

/// The Agent/Task calls of `ix` with a result, and the byte range of that
/// result's record: where [`named_in_record`] reads (the caller fetches it).
pub fn agent_answers(ix: &Index) -> Vec<(String, u64, u64)> {
    tool_calls(ix)
        .into_iter()
        .filter_map(|c| {
            let tu = &ix.tool_uses[c.tool_use as usize];
            let row = &ix.rows[ix.tool_results[c.tool_result? as usize].row as usize];
            (super::kind::is_agent_tool(ix.str(tu.name)) && tu.id.is_some()).then(|| (ix.str(tu.id).to_string(), row.offset, row.end_offset()))
        })
        .collect()
}

/// Links every run, sorted by agent id.
pub fn link(ix: &Index, runs: &[SubagentRun]) -> Vec<SubagentLink> {
    link_explained(ix, runs).into_iter().map(|(l, _)| l).collect()
}

/// [`link`], with the reason for each run it declined to link.
pub fn link_explained(ix: &Index, runs: &[SubagentRun]) -> Vec<(SubagentLink, Option<Decline>)> {
    // Windows of Agent/Task calls: (tool_use_id, call ms, result ms).
    let windows: Vec<_> = tool_calls(ix)
        .into_iter()
        .filter_map(|c| {
            let tu = &ix.tool_uses[c.tool_use as usize];
            if !super::kind::is_agent_tool(ix.str(tu.name)) {
                return None;
            }
            let result_row = ix.tool_results[c.tool_result? as usize].row;
            let call_ms = ix.rows[tu.row as usize].timestamp_ms?;
            Some((tu.id, call_ms, ix.rows[result_row as usize].timestamp_ms?))
        })
        .collect();
    let linked = |run: &SubagentRun, link, id: Option<String>| (SubagentLink { agent_id: run.agent_id.clone(), link, tool_use_id: id }, None);
    let declined = |run: &SubagentRun, why| (SubagentLink { agent_id: run.agent_id.clone(), link: Link::None, tool_use_id: None }, Some(why));
    let mut out: Vec<_> = runs
        .iter()
        .map(|run| {
            if let Some(id) = &run.meta_tool_use_id {
                return linked(run, Link::Meta, Some(id.clone()));
            }
            let by_result = ix.strings.get(&run.agent_id).and_then(|agent| {
                ix.tool_results.iter().find(|tr| ix.rows[tr.row as usize].result_run_id == agent)
            });
            if let Some(tr) = by_result {
                return linked(run, Link::Result, Some(ix.str(tr.tool_use_id).to_string()));
            }
            let Some((lo, hi)) = run.span_ms else { return declined(run, Decline::NoTimestamps) };
            let fits: Vec<_> = windows.iter().filter(|w| w.1 <= lo && hi <= w.2).collect();
            match fits.as_slice() {
                [w] => linked(run, Link::Clock, Some(ix.str(w.0).to_string())),
                [] => declined(run, Decline::NoCallRunning),
                many => declined(run, Decline::Overlap { calls: many.len() as u32 }),
            }
        })
        .collect();
    crate::sort::by(&mut out, |a, b| a.0.agent_id.cmp(&b.0.agent_id));
    out
}

/// What a meta link leaves in doubt (contract v1 keeps the link as the
/// meta file says; the page and the CLI say the doubt).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MetaDoubt {
    /// The meta names a call that is not in the conversation.
    MissingCall(String),
    /// Other runs' metas (these agent ids) claim the same call.
    SharedCall(Vec<String>),
}

/// For each of `links` (by position), what its meta link leaves in doubt.
pub fn meta_doubts(ix: &Index, links: &[SubagentLink]) -> Vec<Option<MetaDoubt>> {
    let calls: std::collections::HashSet<&str> = ix.tool_uses.iter().filter(|u| u.id.is_some()).map(|u| ix.str(u.id)).collect();
    fn meta_call(l: &SubagentLink) -> Option<&str> {
        (l.link == Link::Meta).then_some(l.tool_use_id.as_deref()).flatten()
    }
    links
        .iter()
        .map(|l| {
            let id = meta_call(l)?;
            if !calls.contains(id) {
                return Some(MetaDoubt::MissingCall(id.to_string()));
            }
            let others: Vec<String> = links.iter().filter(|o| o.agent_id != l.agent_id && meta_call(o) == Some(id)).map(|o| o.agent_id.clone()).collect();
            (!others.is_empty()).then_some(MetaDoubt::SharedCall(others))
        })
        .collect()
}

/// The timestamp span of a run's own index.
pub fn span_of(ix: &Index) -> Option<(i64, i64)> {
    let mut it = ix.rows.iter().filter_map(|r| r.timestamp_ms);
    let first = it.next()?;
    Some(it.fold((first, first), |(lo, hi), t| (lo.min(t), hi.max(t))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::Indexer;

    #[test]
    fn a_result_text_names_its_run_on_an_agent_id_line() {
        assert_eq!(named_agent("agentId: aaa1 \u{2014} mapped"), Some("aaa1"));
        assert_eq!(named_agent("Done.\nagentId: a4ca7529859c158c2 (use SendMessage with to: 'x' to continue this agent)\n<usage>…"), Some("a4ca7529859c158c2"));
        assert_eq!(named_agent("agentId: alice@core"), Some("alice@core"));
        assert_eq!(named_agent("the agentId: is mentioned mid-line"), None);
        assert_eq!(named_agent("agentId:   "), None);
    }

    #[test]
    fn a_meta_naming_a_missing_call_or_a_shared_one_is_in_doubt() {
        let ix = Indexer::index_bytes(br#"{"type":"assistant","message":{"id":"m","content":[{"type":"tool_use","id":"t1","name":"Agent","input":{}}]}}"#);
        let run = |id: &str, call: &str| SubagentRun { agent_id: id.into(), meta_tool_use_id: Some(call.into()), span_ms: None };
        let links = link(&ix, &[run("a", "t1"), run("b", "t1"), run("c", "t9")]);
        assert!(links.iter().all(|l| l.link == Link::Meta), "contract v1 keeps what the meta says");
        assert_eq!(
            meta_doubts(&ix, &links),
            vec![Some(MetaDoubt::SharedCall(vec!["b".into()])), Some(MetaDoubt::SharedCall(vec!["a".into()])), Some(MetaDoubt::MissingCall("t9".into()))]
        );
    }
}
