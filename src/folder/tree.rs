//! A picked folder, from file names and sizes only (nothing is read):
//! which files are conversations, and what lies beside each one.
//!
//! ```text
//!   <project>/<stem>.jsonl                              a conversation (keyed by this path)
//!   <project>/<stem>.desktop-released.json              it was deleted in the desktop app
//!   <project>/<stem>/subagents/**/agent-<id>.jsonl      its subagent runs (workflows/<runId>/ too)
//!   <project>/<stem>/subagents/**/agent-<id>.meta.json  each run's link to its call
//!   <project>/<stem>/subagents/workflows/<runId>/journal.jsonl  a workflow run's journal
//!   <project>/<stem>/workflows/<runId>.json             a workflow run's snapshot (when it ended)
//!   <project>/<stem>/tool-results/<tool_use_id>.txt     outputs too large to inline
//!   <project>/agent-<id>.jsonl                          a legacy (2.0.x) subagent run
//!   <project>/memory/*                                  what the agent keeps about its user
//! ```
//!
//! Paths are `/`-separated and relative to the picked folder. Anything else
//! is skipped and counted (a picked home directory holds thousands of such
//! files). A project is the directory holding a conversation; files picked
//! one by one have none (`project` is "").
//!
//! A Claude home (`~/.claude`, picked itself or inside a bigger pick) is a
//! directory holding `projects/<project>/<file>.jsonl`. Inside one only its
//! documented layout counts — `projects/`, `file-history/<sessionId>/`
//! (read only when a file's versions are stepped through), `plans/*.md`
//! (read only when a plan is opened), and `todos/` (not read) — so its
//! `history.jsonl` (every prompt typed, in any project), `.credentials.json`
//! and settings are skipped unread, never taken for conversations.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// One file of the pick, as the browser or the disk lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub path: String,
    pub size_bytes: u64,
    /// Last modified, when known.
    pub modified_ms: Option<i64>,
}

/// A subagent run's files.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunFiles {
    pub agent_id: String,
    /// Index into [`Tree::entries`] of `agent-<id>.jsonl`.
    pub jsonl: u32,
    /// Of `agent-<id>.meta.json`, beside it.
    pub meta: Option<u32>,
    /// The workflow run it is an agent of (`subagents/workflows/<runId>/`).
    pub workflow: Option<String>,
}

/// A workflow run's own files (its agents are among [`Conversation::runs`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkflowFiles {
    pub run_id: String,
    /// `subagents/workflows/<runId>/journal.jsonl`, by entry.
    pub journal: Option<u32>,
    /// `workflows/<runId>.json`, by entry.
    pub snapshot: Option<u32>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Conversation {
    /// Its path: the key of a conversation (never its `sessionId`).
    pub path: String,
    /// Index into [`Tree::projects`].
    pub project: u32,
    pub entry: u32,
    /// `<stem>.desktop-released.json`, when there is one.
    pub released: Option<u32>,
    /// Sorted by agent id.
    pub runs: Vec<RunFiles>,
    /// `(tool_use_id, entry)`, sorted by id.
    pub tool_results: Vec<(String, u32)>,
    /// Sorted by run id.
    pub workflows: Vec<WorkflowFiles>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Project {
    /// The directory's path ("" for files picked one by one).
    pub path: String,
    /// Its name: the working directory with `/` made `-`.
    pub name: String,
    /// Indices into [`Tree::conversations`].
    pub conversations: Vec<u32>,
    /// Files in `memory/`, by entry, sorted by path.
    pub memory: Vec<u32>,
    /// Legacy root-level `agent-<id>.jsonl` files: (agent id, entry).
    pub legacy_runs: Vec<(String, u32)>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tree {
    pub entries: Vec<Entry>,
    /// Sorted by path.
    pub projects: Vec<Project>,
    /// Sorted by path.
    pub conversations: Vec<Conversation>,
    /// Entries that are none of the above.
    pub skipped: u32,
    /// A Claude home's `file-history/<sessionId>/<hash>@v<n>` backups,
    /// sorted by (home, session, name): read only when the person steps
    /// through a file's versions.
    #[serde(default)]
    pub backups: Vec<Backup>,
    /// A Claude home's `plans/<name>.md` files, sorted by (home, name):
    /// read only when the person opens one.
    #[serde(default)]
    pub plans: Vec<PlanFile>,
}

/// A plan file of a Claude home (`plans/<name>.md`), as plan mode writes it.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct PlanFile {
    pub home: String,
    pub name: String,
    pub entry: u32,
}

/// One file-history backup: a tracked file's text at one checkpoint.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Backup {
    /// The home's path prefix (as the conversations under its `projects/` start).
    pub home: String,
    pub session_id: String,
    /// `<hash>@v<n>`, as a snapshot record's `backupFileName` names it.
    pub name: String,
    pub entry: u32,
}

