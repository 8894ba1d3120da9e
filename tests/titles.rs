//! A conversation's title is something a person typed: never an
//! interruption marker, a command caveat, a slash command's output, a
//! compaction summary or another text the client wrote (`model::items::
//! CLIENT_TEXT`), on every fixture tree.

mod common;

use std::process::Command;

use ccscope::model::items::CLIENT_TEXT;

#[test]
fn no_title_is_text_the_client_wrote() {
    let root = common::fixtures_dir();
    let mut prompt_titles = 0;
    for tree in ["synthetic/projects", "real/daaain__claude-code-log/test/test_data/real_projects", "real/d-kimuson__claude-code-viewer/mock-global-claude-dir/projects"] {
        let out = Command::new(env!("CARGO_BIN_EXE_ccscope")).arg("sessions").arg(root.join(tree)).output().unwrap();
        for line in out.stdout.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
            let v: serde_json::Value = serde_json::from_slice(line).unwrap();
            if v["title_source"] != "prompt" {
                continue;
            }
            let Some(title) = v["title"].as_str() else { continue };
            prompt_titles += 1;
            assert!(!CLIENT_TEXT.iter().any(|p| title.trim_start().starts_with(p)), "{}: {title:?}", v["path"]);
        }
    }
    assert!(prompt_titles >= 20, "{prompt_titles} prompt titles looked at");
    // The fixtures do hold such texts as prompts: the rule is exercised.
    let interrupted = std::fs::read_to_string(root.join("real/daaain__claude-code-log/test/test_data/real_projects/-Users-dain-workspace-claude-code-log-sample/0d3a8e6f-290f-4105-a327-a2496e5e2a83.jsonl")).unwrap();
    assert!(interrupted.contains("[Request interrupted by user"));
}
