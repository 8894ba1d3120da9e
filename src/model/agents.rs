//! The agent graph of one conversation (issue 31): every run beside it —
//! subagents, background agents, teammates, workflow runs and their agents
//! — placed under the call that spawned it, at any depth.
//!
//! Since Claude Code 2.1.172 runs spawn runs, and the layout stays flat
//! (every `agent-<id>.jsonl` beside its siblings in `subagents/`). A run's
//! `.meta.json` names the call that spawned it (`toolUseId`), in the main
//! file or in another run's file, and survives a spawn that never returned.
//! (Sources: daaain/claude-code-log `dev-docs/agents.md` §5;
//! delexw/claude-code-trace `specs/09-subagent-linking.md`.) Without a meta,
//! a run is placed by a main-file result that came back from it, else by an
//! `agentId:` line in a spawning call's result (in any file), else by the
//! clock ([`super::subagents`]). A workflow run's agents sit under the call
//! that launched the run ([`super::workflow`]).
//!
//! No recursion and no depth bound: depths are found by walking parents
//! with a visited set, so a chain of any length works and a cycle in bad
//! data is reported, never followed.

use serde::{Deserialize, Serialize};

use super::subagents::{link_explained, Decline, Link, SubagentRun};
use crate::index::{FxHashMap, Index};

/// One run as the graph needs it: its id, its index, its meta's call.
pub struct RunInput<'a> {
    pub agent_id: &'a str,
    pub ix: &'a Index,
    pub meta_tool_use_id: Option<&'a str>,
    /// Earliest and latest timestamp in the run (the clock link).
    pub span_ms: Option<(i64, i64)>,
    /// The workflow run it is an agent of (`subagents/workflows/<runId>/`).
    pub workflow: Option<&'a str>,
}

/// A workflow run as the graph needs it: its id and the main file's call
/// that launched it (`super::workflow::links`).
pub struct WorkflowInput<'a> {
    pub workflow: &'a super::workflow::Workflow,
    pub call: Option<(&'a str, super::workflow::CallLink)>,
    /// Its snapshot's path, else its journal's (what the graph names).
    pub file: String,
}

/// The file holding a spawning call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Owner {
    Main,
    /// The run at this position of the input.
    Run(u32),
}

/// A run placed under its call.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Node {
    pub agent_id: String,
    /// The file holding the call that spawned it.
    pub parent: Owner,
    pub tool_use_id: String,
    /// How the edge was found.
    pub link: Link,
    /// 1 for a run the main conversation spawned, 2 for one that run
    /// spawned, and so on.
    pub depth: u32,
}

/// Why a run could not be placed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Unplaced {
    /// No meta, and the main file's calls do not place it.
    Declined(Decline),
    /// Its meta names a call that no file of the conversation holds.
    MissingCall(String),
    /// Following its spawners comes back to it (these agent ids, in order).
    Cycle(Vec<String>),
    /// It was spawned inside this run, which could not be placed.
    UnderUnplaced(String),
    /// An agent of this workflow run, which no call of the main file launched.
    WorkflowWithoutCall(String),
}

impl Unplaced {
    pub fn describe(&self) -> String {
        match self {
            Unplaced::Declined(d) => d.describe(),
            Unplaced::MissingCall(id) => format!("its meta file names call {id}, which no file of the conversation holds"),
            Unplaced::Cycle(ids) => format!("its spawners form a cycle ({}): the data is inconsistent", ids.join(" → ")),
            Unplaced::UnderUnplaced(id) => format!("it was spawned inside run {id}, which could not be placed"),
            Unplaced::WorkflowWithoutCall(id) => format!("it is an agent of workflow run {id}, which no Workflow call of the conversation launched"),
        }
    }
}

/// The conversation's runs: placed ones (by position of the input: `None`
/// where unplaced) and the others with their reason, in input order (the
/// k-th entry of `unplaced` is the k-th `None` of `nodes`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Graph {
    pub nodes: Vec<Option<Node>>,
    pub unplaced: Vec<(String, Unplaced)>,
}

impl Graph {
    /// The deepest nesting (0 without runs).
    pub fn depth(&self) -> u32 {
        self.nodes.iter().flatten().map(|n| n.depth).max().unwrap_or(0)
    }