/// `agent-<id>.jsonl` → `<id>`.
pub fn agent_id(name: &str) -> Option<&str> {
    name.strip_prefix("agent-")?.strip_suffix(".jsonl").filter(|id| !id.is_empty())
}

/// What one entry is, by its path alone.
#[derive(Debug, PartialEq, Eq)]
enum Role<'a> {
    Conversation { dir: &'a str },
    Released { conversation: String },
    Run { conversation: String, agent_id: &'a str, workflow: Option<&'a str> },
    Journal { conversation: String, run_id: &'a str },
    Snapshot { conversation: String, run_id: &'a str },
    Meta { conversation: String, agent_id: &'a str },
    ToolResult { conversation: String, id: &'a str },
    Legacy { dir: &'a str, agent_id: &'a str },
    Memory { dir: &'a str },
    Other,
}

fn split_last(path: &str) -> (&str, &str) {
    path.rsplit_once('/').unwrap_or(("", path))
}

fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_string()
    } else {
        format!("{dir}/{name}")
    }
}

fn role(path: &str) -> Role<'_> {
    let (dir, name) = split_last(path);
    // Inside a conversation's `subagents/` (at any depth below it).
    // (A `subagents/` at the top belongs to no conversation.)
    if path.starts_with("subagents/") {
        return Role::Other;
    }
    if let Some(at) = path.find("/subagents/") {
        let conversation = format!("{}.jsonl", &path[..at]);
        // `subagents/workflows/<runId>/…`: a workflow run's files.
        let workflow = dir[at + "/subagents".len()..].strip_prefix("/workflows/").filter(|r| !r.is_empty() && !r.contains('/'));
        if let Some(id) = agent_id(name) {
            return Role::Run { conversation, agent_id: id, workflow };
        }
        if let (Some(run_id), "journal.jsonl") = (workflow, name) {
            return Role::Journal { conversation, run_id };
        }
        if let Some(id) = name.strip_prefix("agent-").and_then(|n| n.strip_suffix(".meta.json")).filter(|i| !i.is_empty()) {
            return Role::Meta { conversation, agent_id: id };
        }
        return Role::Other;
    }
    let (parent, last_dir) = split_last(dir);
    if last_dir == "workflows" && !dir.is_empty() {
        if let Some(run_id) = name.strip_suffix(".json").filter(|r| !r.is_empty()) {
            return Role::Snapshot { conversation: format!("{parent}.jsonl"), run_id };
        }
    }
    if last_dir == "tool-results" && !dir.is_empty() {
        if let Some(id) = name.strip_suffix(".txt") {
            return Role::ToolResult { conversation: format!("{parent}.jsonl"), id };
        }
    }
    if last_dir == "memory" && !dir.is_empty() {
        return Role::Memory { dir: parent };
    }
    if let Some(stem) = name.strip_suffix(".desktop-released.json") {
        return Role::Released { conversation: join(dir, &format!("{stem}.jsonl")) };
    }
    if let Some(id) = agent_id(name) {
        return Role::Legacy { dir, agent_id: id };
    }
    if name.ends_with(".jsonl") {
        return Role::Conversation { dir };
    }
    Role::Other
}

/// The Claude homes among `entries`: each as the path prefix of the
/// directory that holds `projects/` ("" for the pick's top, else ending in
/// `/`).
fn homes(entries: &[Entry]) -> Vec<&str> {
    let mut out: Vec<&str> = entries
        .iter()
        .filter_map(|e| {
            let at = e.path.match_indices("projects/").map(|(k, _)| k).find(|&k| k == 0 || e.path.as_bytes()[k - 1] == b'/')?;
            let rest = &e.path[at + "projects/".len()..];
            (rest.contains('/') && rest.ends_with(".jsonl")).then(|| &e.path[..at])
        })
        .collect();
    crate::sort::by(&mut out, Ord::cmp);
    out.dedup();
    out
}

/// `<home>file-history/<sessionId>/<name>` in a Claude home.
fn backup(path: &str, homes: &[&str], entry: u32) -> Option<Backup> {
    homes.iter().find_map(|h| {
        let rest = path.strip_prefix(h)?.strip_prefix("file-history/")?;
        let (session, name) = rest.split_once('/')?;
        (!session.is_empty() && !name.is_empty() && !name.contains('/'))
            .then(|| Backup { home: h.to_string(), session_id: session.to_string(), name: name.to_string(), entry })
    })
}

/// `<home>plans/<name>.md` in a Claude home.
fn plan_file(path: &str, homes: &[&str], entry: u32) -> Option<PlanFile> {
    homes.iter().find_map(|h| {
        let name = path.strip_prefix(h)?.strip_prefix("plans/")?;
        (name.ends_with(".md") && !name.contains('/')).then(|| PlanFile { home: h.to_string(), name: name.to_string(), entry })
    })
}

/// Whether `path` lies in a Claude home but outside its `projects/`.
fn outside_layout(path: &str, homes: &[&str]) -> bool {
    homes.iter().any(|h| path.strip_prefix(h).is_some_and(|rest| !rest.starts_with("projects/")))
}

impl Tree {
    /// Sorts out `entries` (in any order; their order is kept as their numbers).
    pub fn build(entries: Vec<Entry>) -> Tree {
        let homes = homes(&entries);
        let mut projects: BTreeMap<&str, Project> = BTreeMap::new();
        let mut conversations: BTreeMap<String, Conversation> = BTreeMap::new();
        let mut later = Vec::new();
        let mut skipped = 0;
        let mut backups = Vec::new();
        let mut plans = Vec::new();
        for (k, e) in entries.iter().enumerate() {
            if let Some(b) = backup(&e.path, &homes, k as u32) {
                backups.push(b);
                continue;
            }
            if let Some(p) = plan_file(&e.path, &homes, k as u32) {
                plans.push(p);
                continue;
            }
            if outside_layout(&e.path, &homes) {
                skipped += 1;
                continue;
            }
            match role(&e.path) {
                Role::Conversation { dir } => {
                    projects.entry(dir).or_insert_with(|| new_project(dir));
                    conversations.insert(e.path.clone(), Conversation { path: e.path.clone(), entry: k as u32, ..Conversation::default() });
                }
                Role::Legacy { dir, agent_id } => {
                    projects.entry(dir).or_insert_with(|| new_project(dir)).legacy_runs.push((agent_id.to_string(), k as u32));
                }
                Role::Memory { dir } => projects.entry(dir).or_insert_with(|| new_project(dir)).memory.push(k as u32),
                Role::Other => skipped += 1,
                _ => later.push(k),
            }
        }
        // Sidecars, once their conversations are known.
        let mut metas: Vec<(String, String, u32)> = Vec::new();
        for k in later {
            let attached = match role(&entries[k].path) {
                Role::Released { conversation } => conversations.get_mut(&conversation).map(|c| c.released = Some(k as u32)).is_some(),
                Role::Run { conversation, agent_id, workflow } => conversations
                    .get_mut(&conversation)
                    .map(|c| c.runs.push(RunFiles { agent_id: agent_id.to_string(), jsonl: k as u32, meta: None, workflow: workflow.map(str::to_string) }))
                    .is_some(),
                Role::Journal { conversation, run_id } => conversations.get_mut(&conversation).map(|c| workflow_files(c, run_id).journal = Some(k as u32)).is_some(),
                Role::Snapshot { conversation, run_id } => conversations.get_mut(&conversation).map(|c| workflow_files(c, run_id).snapshot = Some(k as u32)).is_some(),
                Role::Meta { conversation, agent_id } => {
                    metas.push((conversation, agent_id.to_string(), k as u32));
                    true
                }
                Role::ToolResult { conversation, id } => {
                    conversations.get_mut(&conversation).map(|c| c.tool_results.push((id.to_string(), k as u32))).is_some()
                }
                _ => false,
            };
            skipped += u32::from(!attached);
        }
        for (conversation, agent_id, k) in metas {
            // The meta beside its run (same directory); a lone meta is skipped.
            let (dir, _) = split_last(&entries[k as usize].path);
            let run = conversations.get_mut(&conversation).and_then(|c| {
                c.runs.iter_mut().find(|r| r.agent_id == agent_id && split_last(&entries[r.jsonl as usize].path).0 == dir)
            });
            match run {
                Some(r) => r.meta = Some(k),
                None => skipped += 1,
            }
        }
        let mut projects: Vec<Project> = projects.into_values().collect();
        let mut conversations: Vec<Conversation> = conversations.into_values().collect();
        for p in &mut projects {
            crate::sort::by(&mut p.memory, |a, b| entries[*a as usize].path.cmp(&entries[*b as usize].path));
            crate::sort::by(&mut p.legacy_runs, Ord::cmp);
        }
        for (k, c) in conversations.iter_mut().enumerate() {
            let dir = split_last(&c.path).0;
            let p = projects.binary_search_by(|p| p.path.as_str().cmp(dir)).unwrap_or_default();
            c.project = p as u32;
            projects[p].conversations.push(k as u32);
            crate::sort::by(&mut c.runs, |a, b| a.agent_id.cmp(&b.agent_id).then(a.jsonl.cmp(&b.jsonl)));
            crate::sort::by(&mut c.tool_results, Ord::cmp);
            // A run with agents but neither journal nor snapshot picked is still a run.
            for r in &c.runs {
                if let Some(id) = &r.workflow {
                    if !c.workflows.iter().any(|w| &w.run_id == id) {
                        c.workflows.push(WorkflowFiles { run_id: id.clone(), ..WorkflowFiles::default() });
                    }
                }
            }
            crate::sort::by(&mut c.workflows, |a, b| a.run_id.cmp(&b.run_id));
        }
        crate::sort::by(&mut backups, Ord::cmp);
        crate::sort::by(&mut plans, Ord::cmp);
        Tree { entries, projects, conversations, skipped, backups, plans }
    }

    /// The plan file `name` (`<slug>.md`) of the home conversation `c` lies in.
    pub fn plan(&self, c: u32, name: &str) -> Option<u32> {
        let path = &self.conversations.get(c as usize)?.path;
        self.plans.iter().find(|p| p.name == name && path.strip_prefix(p.home.as_str()).is_some_and(|r| r.starts_with("projects/"))).map(|p| p.entry)
    }

    /// The backup `name` of session `session_id`, in the home conversation
    /// `c` lies in.
    pub fn backup(&self, c: u32, session_id: &str, name: &str) -> Option<u32> {
        let path = &self.conversations.get(c as usize)?.path;
        self.backups
            .iter()
            .find(|b| b.session_id == session_id && b.name == name && path.strip_prefix(b.home.as_str()).is_some_and(|r| r.starts_with("projects/")))
            .map(|b| b.entry)
    }

    /// Whether any backup of session `session_id` was picked beside
    /// conversation `c`.
    pub fn has_backups(&self, c: u32, session_id: &str) -> bool {
        let Some(conv) = self.conversations.get(c as usize) else { return false };
        self.backups.iter().any(|b| b.session_id == session_id && conv.path.strip_prefix(b.home.as_str()).is_some_and(|r| r.starts_with("projects/")))
    }

    pub fn entry(&self, k: u32) -> &Entry {
        &self.entries[k as usize]
    }

    /// The conversation at `path`.
    pub fn find(&self, path: &str) -> Option<u32> {
        self.conversations.binary_search_by(|c| c.path.as_str().cmp(path)).ok().map(|k| k as u32)
    }

    /// The file holding `tool_use_id`'s full output, if it was picked.
    pub fn tool_result(&self, conversation: u32, tool_use_id: &str) -> Option<u32> {
        let c = &self.conversations[conversation as usize];
        c.tool_results.binary_search_by(|(id, _)| id.as_str().cmp(tool_use_id)).ok().map(|k| c.tool_results[k].1)
    }
}

impl Tree {
    /// The entries conversation `c`'s facts are read from: its file, its
    /// deletion marker, its runs and their metas, its project's legacy runs.
    fn inputs_of(&self, c: u32) -> Vec<&Entry> {
        let conv = &self.conversations[c as usize];
        let legacy = self.projects.get(conv.project as usize).map_or(&[][..], |p| &p.legacy_runs[..]);
        std::iter::once(conv.entry)
            .chain(conv.released)
            .chain(conv.runs.iter().flat_map(|r| std::iter::once(r.jsonl).chain(r.meta)))
            .chain(conv.workflows.iter().flat_map(|w| w.journal.into_iter().chain(w.snapshot)))
            .chain(legacy.iter().map(|(_, e)| *e))
            .map(|e| self.entry(e))
            .collect()
    }

    /// For each conversation of `self` (the folder listed again), its
    /// number in `before`, if it was there with the same inputs (same
    /// paths, sizes and dates: its facts still hold). The others are new or
    /// changed and are summed again.
    pub fn unchanged_since(&self, before: &Tree) -> Vec<Option<u32>> {
        (0..self.conversations.len() as u32)
            .map(|c| {
                let old = before.conversations.binary_search_by(|o| o.path.as_str().cmp(&self.conversations[c as usize].path)).ok()? as u32;
                (before.inputs_of(old) == self.inputs_of(c)).then_some(old)
            })
            .collect()
    }
}

/// Conversation `c`'s workflow run `run_id`, made when first named.
fn workflow_files<'c>(c: &'c mut Conversation, run_id: &str) -> &'c mut WorkflowFiles {
    let k = match c.workflows.iter().position(|w| w.run_id == run_id) {
        Some(k) => k,
        None => {
            c.workflows.push(WorkflowFiles { run_id: run_id.to_string(), ..WorkflowFiles::default() });
            c.workflows.len() - 1
        }
    };
    &mut c.workflows[k]
}

