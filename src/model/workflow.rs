//! A workflow run (the `Workflow` tool, Claude Code 2.1.154+): a script that
//! fans out into agents, grouped in phases. What is on disk (sources:
//! daaain/claude-code-log `dev-docs/workflows.md` and
//! `test/test_data/workflow_scriptpath/`):
//!
//! ```text
//!   <sid>/subagents/workflows/<runId>/journal.jsonl   started/result events by agentId, from the start
//!   <sid>/subagents/workflows/<runId>/agent-<id>.jsonl (+ .meta.json {"agentType":"workflow-subagent"})
//!   <sid>/workflows/<runId>.json                       the snapshot, written when the run ends
//! ```
//!
//! The journal leads (launch order, every agent launched, retries
//! included); the snapshot adds phases, each agent's model, state, tokens
//! and duration, the run's status and error. A run without a snapshot is
//! still running (or its snapshot was not picked): its agents are shown in
//! journal order, without phases. A run that failed before launching any
//! agent leaves only its snapshot.
//!
//! A run is linked to its `Workflow` call by the call's
//! `toolUseResult.runId` (the index keeps it as the result's run), else by
//! `Task ID: <taskId>` or `Transcript dir: …/<runId>` in the result's text.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::index::Index;

/// The tool that launches a workflow run.
pub const WORKFLOW_TOOL: &str = "Workflow";

/// One phase, as the snapshot lists it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Phase {
    pub title: String,
    pub detail: Option<String>,
    /// Its agents, as indices into [`Workflow::agents`].
    pub agents: Vec<u32>,
}

/// One agent of a run. Every fact is optional: the journal gives only the
/// id and the result; the snapshot the rest.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Agent {
    pub agent_id: String,
    pub label: Option<String>,
    pub model: Option<String>,
    /// `done`, `failed`, … as the snapshot says; `None` without one.
    pub state: Option<String>,
    pub tokens: Option<u64>,
    pub tool_calls: Option<u64>,
    pub duration_ms: Option<i64>,
    /// Its result (a structured one as JSON text); `None` while it runs.
    pub result: Option<String>,
    /// Launched (a journal `started`) with no result yet.
    pub in_flight: bool,
}

/// One workflow run, from its journal and its snapshot.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Workflow {
    pub run_id: String,
    pub task_id: Option<String>,
    pub name: Option<String>,
    /// `completed`, `failed`, … from the snapshot; `None`: no snapshot
    /// (running, or its snapshot was not picked).
    pub status: Option<String>,
    /// The snapshot's error (typically a script's stack trace).
    pub error: Option<String>,
    pub summary: Option<String>,
    pub duration_ms: Option<i64>,
    pub total_tokens: Option<u64>,
    pub total_tool_calls: Option<u64>,
    /// From the snapshot; empty without one.
    pub phases: Vec<Phase>,
    /// In launch order (journal first, then agents only the snapshot names).
    pub agents: Vec<Agent>,
    /// Lines of the journal, or the snapshot, that could not be read (each
    /// naming its file and line): said, never dropped silently.
    pub problems: Vec<String>,
}

fn text(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    }
}

impl Workflow {
    /// The run `run_id` from its journal and snapshot bytes (either may be
    /// missing); `journal_name`/`snapshot_name` name them in problems.
    pub fn build(run_id: &str, journal: Option<(&str, &[u8])>, snapshot: Option<(&str, &[u8])>) -> Workflow {
        let mut w = Workflow { run_id: run_id.to_string(), ..Workflow::default() };
        if let Some((name, bytes)) = journal {
            w.read_journal(name, bytes);
        }
        if let Some((name, bytes)) = snapshot {
            match serde_json::from_slice::<Value>(bytes) {
                Ok(Value::Object(m)) => w.read_snapshot(&m),
                Ok(_) => w.problems.push(format!("{name}: not a JSON object")),
                Err(e) => w.problems.push(format!("{name}: not JSON ({e})")),
            }
        }
        w
    }