    /// Runs spawned by a call of `owner`, with the call's id.
    pub fn children_of(&self, owner: Owner) -> impl Iterator<Item = (u32, &Node)> {
        self.nodes.iter().enumerate().filter_map(move |(k, n)| n.as_ref().filter(|n| n.parent == owner).map(|n| (k as u32, n)))
    }
}

/// What places runs besides their own files: the call that launched each
/// workflow run (run id → a call of `main`), and the `agentId:` lines of
/// Agent calls' results in every file (call id → the agent it names).
#[derive(Default)]
pub struct Links<'a> {
    pub workflow_calls: &'a [(&'a str, Option<&'a str>)],
    pub named: &'a [(&'a str, &'a str)],
}

/// Whether a result of `main` came back from run `agent_id` (`toolUseResult.agentId`).
fn result_names(main: &Index, agent_id: &str) -> bool {
    main.strings.get(agent_id).is_some_and(|a| main.tool_results.iter().any(|tr| main.rows[tr.row as usize].result_run_id == a))
}

/// Places every run of `runs` under its call, in `main` or in another run,
/// as the module says.
pub fn graph(main: &Index, runs: &[RunInput], links: &Links) -> Graph {
    let Links { workflow_calls, named } = links;
    // Which file holds each call id (ids are unique across a conversation;
    // the first holder wins).
    let mut holder: FxHashMap<&str, Owner> = FxHashMap::default();
    for u in &main.tool_uses {
        holder.entry(main.str(u.id)).or_insert(Owner::Main);
    }
    for (k, r) in runs.iter().enumerate() {
        for u in &r.ix.tool_uses {
            holder.entry(r.ix.str(u.id)).or_insert(Owner::Run(k as u32));
        }
    }
    holder.remove("");
    // Edges: a meta names the call; without one, the main file's links.
    let mut edges: Vec<Result<(Owner, String, Link), Unplaced>> = Vec::with_capacity(runs.len());
    let mut without_meta = Vec::new();
    for (k, r) in runs.iter().enumerate() {
        if let Some(run_id) = r.workflow {
            let call = workflow_calls.iter().find(|(id, _)| *id == run_id).and_then(|(_, c)| *c);
            edges.push(match call {
                Some(call) => Ok((Owner::Main, call.to_string(), Link::Workflow)),
                None => Err(Unplaced::WorkflowWithoutCall(run_id.to_string())),
            });
            continue;
        }
        edges.push(match r.meta_tool_use_id {
            Some(id) => match holder.get(id) {
                Some(&owner) => Ok((owner, id.to_string(), Link::Meta)),
                None => Err(Unplaced::MissingCall(id.to_string())),
            },
            // A main-file result naming it (toolUseResult.agentId) comes
            // first; then an `agentId:` line in any file; then the clock.
            None => match named.iter().find(|(call, agent)| *agent == r.agent_id && holder.contains_key(call)).filter(|_| !result_names(main, r.agent_id)) {
                Some((call, _)) => Ok((holder[call], call.to_string(), Link::Text)),
                None => {
                    without_meta.push(k);
                    Err(Unplaced::Declined(Decline::NoCallRunning))
                }
            },
        });
    }
    let plain: Vec<SubagentRun> = without_meta.iter().map(|&k| SubagentRun { agent_id: runs[k].agent_id.to_string(), meta_tool_use_id: None, span_ms: runs[k].span_ms }).collect();
    for (link, why) in link_explained(main, &plain) {
        let Some(k) = without_meta.iter().copied().find(|&k| runs[k].agent_id == link.agent_id) else { continue };
        edges[k] = match (link.tool_use_id, why) {
            (Some(id), _) => Ok((Owner::Main, id, link.link)),
            (None, Some(d)) => Err(Unplaced::Declined(d)),
            (None, None) => Err(Unplaced::Declined(Decline::NoCallRunning)),
        };
    }
    // Depths, walking up parents iteratively; a walk that meets itself is a
    // cycle (its members, and the runs whose spawners lead into it, are not placed).
    let mut depth: Vec<Option<u32>> = vec![None; runs.len()];
    let mut cycle: Vec<Option<Vec<String>>> = vec![None; runs.len()];
    for start in 0..runs.len() {
        let mut path: Vec<usize> = Vec::new();
        let mut at = start;
        let found = loop {
            if let Some(d) = depth[at] {
                break Some(d);
            }
            if let Some(names) = cycle[at].clone() {
                for &p in &path {
                    cycle[p] = Some(names.clone());
                }
                break None;
            }
            if let Some(pos) = path.iter().position(|&p| p == at) {
                let names: Vec<String> = path[pos..].iter().map(|&p| runs[p].agent_id.to_string()).collect();
                for &p in &path {
                    cycle[p] = Some(names.clone());
                }
                break None;
            }
            path.push(at);
            match &edges[at] {
                Ok((Owner::Main, ..)) => break Some(0),
                Ok((Owner::Run(p), ..)) => at = *p as usize,
                Err(_) => break None,
            }
        };
        // Every run on the walk is one deeper than the one it came from.
        if let Some(mut d) = found {
            for &p in path.iter().rev() {
                d += 1;
                depth[p] = Some(d);
            }
        }
    }
    let mut g = Graph::default();
    for (k, (r, edge)) in runs.iter().zip(edges).enumerate() {
        let why = match (edge, depth[k]) {
            (Ok((parent, tool_use_id, link)), Some(depth)) => {
                g.nodes.push(Some(Node { agent_id: r.agent_id.to_string(), parent, tool_use_id, link, depth }));
                continue;
            }
            (Err(why), _) => why,
            // Placed under a run that is not placed: a cycle, or a spawner without a place.
            (Ok((parent, ..)), None) => match (cycle[k].take(), parent) {
                (Some(names), _) => Unplaced::Cycle(names),
                (None, Owner::Run(p)) => Unplaced::UnderUnplaced(runs[p as usize].agent_id.to_string()),
                (None, Owner::Main) => Unplaced::Declined(Decline::NoCallRunning),
            },
        };
        g.nodes.push(None);
        g.unplaced.push((r.agent_id.to_string(), why));
    }
    g
}

