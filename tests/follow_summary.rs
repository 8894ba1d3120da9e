//! A followed folder's conversation is re-summed from where it grew: for
//! every conversation of a real `projects/` tree, growing its file in
//! uneven steps (cut inside lines and UTF-8 sequences) through
//! `index::follow::Tail` gives, at each step, the summary of the bytes up
//! to the last newline, and at the end the summary of the whole file.

mod common;

use std::path::Path;

use ccscope::disk::{self, OnDisk};
use ccscope::folder::survey::Plan;
use ccscope::folder::{summarize, Parts, ReadAt};
use ccscope::index::follow::Tail;
use ccscope::index::{Index, Indexer};
use ccscope::model::DEFAULT_IDLE_GAP_SECS;

struct FromDisk<'a>(&'a OnDisk);

impl ReadAt for FromDisk<'_> {
    fn read_at(&mut self, entry: u32, start: u64, end: u64) -> Option<Vec<u8>> {
        disk::read_range(&self.0.path_of(entry), start, end).ok()
    }
    fn read_all(&mut self, entry: u32) -> Option<Vec<u8>> {
        std::fs::read(self.0.path_of(entry)).ok()
    }
}

fn summary(folder: &OnDisk, conv: u32, ix: &Index, head: &[u8]) -> serde_json::Value {
    let t = &folder.tree;
    let c = &t.conversations[conv as usize];
    let parts = Parts { ix, head, runs: Vec::new(), legacy: &[], idle_gap_secs: DEFAULT_IDLE_GAP_SECS };
    serde_json::to_value(summarize(t, c, parts, &mut FromDisk(folder))).expect("facts serialize")
}

#[test]
fn a_conversation_summed_as_it_grows_ends_as_summed_whole() {
    let root = common::fixtures_dir().join("real/daaain__claude-code-log/test/test_data/real_projects");
    let folder = OnDisk::open(Path::new(&root));
    assert!(folder.tree.conversations.len() >= 10, "the tree is there: {}", root.display());
    let mut seed = 0x2545_F491_u64;
    for conv in 0..folder.tree.conversations.len() as u32 {
        let Some(plan) = Plan::of(&folder.tree, conv) else { continue };
        let bytes = std::fs::read(folder.path_of(plan.entry)).expect("readable");
        let mut cuts: Vec<usize> = (0..5)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                (seed % (bytes.len() as u64 + 1)) as usize
            })
            .collect();
        cuts.push(bytes.len());
        cuts.sort_unstable();
        let mut tail = Tail::default();
        let mut at = 0;
        for p in cuts {
            tail.push(&bytes[at..p]);
            at = p;
            let ended = bytes[..p].iter().rposition(|&b| b == b'\n').map_or(0, |n| n + 1);
            let want = summary(&folder, conv, &Indexer::index_bytes(&bytes[..ended]), &bytes[..ended.min(4096)]);
            let got = summary(&folder, conv, &tail.settled(), &bytes[..ended.min(4096)]);
            assert_eq!(got, want, "{} at byte {p}", folder.tree.entry(plan.entry).path);
        }
        if bytes.ends_with(b"\n") {
            let whole = summary(&folder, conv, &Indexer::index_bytes(&bytes), &bytes[..bytes.len().min(4096)]);
            assert_eq!(summary(&folder, conv, &tail.settled(), &bytes[..bytes.len().min(4096)]), whole);
        }
    }
}
