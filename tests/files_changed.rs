//! Files changed (issue 32, item 1): every file a conversation's edit calls
//! touched, with diffs, lines added and removed, failures marked, and the
//! net change where the steps chain. Fixture: tests/fixtures/changes.jsonl
//! (its README entry names the shapes' sources).

mod common;

use std::process::Command;

use ccscope::index::Indexer;
use ccscope::model::changes::{edit_calls, edit_rows, files_changed, rows_to_read, FileChanges};
use ccscope::model::conversation::tool_calls;
use ccscope::model::tools::DiffLine;

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/changes.jsonl");

fn changes() -> Vec<FileChanges> {
    let bytes = std::fs::read(FIXTURE).unwrap();
    let ix = Indexer::index_bytes(&bytes);
    let edits = edit_calls(&ix, &tool_calls(&ix));
    files_changed(&ix, &edits, &common::bodies_of(&bytes, &ix, &rows_to_read(&ix, &edits)))
}

#[test]
fn the_survey_fetches_every_line_files_changed_reads() {
    // `edit_rows` (from the index alone, before the survey reads) must hold
    // every row `rows_to_read` (after calls and results are paired) asks for.
    let ix = Indexer::index_bytes(&std::fs::read(FIXTURE).unwrap());
    let fetched = edit_rows(&ix);
    let read = rows_to_read(&ix, &edit_calls(&ix, &tool_calls(&ix)));
    assert!(!read.is_empty());
    assert!(read.iter().all(|r| fetched.contains(r)), "{read:?} ⊄ {fetched:?}");
    assert_eq!(fetched, read, "on this fixture, exactly the same rows");
}

#[test]
fn every_touched_file_once_in_first_touch_order_relative_to_cwd() {
    let files = changes();
    let shown: Vec<&str> = files.iter().map(|f| f.shown.as_str()).collect();
    // /etc/hosts lies outside the cwd: shown as named.
    assert_eq!(shown, ["src/greet.py", "README.md", "/etc/hosts"]);
    assert_eq!(files[0].changes.iter().map(|c| c.tool.as_str()).collect::<Vec<_>>(), ["Write", "Edit", "Edit", "MultiEdit"]);
    assert_eq!(files[0].changes.iter().map(|c| c.line).collect::<Vec<_>>(), [2, 4, 6, 8]);
}

#[test]
fn counts_come_from_the_patch_or_the_call_and_failures_do_not_count() {
    let files = changes();
    let greet = &files[0];
    // Write create: 4 lines added, 0 removed (it made the file).
    assert_eq!((greet.changes[0].added, greet.changes[0].removed, greet.changes[0].created), (4, Some(0), true));
    // Edit with a structuredPatch: its hunk, header first, with line numbers.
    assert_eq!(greet.changes[1].diff[0], DiffLine::Hunk("@@ -1,4 +1,4 @@".into()));
    assert_eq!((greet.changes[1].added, greet.changes[1].removed), (1, Some(1)));
    // The failed edit is marked and left out of the sums.
    assert!(greet.changes[2].failed);
    assert_eq!(greet.failed(), 1);
    // MultiEdit without a result patch: from its strings (1 → 2 lines, 1 → 1).
    assert_eq!((greet.changes[3].added, greet.changes[3].removed), (3, Some(2)));
    assert_eq!((greet.added(), greet.removed(), greet.created()), (8, Some(3), true));
}

#[test]
fn a_whole_file_write_over_unknown_text_has_removed_unknown_not_zero() {
    let files = changes();
    let readme = &files[1];
    assert_eq!((readme.changes[0].added, readme.changes[0].removed, readme.changes[0].created), (3, None, false));
    assert_eq!(readme.removed(), None);
    assert!(readme.net.is_none(), "the old README is not in the transcript");
}

#[test]
fn the_net_change_of_a_created_file_is_its_final_text() {
    let files = changes();
    let net = files[0].net.as_ref().expect("created here, every later step applies");
    let added: Vec<&str> = net.iter().filter_map(|d| if let DiffLine::Added(l) = d { Some(l.as_str()) } else { None }).collect();
    assert_eq!(added, ["def greet(name: str) -> str:", "    return f'hello {name}'", "", "if __name__ == '__main__':", "    print(greet('you'))"]);
    assert!(net.iter().all(|d| matches!(d, DiffLine::Added(_))));
}

#[test]
fn a_denied_edit_is_named_but_changes_nothing() {
    let files = changes();
    let hosts = &files[2];
    assert_eq!((hosts.changes.len(), hosts.failed(), hosts.added(), hosts.removed()), (1, 1, 0, Some(0)));
}

#[test]
fn ccscope_report_lists_the_files() {
    let out = Command::new(env!("CARGO_BIN_EXE_ccscope")).args(["report", FIXTURE]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let files = v["files"].as_array().expect("report has files");
    assert_eq!(files.len(), 3);
    assert_eq!(files[0]["path"], "src/greet.py");
    assert_eq!((files[0]["changes"].as_u64(), files[0]["failed"].as_u64(), files[0]["added"].as_u64(), files[0]["removed"].as_u64()), (Some(4), Some(1), Some(8), Some(3)));
    assert_eq!(files[1]["removed"], serde_json::Value::Null);
    assert_eq!(files[0]["lines"], serde_json::json!([2, 4, 6, 8]));
    // The report's other figures are still there.
    assert_eq!(v["tool_calls"].as_u64(), Some(6));
}

#[test]
fn ccscope_report_dir_gives_each_conversation_its_files_and_the_totals_every_file() {
    // Two conversations of one project, both the fixture: each lists its files, the totals fold them.
    let dir = std::env::temp_dir().join(format!("ccscope-files-dir-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("-home-u-proj")).unwrap();
    for stem in ["a1", "b2"] {
        std::fs::copy(FIXTURE, dir.join(format!("-home-u-proj/{stem}.jsonl"))).unwrap();
    }
    let out = Command::new(env!("CARGO_BIN_EXE_ccscope")).args(["report", dir.to_str().unwrap()]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for c in v["conversations"].as_array().unwrap() {
        assert_eq!(c["files"].as_array().map(Vec::len), Some(3), "{}", c["path"]);
    }
    let files = v["totals"]["files"].as_array().unwrap();
    assert_eq!(files[0]["path"], "src/greet.py", "most changes first");
    assert_eq!((files[0]["changes"].as_u64(), files[0]["conversations"].as_u64(), files[0]["added"].as_u64(), files[0]["removed"].as_u64()), (Some(8), Some(2), Some(16), Some(6)));
    let readme = files.iter().find(|f| f["path"] == "README.md").unwrap();
    assert!(readme["removed"].is_null(), "unknown stays unknown when summed");
}
