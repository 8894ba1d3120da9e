//! A picked folder in the app: its tree, each conversation's summary as the
//! worker sends it, the session browser's sorting and filters, and a
//! search across the folder. No DOM; the app renders this.

use std::rc::Rc;

use crate::folder::tree::{decode_project_name, dir_name_of};
use crate::folder::{SessionFacts, Tree};
use crate::state::FileId;

/// A conversation's summary, as far as the worker got.
#[derive(Clone, Debug, Default)]
pub enum Slot {
    #[default]
    Pending,
    Ready(Rc<SessionFacts>),
    /// The file could not be read; why.
    Failed(Rc<str>),
}

/// Equal when it is the same summary (by pointer): a list row redraws only
/// when its own conversation changed.
impl PartialEq for Slot {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Slot::Pending, Slot::Pending) => true,
            (Slot::Ready(a), Slot::Ready(b)) => Rc::ptr_eq(a, b),
            (Slot::Failed(a), Slot::Failed(b)) => a == b,
            _ => false,
        }
    }
}

impl Slot {
    pub fn facts(&self) -> Option<&SessionFacts> {
        match self {
            Slot::Ready(f) => Some(f),
            _ => None,
        }
    }
}

/// A column of the session list (each sorts it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Column {
    Title,
    Project,
    First,
    #[default]
    Last,
    Active,
    Size,
    Turns,
    Tools,
    Failures,
    Subagents,
    Compactions,
    Peak,
    Output,
}

impl Column {
    pub const ALL: [Column; 13] = [
        Column::Title,
        Column::Project,
        Column::First,
        Column::Last,
        Column::Active,
        Column::Size,
        Column::Turns,
        Column::Tools,
        Column::Failures,
        Column::Subagents,
        Column::Compactions,
        Column::Peak,
        Column::Output,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Column::Title => "Conversation",
            Column::Project => "Project",
            Column::First => "First",
            Column::Last => "Last",
            Column::Active => "Active",
            Column::Size => "Size",
            Column::Turns => "API turns",
            Column::Tools => "Tool calls",
            Column::Failures => "Failures",
            // (Soft hyphens: a narrow header may break these long words.)
            Column::Subagents => "Sub\u{ad}agents",
            Column::Compactions => "Compac\u{ad}tions",
            Column::Peak => "Peak context",
            Column::Output => "Output tokens",
        }
    }
}

/// The session list's sorting and filters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListUi {
    pub sort: Column,
    pub descending: bool,
    /// Matched (ASCII case-insensitive) against title, path, project and cwd.
    pub text: String,
    pub project: Option<u32>,
    pub client: Option<String>,
    pub model: Option<String>,
    /// Only conversations active on or after / before these days (UTC, ms).
    pub from_ms: Option<i64>,
    pub to_ms: Option<i64>,
    pub failures_only: bool,
    /// Only conversations where a call of this tool failed.
    pub tool_failing: Option<String>,
    /// The dashboard is shown above the list.
    pub dashboard: bool,
    /// Show conversations deleted in the desktop app.
    pub show_deleted: bool,
    /// Where the list was scrolled when a conversation was opened from it.
    pub scroll_px: i32,
}

impl Default for ListUi {
    fn default() -> Self {
        ListUi {
            sort: Column::Last,
            descending: true,
            text: String::new(),
            project: None,
            client: None,
            model: None,
            from_ms: None,
            to_ms: None,
            failures_only: false,
            tool_failing: None,
            dashboard: false,
            show_deleted: false,
            scroll_px: 0,
        }
    }
}

/// Where to go from the browser: a conversation (or one of its runs), at a
/// line, with a search's matches marked.
#[derive(Clone, Debug, PartialEq)]
pub struct OpenAt {
    pub conv: u32,
    pub run: Option<Rc<str>>,
    pub line: Option<u32>,
    pub highlight: Option<Rc<str>>,
}

/// What a search across the folder covers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Scope {
    #[default]
    All,
    Project(u32),
    Conversation(u32),
}