/// What `ccscope agents` prints for one run: its facts, read from its own
/// file (absent stays absent: a run without usage has no token count).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunFacts {
    pub tool_calls: u64,
    pub output_tokens: Option<u64>,
    pub duration_ms: Option<i64>,
}

impl RunFacts {
    pub fn of(ix: &Index) -> RunFacts {
        let stats = super::stats::Stats::compute(ix, super::DEFAULT_IDLE_GAP_SECS);
        RunFacts {
            tool_calls: stats.tool_calls,
            output_tokens: super::facts::has_usage(ix).then_some(stats.output_tokens),
            duration_ms: super::subagents::span_of(ix).map(|(a, b)| b - a),
        }
    }
}

/// What kind of run an Agent/Task call's `input` spawns: `teammate` (agent
/// teams: it names the teammate, `name`), `background` (`run_in_background:
/// true`: the call returns at once, the answer comes as a
/// `<task-notification>`), else `subagent`. (Sources: daaain/claude-code-log
/// `dev-docs/teammates.md` §1.1, `dev-docs/agents.md` §2.)
pub fn spawn_kind(input: &serde_json::Value) -> &'static str {
    let named = input.get("name").and_then(serde_json::Value::as_str).is_some_and(|n| !n.is_empty());
    match (named, input.get("run_in_background").and_then(serde_json::Value::as_bool)) {
        (true, _) => "teammate",
        (false, Some(true)) => "background",
        _ => "subagent",
    }
}

/// What places and names the runs besides their own files.
#[derive(Default)]
pub struct Beside<'a> {
    pub workflows: &'a [WorkflowInput<'a>],
    /// `agentId:` lines of Agent calls' results ([`Links::named`]).
    pub named: &'a [(&'a str, &'a str)],
    /// Spawning calls whose run is not a plain subagent: call id → [`spawn_kind`].
    pub spawns: &'a [(&'a str, &'static str)],
}

