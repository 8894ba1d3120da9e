//! `ccscope stats FILE --follow`: the facts printed again as the file
//! grows, a half-written line waiting for its end (never skipped as
//! malformed), a file that shrank read again from the start and said so.
//! The records are the shape of `../shared/docs/transcript-format.md`'s
//! user/assistant lines, cut to the fields the facts read.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

const USER: &str = r#"{"type":"user","uuid":"u1","timestamp":"2026-01-01T10:00:00Z","message":{"role":"user","content":"hello"}}"#;
const ASSISTANT: &str = r#"{"type":"assistant","uuid":"a1","timestamp":"2026-01-01T10:00:05Z","message":{"id":"m1","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"hi"}],"usage":{"input_tokens":10,"output_tokens":5}}}"#;

fn lines(json: &str) -> u64 {
    let v: serde_json::Value = serde_json::from_str(json).unwrap();
    v["lines"].as_u64().unwrap_or_else(|| panic!("no line count in {json}"))
}

#[test]
fn follow_prints_the_facts_again_as_the_file_grows() {
    let dir = std::env::temp_dir().join(format!("ccscope-cli-follow-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("live.jsonl");
    std::fs::write(&path, format!("{USER}\n")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_ccscope")).args(["stats", "--follow"]).arg(&path).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let (tx, rx) = mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    let next = || rx.recv_timeout(Duration::from_secs(20)).expect("follow printed the facts again");
    let append = |text: &str| {
        let mut f = std::fs::OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(text.as_bytes()).unwrap();
    };
    let first = next();
    assert_eq!(lines(&first), 1, "{first}");
    // Half a line: carried, not a record and not skipped.
    let (head, rest) = ASSISTANT.split_at(40);
    append(head);
    std::thread::sleep(Duration::from_millis(2500));
    append(&format!("{rest}\n"));
    let second = next();
    assert_eq!(lines(&second), 2, "{second}");
    assert!(second.contains("\"output_tokens\":5"), "{second}");
    // The file replaced by a shorter one: read again from the start.
    std::fs::write(&path, format!("{USER}\n")).unwrap();
    let third = next();
    assert_eq!(lines(&third), 1, "{third}");
    child.kill().unwrap();
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("skipped"), "the half line was never skipped: {err}");
    assert!(err.contains("shrank") && err.contains("read again from the start"), "{err}");
}
