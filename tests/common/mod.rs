//! Fixture discovery shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// `../shared/fixtures`. It is always there (beside the checkout, for
/// developers and CI alike): a missing tree fails the test, never skips it.
pub fn fixtures_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures");
    assert!(dir.is_dir(), "../shared/fixtures is missing ({}): the fixture tests need it", dir.display());
    dir
}

/// Every `.jsonl` under `dir`, sorted.
pub fn jsonl_files(dir: &Path) -> Vec<PathBuf> {
    files_with_ext(dir, "jsonl")
}

/// Every file under `dir` whose extension is `ext`, sorted.
pub fn files_with_ext(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else { continue };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == ext) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// All fixture transcripts (real and synthetic).
pub fn all_transcripts() -> Vec<PathBuf> {
    let root = fixtures_dir();
    let mut v = jsonl_files(&root.join("real"));
    v.extend(jsonl_files(&root.join("synthetic")));
    assert!(v.len() >= 100, "expected the fixture corpus, found {} files", v.len());
    v
}

/// The bodies of `rows` of the file `bytes` (indexed as `ix`), parsed from
/// their lines: what the page reads back on demand. A row that does not
/// parse fails the test.
pub fn bodies_of(bytes: &[u8], ix: &ccscope::index::Index, rows: &[u32]) -> ccscope::index::FxHashMap<u32, std::rc::Rc<ccscope::model::body::Body>> {
    rows.iter()
        .map(|&r| {
            let row = &ix.rows[r as usize];
            let line = &bytes[row.offset as usize..row.end_offset() as usize];
            (r, std::rc::Rc::new(ccscope::model::body::Body::parse(line).unwrap_or_else(|| panic!("line {} does not parse", row.line_no))))
        })
        .collect()
}