fn new_project(dir: &str) -> Project {
    Project { path: dir.to_string(), name: split_last(dir).1.to_string(), ..Project::default() }
}

/// A project directory's name read back as the working directory it
/// encodes (`-Users-you-code-app` → `/Users/you/code/app`). Ambiguous:
/// a dash in a real path reads as a `/` (prefer a record's `cwd`).
pub fn decode_project_name(name: &str) -> String {
    if name.starts_with('-') {
        name.replace('-', "/")
    } else {
        name.to_string()
    }
}

/// The project directory name Claude Code gives working directory `cwd`:
/// each character other than a letter, a digit, `-` or `_` made `-`
/// (`/Users/you/my.app` → `-Users-you-my-app`; the format notes name `/`,
/// real trees show `.` too, and keep `_`).
pub fn dir_name_of(cwd: &str) -> String {
    cwd.chars().map(|c| if c.is_alphanumeric() || c == '-' || c == '_' { c } else { '-' }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cwd_gives_its_project_directory_name() {
        assert_eq!(dir_name_of("/Users/dain/workspace/danieldemmel.me-next"), "-Users-dain-workspace-danieldemmel-me-next");
        assert_eq!(dir_name_of("/src/experiments/claude_p"), "-src-experiments-claude_p");
        assert_eq!(dir_name_of("/home/user/project"), "-home-user-project");
    }

    fn tree(paths: &[&str]) -> Tree {
        Tree::build(paths.iter().map(|p| Entry { path: p.to_string(), size_bytes: 1, modified_ms: None }).collect())
    }

    #[test]
    fn a_projects_folder_sorts_out() {
        let t = tree(&[
            "-Users-a-app/s2.jsonl",
            "-Users-a-app/s1.jsonl",
            "-Users-a-app/s1.desktop-released.json",
            "-Users-a-app/s1/subagents/agent-b.jsonl",
            "-Users-a-app/s1/subagents/agent-b.meta.json",
            "-Users-a-app/s1/subagents/workflows/run7/agent-a.jsonl",
            "-Users-a-app/s1/subagents/workflows/run7/agent-a.meta.json",
            "-Users-a-app/s1/tool-results/toolu_2.txt",
            "-Users-a-app/s1/tool-results/toolu_1.txt",
            "-Users-a-app/agent-old1.jsonl",
            "-Users-a-app/memory/MEMORY.md",
            "-Users-a-app/s3/subagents/agent-x.jsonl",
            "-Users-a-app/notes.txt",
            "other/p.jsonl",
        ]);
        assert_eq!(t.projects.iter().map(|p| p.path.as_str()).collect::<Vec<_>>(), ["-Users-a-app", "other"]);
        assert_eq!(t.conversations.iter().map(|c| c.path.as_str()).collect::<Vec<_>>(), ["-Users-a-app/s1.jsonl", "-Users-a-app/s2.jsonl", "other/p.jsonl"]);
        let s1 = &t.conversations[0];
        assert_eq!(s1.released, Some(2));
        assert_eq!(
            s1.runs,
            vec![
                RunFiles { agent_id: "a".into(), jsonl: 5, meta: Some(6), workflow: Some("run7".into()) },
                RunFiles { agent_id: "b".into(), jsonl: 3, meta: Some(4), workflow: None }
            ]
        );
        assert_eq!(s1.tool_results, vec![("toolu_1".into(), 8), ("toolu_2".into(), 7)]);
        assert_eq!(t.tool_result(0, "toolu_2"), Some(7));
        let p = &t.projects[0];
        assert_eq!((p.name.as_str(), p.conversations.clone(), p.memory.clone()), ("-Users-a-app", vec![0, 1], vec![10]));
        assert_eq!(p.legacy_runs, vec![("old1".to_string(), 9)]);
        // notes.txt, and the run of s3 (no s3.jsonl was picked).
        assert_eq!(t.skipped, 2);
        assert_eq!(t.find("other/p.jsonl"), Some(2));
        assert_eq!(decode_project_name(&p.name), "/Users/a/app");
    }

    #[test]
    fn a_workflow_runs_journal_and_snapshot_sit_beside_its_agents() {
        let t = tree(&[
            "p/s.jsonl",
            "p/s/subagents/workflows/wf1/journal.jsonl",
            "p/s/subagents/workflows/wf1/agent-a1.jsonl",
            "p/s/workflows/wf1.json",
            "p/s/workflows/wf_fail.json",
            "p/s/workflows/scripts/sweep-wf1.js",
            "p/s/subagents/workflows/wf2/agent-b1.jsonl",
        ]);
        let s = &t.conversations[0];
        assert_eq!(
            s.workflows,
            [
                WorkflowFiles { run_id: "wf1".into(), journal: Some(1), snapshot: Some(3) },
                WorkflowFiles { run_id: "wf2".into(), journal: None, snapshot: None },
                WorkflowFiles { run_id: "wf_fail".into(), journal: None, snapshot: Some(4) },
            ],
            "a snapshot alone (failed before any agent), agents alone (nothing else picked)"
        );
        assert_eq!(s.runs.iter().map(|r| (r.agent_id.as_str(), r.workflow.as_deref())).collect::<Vec<_>>(), [("a1", Some("wf1")), ("b1", Some("wf2"))]);
        assert_eq!(t.skipped, 1, "the script file is not read");
    }

    #[test]
    fn files_picked_one_by_one_have_no_project_dir() {
        let t = tree(&["a.jsonl", "agent-1.jsonl", "b.json"]);
        assert_eq!(t.conversations.len(), 1);
        assert_eq!(t.projects[0].path, "");
        assert_eq!(t.projects[0].legacy_runs.len(), 1);
        assert_eq!(t.skipped, 1);
    }

    #[test]
    fn a_folder_listed_again_names_what_changed() {
        let e = |p: &str, size: u64| Entry { path: p.into(), size_bytes: size, modified_ms: Some(1) };
        let before = Tree::build(vec![e("p/a.jsonl", 10), e("p/b.jsonl", 10), e("p/c.jsonl", 10)]);
        let after = Tree::build(vec![
            e("p/a.jsonl", 10),
            e("p/aa.jsonl", 5),
            e("p/b.jsonl", 12),
            e("p/c.jsonl", 10),
            e("p/c/subagents/agent-x.jsonl", 3),
        ]);
        // a: the same; aa: new; b: grew; c: a run appeared.
        assert_eq!(after.unchanged_since(&before), [Some(0), None, None, None]);
        assert_eq!(before.unchanged_since(&before), [Some(0), Some(1), Some(2)]);
    }

    #[test]
    fn odd_names_are_kept_as_they_are() {
        let t = tree(&["proj dir/é 😀 chat.jsonl", "proj dir/é 😀 chat/tool-results/x y.txt", &format!("p/{}.jsonl", "n".repeat(300))]);
        assert_eq!(t.conversations.len(), 2);
        let c = t.find("proj dir/é 😀 chat.jsonl").unwrap();
        assert_eq!(t.tool_result(c, "x y"), Some(1));
        assert_eq!(t.skipped, 0);
    }
}
