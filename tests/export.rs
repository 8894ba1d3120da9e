//! `ccscope export`: the synthetic conversation as Markdown and JSON, with
//! what the format notes say a reader must see (failures, the compaction,
//! the API error, results beside their calls).

mod common;

use std::process::Command;

fn export(format: &str) -> String {
    export_with(format, &[])
}

fn export_with(format: &str, extra: &[&str]) -> String {
    let dir = common::fixtures_dir().join("synthetic/projects");
    let project = std::fs::read_dir(&dir).unwrap().flatten().find(|e| e.path().is_dir()).unwrap().path();
    let file = project.join("d3cb2e5d-477b-4f6b-a7e5-1f4ed60e6538.jsonl");
    let out = Command::new(env!("CARGO_BIN_EXE_ccscope"))
        .args(["export".as_ref(), file.as_os_str(), "--format".as_ref(), format.as_ref()])
        .args(extra)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn markdown_folds_calls_and_marks_failures() {
    let md = export("md");
    assert!(md.starts_with("# app build fix\n"), "the custom title heads it");
    assert!(md.contains("- 39 lines · 11 API turns · 10 tool calls · 4 failed steps · 1 compaction\n"));
    assert!(md.contains("<summary>Bash — Build · ok · 3.5 s</summary>"));
    assert!(md.contains("error[E0425]: cannot find value `x` in this scope"), "the result beside its call");
    assert!(md.contains("<summary>⚠ Grep — let x · error · 0.7 s</summary>"));
    assert!(md.contains("⚠ Bash") && md.contains("· denied ·"), "the denied call is marked");
    assert!(md.contains("## ⚠ API error · line 17"));
    assert!(md.contains("compacted (auto) · 167,000 → 9,100 tokens"));
    assert!(md.contains("*— 3 d 0 h away (line 22) —*"));
    assert_eq!(md.matches("<details>").count(), md.matches("</details>").count());
    let alone = export_with("md", &["--no-runs"]);
    assert_eq!(alone.matches("<details>").count(), 10, "one fold per tool call");
    assert!(!alone.contains("Subagent run"));
}

#[test]
fn subagent_runs_nest_under_the_call_that_spawned_them() {
    let md = export("md");
    // The Agent call (line 14) spawned agent-a3bf2f2d2858e4d27 (linked by its meta file).
    let call = md.find("<summary>Agent").expect("the Agent call");
    let run = md.find("<summary>Subagent run agent-a3bf2f2d2858e4d27 · 2 API turns</summary>").expect("its run");
    let next_call = md[call + 1..].find("\n## ").map_or(md.len(), |k| call + 1 + k);
    assert!(call < run && run < next_call, "the run sits inside its call's turn");
    assert!(md[run..].contains("#### Prompt · line 1"), "the run's own items, one heading level down");
    let v: serde_json::Value = serde_json::from_str(&export("json")).unwrap();
    let nested: usize = v["items"].as_array().unwrap().iter().flat_map(|i| i["calls"].as_array().unwrap()).map(|c| c["runs"].as_array().map_or(0, Vec::len)).sum();
    assert!(nested >= 2, "runs nested in the JSON too ({nested})");
}

#[test]
fn json_holds_the_same_items() {
    let v: serde_json::Value = serde_json::from_str(&export("json")).unwrap();
    assert_eq!(v["title"], "app build fix");
    let items = v["items"].as_array().unwrap();
    let calls: usize = items.iter().map(|i| i["calls"].as_array().unwrap().len()).sum();
    assert_eq!(calls, 10);
    let grep = items.iter().flat_map(|i| i["calls"].as_array().unwrap()).find(|c| c["name"] == "Grep").unwrap();
    assert_eq!((grep["state"].as_str(), grep["result_line"].as_u64()), (Some("error"), Some(11)));
    assert!(items.iter().any(|i| i["kind"] == "api_error"));
}
