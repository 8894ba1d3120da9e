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
