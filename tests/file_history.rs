//! File history (issue 32, item 2): a picked `~/.claude`'s
//! `file-history/<sessionId>/<hash>@v<n>` backups matched to the
//! conversation's `file-history-snapshot` records, each tracked file's
//! versions in order, and the diff between two checkpoints. Record shapes as
//! the real transcripts under `../shared/fixtures/real/` write them
//! (`snapshot.trackedFileBackups` of path → `{backupFileName, version,
//! backupTime}`, `isSnapshotUpdate`); the layout as
//! `../shared/docs/transcript-format.md` names `~/.claude`.

mod common;

use ccscope::disk::OnDisk;
use ccscope::index::Indexer;
use ccscope::model::checkpoints::{session_ids, snapshot_rows, tracked};
use ccscope::model::diff::hunks;
use ccscope::model::tools::DiffLine;

fn write(root: &std::path::Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn snapshot(msg: &str, files: &[(&str, Option<&str>, u64)], update: bool) -> String {
    let tracked: serde_json::Map<String, serde_json::Value> = files
        .iter()
        .map(|(p, b, v)| (p.to_string(), serde_json::json!({"backupFileName": b, "version": v, "backupTime": "2026-11-26T10:00:00.000Z"})))
        .collect();
    serde_json::json!({"type": "file-history-snapshot", "messageId": msg, "snapshot": {"messageId": msg, "trackedFileBackups": tracked, "timestamp": "2026-11-26T10:00:00.000Z"}, "isSnapshotUpdate": update}).to_string()
}

/// A `~/.claude` with one conversation whose snapshots track `app.py` through three versions
/// (and `new.py`, which did not exist at the first checkpoint).
pub fn home() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ccscope-fh-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let user = |t: &str, text: &str| serde_json::json!({"type": "user", "uuid": t, "sessionId": "s1", "cwd": "/home/u/proj", "timestamp": "2026-11-26T10:00:00Z", "message": {"role": "user", "content": text}}).to_string();
    let lines = [
        user("u1", "first"),
        snapshot("u1", &[("app.py", Some("aa11@v1"), 1)], false),
        user("u2", "second"),
        snapshot("u2", &[("app.py", Some("aa11@v2"), 2), ("new.py", None, 1)], false),
        snapshot("u2", &[("app.py", Some("aa11@v2"), 2), ("new.py", Some("bb22@v1"), 1)], true),
        user("u3", "third"),
        snapshot("u3", &[("app.py", Some("aa11@v3"), 3), ("new.py", Some("bb22@v1"), 1)], false),
        // Plan mode's attachment naming its plan file (and one whose file was not picked).
        serde_json::json!({"type": "attachment", "uuid": "t1", "sessionId": "s1", "attachment": {"type": "plan_mode", "reminderType": "full", "isSubAgent": false, "planFilePath": "/home/u/.claude/plans/noble-lemon.md", "planExists": true}}).to_string(),
        serde_json::json!({"type": "attachment", "uuid": "t2", "sessionId": "s1", "attachment": {"type": "plan_file_reference", "planFilePath": "/home/u/.claude/plans/gone.md"}}).to_string(),
    ];
    write(&dir, ".claude/projects/-home-u-proj/s1.jsonl", &(lines.join("\n") + "\n"));
    write(&dir, ".claude/file-history/s1/aa11@v1", "def main():\n    print('hi')\n");
    write(&dir, ".claude/file-history/s1/aa11@v2", "def main():\n    print('hello')\n");
    write(&dir, ".claude/file-history/s1/aa11@v3", "import sys\n\ndef main():\n    print('hello', sys.argv)\n");
    write(&dir, ".claude/file-history/s1/bb22@v1", "x = 1\n");
    write(&dir, ".claude/plans/noble-lemon.md", "# Plan\n\n1. Parse\n2. Test\n");
    write(&dir, ".claude/.credentials.json", r#"{"claudeAiOauth":{"accessToken":"sk-ant-oat01-PLANTED"}}"#);
    dir
}

#[test]
fn each_tracked_file_has_its_versions_in_order_and_each_backup_is_found() {
    let dir = home();
    let folder = OnDisk::open(&dir.join(".claude"));
    let conv = &folder.tree.conversations[0];
    let bytes = std::fs::read(folder.root.join(&conv.path)).unwrap();
    let ix = Indexer::index_bytes(&bytes);
    let rows = snapshot_rows(&ix);
    assert_eq!(rows.len(), 4);
    let bodies = common::bodies_of(&bytes, &ix, &rows);
    let files = tracked(&ix, &rows, &bodies);
    let got: Vec<(&str, Vec<(Option<&str>, u32)>)> = files.iter().map(|t| (t.path.as_str(), t.versions.iter().map(|v| (v.backup.as_deref(), v.line)).collect())).collect();
    assert_eq!(
        got,
        [
            ("app.py", vec![(Some("aa11@v1"), 2), (Some("aa11@v2"), 4), (Some("aa11@v3"), 7)]),
            // Absent at the second checkpoint (null), written by the update on line 5.
            ("new.py", vec![(None, 4), (Some("bb22@v1"), 5)]),
        ]
    );
    assert_eq!(session_ids(&ix, "s1"), ["s1"]);
    let entry = |name: &str| folder.tree.backup(0, "s1", name).unwrap_or_else(|| panic!("{name} picked"));
    let text = |name: &str| std::fs::read_to_string(folder.path_of(entry(name))).unwrap();
    // v2 → v3: the import added above, the print changed.
    let d = hunks(&text("aa11@v2"), &text("aa11@v3"), 3);
    assert_eq!(d[0], DiffLine::Hunk("@@ -1,2 +1,4 @@".into()));
    assert!(d.contains(&DiffLine::Added("import sys".into())) && d.contains(&DiffLine::Removed("    print('hello')".into())));
    assert_eq!(folder.tree.backup(0, "s1", "zz99@v1"), None, "a backup not picked is not found");
    // Plan files: named by plan mode's attachments, found by name in the home.
    let plan_rows = ccscope::model::plans::plan_rows(&ix);
    let plan_bodies = common::bodies_of(&bytes, &ix, &plan_rows);
    assert_eq!(ccscope::model::plans::plan_files(&ix, &plan_rows, &plan_bodies), [("noble-lemon.md".to_string(), 8), ("gone.md".to_string(), 9)]);
    assert!(folder.tree.plan(0, "noble-lemon.md").is_some());
    assert_eq!(folder.tree.plan(0, "gone.md"), None);
    // Summing the folder up opens no backup, no plan and no credential.
    folder.opened.borrow_mut().clear();
    folder.summaries(ccscope::model::DEFAULT_IDLE_GAP_SECS);
    assert!(folder.opened.borrow().keys().all(|p| p.starts_with("projects/")), "{:?}", folder.opened.borrow());
}