/// One file's matches (`entry` is the file: a conversation or a run).
#[derive(Clone, Debug, PartialEq)]
pub struct FileHits {
    pub entry: u32,
    pub matches: u64,
    pub hits: Vec<crate::state::search::HitText>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct FolderSearch {
    /// Numbers searches: answers to an older one are dropped.
    pub serial: u64,
    pub query: Rc<str>,
    pub scope: Scope,
    pub results: Rc<Vec<FileHits>>,
    pub done_bytes: u64,
    pub total_bytes: u64,
    pub finished: bool,
}

#[derive(Clone)]
pub struct Browser {
    /// What was picked, in words ("projects", "3 files").
    pub name: Rc<str>,
    pub tree: Rc<Tree>,
    /// The app's file for each entry of `tree`.
    pub files: Rc<Vec<FileId>>,
    /// By conversation.
    pub slots: Rc<Vec<Slot>>,
    /// Bytes the survey has read, of `total_bytes`.
    pub done_bytes: u64,
    pub total_bytes: u64,
    pub surveyed: bool,
    pub list: ListUi,
    pub search: FolderSearch,
    /// Opened through handles: listed again as Claude Code writes in it.
    pub followed: bool,
}

impl Browser {
    pub fn new(name: &str, tree: Tree, files: Vec<FileId>) -> Browser {
        let total_bytes = tree.entries.iter().map(|e| e.size_bytes).sum();
        let slots = Rc::new(vec![Slot::Pending; tree.conversations.len()]);
        Browser {
            name: name.into(),
            tree: Rc::new(tree),
            files: Rc::new(files),
            slots,
            done_bytes: 0,
            total_bytes,
            surveyed: false,
            list: ListUi::default(),
            search: FolderSearch::default(),
            followed: false,
        }
    }

    /// The folder listed again (it is followed): `tree`, with the app's
    /// `files` for its entries. Conversations whose inputs did not change
    /// ([`Tree::unchanged_since`]) keep their facts; the others wait to be
    /// summed again. The list's settings stay (a project filter follows its
    /// project); a search's results name the old entries and are dropped.
    pub fn relisted(&self, tree: Tree, files: Vec<FileId>) -> Browser {
        let kept = tree.unchanged_since(&self.tree);
        let slots = kept.iter().map(|k| k.and_then(|o| self.slots.get(o as usize).cloned()).unwrap_or_default()).collect();
        let mut list = self.list.clone();
        list.project = list.project.and_then(|p| {
            let path = &self.tree.projects.get(p as usize)?.path;
            tree.projects.iter().position(|q| &q.path == path).map(|k| k as u32)
        });
        let total_bytes = tree.entries.iter().map(|e| e.size_bytes).sum();
        let search = FolderSearch { serial: self.search.serial + 1, ..FolderSearch::default() };
        let done_bytes = if self.surveyed { total_bytes } else { self.done_bytes };
        Browser { name: self.name.clone(), tree: Rc::new(tree), files: Rc::new(files), slots: Rc::new(slots), done_bytes, total_bytes, surveyed: self.surveyed, list, search, followed: self.followed }
    }

    /// The (at most `max`) conversations written to most recently, at or
    /// after `since_ms`.
    pub fn recent(&self, since_ms: i64, max: usize) -> Vec<u32> {
        let t = &self.tree;
        let modified = |c: u32| t.entry(t.conversations[c as usize].entry).modified_ms;
        let mut out: Vec<u32> = (0..t.conversations.len() as u32).filter(|&c| modified(c).is_some_and(|m| m >= since_ms)).collect();
        crate::sort::by_key(&mut out, |&c| std::cmp::Reverse(modified(c)));
        out.truncate(max);
        out
    }

    /// The conversation at `path`, if the folder holds it.
    pub fn conversation_at(&self, path: &str) -> Option<u32> {
        self.tree.conversations.binary_search_by(|c| c.path.as_str().cmp(path)).ok().map(|c| c as u32)
    }

    pub fn facts(&self, c: u32) -> Option<&SessionFacts> {
        self.slots.get(c as usize)?.facts()
    }

    /// The file of conversation `conv`, or of its run `run` (by agent id),
    /// if it was picked.
    pub fn file_of(&self, conv: u32, run: Option<&str>) -> Option<u32> {
        let c = self.tree.conversations.get(conv as usize)?;
        match run {
            Some(agent) => c.runs.iter().find(|r| r.agent_id == agent).map(|r| r.jsonl),
            None => Some(c.entry),
        }
    }