    /// Whether the run has not ended, as far as the picked files tell.
    pub fn running(&self) -> bool {
        self.status.is_none()
    }

    /// The index of agent `agent_id`, made when first named.
    fn agent_at(&mut self, agent_id: &str) -> usize {
        match self.agents.iter().position(|a| a.agent_id == agent_id) {
            Some(k) => k,
            None => {
                self.agents.push(Agent { agent_id: agent_id.to_string(), ..Agent::default() });
                self.agents.len() - 1
            }
        }
    }

    fn agent(&mut self, agent_id: &str) -> &mut Agent {
        let k = self.agent_at(agent_id);
        &mut self.agents[k]
    }

    fn read_journal(&mut self, name: &str, bytes: &[u8]) {
        for (k, line) in bytes.split(|&b| b == b'\n').enumerate() {
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let v = match serde_json::from_slice::<Value>(line) {
                Ok(Value::Object(m)) => m,
                Ok(_) => {
                    self.problems.push(format!("{name} line {}: not a JSON object", k + 1));
                    continue;
                }
                Err(e) => {
                    self.problems.push(format!("{name} line {}: not JSON ({e})", k + 1));
                    continue;
                }
            };
            let Some(id) = v.get("agentId").and_then(Value::as_str).filter(|s| !s.is_empty()) else { continue };
            match v.get("type").and_then(Value::as_str) {
                Some("started") => {
                    let a = self.agent(id);
                    a.in_flight = a.result.is_none();
                }
                Some("result") => {
                    let a = self.agent(id);
                    a.result = text(v.get("result"));
                    a.in_flight = false;
                }
                // Other events: unknown shapes are left alone.
                _ => {}
            }
        }
    }

    fn read_snapshot(&mut self, m: &serde_json::Map<String, Value>) {
        let s = |k: &str| m.get(k).and_then(Value::as_str).map(str::to_string);
        self.task_id = s("taskId");
        self.name = s("workflowName");
        self.status = s("status");
        self.error = s("error");
        self.summary = s("summary");
        self.duration_ms = m.get("durationMs").and_then(Value::as_i64);
        self.total_tokens = m.get("totalTokens").and_then(Value::as_u64);
        self.total_tool_calls = m.get("totalToolCalls").and_then(Value::as_u64);
        self.phases = m
            .get("phases")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(|p| Phase { title: p.get("title").and_then(Value::as_str).unwrap_or("").to_string(), detail: text(p.get("detail")), agents: Vec::new() })
            .collect();
        let progress = m.get("workflowProgress").and_then(Value::as_array).into_iter().flatten();
        for p in progress.filter(|p| p.get("type").and_then(Value::as_str) == Some("workflow_agent")) {
            let Some(id) = p.get("agentId").and_then(Value::as_str).filter(|s| !s.is_empty()) else { continue };
            // Phases: the snapshot's list is 0-based, an agent's phaseIndex
            // 1-based; the title decides, the index only without a match.
            let by_title = p.get("phaseTitle").and_then(Value::as_str).and_then(|t| self.phases.iter().position(|ph| ph.title == t));
            let by_index = p.get("phaseIndex").and_then(Value::as_u64).and_then(|i| i.checked_sub(1)).map(|i| i as usize).filter(|&i| i < self.phases.len());
            let phase = by_title.or(by_index);
            let k = self.agent_at(id);
            let a = &mut self.agents[k];
            a.label = text(p.get("label")).or(a.label.take());
            a.model = text(p.get("model"));
            a.state = text(p.get("state"));
            a.tokens = p.get("tokens").and_then(Value::as_u64);
            a.tool_calls = p.get("toolCalls").and_then(Value::as_u64);
            a.duration_ms = p.get("durationMs").and_then(Value::as_i64);
            if a.result.is_none() {
                a.result = text(p.get("resultPreview"));
            }
            if a.state.is_some() {
                a.in_flight = false;
            }
            if let Some(ph) = phase {
                let k = k as u32;
                if !self.phases[ph].agents.contains(&k) {
                    self.phases[ph].agents.push(k);
                }
            }
        }
    }