/// A placed run, as `ccscope agents` prints it (the README's contract).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlacedRun {
    /// `subagent`: a run in `subagents/` (`background` or `teammate` when
    /// its call says so, [`spawn_kind`]); `workflow`: a workflow run (its id
    /// is its run id); `workflow-agent`: one of a workflow run's agents.
    pub kind: String,
    pub agent_id: String,
    pub file: String,
    /// The agent id of the run whose call spawned it (a workflow agent's:
    /// its workflow run's id); `null`: the main conversation.
    pub parent_agent_id: Option<String>,
    pub parent_call_id: String,
    /// `meta`, `result`, `clock`, `workflow` (an agent, by its directory);
    /// a workflow run's: `run_id`, `task_id` or `transcript_dir`.
    pub link: String,
    pub depth: u32,
    /// From its own file; `null` for a workflow run (see `workflow`).
    pub facts: Option<RunFacts>,
    /// A workflow run: its status, phases, agents and totals.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workflow: Option<super::workflow::Workflow>,
}

/// A serde enum's name (`Link::Meta` → `meta`).
fn word<T: Serialize>(v: &T) -> String {
    serde_json::to_value(v).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

/// A run that could not be placed, and why (in words).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnplacedRun {
    pub agent_id: String,
    pub file: String,
    pub reason: String,
}

/// One conversation's agent graph, as `ccscope agents` prints it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Agents {
    pub path: String,
    /// The deepest nesting: 0 without runs, 1 when only the main
    /// conversation spawned them.
    pub depth: u32,
    /// Placed runs, shallowest first, each after its spawner.
    pub nodes: Vec<PlacedRun>,
    pub unplaced: Vec<UnplacedRun>,
}

