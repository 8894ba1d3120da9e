//! Runs that spawn runs (tests/fixtures/nested, its README names the
//! sources): the folder's summary places each where it was spawned — a
//! meta naming a call that another run of the conversation made is nesting,
//! not a doubt — and the agent graph agrees.

use std::path::Path;

use ccscope::disk::OnDisk;

fn nested() -> OnDisk {
    OnDisk::open(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/nested/projects"))
}

#[test]
fn a_run_spawned_inside_a_run_is_placed_not_in_doubt() {
    let facts = nested().summaries(ccscope::model::DEFAULT_IDLE_GAP_SECS);
    assert_eq!(facts.len(), 1);
    let runs = &facts[0].runs;
    assert_eq!(runs.len(), 3);
    for l in runs {
        assert!(l.doubt.is_none(), "agent-{}: {:?}", l.link.agent_id, l.doubt);
        assert!(!l.unplaced(), "agent-{} is placed", l.link.agent_id);
    }
    // Only the first run is under a call of the conversation itself.
    let top: Vec<&str> = runs.iter().filter(|l| l.link.tool_use_id.as_deref() == Some("toolu_n0")).map(|l| l.link.agent_id.as_str()).collect();
    assert_eq!(top, ["aaa1"]);
    // Each run's depth, by walking its spawners up to the conversation.
    let depth = |id: &str| ccscope::folder::summary::depth_of(runs, id);
    assert_eq!((depth("aaa1"), depth("bbb2"), depth("ccc3"), depth("nobody")), (Some(1), Some(2), Some(3), None));
}

#[test]
fn a_meta_naming_a_call_nobody_made_is_still_in_doubt() {
    // The doubts tree (tests/fixtures/doubts) keeps its missing call unplaced:
    // only calls that a run of the conversation made count as nesting.
    let doubts = OnDisk::open(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/doubts/projects"));
    let facts = doubts.summaries(ccscope::model::DEFAULT_IDLE_GAP_SECS);
    let missing = facts.iter().flat_map(|f| &f.runs).filter(|l| matches!(l.doubt, Some(ccscope::folder::Doubt::MissingCall { .. }))).count();
    assert!(missing >= 1, "the doubts tree's meta naming a missing call is still in doubt");
}

/// The nested fixture copied with `drop` metas left out.
fn without_metas(drop: &[&str]) -> std::path::PathBuf {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/nested/projects");
    let to = std::env::temp_dir().join(format!("ccscope-nest-text-{}-{}", std::process::id(), drop.join("-")));
    let _ = std::fs::remove_dir_all(&to);
    for e in ccscope::disk::walk(&from) {
        if drop.iter().any(|d| e.path.ends_with(&format!("agent-{d}.meta.json"))) {
            continue;
        }
        let dest = to.join(&e.path);
        std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
        std::fs::copy(from.join(&e.path), dest).unwrap();
    }
    to
}

#[test]
fn without_their_metas_runs_are_placed_by_the_agent_id_lines_of_their_spawners_results() {
    // bbb2's call toolu_n2 came back with "agentId: ccc3"; aaa1's toolu_n1 with "agentId: bbb2".
    let dir = without_metas(&["bbb2", "ccc3"]);
    let facts = OnDisk::open(&dir).summaries(ccscope::model::DEFAULT_IDLE_GAP_SECS);
    let runs = &facts[0].runs;
    let by = |id: &str| runs.iter().find(|l| l.link.agent_id == id).unwrap();
    for (id, call) in [("bbb2", "toolu_n1"), ("ccc3", "toolu_n2")] {
        let l = by(id);
        assert_eq!((l.link.link, l.spawned_by()), (ccscope::model::Link::Text, Some(call)), "{id}");
        assert!(!l.unplaced(), "{id}");
    }
    let depth = |id: &str| ccscope::folder::summary::depth_of(runs, id);
    assert_eq!((depth("aaa1"), depth("bbb2"), depth("ccc3")), (Some(1), Some(2), Some(3)));
    // The CLI's graph agrees.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ccscope")).arg("agents").arg(&dir).output().unwrap();
    let g: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let nodes: Vec<(String, String, u64)> = g["nodes"].as_array().unwrap().iter().map(|n| (n["agent_id"].as_str().unwrap().into(), n["link"].as_str().unwrap().into(), n["depth"].as_u64().unwrap())).collect();
    assert_eq!(nodes, [("aaa1".into(), "meta".into(), 1), ("bbb2".into(), "text".into(), 2), ("ccc3".into(), "text".into(), 3)]);
    let _ = std::fs::remove_dir_all(&dir);
}
