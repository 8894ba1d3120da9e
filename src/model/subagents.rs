//! Linking subagent runs (`<stem>/subagents/agent-<id>.jsonl`) to the Agent /
//! Task call in the main file that spawned them.
//!
//! Three links, strongest first: the run's `.meta.json` names the call
//! (`toolUseId`); a tool_result in the main file came back from the run
//! (`toolUseResult.agentId`); or exactly one Agent/Task call's window — from
//! its call record's timestamp to its result record's — contains every
//! timestamp of the run. Several overlapping windows (parallel delegations)
//! or none: decline, never guess.

use serde::Serialize;

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

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Link {
    Meta,
    Result,
    Clock,
    None,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SubagentLink {
    pub agent_id: String,
    pub link: Link,
    pub tool_use_id: Option<String>,
}

/// Links every run, sorted by agent id.
pub fn link(ix: &Index, runs: &[SubagentRun]) -> Vec<SubagentLink> {
    // Windows of Agent/Task calls: (tool_use_id, call ms, result ms).
    let windows: Vec<_> = tool_calls(ix)
        .into_iter()
        .filter_map(|c| {
            let tu = &ix.tool_uses[c.tool_use as usize];
            if !super::is_agent_tool(ix.str(tu.name)) {
                return None;
            }
            let result_row = ix.tool_results[c.tool_result? as usize].row;
            let call_ms = ix.rows[tu.row as usize].timestamp_ms?;
            Some((tu.id, call_ms, ix.rows[result_row as usize].timestamp_ms?))
        })
        .collect();
    let mut out: Vec<SubagentLink> = runs
        .iter()
        .map(|run| {
            if let Some(id) = &run.meta_tool_use_id {
                return SubagentLink { agent_id: run.agent_id.clone(), link: Link::Meta, tool_use_id: Some(id.clone()) };
            }
            let by_result = ix.strings.get(&run.agent_id).and_then(|agent| {
                ix.tool_results.iter().find(|tr| ix.rows[tr.row as usize].result_agent_id == agent)
            });
            if let Some(tr) = by_result {
                return SubagentLink {
                    agent_id: run.agent_id.clone(),
                    link: Link::Result,
                    tool_use_id: Some(ix.str(tr.tool_use_id).to_string()),
                };
            }
            let mut fits = run
                .span_ms
                .into_iter()
                .flat_map(|(lo, hi)| windows.iter().filter(move |w| w.1 <= lo && hi <= w.2));
            match (fits.next(), fits.next()) {
                (Some(w), None) => SubagentLink {
                    agent_id: run.agent_id.clone(),
                    link: Link::Clock,
                    tool_use_id: Some(ix.str(w.0).to_string()),
                },
                _ => SubagentLink { agent_id: run.agent_id.clone(), link: Link::None, tool_use_id: None },
            }
        })
        .collect();
    out.sort_by(|a, b| a.agent_id.cmp(&b.agent_id));
    out
}

/// The timestamp span of a run's own index.
pub fn span_of(ix: &Index) -> Option<(i64, i64)> {
    let mut it = ix.rows.iter().filter_map(|r| r.timestamp_ms);
    let first = it.next()?;
    Some(it.fold((first, first), |(lo, hi), t| (lo.min(t), hi.max(t))))
}