impl Agents {
    /// `runs[k]`'s file is `files[k]`.
    pub fn of(path: &str, main: &Index, runs: &[RunInput], files: &[String], beside: &Beside) -> Agents {
        let Beside { workflows, named, spawns } = beside;
        let calls: Vec<(&str, Option<&str>)> = workflows.iter().map(|w| (w.workflow.run_id.as_str(), w.call.map(|(c, _)| c))).collect();
        let g = graph(main, runs, &Links { workflow_calls: &calls, named });
        let mut nodes: Vec<PlacedRun> = g
            .nodes
            .iter()
            .enumerate()
            .filter_map(|(k, n)| {
                let n = n.as_ref()?;
                Some(PlacedRun {
                    kind: match runs[k].workflow {
                        Some(_) => "workflow-agent",
                        None => spawns.iter().find(|(call, _)| *call == n.tool_use_id).map_or("subagent", |(_, kind)| kind),
                    }
                    .into(),
                    agent_id: n.agent_id.clone(),
                    file: files[k].clone(),
                    parent_agent_id: match (n.parent, runs[k].workflow) {
                        (_, Some(run_id)) => Some(run_id.to_string()),
                        (Owner::Main, None) => None,
                        (Owner::Run(p), None) => Some(runs[p as usize].agent_id.to_string()),
                    },
                    parent_call_id: n.tool_use_id.clone(),
                    link: word(&n.link),
                    depth: n.depth,
                    facts: Some(RunFacts::of(runs[k].ix)),
                    workflow: None,
                })
            })
            .collect();
        // Workflow runs sit at depth 1, under the main file's call; their
        // agents at the same depth (the run is made of them).
        let mut unplaced_workflows = Vec::new();
        for w in workflows.iter() {
            match w.call {
                Some((call, link)) => nodes.push(PlacedRun {
                    kind: "workflow".into(),
                    agent_id: w.workflow.run_id.clone(),
                    file: w.file.clone(),
                    parent_agent_id: None,
                    parent_call_id: call.to_string(),
                    link: word(&link),
                    depth: 1,
                    facts: None,
                    workflow: Some(w.workflow.clone()),
                }),
                None => unplaced_workflows.push(UnplacedRun {
                    agent_id: w.workflow.run_id.clone(),
                    file: w.file.clone(),
                    reason: "no Workflow call of the conversation names this run (by its runId, Task ID or transcript dir)".into(),
                }),
            }
        }
        // Shallowest first: every run comes after its spawner.
        // (A workflow run before its agents, at the same depth.)
        let order = |n: &PlacedRun| (n.depth, n.kind == "workflow-agent", n.agent_id.clone());
        crate::sort::by_key(&mut nodes, order);
        // `unplaced` is in input order: one entry per unplaced node.
        let unplaced_at = g.nodes.iter().enumerate().filter(|(_, n)| n.is_none()).map(|(k, _)| k);
        let mut unplaced: Vec<UnplacedRun> = unplaced_at
            .zip(&g.unplaced)
            .map(|(k, (id, why))| UnplacedRun { agent_id: id.clone(), file: files[k].clone(), reason: why.describe() })
            .collect();
        unplaced.extend(unplaced_workflows);
        Agents { path: path.to_string(), depth: g.depth(), nodes, unplaced }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::Indexer;

    /// A file whose one assistant record calls `Agent` with id `call`.
    fn spawning(call: &str) -> Index {
        Indexer::index_bytes(format!(r#"{{"type":"assistant","message":{{"id":"m-{call}","content":[{{"type":"tool_use","id":"{call}","name":"Agent","input":{{}}}}]}}}}"#).as_bytes())
    }

    fn run<'a>(agent_id: &'a str, ix: &'a Index, meta: Option<&'a str>) -> RunInput<'a> {
        RunInput { agent_id, ix, meta_tool_use_id: meta, span_ms: None, workflow: None }
    }

    #[test]
    fn a_chain_of_depth_100_is_placed_without_recursion() {
        let main = spawning("t0");
        // Run k is spawned by call t{k} and makes call t{k+1}.
        let ids: Vec<String> = (0..100).map(|k| format!("a{k}")).collect();
        let calls: Vec<String> = (0..100).map(|k| format!("t{k}")).collect();
        let files: Vec<Index> = (0..100).map(|k| spawning(&format!("t{}", k + 1))).collect();
        // Given deepest first: the order of the input does not matter.
        let runs: Vec<RunInput> = (0..100).rev().map(|k| run(&ids[k], &files[k], Some(&calls[k]))).collect();
        let g = graph(&main, &runs, &Links::default());
        assert!(g.unplaced.is_empty(), "{:?}", g.unplaced);
        assert_eq!(g.depth(), 100);
        let a99 = g.nodes.iter().flatten().find(|n| n.agent_id == "a99").unwrap();
        assert_eq!((a99.depth, a99.parent, a99.link), (100, Owner::Run(1), Link::Meta), "a98 is input 1");
        assert_eq!(g.children_of(Owner::Main).map(|(_, n)| n.agent_id.as_str()).collect::<Vec<_>>(), ["a0"]);
    }

    #[test]
    fn a_cycle_is_reported_not_followed_and_what_hangs_from_it_says_so() {
        let main = spawning("t0");
        let (fa, fb, fc) = (spawning("ta"), spawning("tb"), spawning("tc"));
        // a spawned by b's call, b by a's: a cycle; c spawned inside a.
        let runs = [run("a", &fa, Some("tb")), run("b", &fb, Some("ta")), run("c", &fc, Some("ta")), run("d", &fc, Some("nowhere"))];
        let g = graph(&main, &runs, &Links::default());
        assert!(g.nodes.iter().all(Option::is_none));
        let why = |id: &str| g.unplaced.iter().find(|u| u.0 == id).map(|u| u.1.clone()).unwrap();
        assert!(matches!(why("a"), Unplaced::Cycle(c) if c.len() == 2));
        assert!(matches!(why("b"), Unplaced::Cycle(_)));
        assert!(matches!(why("c"), Unplaced::Cycle(_)), "hangs from the cycle");
        assert_eq!(why("d"), Unplaced::MissingCall("nowhere".into()));
        assert!(why("a").describe().contains("cycle"));
    }

    #[test]
    fn the_printed_graph_names_each_runs_spawner_and_keeps_absent_tokens_absent() {
        let main = spawning("t0");
        let fa = Indexer::index_bytes(concat!(
            r#"{"type":"assistant","timestamp":"2026-01-01T10:00:00Z","message":{"id":"m1","content":[{"type":"tool_use","id":"ta","name":"Agent","input":{}}],"usage":{"input_tokens":3,"output_tokens":7}}}"#, "\n",
            r#"{"type":"user","timestamp":"2026-01-01T10:00:30Z","message":{"content":[{"type":"tool_result","tool_use_id":"ta","content":"ok"}]}}"#, "\n",
        ).as_bytes());
        let fb = spawning("tb");
        let runs = [run("b", &fb, Some("ta")), run("a", &fa, Some("t0")), run("c", &fb, Some("gone"))];
        let files = ["s/subagents/agent-b.jsonl".to_string(), "s/subagents/agent-a.jsonl".into(), "s/subagents/agent-c.jsonl".into()];
        let out = Agents::of("s.jsonl", &main, &runs, &files, &Beside { spawns: &[("t0", "background")], ..Beside::default() });
        assert_eq!(out.depth, 2);
        assert_eq!(out.nodes.iter().map(|n| (n.agent_id.as_str(), n.parent_agent_id.as_deref(), n.depth)).collect::<Vec<_>>(), [("a", None, 1), ("b", Some("a"), 2)], "the spawner first");
        assert_eq!(out.nodes[0].facts.clone().unwrap(), RunFacts { tool_calls: 1, output_tokens: Some(7), duration_ms: Some(30_000) });
        assert_eq!(out.nodes[1].facts.clone().unwrap(), RunFacts { tool_calls: 1, output_tokens: None, duration_ms: None }, "no usage, no clock: absent, not 0");
        assert_eq!(out.nodes[1].file, "s/subagents/agent-b.jsonl");
        assert_eq!((out.nodes[0].kind.as_str(), out.nodes[1].kind.as_str()), ("background", "subagent"), "as its spawning call says");
        assert_eq!(out.unplaced, [UnplacedRun { agent_id: "c".into(), file: "s/subagents/agent-c.jsonl".into(), reason: Unplaced::MissingCall("gone".into()).describe() }]);
    }

    #[test]
    fn without_a_meta_an_agent_id_line_in_a_runs_result_places_the_run_under_that_call() {
        // Nested results carry no toolUseResult: run p's call tp came back
        // with "agentId: c"; c has no meta. (A line naming a call no file
        // holds places nothing.)
        let main = spawning("t0");
        let (fp, fc) = (spawning("tp"), spawning("tc"));
        let runs = [run("c", &fc, None), run("p", &fp, Some("t0"))];
        let named = [("tx", "c"), ("tp", "c")];
        let g = graph(&main, &runs, &Links { named: &named, ..Links::default() });
        let c = g.nodes[0].as_ref().unwrap();
        assert_eq!((c.parent, c.link, c.depth, c.tool_use_id.as_str()), (Owner::Run(1), Link::Text, 2, "tp"));
        // Without the line, the main file's calls decline it.
        let g = graph(&main, &runs, &Links::default());
        assert!(g.nodes[0].is_none());
    }

    #[test]
    fn without_a_meta_a_run_is_linked_by_the_main_files_calls_and_its_children_follow() {
        // The main file's call t0 came back from run x (toolUseResult.agentId).
        let main = Indexer::index_bytes(concat!(
            r#"{"type":"assistant","timestamp":"2026-01-01T10:00:00Z","message":{"id":"m","content":[{"type":"tool_use","id":"t0","name":"Task","input":{}}]}}"#, "\n",
            r#"{"type":"user","timestamp":"2026-01-01T10:05:00Z","toolUseResult":{"agentId":"x"},"message":{"content":[{"type":"tool_result","tool_use_id":"t0","content":"done"}]}}"#, "\n",
        ).as_bytes());
        let (fx, fy) = (spawning("tx"), spawning("ty"));
        let runs = [run("y", &fy, Some("tx")), run("x", &fx, None)];
        let g = graph(&main, &runs, &Links::default());
        let x = g.nodes[1].as_ref().unwrap();
        assert_eq!((x.parent, x.link, x.depth, x.tool_use_id.as_str()), (Owner::Main, Link::Result, 1, "t0"));
        let y = g.nodes[0].as_ref().unwrap();
        assert_eq!((y.parent, y.depth), (Owner::Run(1), 2));
        // A run under a run that cannot be placed says where it hangs.
        let runs = [run("y", &fy, Some("tx")), run("x", &fx, Some("gone"))];
        let g = graph(&main, &runs, &Links::default());
        assert_eq!(g.unplaced[0], ("y".to_string(), Unplaced::UnderUnplaced("x".into())));
    }
}
