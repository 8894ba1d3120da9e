//! A picked `~/.claude` (issue 32, item 2): only the documented layout is
//! read. The home's `history.jsonl` (every prompt typed, in any project,
//! JSON lines that would read as a conversation), `.credentials.json`,
//! settings and anything else there are never opened — every read the
//! folder makes is counted per path. Layout from
//! `../shared/docs/transcript-format.md` ("What a session is, on disk") and
//! the `mock-global-claude-dir` of d-kimuson/claude-code-viewer's fixtures.

use ccscope::disk::OnDisk;

/// A credential planted where a careless reader would find it.
const PLANTED: &str = "sk-ant-oat01-PLANTEDplantedPLANTED-credential";

fn write(root: &std::path::Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn home(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ccscope-home-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let conv = r#"{"type":"user","uuid":"u1","sessionId":"s1","cwd":"/home/u/proj","timestamp":"2026-11-25T09:00:00Z","message":{"role":"user","content":"hello"}}"#;
    write(&dir, ".claude/projects/-home-u-proj/s1.jsonl", &format!("{conv}\n"));
    write(&dir, ".claude/projects/-home-u-proj/s1/subagents/agent-a1.jsonl", &format!("{conv}\n"));
    write(&dir, ".claude/.credentials.json", &format!(r#"{{"claudeAiOauth":{{"accessToken":"{PLANTED}"}}}}"#));
    write(&dir, ".claude/history.jsonl", &format!("{{\"display\":\"my token is {PLANTED}\",\"project\":\"/home/u/proj\",\"timestamp\":1764061200000}}\n"));
    write(&dir, ".claude/settings.json", r#"{"model":"opus"}"#);
    write(&dir, ".claude/file-history/s1/3f2a@v1", "old text\n");
    write(&dir, ".claude/todos/s1-agent-s1.json", "[]");
    write(&dir, ".claude/plugins/cache/x/log.jsonl", &format!("{conv}\n"));
    dir
}

#[test]
fn a_picked_claude_home_reads_its_projects_and_nothing_else() {
    for picked in ["", ".claude"] {
        let root = home(if picked.is_empty() { "above" } else { "itself" });
        let folder = OnDisk::open(&root.join(picked));
        let paths: Vec<&str> = folder.tree.conversations.iter().map(|c| c.path.as_str()).collect();
        let prefix = if picked.is_empty() { ".claude/" } else { "" };
        assert_eq!(paths, [format!("{prefix}projects/-home-u-proj/s1.jsonl")], "picked {picked:?}: only the project's conversation");
        let facts = folder.summaries(ccscope::model::DEFAULT_IDLE_GAP_SECS);
        assert_eq!((facts.len(), facts[0].runs.len()), (1, 1));
        let opened = folder.opened.borrow();
        assert!(!opened.is_empty());
        for path in opened.keys() {
            assert!(path.starts_with(&format!("{prefix}projects/")), "picked {picked:?}: opened {path}, outside projects/");
        }
        for never in [".credentials.json", "history.jsonl", "settings.json", "file-history/s1/3f2a@v1", "todos/s1-agent-s1.json", "plugins/cache/x/log.jsonl"] {
            assert!(!opened.contains_key(&format!("{prefix}{never}")), "picked {picked:?}: {never} was read");
        }
        assert_eq!(folder.tree.skipped, 5, "the rest is skipped and counted");
        // The backup is known (by name), to be read only when its file's versions are stepped through.
        assert_eq!(folder.tree.backups.iter().map(|b| (b.session_id.as_str(), b.name.as_str())).collect::<Vec<_>>(), [("s1", "3f2a@v1")]);
    }
}

#[test]
fn a_folder_that_is_not_a_claude_home_keeps_every_conversation() {
    // No `projects/<project>/<file>.jsonl` anywhere: every .jsonl is a candidate, as before.
    let dir = std::env::temp_dir().join(format!("ccscope-plain-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let conv = r#"{"type":"user","uuid":"u1","sessionId":"s1","timestamp":"2026-11-25T09:00:00Z","message":{"role":"user","content":"hello"}}"#;
    write(&dir, "-home-u-a/s1.jsonl", &format!("{conv}\n"));
    write(&dir, "-home-u-b/s2.jsonl", &format!("{conv}\n"));
    let folder = OnDisk::open(&dir);
    assert_eq!(folder.tree.conversations.len(), 2);
}
