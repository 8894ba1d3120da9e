//! File history: Claude Code keeps a backup of each file it changes, at
//! each checkpoint (a prompt of the person), in
//! `~/.claude/file-history/<sessionId>/<hash>@v<n>`, and writes a
//! `file-history-snapshot` record naming, per tracked file, the backup in
//! force (`backupFileName`, `version`; `null` while the file did not exist
//! yet). This module turns those records into each tracked file's versions
//! in order; the page reads the backups only when the person steps through
//! a file.
//!
//! Shapes: the `file-history-snapshot` records of the real transcripts
//! under `../shared/fixtures/real/` (`messageId`, `snapshot.messageId`,
//! `snapshot.trackedFileBackups`, `snapshot.timestamp`, `isSnapshotUpdate`)
//! and public strict schemas of the record (`trackedFileBackups` as a record
//! of path → backup).

use std::rc::Rc;

use serde_json::Value;

use super::body::Body;
use crate::index::{FxHashMap, Index};

/// The record type of a checkpoint.
pub const SNAPSHOT_TYPE: &str = "file-history-snapshot";

/// One version of a tracked file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Version {
    /// `<hash>@v<n>`; `None`: the file did not exist at this checkpoint.
    pub backup: Option<String>,
    pub version: Option<u64>,
    /// The snapshot record that first named it: its row and line.
    pub row: u32,
    pub line: u32,
}

/// A tracked file and its versions, in the order the snapshots name them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tracked {
    pub path: String,
    pub versions: Vec<Version>,
}

/// Rows of `file-history-snapshot` records, in file order.
pub fn snapshot_rows(ix: &Index) -> Vec<u32> {
    let Some(ty) = ix.strings.get(SNAPSHOT_TYPE) else { return Vec::new() };
    (0..ix.rows.len() as u32).filter(|&r| ix.rows[r as usize].record_type == ty).collect()
}

/// Every tracked file with its distinct versions, in order of first
/// appearance; `bodies` holds the rows of [`snapshot_rows`].
pub fn tracked(ix: &Index, rows: &[u32], bodies: &FxHashMap<u32, Rc<Body>>) -> Vec<Tracked> {
    let mut out: Vec<Tracked> = Vec::new();
    let mut slot: FxHashMap<String, usize> = FxHashMap::default();
    for &r in rows {
        let Some(Value::Object(files)) = bodies.get(&r).and_then(|b| b.snapshot.0.as_ref()).and_then(|s| s.tracked_file_backups.as_ref()) else { continue };
        for (path, info) in files {
            let backup = info.get("backupFileName").and_then(Value::as_str).map(str::to_string);
            let version = info.get("version").and_then(Value::as_u64);
            let k = *slot.entry(path.clone()).or_insert_with(|| {
                out.push(Tracked { path: path.clone(), versions: Vec::new() });
                out.len() - 1
            });
            let versions = &mut out[k].versions;
            if versions.last().is_some_and(|v| v.backup == backup) {
                continue;
            }
            versions.push(Version { backup, version, row: r, line: ix.rows[r as usize].line_no });
        }
    }
    out
}

/// The session ids whose `file-history/<id>/` may hold this file's
/// backups: every `sessionId` of its records, then its file stem.
pub fn session_ids(ix: &Index, stem: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for r in &ix.rows {
        if r.session_id.is_some() && !out.iter().any(|s| s == ix.str(r.session_id)) {
            out.push(ix.str(r.session_id).to_string());
        }
    }
    if !stem.is_empty() && !out.iter().any(|s| s == stem) {
        out.push(stem.to_string());
    }
    out
}
