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

/// `<dir>/<stem>/subagents/**/agent-<id>.jsonl` for the transcript `path`,
/// each read into a [`SubagentRun`]. A run that cannot be read is skipped
/// with a warning on stderr.
pub fn subagent_runs(path: &Path) -> Vec<SubagentRun> {
    let (Some(dir), Some(stem)) = (path.parent(), path.file_stem()) else { return Vec::new() };
    let mut files = Vec::new();
    let mut stack = vec![dir.join(stem).join("subagents")];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else { continue };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if let Some(id) = agent_id_of(&p) {
                files.push((id, p));
            }
        }
    }
    files.sort();
    files
        .into_iter()
        .filter_map(|(agent_id, p)| {
            let ix = match index_file(&p) {
                Ok(ix) => ix,
                Err(e) => {
                    eprintln!("warning: {e}");
                    return None;
                }
            };
            let meta = p.with_file_name(format!("agent-{agent_id}.meta.json"));
            Some(SubagentRun {
                meta_tool_use_id: std::fs::read(&meta).ok().and_then(|b| meta_tool_use_id(&b)),
                span_ms: subagents::span_of(&ix),
                agent_id,
            })
        })
        .collect()
}

/// `agent-<id>.jsonl` → `<id>`.
fn agent_id_of(p: &Path) -> Option<String> {
    let name = p.file_name()?.to_str()?;
    let id = name.strip_prefix("agent-")?.strip_suffix(".jsonl")?;
    (!id.is_empty()).then(|| id.to_string())
}

/// The string `toolUseId` of a `.meta.json`, if it has one.
pub fn meta_tool_use_id(bytes: &[u8]) -> Option<String> {
    match serde_json::from_slice::<serde_json::Value>(bytes).ok()?.get("toolUseId")? {
        serde_json::Value::String(s) => Some(s.clone()),
        _ => None,
    }
}
