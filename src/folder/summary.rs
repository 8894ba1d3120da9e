//! One conversation of a folder, summed up: the sessions contract v1 line
//! (`ccscope sessions`) and what the session browser shows beside it. The
//! CLI (reading from disk) and the reading worker (from `File`s) index the
//! files their own way and call the same functions here; the few small
//! reads a summary needs (title rows, sidecars) go through [`ReadAt`].

use serde::{Deserialize, Serialize};

use super::tree::{Conversation, Tree, WorkflowFiles};
use crate::model::workflow::{self, CallLink, Workflow};
use crate::index::{flag, Index};
use crate::model::body::Body;
use crate::model::changes;
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

/// Why a sidecar (a run's `.meta.json`, a `.desktop-released.json`) could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum SidecarError {
    #[error("not JSON ({0})")]
    NotJson(String),
    #[error("not a JSON object")]
    NotAnObject,
}

/// A sidecar's JSON object, or why it is not one.
fn sidecar(bytes: &[u8]) -> Result<serde_json::Map<String, serde_json::Value>, SidecarError> {
    match serde_json::from_slice::<serde_json::Value>(bytes) {
        Ok(serde_json::Value::Object(m)) => Ok(m),
        Ok(_) => Err(SidecarError::NotAnObject),
        Err(e) => Err(SidecarError::NotJson(e.to_string())),
    }
}

impl Meta {
    /// Every field optional; a file that is not a JSON object is an error
    /// the page and the CLI name (the run is then placed without it).
    pub fn parse(bytes: &[u8]) -> Result<Meta, SidecarError> {
        let m = sidecar(bytes)?;
        let s = |k: &str| m.get(k).and_then(|v| v.as_str()).map(str::to_string);
        Ok(Meta { agent_type: s("agentType"), description: s("description"), spawn_depth: m.get("spawnDepth").and_then(|v| v.as_u64()), tool_use_id: s("toolUseId") })
    }
}

/// What a link leaves in doubt, said beside the run (contract v1's
/// `subagents` keeps its values; the page and the CLI say the doubt).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Doubt {
    /// The meta names a call that is not in the conversation: the run is
    /// unplaced (it opens as a transcript of its own).
    MissingCall { tool_use_id: String },
    /// Other runs' metas claim the same call: all are shown under it.
    SharedCall { others: Vec<String> },
    /// The meta file could not be read as JSON: the run was placed without it.
    BadMeta(SidecarError),
    /// An agent of workflow run `run_id`, which no call of the conversation launched.
    WorkflowWithoutCall { run_id: String },
}

impl From<subagents::MetaDoubt> for Doubt {
    fn from(d: subagents::MetaDoubt) -> Doubt {
        match d {
            subagents::MetaDoubt::MissingCall(tool_use_id) => Doubt::MissingCall { tool_use_id },
            subagents::MetaDoubt::SharedCall(others) => Doubt::SharedCall { others },
        }
    }
}

impl Doubt {
    /// In words, after the run's name (the page and the CLI say the same).
    pub fn describe(&self) -> String {
        match self {
            Doubt::MissingCall { tool_use_id } => format!("its meta file names the call {tool_use_id}, which is not in this conversation"),
            Doubt::SharedCall { others } => format!("{} also {} this call", others.iter().map(|a| format!("agent-{a}")).collect::<Vec<_>>().join(", "), if others.len() == 1 { "claims" } else { "claim" }),
            Doubt::BadMeta(e) => format!("its meta file is {e}; placed without it"),
            Doubt::WorkflowWithoutCall { run_id } => format!("it is an agent of workflow run {run_id}, which no Workflow call of this conversation launched"),
        }
    }