    /// Agents in no phase (all of them without a snapshot), by index.
    pub fn outside_phases(&self) -> Vec<u32> {
        (0..self.agents.len() as u32).filter(|k| !self.phases.iter().any(|p| p.agents.contains(k))).collect()
    }
}

/// How a run was found for its call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CallLink {
    /// The call's `toolUseResult.runId`.
    RunId,
    /// `Task ID: <taskId>` in the call's result text (the snapshot's taskId).
    TaskId,
    /// `Transcript dir: …/<runId>` in the call's result text.
    TranscriptDir,
}

/// A `Workflow` call of a file, with what its result names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    pub tool_use_id: String,
    /// The row holding its result, if it has one.
    pub result_row: Option<u32>,
    /// The result's `toolUseResult.runId`.
    pub result_run: Option<String>,
}

/// Every `Workflow` call of `ix`, in file order.
pub fn calls(ix: &Index) -> Vec<Call> {
    ix.tool_uses
        .iter()
        .filter(|u| ix.str(u.name) == WORKFLOW_TOOL && u.id.is_some())
        .map(|u| {
            let result = ix.tool_results.iter().find(|r| r.tool_use_id == u.id);
            let run = result.map(|r| ix.rows[r.row as usize].result_run_id).filter(|s| s.is_some());
            Call { tool_use_id: ix.str(u.id).to_string(), result_row: result.map(|r| r.row), result_run: run.map(|s| ix.str(s).to_string()) }
        })
        .collect()
}

/// Which run a `Workflow` call's result text names: `(task id, run id)`
/// from its `Task ID:` and `Transcript dir:` lines.
pub fn named_in_result(text: &str) -> (Option<&str>, Option<&str>) {
    let mut task = None;
    let mut dir = None;
    for line in text.lines() {
        let line = line.trim();
        if let Some(t) = line.split_once("Task ID:").map(|(_, t)| t.trim()) {
            task = t.split_whitespace().next().or(task);
        }
        if let Some(d) = line.strip_prefix("Transcript dir:").map(str::trim) {
            dir = d.trim_end_matches('/').rsplit('/').next().filter(|s| !s.is_empty());
        }
    }
    (task, dir)
}

/// Whether a call whose result names `(result_run, text)` launched `w`,
/// and how we know.
pub fn links(w: &Workflow, result_run: Option<&str>, text: Option<&str>) -> Option<CallLink> {
    if result_run == Some(w.run_id.as_str()) {
        return Some(CallLink::RunId);
    }
    let (task, dir) = text.map(named_in_result).unwrap_or((None, None));
    if task.is_some() && task == w.task_id.as_deref() {
        return Some(CallLink::TaskId);
    }
    (dir == Some(w.run_id.as_str())).then_some(CallLink::TranscriptDir)
}

#[cfg(test)]
mod tests {
    use super::*;

