//! The native side of the CLI: reading a transcript and the subagent runs
//! beside it from disk. The same indexer and model run in the browser.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::index::{Index, Indexer, CHUNK_BYTES};
use crate::model::subagents::{self, SubagentRun};


#[derive(Debug, thiserror::Error)]
pub enum DiskError {
    #[error("{path}: {source}")]
    Read { path: PathBuf, source: std::io::Error },
}

/// Indexes a file in chunks (never holding it whole).
pub fn index_file(path: &Path) -> Result<Index, DiskError> {
    let err = |source| DiskError::Read { path: path.to_path_buf(), source };
    let mut f = File::open(path).map_err(err)?;
    let mut ix = Indexer::new();
    let mut buf = vec![0u8; CHUNK_BYTES];
    loop {
        let n = f.read(&mut buf).map_err(err)?;
        if n == 0 {
            break;
        }
        ix.push(&buf[..n]);
    }
    Ok(ix.finish())
}

/// Bytes `[start, end)` of a file (fewer if it ended sooner).
pub fn read_range(path: &Path, start: u64, end: u64) -> Result<Vec<u8>, DiskError> {
    use std::io::{Seek, SeekFrom};
    let err = |source| DiskError::Read { path: path.to_path_buf(), source };
    let mut f = File::open(path).map_err(err)?;
    f.seek(SeekFrom::Start(start)).map_err(err)?;
    let mut buf = Vec::new();
    f.take(end.saturating_sub(start)).read_to_end(&mut buf).map_err(err)?;
    Ok(buf)
}

/// The files a transcript's edit calls changed ([`crate::model::changes`]),
/// reading back only the calls' and results' lines.
pub fn files_changed(path: &Path, ix: &Index) -> Result<Vec<crate::model::changes::FileChanges>, DiskError> {
    let mut failed = None;
    let files = crate::model::changes::read_back(ix, &crate::model::conversation::tool_calls(ix), |r| {
        let row = &ix.rows[r as usize];
        match read_range(path, row.offset, row.end_offset()) {
            Ok(bytes) => crate::model::body::Body::parse(&bytes),
            Err(e) => {
                failed.get_or_insert(e);
                None
            }
        }
    });
    failed.map_or(Ok(files), Err)
}

/// The first bytes of a file (what a verdict looks at); none when unreadable.
pub fn head(path: &Path) -> Vec<u8> {
    let mut buf = vec![0u8; 4096];
    let n = File::open(path).and_then(|mut f| f.read(&mut buf)).unwrap_or(0);
    buf.truncate(n);
    buf
}

/// `<dir>/<stem>/subagents/**/agent-<id>.jsonl` for the transcript `path`,
/// each read into a [`SubagentRun`] (workflow runs' agents are not: they sit
/// under their run, see [`agents`]). A run that cannot be read is skipped
/// with a warning on stderr.
pub fn subagent_runs(path: &Path) -> Vec<SubagentRun> {
    subagent_files(path)
        .into_iter()
        .filter_map(|(agent_id, p)| {
            let ix = index_file(&p).map_err(|e| eprintln!("warning: {e}")).ok()?;
            let meta = read_meta(&p.with_file_name(format!("agent-{agent_id}.meta.json")));
            Some(SubagentRun { span_ms: subagents::span_of(&ix), meta_tool_use_id: meta.and_then(Result::ok).and_then(|m| m.tool_use_id), agent_id })
        })
        .collect()
}

