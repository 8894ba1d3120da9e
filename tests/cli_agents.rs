//! `ccscope agents FILE|DIR`: each conversation's agent graph.
//!
//! The nested shape is written here, generated: since Claude Code 2.1.172
//! runs spawn runs, every `agent-<id>.jsonl` stays beside its siblings in
//! `<stem>/subagents/`, and each run's `.meta.json` names the call that
//! spawned it (`toolUseId`), in the main file or another run's (sources:
//! daaain/claude-code-log `dev-docs/agents.md` §5; delexw/claude-code-trace
//! `specs/09-subagent-linking.md`). The records are cut to the fields the
//! graph reads (`../shared/docs/transcript-format.md`'s assistant lines).
//! Against `../shared/fixtures/`, the graph agrees with `ccscope stats`'
//! contract-v1 links for every run the main file spawned.

mod common;

use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// An assistant record calling `Agent` with id `call` at second `s`.
fn spawn(call: &str, s: u32) -> String {
    format!(r#"{{"type":"assistant","timestamp":"2026-01-01T10:00:{s:02}Z","message":{{"id":"m-{call}","role":"assistant","content":[{{"type":"tool_use","id":"{call}","name":"Agent","input":{{"description":"go deeper"}}}}],"usage":{{"input_tokens":3,"output_tokens":2}}}}}}"#) + "\n"
}

fn agents(path: &Path) -> (Vec<Value>, String, Option<i32>) {
    let out = Command::new(env!("CARGO_BIN_EXE_ccscope")).arg("agents").arg(path).output().unwrap();
    let lines = String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    (lines, String::from_utf8_lossy(&out.stderr).into_owned(), out.status.code())
}

#[test]
fn a_chain_of_depth_100_prints_every_run_under_its_spawner() {
    let dir = std::env::temp_dir().join(format!("ccscope-cli-agents-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let runs = dir.join("s1/subagents");
    std::fs::create_dir_all(&runs).unwrap();
    std::fs::write(dir.join("s1.jsonl"), spawn("t0", 0)).unwrap();
    // Run k was spawned by call t{k} and calls t{k+1}; one meta names a call nobody made.
    for k in 0..100 {
        std::fs::write(runs.join(format!("agent-a{k}.jsonl")), spawn(&format!("t{}", k + 1), 1)).unwrap();
        std::fs::write(runs.join(format!("agent-a{k}.meta.json")), format!(r#"{{"agentType":"general-purpose","toolUseId":"t{k}"}}"#)).unwrap();
    }
    std::fs::write(runs.join("agent-lost.jsonl"), spawn("tz", 1)).unwrap();
    std::fs::write(runs.join("agent-lost.meta.json"), r#"{"agentType":"general-purpose","toolUseId":"t-never"}"#).unwrap();

    let (out, err, code) = agents(&dir.join("s1.jsonl"));
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out.len(), 1, "one line for one conversation");
    let g = &out[0];
    assert_eq!(g["path"], "s1.jsonl");
    assert_eq!(g["depth"], 100);
    let nodes = g["nodes"].as_array().unwrap();
    assert_eq!(nodes.len(), 100);
    assert_eq!((&nodes[0]["agent_id"], &nodes[0]["parent_agent_id"], &nodes[0]["parent_call_id"]), (&Value::from("a0"), &Value::Null, &Value::from("t0")));
    let last = &nodes[99];
    assert_eq!((&last["agent_id"], &last["parent_agent_id"], &last["depth"], &last["link"]), (&Value::from("a99"), &Value::from("a98"), &Value::from(100), &Value::from("meta")));
    assert_eq!(last["file"], "s1/subagents/agent-a99.jsonl");
    assert_eq!(last["facts"]["tool_calls"], 1);
    assert_eq!(last["facts"]["output_tokens"], 2);
    assert_eq!(g["unplaced"][0]["agent_id"], "lost");
    assert!(g["unplaced"][0]["reason"].as_str().unwrap().contains("t-never"), "{}", g["unplaced"]);

    // The folder: the same conversation, one line.
    let (folder, err, code) = agents(&dir);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(folder, out, "a folder prints each conversation as its file does");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_graph_agrees_with_contract_v1_on_every_fixture_tree() {
    let root = common::fixtures_dir();
    let mut checked = 0;
    for tree in ["synthetic/projects", "real"] {
        let (out, err, code) = agents(&root.join(tree));
        assert_eq!(code, Some(0), "{tree}: {err}");
        for g in &out {
            let path = root.join(tree).join(g["path"].as_str().unwrap());
            let stats = Command::new(env!("CARGO_BIN_EXE_ccscope")).arg("stats").arg(&path).output().unwrap();
            let stats: Value = serde_json::from_slice(&stats.stdout).unwrap();
            // Every run beside the file is placed or said to be unplaced, once.
            let runs = stats["subagents"].as_array().unwrap();
            let placed = g["nodes"].as_array().unwrap();
            assert_eq!(placed.len() + g["unplaced"].as_array().unwrap().len(), runs.len(), "{}", path.display());
            // A run the main file spawned has contract v1's link and call.
            for n in placed.iter().filter(|n| n["depth"] == 1) {
                let v1 = runs.iter().find(|r| r["agent_id"] == n["agent_id"]).unwrap();
                assert_eq!((&v1["link"], &v1["tool_use_id"]), (&n["link"], &n["parent_call_id"]), "{}: {}", path.display(), n["agent_id"]);
                checked += 1;
            }
        }
    }
    // The fixtures hold 9 runs that the main file spawned and that are linked.
    assert_eq!(checked, 9, "linked runs checked");
}
