//! Workflow runs (tests/fixtures/workflow, its README names the sources):
//! each run sits under the `Workflow` call that launched it — found by the
//! result's `runId`, else its `Task ID:` — with its phases and agents; its
//! agents are not subagents of whatever Agent call ran at the same time; a
//! run that failed before any agent is its snapshot alone; a running one is
//! its journal alone. A generated run of 50 agents in 5 phases keeps every
//! agent in its phase.

use std::path::{Path, PathBuf};
use std::process::Command;

use ccscope::disk::OnDisk;
use ccscope::model::subagents::Link;
use ccscope::model::workflow::CallLink;
use serde_json::Value;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/workflow/projects")
}

fn main_file() -> PathBuf {
    fixture().join("-tmp-flow/5e0e5e0e-0000-4000-8000-000000000058.jsonl")
}

fn cli(args: &[&str], path: &Path) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_ccscope")).args(args).arg(path).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn each_run_sits_under_its_call_with_its_phases_and_agents() {
    let facts = OnDisk::open(&fixture()).summaries(ccscope::model::DEFAULT_IDLE_GAP_SECS);
    let f = &facts[0];
    assert!(f.problems.is_empty(), "{:?}", f.problems);
    let by_run = |id: &str| f.workflows.iter().find(|w| w.workflow.run_id == id).unwrap();
    let ok = by_run("wf_ok");
    assert_eq!(ok.call, Some(("toolu_wf_ok".into(), CallLink::RunId)));
    assert_eq!(ok.workflow.status.as_deref(), Some("completed"));
    let phases: Vec<(&str, Vec<&str>)> =
        ok.workflow.phases.iter().map(|p| (p.title.as_str(), p.agents.iter().map(|&k| ok.workflow.agents[k as usize].agent_id.as_str()).collect())).collect();
    assert_eq!(phases, [("Map", vec!["wfa1", "wfa2"]), ("Reduce", vec!["wfa3"])]);
    assert_eq!(ok.workflow.agents[2].result.as_deref(), Some(r#"{"ok":["docs/guide"],"stale":["docs/api/a.md","docs/api/b.md"]}"#));
    // Without toolUseResult, the result's `Task ID:` names the run.
    let fail = by_run("wf_fail");
    assert_eq!(fail.call, Some(("toolu_wf_fail".into(), CallLink::TaskId)));
    assert_eq!((fail.workflow.status.as_deref(), fail.workflow.agents.len()), (Some("failed"), 0));
    assert!(fail.workflow.error.as_deref().unwrap().contains("batches.map"));
    let live = by_run("wf_live");
    assert!(live.workflow.running());
    assert_eq!(live.workflow.agents.iter().map(|a| (a.agent_id.as_str(), a.in_flight)).collect::<Vec<_>>(), [("wfl1", false), ("wfl2", true)]);

    // Its agents sit under the run's call, not under the Agent call that
    // ran at the same time (the clock would have put them there).
    for l in &f.runs {
        let id = l.link.agent_id.as_str();
        match id {
            "ch1" => assert_eq!((l.link.link, l.link.tool_use_id.as_deref(), l.workflow.as_deref()), (Link::Meta, Some("toolu_changelog"), None)),
            _ => {
                let run = if id.starts_with("wfa") { "wf_ok" } else { "wf_live" };
                let call = if run == "wf_ok" { "toolu_wf_ok" } else { "toolu_wf_live" };
                assert_eq!((l.link.link, l.link.tool_use_id.as_deref(), l.workflow.as_deref()), (Link::Workflow, Some(call), Some(run)), "{id}");
                assert!(!l.unplaced() && l.doubt.is_none(), "{id}: {:?}", l.doubt);
            }
        }
    }
    assert_eq!(f.runs.len(), 6, "every run counts: 1 subagent, 5 workflow agents");
    // Contract v1's subagents: the Agent call's run only.
    assert_eq!(f.line.stats.subagents.iter().map(|s| s.agent_id.as_str()).collect::<Vec<_>>(), ["ch1"]);
}

#[test]
fn the_cli_prints_the_same_graph_and_stats_keep_contract_v1() {
    let g = cli(&["agents"], &main_file());
    let nodes: Vec<(&str, &str, Option<&str>, &str)> = g["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n["kind"].as_str().unwrap(), n["agent_id"].as_str().unwrap(), n["parent_agent_id"].as_str(), n["link"].as_str().unwrap()))
        .collect();
    assert_eq!(
        nodes,
        [
            ("subagent", "ch1", None, "meta"),
            ("workflow", "wf_fail", None, "task_id"),
            ("workflow", "wf_live", None, "run_id"),
            ("workflow", "wf_ok", None, "run_id"),
            ("workflow-agent", "wfa1", Some("wf_ok"), "workflow"),
            ("workflow-agent", "wfa2", Some("wf_ok"), "workflow"),
            ("workflow-agent", "wfa3", Some("wf_ok"), "workflow"),
            ("workflow-agent", "wfl1", Some("wf_live"), "workflow"),
            ("workflow-agent", "wfl2", Some("wf_live"), "workflow"),
        ]
    );
    let wf_ok = &g["nodes"][3];
    assert_eq!(wf_ok["facts"], Value::Null, "a workflow run's totals are in `workflow`, not zeros");
    assert_eq!(wf_ok["workflow"]["total_tokens"], 36);
    assert_eq!(g["nodes"][2]["workflow"]["status"], Value::Null, "running: no snapshot, no status");
    // A snapshot no call names (tests/fixtures/README: wf_orphan) is said, with why.
    assert_eq!(g["unplaced"].as_array().unwrap().iter().map(|u| u["agent_id"].as_str().unwrap()).collect::<Vec<_>>(), ["wf_orphan"]);
    let stats = cli(&["stats"], &main_file());
    assert_eq!(stats["subagents"].as_array().unwrap().len(), 1, "{}", stats["subagents"]);
}

#[test]
fn a_run_no_call_names_is_unplaced_with_its_agents() {
    let dir = std::env::temp_dir().join(format!("ccscope-wf-orphan-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let agents = dir.join("s/subagents/workflows/wf_x");
    std::fs::create_dir_all(&agents).unwrap();
    std::fs::write(dir.join("s.jsonl"), "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"hi\"}}\n").unwrap();
    std::fs::write(agents.join("journal.jsonl"), "{\"type\":\"started\",\"agentId\":\"x1\"}\n{broken\n").unwrap();
    std::fs::write(agents.join("agent-x1.jsonl"), "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"go\"}}\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_ccscope")).arg("agents").arg(dir.join("s.jsonl")).output().unwrap();
    assert!(out.status.success());
    let g: Value = serde_json::from_slice(&out.stdout).unwrap();
    let unplaced: Vec<&str> = g["unplaced"].as_array().unwrap().iter().map(|u| u["agent_id"].as_str().unwrap()).collect();
    assert_eq!(unplaced, ["x1", "wf_x"]);
    assert!(g["unplaced"][0]["reason"].as_str().unwrap().contains("workflow run wf_x"));
    // The bad journal line is named, by file and line.
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("s/subagents/workflows/wf_x/journal.jsonl line 2: not JSON"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fifty_agents_in_five_phases_each_sit_in_their_phase() {
    let dir = std::env::temp_dir().join(format!("ccscope-wf-wide-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let run = dir.join("s/subagents/workflows/wf_w");
    std::fs::create_dir_all(&run).unwrap();
    std::fs::create_dir_all(dir.join("s/workflows")).unwrap();
    std::fs::write(
        dir.join("s.jsonl"),
        concat!(
            r#"{"type":"assistant","timestamp":"2026-01-01T10:00:00Z","message":{"id":"m","content":[{"type":"tool_use","id":"toolu_w","name":"Workflow","input":{"name":"wide"}}]}}"#, "\n",
            r#"{"type":"user","timestamp":"2026-01-01T10:00:01Z","toolUseResult":{"runId":"wf_w","taskId":"t_w"},"message":{"content":[{"type":"tool_result","tool_use_id":"toolu_w","content":"Workflow launched in background. Task ID: t_w"}]}}"#, "\n",
        ),
    )
    .unwrap();
    let mut journal = String::new();
    let mut progress = Vec::new();
    for k in 0..50 {
        let phase = k / 10;
        journal += &format!("{{\"type\":\"started\",\"agentId\":\"w{k:02}\"}}\n{{\"type\":\"result\",\"agentId\":\"w{k:02}\",\"result\":\"r{k}\"}}\n");
        std::fs::write(run.join(format!("agent-w{k:02}.jsonl")), format!("{{\"type\":\"user\",\"timestamp\":\"2026-01-01T10:00:0{}Z\",\"message\":{{\"role\":\"user\",\"content\":\"go\"}}}}\n", phase)).unwrap();
        // Snapshot phases are 0-based, agents' phaseIndex 1-based; one agent names no title.
        let title = if k == 49 { Value::Null } else { Value::from(format!("P{phase}")) };
        progress.push(serde_json::json!({"type":"workflow_agent","agentId":format!("w{k:02}"),"phaseIndex":phase + 1,"phaseTitle":title,"state":"done","tokens":k}));
    }
    std::fs::write(run.join("journal.jsonl"), journal).unwrap();
    let phases: Vec<Value> = (0..5).map(|p| serde_json::json!({"title": format!("P{p}")})).collect();
    std::fs::write(dir.join("s/workflows/wf_w.json"), serde_json::json!({"runId":"wf_w","taskId":"t_w","status":"completed","phases":phases,"workflowProgress":progress}).to_string()).unwrap();

    let facts = OnDisk::open(&dir).summaries(ccscope::model::DEFAULT_IDLE_GAP_SECS);
    let w = &facts[0].workflows[0];
    assert_eq!(w.call.as_ref().map(|(id, _)| id.as_str()), Some("toolu_w"));
    for (p, phase) in w.workflow.phases.iter().enumerate() {
        let ids: Vec<String> = phase.agents.iter().map(|&k| w.workflow.agents[k as usize].agent_id.clone()).collect();
        assert_eq!(ids, (p * 10..p * 10 + 10).map(|k| format!("w{k:02}")).collect::<Vec<_>>(), "phase P{p}");
    }
    assert!(w.workflow.outside_phases().is_empty());
    assert_eq!(facts[0].runs.iter().filter(|l| l.link.link == Link::Workflow).count(), 50);
    let _ = std::fs::remove_dir_all(&dir);
}