    // The shapes of daaain/claude-code-log test/test_data/workflow_scriptpath/.
    const JOURNAL: &str = concat!(
        r#"{"type": "started", "key": "v2:h0", "agentId": "ag1"}"#, "\n",
        r#"{"type": "started", "key": "v2:h1", "agentId": "ag2"}"#, "\n",
        "not json\n",
        r#"{"type": "result", "key": "v2:h0", "agentId": "ag1", "result": "Batch a swept"}"#, "\n",
        r#"{"type": "result", "key": "v2:h1", "agentId": "ag2", "result": {"pages": 2}}"#, "\n",
    );
    const SNAPSHOT: &str = r#"{"runId":"wf1","taskId":"task1","status":"completed","workflowName":"docs-sweep","durationMs":2000,"totalTokens":101,"totalToolCalls":2,
        "phases":[{"title":"Map","detail":"one per batch"},{"title":"Reduce"}],
        "workflowProgress":[{"type":"workflow_phase","index":1,"title":"Map"},
          {"type":"workflow_agent","label":"map:a","phaseIndex":1,"phaseTitle":"Map","agentId":"ag1","model":"claude-sonnet-4-6","state":"done","tokens":60,"toolCalls":1,"durationMs":900},
          {"type":"workflow_agent","label":"reduce","phaseIndex":2,"agentId":"ag2","state":"done","tokens":41}]}"#;

    #[test]
    fn the_journal_leads_and_the_snapshot_groups_by_phase_title() {
        let w = Workflow::build("wf1", Some(("journal.jsonl", JOURNAL.as_bytes())), Some(("wf1.json", SNAPSHOT.as_bytes())));
        assert_eq!(w.agents.iter().map(|a| a.agent_id.as_str()).collect::<Vec<_>>(), ["ag1", "ag2"]);
        assert_eq!(w.phases.iter().map(|p| (p.title.as_str(), p.agents.clone())).collect::<Vec<_>>(), [("Map", vec![0]), ("Reduce", vec![1])], "1-based phaseIndex, 0-based list");
        assert_eq!(w.agents[0].result.as_deref(), Some("Batch a swept"));
        assert_eq!(w.agents[1].result.as_deref(), Some(r#"{"pages":2}"#), "a structured result as JSON");
        assert_eq!((w.agents[0].model.as_deref(), w.agents[0].tokens, w.agents[1].model.as_deref()), (Some("claude-sonnet-4-6"), Some(60), None), "absent stays absent");
        assert_eq!(w.status.as_deref(), Some("completed"));
        assert!(!w.running());
        assert_eq!(w.problems, ["journal.jsonl line 3: not JSON (expected ident at line 1 column 2)"]);
    }

    #[test]
    fn a_running_run_has_its_journal_only_and_no_phases() {
        let journal = concat!(r#"{"type":"started","agentId":"ag1"}"#, "\n", r#"{"type":"started","agentId":"ag2"}"#, "\n", r#"{"type":"result","agentId":"ag1","result":"ok"}"#, "\n");
        let w = Workflow::build("wf2", Some(("journal.jsonl", journal.as_bytes())), None);
        assert!(w.running());
        assert!(w.phases.is_empty());
        assert_eq!(w.outside_phases(), [0, 1]);
        assert_eq!(w.agents.iter().map(|a| a.in_flight).collect::<Vec<_>>(), [false, true]);
    }

    #[test]
    fn a_run_that_failed_before_any_agent_is_its_snapshot_alone() {
        let snap = r#"{"runId":"wf_fail","taskId":"task_fail","status":"failed","error":"Error: undefined is not an object\n    at workflow.js:9:10","phases":[{"title":"Sweep"}],"workflowProgress":[]}"#;
        let w = Workflow::build("wf_fail", None, Some(("wf_fail.json", snap.as_bytes())));
        assert_eq!((w.status.as_deref(), w.agents.len()), (Some("failed"), 0));
        assert!(w.error.as_deref().is_some_and(|e| e.contains("workflow.js:9:10")));
        let bad = Workflow::build("x", None, Some(("x.json", b"[1]")));
        assert_eq!(bad.problems, ["x.json: not a JSON object"]);
    }

    #[test]
    fn a_call_is_linked_by_run_id_else_task_id_else_transcript_dir() {
        let w = Workflow { run_id: "wf_sp01".into(), task_id: Some("task_sp01".into()), ..Workflow::default() };
        let text = "Workflow launched in background. Task ID: task_sp01\nSummary: Sweep.\nTranscript dir: 2222/subagents/workflows/wf_sp01\n";
        assert_eq!(links(&w, Some("wf_sp01"), None), Some(CallLink::RunId));
        assert_eq!(links(&w, None, Some(text)), Some(CallLink::TaskId));
        let no_task = Workflow { task_id: None, ..w.clone() };
        assert_eq!(links(&no_task, None, Some(text)), Some(CallLink::TranscriptDir), "a running run has no snapshot's task id");
        assert_eq!(links(&w, Some("wf_other"), Some("Task ID: task_other")), None);
    }
}