    /// The entry an address names, if it is one of this folder's files.
    pub fn entry_of(&self, target: &crate::state::address::Target) -> Option<u32> {
        match target {
            crate::state::address::Target::Path(p) => self.tree.entries.iter().position(|e| e.path == *p).map(|e| e as u32),
            crate::state::address::Target::Entry(e) => ((*e as usize) < self.tree.entries.len()).then_some(*e),
        }
    }

    /// What conversation `c` is called: its title (the model's rule), else
    /// its file's name (before its facts are in, or when it has no title).
    pub fn title(&self, c: u32) -> String {
        match self.facts(c).and_then(|f| f.line.title.clone()) {
            Some(t) => t,
            None => crate::fmt::file_name(&self.tree.conversations[c as usize].path).to_string(),
        }
    }

    /// The order the survey goes in (`folder::survey::order`).
    pub fn survey_order(&self) -> Vec<u32> {
        crate::folder::survey::order(&self.tree)
    }

    /// The project's working directory, as its label: a record's `cwd`
    /// that the directory's name encodes (exact: a dash or a dot in a name
    /// survives); else the name decoded (ambiguous: every `-` reads as `/`)
    /// — also when its files' `cwd`s name other directories (a moved
    /// project, a worktree, files copied in): those are
    /// [`project_cwds`](Self::project_cwds), shown beside it. Files picked
    /// one by one (no directory): the first `cwd` known.
    pub fn project_dir(&self, p: u32) -> String {
        let project = &self.tree.projects[p as usize];
        let mut cwds = project.conversations.iter().filter_map(|&c| self.facts(c)?.cwd.as_deref());
        if project.name.is_empty() {
            return cwds.next().unwrap_or_default().to_string();
        }
        cwds.find(|c| dir_name_of(c) == project.name).map_or_else(|| decode_project_name(&project.name), str::to_string)
    }

    /// The distinct `cwd`s the project's summed-up conversations name, sorted.
    pub fn project_cwds(&self, p: u32) -> Vec<String> {
        let cwds: std::collections::BTreeSet<String> = self.tree.projects[p as usize].conversations.iter().filter_map(|&c| self.facts(c)?.cwd.clone()).collect();
        cwds.into_iter().collect()
    }

    /// Last activity in a project: the latest conversation's last time.
    pub fn project_last_ms(&self, p: u32) -> Option<i64> {
        self.tree.projects[p as usize].conversations.iter().filter_map(|&c| self.facts(c)?.last_ms).max()
    }

    pub fn deleted(&self, c: u32) -> bool {
        self.tree.conversations[c as usize].released.is_some()
    }

    /// Conversations deleted in the desktop app (known from file names).
    pub fn deleted_count(&self) -> usize {
        (0..self.tree.conversations.len() as u32).filter(|&c| self.deleted(c)).count()
    }

    /// Distinct clients and models seen so far, sorted.
    pub fn clients_and_models(&self) -> (Vec<String>, Vec<String>) {
        let mut clients = std::collections::BTreeSet::new();
        let mut models = std::collections::BTreeSet::new();
        for f in self.slots.iter().filter_map(Slot::facts) {
            clients.extend(f.line.stats.entrypoints.iter().cloned());
            models.extend(f.models.iter().cloned());
        }
        (clients.into_iter().collect(), models.into_iter().collect())
    }

