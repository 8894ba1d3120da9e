//! Summing up a folder's conversations, as one plan two readers drive: the
//! CLI from disk (`disk::OnDisk::summaries`) and the reading worker from the
//! picked `File`s (`app::worker::jobs`). The plan says in which order the
//! conversations go and, for each, which files are read and in what order
//! (its project's legacy runs — read once per project and kept —, its own
//! runs with their meta files, then its file); the readers share every step
//! after a read (`Run::from_index`, `Meta::parse`, `reads_needed`,
//! `summarize`), so the browser's facts and `ccscope sessions` agree.

use super::tree::{Conversation, RunFiles, Tree};

/// What summing up one conversation reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan<'t> {
    pub conv: u32,
    /// Its project (whose legacy runs it needs: read at the first
    /// conversation of the project, kept for the others).
    pub project: u32,
    pub legacy: &'t [(String, u32)],
    pub runs: &'t [RunFiles],
    /// Its own file.
    pub entry: u32,
}

impl<'t> Plan<'t> {
    pub fn of(tree: &'t Tree, conv: u32) -> Option<Plan<'t>> {
        let c: &Conversation = tree.conversations.get(conv as usize)?;
        let project = &tree.projects[c.project as usize];
        Some(Plan { conv, project: c.project, legacy: &project.legacy_runs, runs: &c.runs, entry: c.entry })
    }

    /// Bytes of the files it reads but the legacy runs (which count once, for
    /// the conversation that reads them).
    pub fn own_bytes(&self, tree: &Tree) -> u64 {
        self.runs.iter().map(|r| tree.entry(r.jsonl).size_bytes).sum::<u64>() + tree.entry(self.entry).size_bytes
    }

    pub fn legacy_bytes(&self, tree: &Tree) -> u64 {
        self.legacy.iter().map(|(_, e)| tree.entry(*e).size_bytes).sum()
    }
}

/// The order a survey goes in: the most recently modified first, so the
/// top of the list (sorted by last activity) fills in first; ties (and
/// files without a date) in path order.
pub fn order(tree: &Tree) -> Vec<u32> {
    let mut order: Vec<u32> = (0..tree.conversations.len() as u32).collect();
    let modified = |c: &u32| tree.entry(tree.conversations[*c as usize].entry).modified_ms.unwrap_or(0);
    crate::sort::by_key(&mut order, |c| std::cmp::Reverse(modified(c)));
    order
}

/// Every plan of `tree` in `order`.
pub fn plans<'t>(tree: &'t Tree, order: &[u32]) -> Vec<Plan<'t>> {
    order.iter().filter_map(|&c| Plan::of(tree, c)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::folder::tree::Entry;

    #[test]
    fn the_plan_reads_runs_before_their_conversation_newest_first() {
        let e = |p: &str, size: u64, m: i64| Entry { path: p.into(), size_bytes: size, modified_ms: Some(m) };
        let tree = Tree::build(vec![
            e("p/a.jsonl", 10, 1),
            e("p/a/subagents/agent-x.jsonl", 3, 1),
            e("p/a/subagents/agent-x.meta.json", 1, 1),
            e("p/b.jsonl", 20, 5),
            e("p/agent-old.jsonl", 7, 1),
        ]);
        let order = order(&tree);
        assert_eq!(order, [1, 0], "b was modified last");
        let plans = plans(&tree, &order);
        assert_eq!((plans[1].runs.len(), plans[1].runs[0].meta.is_some(), plans[1].own_bytes(&tree)), (1, true, 13));
        assert_eq!((plans[0].legacy.len(), plans[0].legacy_bytes(&tree)), (1, 7), "the project's legacy run");
        assert_eq!(plans[0].project, plans[1].project);
    }
}