/// The agent graph of the transcript `path` and the runs beside it
/// (`<stem>/subagents/**`, workflow runs' journals and snapshots), each
/// file named relative to `base`. A run that cannot be read is skipped
/// with a warning on stderr.
pub fn agents(path: &Path, base: &Path) -> Result<crate::model::agents::Agents, DiskError> {
    use crate::model::agents::{spawn_kind, Agents, Beside, RunInput, WorkflowInput};
    let main = index_file(path)?;
    // The conversation's own files, sorted out as a folder's are.
    let none = |main: &Index| Agents::of(&relative(path, base), main, &[], &[], &Beside::default());
    let (Some(dir), Some(stem), Some(name)) = (path.parent(), path.file_stem(), path.file_name()) else { return Ok(none(&main)) };
    let stem = stem.to_string_lossy();
    let mut entries = vec![crate::folder::Entry { path: name.to_string_lossy().into_owned(), size_bytes: 0, modified_ms: None }];
    let beside = dir.join(&*stem);
    entries.extend(if beside.is_dir() { walk(&beside) } else { Vec::new() }.into_iter().map(|e| crate::folder::Entry { path: format!("{stem}/{}", e.path), ..e }));
    let folder = OnDisk { root: dir.to_path_buf(), tree: crate::folder::Tree::build(entries), opened: Default::default() };
    let Some(c) = folder.tree.conversations.first() else { return Ok(none(&main)) };
    let read: Vec<(&crate::folder::RunFiles, Index, Option<String>)> = c
        .runs
        .iter()
        .filter_map(|r| {
            let ix = index_file(&folder.path_of(r.jsonl)).map_err(|e| eprintln!("warning: {e}")).ok()?;
            let meta = r.meta.and_then(|m| read_meta(&folder.path_of(m))).and_then(Result::ok).and_then(|m| m.tool_use_id);
            Some((r, ix, meta))
        })
        .collect();
    let runs: Vec<RunInput> = read
        .iter()
        .map(|(r, ix, meta)| RunInput { agent_id: &r.agent_id, ix, meta_tool_use_id: meta.as_deref(), span_ms: subagents::span_of(ix), workflow: r.workflow.as_deref() })
        .collect();
    let files: Vec<String> = read.iter().map(|(r, ..)| relative(&folder.path_of(r.jsonl), base)).collect();
    let mut problems = Vec::new();
    let placed = crate::folder::summary::place_workflows(&folder.tree, c, &main, &mut DiskReader { folder: &folder }, &mut problems);
    for p in problems {
        eprintln!("warning: {p}");
    }
    let workflows: Vec<WorkflowInput> = placed
        .iter()
        .map(|w| WorkflowInput {
            workflow: &w.workflow,
            call: w.call.as_ref().map(|(id, link)| (id.as_str(), *link)),
            file: w.files.snapshot.or(w.files.journal).map(|e| relative(&folder.path_of(e), base)).unwrap_or_default(),
        })
        .collect();
    // `agentId:` lines in Agent calls' results: read only when a run has no
    // meta to say where it was spawned.
    let files_read: Vec<(u32, &Index)> = std::iter::once((c.entry, &main)).chain(read.iter().map(|(r, ix, _)| (r.jsonl, ix))).collect();
    let named = if runs.iter().any(|r| r.meta_tool_use_id.is_none() && r.workflow.is_none()) {
        let answers = files_read.iter().flat_map(|&(entry, ix)| subagents::agent_answers(ix).into_iter().map(move |(call, start, end)| (entry, call, start, end)));
        crate::folder::summary::names_in(answers, &mut DiskReader { folder: &folder })
    } else {
        Vec::new()
    };
    // What each Agent call spawned (a background task, a teammate), from its input.
    let mut spawns: Vec<(String, &'static str)> = Vec::new();
    for &(entry, ix) in &files_read {
        for u in ix.tool_uses.iter().filter(|u| crate::model::is_agent_tool(ix.str(u.name)) && u.id.is_some()) {
            let r = &ix.rows[u.row as usize];
            let Some(body) = read_range(&folder.path_of(entry), r.offset, r.end_offset()).ok().and_then(|b| crate::model::body::Body::parse(&b)) else { continue };
            let input = body.blocks().iter().find(|b| b.id.as_deref() == Some(ix.str(u.id))).and_then(|b| b.input.as_ref());
            let kind = input.map_or("subagent", spawn_kind);
            if kind != "subagent" {
                spawns.push((ix.str(u.id).to_string(), kind));
            }
        }
    }
    let named: Vec<(&str, &str)> = named.iter().map(|(c, a)| (c.as_str(), a.as_str())).collect();
    let spawns: Vec<(&str, &'static str)> = spawns.iter().map(|(c, k)| (c.as_str(), *k)).collect();
    Ok(Agents::of(&relative(path, base), &main, &runs, &files, &Beside { workflows: &workflows, named: &named, spawns: &spawns }))
}

/// `path` below `base`, `/`-separated (as given when it is not below it).
fn relative(path: &Path, base: &Path) -> String {
    let rel = path.strip_prefix(base).unwrap_or(path);
    rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/")
}

/// A run's meta file, if there is one; one that is not a JSON object is
/// named on stderr (the run is then placed without it).
fn read_meta(path: &Path) -> Option<Result<crate::folder::Meta, crate::folder::SidecarError>> {
    let bytes = std::fs::read(path).ok()?;
    let meta = crate::folder::Meta::parse(&bytes);
    if let Err(e) = &meta {
        eprintln!("warning: {}: {e}; the run is placed without it", path.display());
    }
    Some(meta)
}

/// `(agent id, path)` of every `<dir>/<stem>/subagents/**/agent-<id>.jsonl`
/// beside the transcript `path` but those of workflow runs, sorted.
pub fn subagent_files(path: &Path) -> Vec<(String, PathBuf)> {
    let (Some(dir), Some(stem)) = (path.parent(), path.file_stem()) else { return Vec::new() };
    let mut files = Vec::new();
    let root = dir.join(stem).join("subagents");
    // Workflow runs' agents (`subagents/workflows/<runId>/`) are not subagents of a call.
    let workflows = root.join("workflows");
    let mut stack = vec![root];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else { continue };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                if p != workflows {
                    stack.push(p);
                }
            } else if let Some(id) = p.file_name().and_then(|n| n.to_str()).and_then(crate::folder::tree::agent_id).map(str::to_string) {
                files.push((id, p));
            }
        }
    }
    files.sort();
    files
}