    /// The conversations the list shows, filtered and sorted. A filter on a
    /// fact not known yet (the survey has not reached it) lets it through.
    pub fn rows(&self) -> Vec<u32> {
        let l = &self.list;
        let needle = l.text.to_ascii_lowercase();
        let mut rows: Vec<u32> = (0..self.tree.conversations.len() as u32)
            .filter(|&c| {
                let conv = &self.tree.conversations[c as usize];
                let f = self.facts(c);
                let text_ok = needle.is_empty() || {
                    let title = f.and_then(|f| f.line.title.as_deref()).unwrap_or("");
                    let cwd = f.and_then(|f| f.cwd.as_deref()).unwrap_or("");
                    [title, conv.path.as_str(), cwd].iter().any(|s| s.to_ascii_lowercase().contains(&needle))
                };
                let client_ok = l.client.as_ref().is_none_or(|want| f.is_none_or(|f| f.line.stats.entrypoints.contains(want)));
                let model_ok = l.model.as_ref().is_none_or(|want| f.is_none_or(|f| f.models.contains(want)));
                let from_ok = l.from_ms.is_none_or(|from| f.is_none_or(|f| f.last_ms.is_none_or(|last| last >= from)));
                let tool_ok = l.tool_failing.as_ref().is_none_or(|want| f.is_some_and(|f| f.report.tools.iter().any(|t| &t.name == want && t.failures > 0)));
                let to_ok = l.to_ms.is_none_or(|to| f.is_none_or(|f| f.first_ms.is_none_or(|first| first < to)));
                (l.show_deleted || conv.released.is_none())
                    && l.project.is_none_or(|p| p == conv.project)
                    && (!l.failures_only || f.is_some_and(|f| f.line.stats.failed_steps > 0))
                    && text_ok
                    && client_ok
                    && model_ok
                    && tool_ok
                    && from_ok
                    && to_ok
            })
            .collect();
        crate::sort::by(&mut rows, |&a, &b| {
            let order = self.compare(l.sort, a, b);
            let order = if l.descending { order.reverse() } else { order };
            // Ties (and conversations not summed up yet) by path.
            order.then_with(|| self.tree.conversations[a as usize].path.cmp(&self.tree.conversations[b as usize].path))
        });
        rows
    }

    fn compare(&self, col: Column, a: u32, b: u32) -> std::cmp::Ordering {
        let (fa, fb) = (self.facts(a), self.facts(b));
        let num = |f: &dyn Fn(&SessionFacts) -> Option<f64>| {
            let (x, y) = (fa.and_then(f), fb.and_then(f));
            // Unknown sorts below every known value.
            x.partial_cmp(&y).unwrap_or(std::cmp::Ordering::Equal)
        };
        let size = |c: u32| self.tree.entry(self.tree.conversations[c as usize].entry).size_bytes;
        match col {
            Column::Title => {
                // Case-folded (already in the page for Markdown's link labels;
                // `str::to_lowercase` would bring its own tables, 8 kB gzip'd).
                let t = |f: Option<&SessionFacts>| f.and_then(|f| f.line.title.clone()).map(unicase::UniCase::new);
                t(fa).cmp(&t(fb))
            }
            Column::Project => self.tree.conversations[a as usize].project.cmp(&self.tree.conversations[b as usize].project),
            Column::Size => size(a).cmp(&size(b)),
            Column::First => num(&|f| f.first_ms.map(|x| x as f64)),
            Column::Last => num(&|f| f.last_ms.map(|x| x as f64)),
            Column::Active => num(&|f| f.active_ms.map(|x| x as f64)),
            Column::Turns => num(&|f| Some(f.line.stats.assistant_messages as f64)),
            Column::Tools => num(&|f| Some(f.line.stats.tool_calls as f64)),
            Column::Failures => num(&|f| Some(f.line.stats.failed_steps as f64)),
            Column::Subagents => num(&|f| Some(f.runs.len() as f64)),
            Column::Compactions => num(&|f| Some(f.line.stats.compactions as f64)),
            Column::Peak => num(&|f| f.has_usage.then_some(f.line.stats.peak_context_tokens as f64)),
            Column::Output => num(&|f| f.has_usage.then_some(f.line.stats.output_tokens as f64)),
        }
    }

    /// The files a search in `scope` reads: each conversation's file and its runs'.
    pub fn search_entries(&self, scope: Scope) -> Vec<u32> {
        let convs: Vec<u32> = match scope {
            Scope::All => (0..self.tree.conversations.len() as u32).collect(),
            Scope::Project(p) => self.tree.projects[p as usize].conversations.clone(),
            Scope::Conversation(c) => vec![c],
        };
        let mut out = Vec::new();
        for c in convs {
            let conv = &self.tree.conversations[c as usize];
            if conv.released.is_some() && !self.list.show_deleted {
                continue;
            }
            out.push(conv.entry);
            out.extend(conv.runs.iter().map(|r| r.jsonl));
        }
        out
    }

