//! Background agents at width (issue 31's generated wide case): 200 Agent
//! calls made with `run_in_background: true`, each launch's result saying
//! "Async agent launched" with `toolUseResult.agentId`, all 200 runs alive
//! at once, and each answer arriving later as a `<task-notification>`
//! (the shapes of tests/fixtures/background-agent.jsonl, whose README entry
//! names their sources). The clock cannot place one of them (200 windows
//! overlap); the launch's result places every one, under its own call.

use std::fmt::Write;
use std::process::Command;

use ccscope::disk::OnDisk;
use ccscope::model::subagents::Link;

const N: usize = 200;

#[test]
fn two_hundred_parallel_background_agents_each_sit_under_their_own_call() {
    let dir = std::env::temp_dir().join(format!("ccscope-bg-wide-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let runs = dir.join("p/s/subagents");
    std::fs::create_dir_all(&runs).unwrap();
    let mut main = String::from(r#"{"type":"user","timestamp":"2026-11-02T09:00:00Z","message":{"role":"user","content":"fan out"}}"#);
    main.push('\n');
    for k in 0..N {
        let s = k % 60;
        writeln!(main, r#"{{"type":"assistant","timestamp":"2026-11-02T09:00:{s:02}Z","message":{{"id":"m{k}","role":"assistant","content":[{{"type":"tool_use","id":"toolu_bg{k}","name":"Agent","input":{{"description":"part {k}","prompt":"do part {k}","run_in_background":true}}}}]}}}}"#).unwrap();
        writeln!(main, r#"{{"type":"user","timestamp":"2026-11-02T09:00:{s:02}Z","toolUseResult":{{"isAsync":true,"status":"async_launched","agentId":"bg{k}"}},"message":{{"role":"user","content":[{{"type":"tool_result","tool_use_id":"toolu_bg{k}","content":[{{"type":"text","text":"Async agent launched successfully.\nagentId: bg{k}"}}]}}]}}}}"#).unwrap();
        // Every run lives from 09:01 to 09:30: all at once.
        std::fs::write(
            runs.join(format!("agent-bg{k}.jsonl")),
            format!(
                "{}\n{}\n",
                r#"{"type":"user","timestamp":"2026-11-02T09:01:00Z","isSidechain":true,"message":{"role":"user","content":"go"}}"#,
                r#"{"type":"assistant","timestamp":"2026-11-02T09:30:00Z","isSidechain":true,"message":{"id":"x","role":"assistant","content":[{"type":"text","text":"done"}],"usage":{"input_tokens":1,"output_tokens":2}}}"#
            ),
        )
        .unwrap();
    }
    for k in 0..N {
        writeln!(main, r#"{{"type":"user","timestamp":"2026-11-02T09:31:00Z","message":{{"role":"user","content":"<task-notification>\n<task-id>bg{k}</task-id>\n<tool-use-id>toolu_bg{k}</tool-use-id>\n<status>completed</status>\n<summary>Agent \"part {k}\" completed</summary>\n</task-notification>"}}}}"#).unwrap();
    }
    std::fs::write(dir.join("p/s.jsonl"), main).unwrap();

    let facts = OnDisk::open(&dir).summaries(ccscope::model::DEFAULT_IDLE_GAP_SECS);
    let runs = &facts[0].runs;
    assert_eq!(runs.len(), N);
    for l in runs {
        let k = l.link.agent_id.trim_start_matches("bg");
        assert_eq!((l.link.link, l.link.tool_use_id.as_deref()), (Link::Result, Some(format!("toolu_bg{k}").as_str())), "agent-{}", l.link.agent_id);
        assert!(!l.unplaced());
    }
    // The graph agrees, every node at depth 1 under its own call.
    let out = Command::new(env!("CARGO_BIN_EXE_ccscope")).arg("agents").arg(dir.join("p/s.jsonl")).output().unwrap();
    let g: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let nodes = g["nodes"].as_array().unwrap();
    assert_eq!(nodes.len(), N);
    assert!(nodes.iter().all(|n| n["depth"] == 1 && n["link"] == "result" && n["parent_call_id"].as_str().unwrap() == format!("toolu_{}", n["agent_id"].as_str().unwrap())));
    assert!(nodes.iter().all(|n| n["kind"] == "background"), "each call says run_in_background");
    assert_eq!(g["unplaced"], serde_json::json!([]));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_teammate_spawn_makes_a_teammate_node() {
    // The spawn names the teammate (daaain/claude-code-log dev-docs/teammates.md §1.1).
    let dir = std::env::temp_dir().join(format!("ccscope-teammate-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("s/subagents")).unwrap();
    std::fs::write(dir.join("s.jsonl"), concat!(
        r#"{"type":"assistant","message":{"id":"m","content":[{"type":"tool_use","id":"toolu_a","name":"Agent","input":{"description":"Relay tests","name":"alice","team_name":"core"}},{"type":"tool_use","id":"toolu_b","name":"Agent","input":{"description":"plain"}}]}}"#, "\n",
    )).unwrap();
    for (agent, call) in [("alice1", "toolu_a"), ("plain1", "toolu_b")] {
        std::fs::write(dir.join(format!("s/subagents/agent-{agent}.jsonl")), "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"go\"}}\n").unwrap();
        std::fs::write(dir.join(format!("s/subagents/agent-{agent}.meta.json")), format!(r#"{{"agentType":"general-purpose","toolUseId":"{call}"}}"#)).unwrap();
    }
    let out = Command::new(env!("CARGO_BIN_EXE_ccscope")).arg("agents").arg(dir.join("s.jsonl")).output().unwrap();
    let g: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let kinds: Vec<(&str, &str)> = g["nodes"].as_array().unwrap().iter().map(|n| (n["agent_id"].as_str().unwrap(), n["kind"].as_str().unwrap())).collect();
    assert_eq!(kinds, [("alice1", "teammate"), ("plain1", "subagent")]);
    let _ = std::fs::remove_dir_all(&dir);
}