/// Every file under `dir`, paths relative to it and `/`-separated, sorted.
/// Unreadable directories are skipped with a warning on stderr.
pub fn walk(dir: &Path) -> Vec<crate::folder::Entry> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let rd = match std::fs::read_dir(&d) {
            Ok(rd) => rd,
            Err(e) => {
                eprintln!("warning: {}: {e}", d.display());
                continue;
            }
        };
        for e in rd.flatten() {
            let p = e.path();
            let Ok(meta) = e.metadata() else { continue };
            if meta.is_dir() {
                stack.push(p);
            } else if let Ok(rel) = p.strip_prefix(dir) {
                let path = rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
                let modified_ms = meta.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map(|d| d.as_millis() as i64);
                out.push(crate::folder::Entry { path, size_bytes: meta.len(), modified_ms });
            }
        }
    }
    crate::sort::by(&mut out, |a, b| a.path.cmp(&b.path));
    out
}

/// A folder's files read from disk, by entry number.
pub struct OnDisk {
    pub root: PathBuf,
    pub tree: crate::folder::Tree,
    /// Every entry opened so far, by path, with how many times: what tests
    /// hold against the files ccscope must never read.
    pub opened: std::cell::RefCell<std::collections::BTreeMap<String, u64>>,
}

impl OnDisk {
    pub fn open(root: &Path) -> OnDisk {
        OnDisk { root: root.to_path_buf(), tree: crate::folder::Tree::build(walk(root)), opened: Default::default() }
    }

    /// Where entry `entry` is on disk; every read of an entry asks here
    /// (and is counted in [`OnDisk::opened`]).
    pub fn path_of(&self, entry: u32) -> PathBuf {
        let path = &self.tree.entry(entry).path;
        *self.opened.borrow_mut().entry(path.clone()).or_default() += 1;
        self.root.join(path)
    }

    fn head(&self, entry: u32) -> Vec<u8> {
        head(&self.path_of(entry))
    }

    /// A run from its file and `.meta.json`; `None` (with a warning) if unreadable.
    fn run(&self, agent_id: &str, jsonl: u32, meta: Option<u32>) -> Option<crate::folder::Run> {
        let ix = index_file(&self.path_of(jsonl)).map_err(|e| eprintln!("warning: {e}")).ok()?;
        let meta = meta.and_then(|m| read_meta(&self.path_of(m)));
        Some(crate::folder::Run::from_index(agent_id, jsonl, &ix, &self.head(jsonl), meta))
    }

    /// Every conversation summed up, in path order; an unreadable one is
    /// named on stderr and left out.
    pub fn summaries(&self, idle_gap_secs: u64) -> Vec<crate::folder::SessionFacts> {
        let t = &self.tree;
        let mut io = DiskReader { folder: self };
        // The survey plan in path order; each project's legacy runs read once.
        let mut legacy: std::collections::HashMap<u32, Vec<crate::folder::Run>> = Default::default();
        let order: Vec<u32> = (0..t.conversations.len() as u32).collect();
        crate::folder::survey::plans(t, &order)
            .into_iter()
            .filter_map(|plan| {
                let c = &t.conversations[plan.conv as usize];
                let ix = index_file(&self.path_of(plan.entry)).map_err(|e| eprintln!("warning: {e}")).ok()?;
                let project_runs = legacy.entry(plan.project).or_insert_with(|| plan.legacy.iter().filter_map(|(id, e)| self.run(id, *e, None)).collect());
                let runs = plan.runs.iter().filter_map(|r| self.run(&r.agent_id, r.jsonl, r.meta)).collect();
                let head = self.head(plan.entry);
                let parts = crate::folder::Parts { ix: &ix, head: &head, runs, legacy: project_runs, idle_gap_secs };
                let facts = crate::folder::summarize(t, c, parts, &mut io);
                for p in &facts.problems {
                    eprintln!("warning: {p}");
                }
                for l in &facts.runs {
                    if let Some(d @ crate::folder::Doubt::MissingCall { .. } | d @ crate::folder::Doubt::SharedCall { .. }) = &l.doubt {
                        eprintln!("warning: {}: agent-{}: {}", c.path, l.run.agent_id, d.describe());
                    }
                }
                Some(facts)
            })
            .collect()
    }
}

struct DiskReader<'a> {
    folder: &'a OnDisk,
}

impl crate::folder::ReadAt for DiskReader<'_> {
    fn read_at(&mut self, entry: u32, start: u64, end: u64) -> Option<Vec<u8>> {
        use std::io::{Seek, SeekFrom};
        let mut f = File::open(self.folder.path_of(entry)).ok()?;
        f.seek(SeekFrom::Start(start)).ok()?;
        let mut buf = vec![0u8; end.saturating_sub(start) as usize];
        f.read_exact(&mut buf).ok()?;
        Some(buf)
    }

    fn read_all(&mut self, entry: u32) -> Option<Vec<u8>> {
        std::fs::read(self.folder.path_of(entry)).ok()
    }
}
