//! Every record kind readable, and what is not understood named (issue 32,
//! items 4 and 5): a file's record types, system subtypes, attachment types
//! and first content blocks that ccscope has no handling for, each with its
//! count, writer versions and first line; the page and `ccscope report`
//! read the same list.

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
            (Level::ContentBlock, None, 1, 5, vec!["2.1.200"]),
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
    assert_eq!(unknown.len(), 4);
    assert_eq!(unknown[0], serde_json::json!({"level": "record_type", "name": "frame-link", "count": 2, "first_line": 6, "versions": ["2.1.201", "2.1.202"]}));
    assert_eq!(unknown[3]["level"], "content_block");
    assert_eq!(unknown[3]["name"], serde_json::Value::Null);
}