    /// The run has no call to sit under.
    pub fn unplaced(&self) -> bool {
        matches!(self, Doubt::MissingCall { .. } | Doubt::WorkflowWithoutCall { .. })
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
    /// Every token its API turns used (input, cache write and read, output);
    /// `None` when none carries usage. Runs are real API spend.
    pub tokens: Option<u64>,
    /// Its estimated cost (`model::prices`); `None` when no model has a price.
    pub cost_usd: Option<f64>,
    /// Its own Agent/Task calls: where nested runs were spawned.
    pub agent_calls: Vec<String>,
    /// Its Agent/Task calls' results, as `(call id, start, end)` byte ranges
    /// of their records: where an `agentId:` line may name a nested run.
    pub answers: Vec<(String, u64, u64)>,
    /// Set when it is not a transcript at all (empty, not JSON lines).
    pub not_a_transcript: Option<String>,
    /// Its meta file exists but is not a JSON object.
    pub meta_error: Option<SidecarError>,
}

impl Run {
    /// `meta`: the parsed meta file, if there is one.
    pub fn from_index(agent_id: &str, entry: u32, ix: &Index, head: &[u8], meta: Option<Result<Meta, SidecarError>>) -> Run {
        let (meta, meta_error) = match meta {
            Some(Ok(m)) => (Some(m), None),
            Some(Err(e)) => (None, Some(e)),
            None => (None, None),
        };
        // Turns, calls and timeline built once, for its stats and its cost alike (as `summarize` does).
        let timeline = crate::model::time::timeline(ix, crate::model::DEFAULT_IDLE_GAP_SECS);
        let (turns, calls) = (conversation::turns(ix), conversation::tool_calls(ix));
        let stats = Stats::from_parts(ix, &turns, &calls, &timeline);
        let report = Report::from_parts(ix, &turns, &calls, &timeline, &stats);
        let tokens = report.models.iter().filter_map(crate::model::report::ModelStats::tokens).reduce(|a, b| a + b);
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
            tokens,
            cost_usd: report.cost_usd,
            agent_calls,
            answers: subagents::agent_answers(ix),
            not_a_transcript: verdict::judge(ix, head).reason().map(str::to_string),
            meta_error,
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
    /// What its link leaves in doubt, if anything.
    pub doubt: Option<Doubt>,
    /// The workflow run it is an agent of: it sits in that run's card
    /// (under the run's phase), not under a call of its own.
    pub workflow: Option<String>,
    /// The call that spawned it, in this conversation's file or a run's: its
    /// meta's `toolUseId`, else the call whose result's `agentId:` line names it.
    pub spawner: Option<String>,
}

impl Linked {
    /// Sits under no call: not linked, or linked to a call not in the file.
    pub fn unplaced(&self) -> bool {
        self.link.link == subagents::Link::None || self.doubt.as_ref().is_some_and(Doubt::unplaced)
    }

    /// The call that spawned it, as its meta or a result's `agentId:` line says.
    pub fn spawned_by(&self) -> Option<&str> {
        self.spawner.as_deref()
    }
}

/// How deep run `agent_id` of `runs` (a conversation's) sits: 1 under a
/// call of the conversation, 2 under a call of such a run, and so on;
/// `None` when its spawners do not lead to the conversation (or lead round
/// in a cycle). A walk with a visited set: no recursion, no depth bound.
pub fn depth_of(runs: &[Linked], agent_id: &str) -> Option<u32> {
    let mut seen = std::collections::HashSet::new();
    let (mut at, mut depth) = (runs.iter().find(|l| l.link.agent_id == agent_id)?, 1);
    loop {
        if !seen.insert(at.link.agent_id.as_str()) {
            return None;
        }
        let parent = at.spawned_by().and_then(|call| runs.iter().find(|p| p.run.agent_calls.iter().any(|c| c == call)));
        match parent {
            Some(p) => (at, depth) = (p, depth + 1),
            None => return (!at.unplaced()).then_some(depth),
        }
    }
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
    /// Subagent runs, workflow agents and legacy runs, each with its link.
    pub runs: Vec<Linked>,
    /// Workflow runs, each with the call that launched it.
    pub workflows: Vec<PlacedWorkflow>,
    /// What the folder dashboard sums up.
    pub report: Report,
    /// Each API message's share of `report`: the folder counts a message
    /// found in several files once.
    pub messages: Vec<crate::model::report::MessageShare>,
    /// The files its edit calls changed (`model::changes`).
    pub files: Vec<changes::FileOut>,
    /// Files beside it that could not be read as they should (a deletion
    /// marker that is not JSON), each with why: shown, never dropped silently.
    pub problems: Vec<String>,
}

/// A workflow run and the call that launched it (`None`: no call of the
/// conversation names it; its agents are then listed as unplaced).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlacedWorkflow {
    pub workflow: Workflow,
    pub call: Option<(String, CallLink)>,
    /// Its journal and snapshot, by entry (the graph names its file by them).
    pub files: WorkflowFiles,
}

/// Records read for a `cwd` at most.
const CWD_ROWS: usize = 4;

/// The `releasedAt` of a `.desktop-released.json` (`Ok(None)` without one).
fn released_at(bytes: &[u8]) -> Result<Option<String>, SidecarError> {
    Ok(sidecar(bytes)?.get("releasedAt").and_then(|v| v.as_str()).map(str::to_string))
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
pub fn reads_needed(c: &Conversation, ix: &Index, runs: &[Run]) -> Vec<(u32, u64, u64)> {
    let row = |r: u32| {
        let r = &ix.rows[r as usize];
        (c.entry, r.offset, r.end_offset())
    };
    let mut out: Vec<(u32, u64, u64)> = title::source_from_index(ix).rows().into_iter().map(row).collect();
    out.extend(cwd_rows(ix).map(row));
    out.extend(changes::edit_rows(ix).into_iter().map(row));
    out.extend(c.released.map(|m| (m, 0, u64::MAX)));
    if !c.workflows.is_empty() {
        out.extend(c.workflows.iter().flat_map(|w| w.journal.into_iter().chain(w.snapshot)).map(|e| (e, 0, u64::MAX)));
        out.extend(workflow::calls(ix).into_iter().filter_map(|call| call.result_row).map(row));
    }
    if needs_names(c, runs) {
        out.extend(subagents::agent_answers(ix).into_iter().map(|(_, start, end)| (c.entry, start, end)));
        out.extend(runs.iter().flat_map(|r| r.answers.iter().map(|(_, start, end)| (r.entry, *start, *end))));
    }
    out
}

/// The workflow run that run `r` of `c` is an agent of (by its directory).
fn workflow_of<'c>(c: &'c Conversation, r: &Run) -> Option<&'c str> {
    c.runs.iter().find(|f| f.jsonl == r.entry)?.workflow.as_deref()
}

