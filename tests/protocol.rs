//! The reading worker's messages are postcard bytes (`src/app/worker/protocol.rs`):
//! serde's derive without field names, where a `skip_serializing_if` or a
//! value that needs a self-describing format would shift every field after
//! it. Every fact the survey hands over, for every fixture tree (the real
//! ones, the synthetic quirks and ours: workflows, nested and doubtful runs)
//! must come back as it went, as JSON shows it (which leaves out the same
//! `serde(skip)` fields).

mod common;

use std::path::{Path, PathBuf};

use ccscope::disk::OnDisk;
use serde::{de::DeserializeOwned, Serialize};

fn round_trip<T: Serialize + DeserializeOwned>(v: &T) -> T {
    let bytes = postcard::to_allocvec(v).expect("encodes");
    postcard::from_bytes(&bytes).expect("decodes")
}

fn trees() -> Vec<PathBuf> {
    let shared = common::fixtures_dir();
    let ours = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    vec![
        shared.join("synthetic/projects"),
        shared.join("real/daaain__claude-code-log/test/test_data/real_projects"),
        shared.join("real/d-kimuson__claude-code-viewer/mock-global-claude-dir/projects"),
        ours.join("workflow/projects"),
        ours.join("nested/projects"),
        ours.join("doubts/projects"),
    ]
}

#[test]
fn every_fixture_trees_facts_survive_the_worker_encoding() {
    let mut conversations = 0;
    for dir in trees() {
        let folder = OnDisk::open(&dir);
        let tree = serde_json::to_value(&folder.tree).unwrap();
        assert_eq!(serde_json::to_value(round_trip(&folder.tree)).unwrap(), tree, "{}: the tree", dir.display());
        let facts = folder.summaries(ccscope::model::DEFAULT_IDLE_GAP_SECS);
        assert!(!facts.is_empty(), "{}: conversations", dir.display());
        for f in &facts {
            let want = serde_json::to_value(f).unwrap();
            assert_eq!(serde_json::to_value(round_trip(f)).unwrap(), want, "{}: {}", dir.display(), f.line.path);
        }
        conversations += facts.len();
    }
    assert!(conversations >= 50, "{conversations} conversations");
}