    /// The conversation a file belongs to (its own file or one of its runs'),
    /// and the run's agent id when it is a run.
    pub fn owner_of(&self, entry: u32) -> Option<(u32, Option<&str>)> {
        self.tree.conversations.iter().enumerate().find_map(|(k, c)| {
            if c.entry == entry {
                return Some((k as u32, None));
            }
            c.runs.iter().find(|r| r.jsonl == entry).map(|r| (k as u32, Some(r.agent_id.as_str())))
        })
    }
}

/// The session list's keys: `j`/`↓` the next row, `k`/`↑` the one before,
/// from row `at` (the focused one; none: `j` starts at the first row, `k`
/// at the last) of `rows`; `None` for another key or an empty list. Enter
/// on the focused row opens it (it is a link).
pub fn row_step(key: &str, at: Option<usize>, rows: usize) -> Option<usize> {
    let last = rows.checked_sub(1)?;
    match (key, at) {
        ("j" | "ArrowDown", None) => Some(0),
        ("j" | "ArrowDown", Some(k)) => Some((k + 1).min(last)),
        ("k" | "ArrowUp", None) => Some(last),
        ("k" | "ArrowUp", Some(k)) => Some(k.saturating_sub(1).min(last)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_keys_step_through_the_rows_and_stop_at_the_ends() {
        assert_eq!(row_step("j", None, 3), Some(0), "j starts at the first row");
        assert_eq!(row_step("j", Some(0), 3), Some(1));
        assert_eq!(row_step("ArrowDown", Some(2), 3), Some(2), "the last row stays the last");
        assert_eq!(row_step("k", Some(0), 3), Some(0), "the first stays the first");
        assert_eq!(row_step("k", None, 3), Some(2), "k starts at the last row");
        assert_eq!(row_step("ArrowUp", Some(2), 3), Some(1));
        assert_eq!(row_step("x", Some(1), 3), None);
        assert_eq!(row_step("j", None, 0), None, "an empty list");
    }
    use crate::folder::tree::Entry;
    use crate::folder::{SessionLine, Tree};
    use crate::model::Stats;

    fn facts(path: &str, title: &str, last_ms: i64, failed: u64, client: &str) -> Rc<SessionFacts> {
        let stats = Stats { failed_steps: failed, entrypoints: vec![client.into()], tool_calls: last_ms as u64 % 7, ..Stats::default() };
        Rc::new(SessionFacts {
            line: SessionLine { path: path.into(), project: String::new(), title: Some(title.into()), title_source: None, deleted: false, deleted_at: None, legacy_subagents: vec![], stats },
            first_ms: Some(last_ms - 1000),
            last_ms: Some(last_ms),
            active_ms: Some(10),
            models: vec!["claude-x".into()],
            has_usage: true,
            cwd: path.starts_with("-Users-a-my-app/").then(|| "/Users/a/my-app".into()),
            not_a_transcript: None,
            runs: vec![],
            workflows: vec![],
            report: Default::default(),
            messages: vec![],
            files: vec![],
            problems: vec![],
        })
    }

    fn folder() -> Browser {
        let paths = ["-Users-a-my-app/a.jsonl", "-Users-a-my-app/b.jsonl", "-Users-a-my-app/b.desktop-released.json", "-x/c.jsonl", "-x/d.jsonl"];
        let tree = Tree::build(paths.iter().map(|p| Entry { path: p.to_string(), size_bytes: p.len() as u64, modified_ms: None }).collect());
        let mut f = Browser::new("projects", tree, (0..5).map(FileId).collect());
        let slots = Rc::make_mut(&mut f.slots);
        slots[0] = Slot::Ready(facts("-Users-a-my-app/a.jsonl", "Fix the build", 3_000, 2, "claude-desktop"));
        slots[1] = Slot::Ready(facts("-Users-a-my-app/b.jsonl", "Deleted one", 5_000, 0, "claude-vscode"));
        slots[2] = Slot::Ready(facts("-x/c.jsonl", "Audit", 4_000, 0, "claude-vscode"));
        f
    }

    #[test]
    fn addresses_resolve_to_files_and_conversations_have_a_name() {
        use crate::state::address::Target;
        let f = folder();
        assert_eq!(f.entry_of(&Target::Path("-x/c.jsonl".into())), Some(3));
        assert_eq!(f.entry_of(&Target::Entry(4)), Some(4));
        assert_eq!((f.entry_of(&Target::Entry(99)), f.entry_of(&Target::Path("nope".into()))), (None, None));
        assert_eq!(f.file_of(2, None), Some(3));
        assert_eq!(f.file_of(2, Some("zz")), None, "no such run");
        assert_eq!(f.title(0), "Fix the build");
        assert_eq!(f.title(3), "d.jsonl", "not summed up yet: its file's name");
    }

    #[test]
    fn deleted_conversations_are_hidden_and_counted() {
        let mut f = folder();
        assert_eq!(f.deleted_count(), 1);
        assert_eq!(f.rows(), vec![2, 0, 3], "latest first; d.jsonl (not summed up yet) last; b.jsonl hidden");
        f.list.show_deleted = true;
        assert_eq!(f.rows(), vec![1, 2, 0, 3]);
    }

    #[test]
    fn filters_narrow_and_columns_sort() {
        let mut f = folder();
        f.list.text = "BUILD".into();
        assert_eq!(f.rows(), vec![0]);
        f.list.text = "my-app".into();
        assert_eq!(f.rows(), vec![0], "the cwd matches (b.jsonl is deleted)");
        f.list = ListUi { failures_only: true, ..ListUi::default() };
        assert_eq!(f.rows(), vec![0]);
        f.list = ListUi { client: Some("claude-vscode".into()), ..ListUi::default() };
        assert_eq!(f.rows(), vec![2, 3], "d.jsonl is not known yet: it stays");
        f.list = ListUi { project: Some(1), ..ListUi::default() };
        assert_eq!(f.rows(), vec![2, 3]);
        f.list = ListUi { sort: Column::Title, descending: false, ..ListUi::default() };
        assert_eq!(f.rows(), vec![3, 2, 0], "no title sorts first ascending");
        f.list = ListUi { from_ms: Some(3_500), ..ListUi::default() };
        assert_eq!(f.rows(), vec![2, 3]);
        f.list = ListUi { to_ms: Some(2_500), ..ListUi::default() };
        assert_eq!(f.rows(), vec![0, 3]);
        assert_eq!(f.clients_and_models().0, vec!["claude-desktop".to_string(), "claude-vscode".to_string()]);
    }

    #[test]
    fn titles_sort_without_regard_to_case_accented_letters_too() {
        let mut f = folder();
        let titled = |path: &str, title: &str| Slot::Ready(facts(path, title, 4_000, 0, "claude-vscode"));
        f.list = ListUi { sort: Column::Title, descending: false, ..ListUi::default() };
        // Bytes would put "Zebra" first, and "Édith" before "éclair".
        let slots = Rc::make_mut(&mut f.slots);
        slots[0] = titled("-Users-a-my-app/a.jsonl", "Zebra");
        slots[2] = titled("-x/c.jsonl", "apple");
        slots[3] = titled("-x/d.jsonl", "éclair");
        assert_eq!(f.rows(), vec![2, 0, 3]);
        Rc::make_mut(&mut f.slots)[2] = titled("-x/c.jsonl", "Édith's notes");
        assert_eq!(f.rows(), vec![0, 3, 2]);
    }

    #[test]
    fn a_project_whose_files_name_another_directory_is_labelled_by_its_own_name() {
        let mut f = folder();
        let moved = SessionFacts { cwd: Some("/home/user/project".into()), ..(*facts("-x/c.jsonl", "Audit", 4_000, 0, "claude-vscode")).clone() };
        Rc::make_mut(&mut f.slots)[2] = Slot::Ready(Rc::new(moved));
        assert_eq!(f.project_dir(1), "/x", "the cwd names another directory: the name decoded");
        assert_eq!(f.project_cwds(1), vec!["/home/user/project".to_string()], "and the cwd beside it");
        assert_eq!(f.project_cwds(0), vec!["/Users/a/my-app".to_string()]);
    }

    #[test]
    fn the_project_dir_prefers_a_records_cwd() {
        let f = folder();
        assert_eq!(f.project_dir(0), "/Users/a/my-app", "the dash in my-app survives");
        assert_eq!(f.project_dir(1), "/x", "no cwd known: the name decoded");
        assert_eq!(f.project_last_ms(0), Some(5_000));
        assert_eq!(f.search_entries(Scope::Project(0)), vec![0], "the deleted one is not searched while hidden");
        assert_eq!(f.owner_of(3), Some((2, None)));
    }
}
