//! The plan files a conversation names. Plan mode's attachments
//! (`plan_mode`, `plan_mode_exit`, `plan_mode_reentry`,
//! `plan_file_reference`) carry `planFilePath`, the plan's file in
//! `~/.claude/plans/<name>.md`; the page shows it when that home was picked.
//! Shapes from public strict schemas of the attachment payloads
//! (`planFilePath`, `planExists`, `planContent`).

use std::borrow::Borrow;

use super::body::Body;
use crate::index::{FxHashMap, Index, Sym};

/// The attachment kinds that name a plan file.
pub const PLAN_ATTACHMENTS: [&str; 4] = ["plan_mode", "plan_mode_exit", "plan_mode_reentry", "plan_file_reference"];

/// Rows of attachments that may name a plan file, in file order.
pub fn plan_rows(ix: &Index) -> Vec<u32> {
    let kinds: Vec<Sym> = PLAN_ATTACHMENTS.iter().filter_map(|k| ix.strings.get(k)).collect();
    let Some(attachment) = ix.strings.get("attachment") else { return Vec::new() };
    (0..ix.rows.len() as u32).filter(|&r| ix.rows[r as usize].record_type == attachment && kinds.contains(&ix.rows[r as usize].subtype)).collect()
}

/// The plan files named in `rows` (`<name>.md`), each once, in order, with
/// the line that first names it. The bodies must be as written (not
/// redacted): the names are matched against the picked home's files.
pub fn plan_files<B: Borrow<Body>>(ix: &Index, rows: &[u32], bodies: &FxHashMap<u32, B>) -> Vec<(String, u32)> {
    let mut out: Vec<(String, u32)> = Vec::new();
    for &r in rows {
        let Some(path) = bodies.get(&r).and_then(|b| b.borrow().attachment.0.as_ref()).and_then(|a| a.plan_file_path.as_deref()) else { continue };
        let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
        if name.ends_with(".md") && !out.iter().any(|(n, _)| n == name) {
            out.push((name.to_string(), ix.rows[r as usize].line_no));
        }
    }
    out
}
