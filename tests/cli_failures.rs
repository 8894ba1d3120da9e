//! The CLI fails as the page does: a file that is not a transcript (empty,
//! binary, no record) ends `stats`, `report` and `export` with a non-zero
//! status and the page's own sentence; skipped lines are named a few at a
//! time, then counted, on stderr and in exports.

use std::path::PathBuf;
use std::process::{Command, Output};

fn tmp(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ccscope-cli-failures-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

fn run(args: &[&str], file: &PathBuf) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ccscope")).args(args).arg(file).output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn files_that_are_not_transcripts_fail_with_the_pages_words() {
    // A binary file (NUL bytes, no known signature), an empty one, and one of blank lines only.
    let mut binary = vec![0u8; 4096];
    binary.extend((0..200_000u32).flat_map(|k| [(k % 251) as u8, b'\n']));
    let cases = [
        (tmp("binary.jsonl", &binary), "This is a binary file"),
        (tmp("empty.jsonl", b""), "This file is empty"),
        (tmp("blank.jsonl", b"\n  \n\n"), "only blank lines"),
        (tmp("png.jsonl", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"), "This is a PNG image"),
    ];
    for (file, words) in &cases {
        for cmd in [&["stats"][..], &["report"], &["export"], &["export", "--format", "json"]] {
            let o = run(cmd, file);
            assert_eq!(o.status.code(), Some(1), "{cmd:?} {}: {}", file.display(), stderr(&o));
            let err = stderr(&o);
            assert!(err.contains(words) && err.contains(&file.display().to_string()), "{cmd:?}: the file and the page's words: {err}");
            assert!(err.lines().count() <= 7, "{cmd:?}: a few lines, not one per garbage line: {err}");
            if cmd[0] == "stats" {
                // Contract v1's facts are still printed (all of them zero or empty).
                let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("stats still prints its JSON");
                assert_eq!(v["assistant_messages"], 0);
            } else {
                assert!(o.stdout.is_empty(), "{cmd:?}: no report or export of a non-transcript");
            }
        }
    }
}

#[test]
fn skipped_lines_are_named_then_counted_in_stderr_and_exports() {
    let mut text = String::from(r#"{"type":"user","uuid":"u","message":{"role":"user","content":"hello"}}"#);
    text.push('\n');
    for k in 0..1000 {
        text.push_str(&format!("garbage {k}\n"));
    }
    text.push_str(r#"{"type":"user","uuid":"v","message":{"role":"user","content":"bye"}}"#);
    text.push_str("\nmore garbage\n");
    let file = tmp("mostly-garbage.jsonl", text.as_bytes());
    let o = run(&["stats"], &file);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert_eq!(err.matches(": skipped: ").count(), 5, "{err}");
    assert!(err.contains("… and 996 more skipped lines (the last on line 1,003)"), "{err}");
    let md = String::from_utf8(run(&["export"], &file).stdout).unwrap();
    assert_eq!(md.matches("## Malformed").count(), 7, "five lines named, one count for the rest of the run, and the line after `bye`");
    assert!(md.contains("… and 995 more lines that could not be read (lines 7–1,001)"), "{md}");
    let json: serde_json::Value = serde_json::from_slice(&run(&["export", "--format", "json"], &file).stdout).unwrap();
    let malformed = json["items"].as_array().unwrap().iter().filter(|i| i["kind"] == "malformed").count();
    assert_eq!(malformed, 7);
}

#[test]
fn links_in_doubt_are_named_and_contract_v1_keeps_its_values() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/doubts/projects");
    let c1 = dir.join("-Users-sam-app/c1.jsonl");
    let o = run(&["stats"], &c1);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let links: Vec<(String, String, String)> = v["subagents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["agent_id"].as_str().unwrap().into(), s["link"].as_str().unwrap().into(), s["tool_use_id"].as_str().unwrap_or("").into()))
        .collect();
    let want = [("aaa", "meta", "t1"), ("bbb", "meta", "t1"), ("ccc", "meta", "t_missing"), ("ddd", "clock", "t2")];
    assert_eq!(links, want.map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string())), "as the meta files say; the bad meta's run by the clock");
    let err = stderr(&o);
    for said in ["agent-ddd.meta.json: not JSON", "agent-ccc: its meta file names the call t_missing, which is not in this conversation", "agent-aaa: agent-bbb also claims this call"] {
        assert!(err.contains(said), "{said} in {err}");
    }
    let o = Command::new(env!("CARGO_BIN_EXE_ccscope")).arg("sessions").arg(&dir).output().unwrap();
    assert!(o.status.success());
    let err = stderr(&o);
    assert!(err.contains("c2.desktop-released.json: not JSON"), "the deletion marker that is not JSON is named: {err}");
    let lines: Vec<serde_json::Value> = o.stdout.split(|&b| b == b'\n').filter(|l| !l.is_empty()).map(|l| serde_json::from_slice(l).unwrap()).collect();
    let c2 = lines.iter().find(|l| l["path"] == "-Users-sam-app/c2.jsonl").unwrap();
    assert_eq!((c2["deleted"].as_bool(), c2["deleted_at"].is_null()), (Some(true), true), "deleted (the marker is there), with no date");
}