/// Whether a run of `c` has no meta naming its call (and is no workflow
/// agent): then the `agentId:` lines of Agent results are read to place it.
fn needs_names(c: &Conversation, runs: &[Run]) -> bool {
    runs.iter().any(|r| workflow_of(c, r).is_none() && r.meta.as_ref().and_then(|m| m.tool_use_id.as_ref()).is_none())
}

/// `(call id, agent id)` for each Agent result, in `ix` or a run's file,
/// whose `agentId:` line names a run (read only when [`needs_names`]).
fn named_runs(c: &Conversation, ix: &Index, runs: &[Run], io: &mut impl ReadAt) -> Vec<(String, String)> {
    if !needs_names(c, runs) {
        return Vec::new();
    }
    let main = subagents::agent_answers(ix).into_iter().map(|(call, start, end)| (c.entry, call, start, end));
    let theirs = runs.iter().flat_map(|r| r.answers.iter().map(|(call, start, end)| (r.entry, call.clone(), *start, *end)));
    names_in(main.chain(theirs), io)
}

/// `(call id, agent id)` for each of `answers` — `(entry, call id, start,
/// end)`: an Agent call's result record — whose `agentId:` line names a run.
/// The page and `ccscope agents` read them here.
pub fn names_in(answers: impl Iterator<Item = (u32, String, u64, u64)>, io: &mut impl ReadAt) -> Vec<(String, String)> {
    answers
        .filter_map(|(entry, call, start, end)| {
            let agent = subagents::named_in_record(&io.read_at(entry, start, end)?, &call)?;
            Some((call, agent))
        })
        .collect()
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
    let (report, messages) = Report::with_shares(ix, &turns, &calls, &timeline, &stats);
    // Workflow agents sit under their workflow run, not under an Agent call.
    let linkable: Vec<SubagentRun> = runs.iter().filter(|r| workflow_of(c, r).is_none()).map(Run::linkable).collect();
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
    // Files changed: the edit calls and their results, read back.
    let files = changes::read_back(ix, &calls, &mut body).iter().map(changes::FileOut::from).collect();
    let mut problems = Vec::new();
    let deleted_at = match c.released.map(|m| (m, io.read_all(m).map(|b| released_at(&b)))) {
        Some((_, Some(Ok(at)))) => at,
        Some((m, Some(Err(e)))) => {
            problems.push(format!("{}: {e}", tree.entry(m).path));
            None
        }
        Some((m, None)) => {
            problems.push(format!("{}: could not be read", tree.entry(m).path));
            None
        }
        None => None,
    };
    let by_agent = |list: &[Run], id: &str| list.iter().find(|r| r.agent_id == id).cloned();
    let mut linked: Vec<Linked> = explained
        .into_iter()
        .filter_map(|(link, declined)| Some(Linked { run: by_agent(&runs, &link.agent_id)?, link, declined, legacy: false, doubt: None, workflow: None, spawner: None }))
        .collect();
    let owned: Vec<Run> = mine.into_iter().cloned().collect();
    linked.extend(
        legacy_explained
            .iter()
            .filter_map(|(link, declined)| Some(Linked { run: by_agent(&owned, &link.agent_id)?, link: link.clone(), declined: *declined, legacy: true, doubt: None, workflow: None, spawner: None })),
    );
    let workflows = place_workflows(tree, c, ix, io, &mut problems);
    linked.extend(workflow_agents(c, &runs, &workflows));
    place_by_names(&mut linked, &named_runs(c, ix, &runs, io));
    doubts(ix, &mut linked);
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
        workflows,
        report,
        messages,
        files,
        problems,
    }
}

