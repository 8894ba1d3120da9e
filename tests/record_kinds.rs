//! Every record kind readable, and what is not understood named (issue 32,
//! items 4 and 5): a file's record types, system subtypes, attachment types,
//! content blocks (at any place) and tool-result content blocks that ccscope
//! has no handling for, each with its count, writer versions and first line;
//! the page and `ccscope report` read the same list.

use std::process::Command;

use ccscope::index::Indexer;
use ccscope::model::record::{not_understood, Level};

const SHARED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/fixtures");
const UNKNOWN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/unknown-kinds.jsonl");

fn read(path: &str) -> ccscope::index::Index {
    Indexer::index_bytes(&std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e} (../shared must be there)")))
}

#[test]
fn each_level_is_named_with_count_versions_and_first_line() {
    let u = not_understood(&read(UNKNOWN));
    let got: Vec<(Level, Option<&str>, u64, u32, Vec<&str>)> = u.iter().map(|u| (u.level, u.name.as_deref(), u.count, u.first_line, u.versions.iter().map(String::as_str).collect())).collect();
    assert_eq!(
        got,
        [
            (Level::RecordType, Some("frame-link"), 2, 6, vec!["2.1.201", "2.1.202"]),
            (Level::SystemSubtype, Some("scheduled_task_fire"), 1, 2, vec!["2.1.200"]),
            (Level::AttachmentType, Some("ultra_effort_enter"), 2, 4, vec!["2.1.200", "2.1.202"]),
            (Level::ContentBlock, Some("server_tool_use"), 1, 5, vec!["2.1.200"]),
            // Second of three blocks: a record's later blocks are counted too.
            (Level::ContentBlock, Some("web_search_tool_result"), 1, 9, vec!["2.1.202"]),
            // Inside a tool_result's content, beside the text and image the page shows.
            (Level::ResultBlock, Some("document"), 1, 10, vec!["2.1.202"]),
        ]
    );
}

#[test]
fn every_kind_in_a_real_2_1_114_file_is_understood() {
    // permission-mode, last-prompt, attachment (hook_success, hook_additional_context,
    // deferred_tools_delta, skill_listing, task_reminder), system (stop_hook_summary,
    // turn_duration, away_summary), file-history-snapshot: ../shared/fixtures/README.md lists them.
    let ix = read(&format!("{SHARED}/real/daaain__claude-code-log/test/test_data/real_projects/-experiments-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl"));
    assert_eq!(not_understood(&ix), []);
}

#[test]
fn the_synthetic_unknown_record_type_is_named() {
    let ix = read(&format!("{SHARED}/synthetic/projects/-Users-alex-code-app/d3cb2e5d-477b-4f6b-a7e5-1f4ed60e6538.jsonl"));
    let u = not_understood(&ix);
    assert_eq!(u.iter().map(|u| (u.level, u.name.as_deref(), u.count, u.first_line)).collect::<Vec<_>>(), [(Level::RecordType, Some("atis-latch"), 1, 20)]);
}

#[test]
fn ccscope_report_lists_what_is_not_understood() {
    let out = Command::new(env!("CARGO_BIN_EXE_ccscope")).args(["report", UNKNOWN]).output().unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let unknown = v["unknown"].as_array().expect("report has unknown");
    assert_eq!(unknown.len(), 6);
    assert_eq!(unknown[0], serde_json::json!({"level": "record_type", "name": "frame-link", "count": 2, "first_line": 6, "versions": ["2.1.201", "2.1.202"]}));
    assert_eq!(unknown[3]["level"], "content_block");
    assert_eq!(unknown[3]["name"], "server_tool_use");
    assert_eq!(unknown[5], serde_json::json!({"level": "result_block", "name": "document", "count": 1, "first_line": 10, "versions": ["2.1.202"]}));
}

#[test]
fn a_folder_names_what_is_not_understood_across_its_conversations() {
    // Two conversations of one project: the fixture, and the synthetic file with `atis-latch`.
    let dir = std::env::temp_dir().join(format!("ccscope-unknown-{}", std::process::id()));
    let project = dir.join("projects/-p");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::copy(UNKNOWN, project.join("a.jsonl")).unwrap();
    std::fs::copy(format!("{SHARED}/synthetic/projects/-Users-alex-code-app/d3cb2e5d-477b-4f6b-a7e5-1f4ed60e6538.jsonl"), project.join("b.jsonl")).expect("../shared must be there");
    let mut second = std::fs::read_to_string(UNKNOWN).unwrap();
    second.push_str("{\"type\":\"frame-link\",\"uuid\":\"f9\",\"version\":\"2.1.203\"}\n");
    std::fs::write(project.join("c.jsonl"), second).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_ccscope")).arg("report").arg(&dir).output().unwrap();
    std::fs::remove_dir_all(&dir).ok();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let kinds: Vec<(String, String, u64, u64)> = v["totals"]["unknown"]
        .as_array()
        .expect("totals.unknown")
        .iter()
        .map(|u| (u["level"].as_str().unwrap().to_string(), u["name"].as_str().unwrap_or("").to_string(), u["count"].as_u64().unwrap(), u["conversations"].as_u64().unwrap()))
        .collect();
    let has = |level: &str, name: &str, count: u64, conversations: u64| kinds.contains(&(level.into(), name.into(), count, conversations));
    assert!(has("record_type", "frame-link", 5, 2), "2 + 3 records in two conversations: {kinds:?}");
    assert!(has("record_type", "atis-latch", 1, 1), "{kinds:?}");
    assert!(has("result_block", "document", 2, 2), "{kinds:?}");
    assert_eq!(kinds.len(), 7, "six kinds of the fixture and atis-latch: {kinds:?}");
    let frame = v["totals"]["unknown"].as_array().unwrap().iter().find(|u| u["name"] == "frame-link").unwrap();
    assert_eq!(frame["versions"], serde_json::json!(["2.1.201", "2.1.202", "2.1.203"]));
}