/// Conversation `c`'s workflow runs, read from their journals and
/// snapshots, each placed under the `Workflow` call of `ix` that launched it.
pub fn place_workflows(tree: &Tree, c: &Conversation, ix: &Index, io: &mut impl ReadAt, problems: &mut Vec<String>) -> Vec<PlacedWorkflow> {
    if c.workflows.is_empty() {
        return Vec::new();
    }
    let calls = workflow::calls(ix);
    // Each call's result text, read once (a few rows).
    let texts: Vec<Option<String>> = calls
        .iter()
        .map(|call| {
            let r = &ix.rows[call.result_row? as usize];
            let body = Body::parse(&io.read_at(c.entry, r.offset, r.end_offset())?)?;
            body.blocks().iter().find(|b| b.tool_use_id.as_deref() == Some(call.tool_use_id.as_str())).map(|b| b.result_text())
        })
        .collect();
    c.workflows
        .iter()
        .map(|files| {
            // A file that cannot be read is named, and the run built without it.
            let mut read = |e: Option<u32>| {
                let path = tree.entry(e?).path.clone();
                let bytes = io.read_all(e?);
                if bytes.is_none() {
                    problems.push(format!("{path}: could not be read"));
                }
                Some((path, bytes?))
            };
            let (journal, snapshot) = (read(files.journal), read(files.snapshot));
            let w = Workflow::build(&files.run_id, as_input(&journal), as_input(&snapshot));
            problems.extend(w.problems.iter().cloned());
            let call = calls.iter().zip(&texts).find_map(|(call, text)| Some((call.tool_use_id.clone(), workflow::links(&w, call.result_run.as_deref(), text.as_deref())?)));
            PlacedWorkflow { workflow: w, call, files: files.clone() }
        })
        .collect()
}

/// A file read whole, as [`Workflow::build`] takes it.
fn as_input(f: &Option<(String, Vec<u8>)>) -> Option<(&str, &[u8])> {
    f.as_ref().map(|(p, b)| (p.as_str(), &b[..]))
}

/// Each run's spawner: its meta's call, else the call whose result's
/// `agentId:` line names it (`named`) — which also places a run the main
/// file's results and clock could not, or only by the clock.
fn place_by_names(linked: &mut [Linked], named: &[(String, String)]) {
    for l in linked.iter_mut().filter(|l| l.workflow.is_none()) {
        l.spawner = l.run.meta.as_ref().and_then(|m| m.tool_use_id.clone());
        if l.spawner.is_some() || l.legacy {
            continue;
        }
        let Some((call, _)) = named.iter().find(|(_, agent)| *agent == l.run.agent_id) else { continue };
        l.spawner = Some(call.clone());
        if matches!(l.link.link, subagents::Link::None | subagents::Link::Clock) {
            l.link = SubagentLink { agent_id: l.run.agent_id.clone(), link: subagents::Link::Text, tool_use_id: Some(call.clone()) };
            l.declined = None;
        }
    }
}

/// The runs of `runs` that are agents of a workflow run, each placed
/// under its run's call (or said to have none).
fn workflow_agents(c: &Conversation, runs: &[Run], workflows: &[PlacedWorkflow]) -> Vec<Linked> {
    runs.iter()
        .filter_map(|r| {
            let run_id = workflow_of(c, r)?.to_string();
            let call = workflows.iter().find(|w| w.workflow.run_id == run_id).and_then(|w| w.call.as_ref()).map(|(id, _)| id.clone());
            let link = SubagentLink { agent_id: r.agent_id.clone(), link: if call.is_some() { subagents::Link::Workflow } else { subagents::Link::None }, tool_use_id: call.clone() };
            let doubt = call.is_none().then(|| Doubt::WorkflowWithoutCall { run_id: run_id.clone() });
            Some(Linked { run: r.clone(), link, declined: None, legacy: false, doubt, workflow: Some(run_id), spawner: None })
        })
        .collect()
}

/// Says what each link leaves in doubt: a meta naming a call that is not in
/// the conversation, several metas claiming one call (both from
/// `model::subagents::meta_doubts`), a meta that is not JSON.
///
/// A meta naming a call that another run of the conversation made is not
/// in doubt: the run is nested there (since 2.1.172 runs spawn runs, and
/// their files stay flat beside their siblings).
pub fn doubts(ix: &Index, linked: &mut [Linked]) {
    let links: Vec<SubagentLink> = linked.iter().map(|l| l.link.clone()).collect();
    let nested: std::collections::HashSet<String> = linked.iter().flat_map(|l| l.run.agent_calls.iter().cloned()).collect();
    for (l, d) in linked.iter_mut().zip(subagents::meta_doubts(ix, &links)) {
        let d = d.filter(|d| !matches!(d, subagents::MetaDoubt::MissingCall(id) if nested.contains(id)));
        if l.workflow.is_some() {
            continue;
        }
        l.doubt = d.map(Doubt::from).or_else(|| l.run.meta_error.clone().map(Doubt::BadMeta));
    }
}
