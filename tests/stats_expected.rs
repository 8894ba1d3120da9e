//! `ccscope stats` matches `../shared/fixtures/expected/` on every fixture,
//! key by key (floats within 0.001).

mod common;

use std::process::Command;

use serde_json::Value;

fn same(want: &Value, got: &Value) -> bool {
    match (want, got) {
        (Value::Number(a), Value::Number(b)) if a.is_f64() || b.is_f64() => {
            (a.as_f64().unwrap_or(f64::NAN) - b.as_f64().unwrap_or(f64::NAN)).abs() <= 0.001
        }
        _ => want == got,
    }
}

#[test]
fn stats_match_every_expected_file() {
    let root = common::fixtures_dir();
    let expected_root = root.join("expected");
    let expected = common::files_with_ext(&expected_root, "json");
    assert_eq!(expected.len(), 125, "the contract covers 125 fixture files");
    let mut failures = Vec::new();
    for exp in &expected {
        let rel = exp.strip_prefix(&expected_root).unwrap().with_extension("jsonl");
        let transcript = root.join(&rel);
        assert!(transcript.is_file(), "no transcript for {}", exp.display());
        let out = Command::new(env!("CARGO_BIN_EXE_ccscope")).arg("stats").arg(&transcript).output().unwrap();
        // An empty file is not a transcript: the command fails with the
        // page's words, and still prints contract v1's (zero) facts.
        let empty = std::fs::metadata(&transcript).unwrap().len() == 0;
        let err = String::from_utf8_lossy(&out.stderr);
        if empty {
            assert!(out.status.code() == Some(1) && err.contains("This file is empty"), "{}: {err}", rel.display());
        } else {
            assert!(out.status.success(), "ccscope stats failed on {}: {err}", rel.display());
        }
        let got: Value = serde_json::from_slice(&out.stdout).unwrap();
        let want: Value = serde_json::from_slice(&std::fs::read(exp).unwrap()).unwrap();
        let (Value::Object(w), Value::Object(g)) = (&want, &got) else { panic!("not objects") };
        for (k, wv) in w {
            match g.get(k) {
                Some(gv) if same(wv, gv) => {}
                gv => failures.push(format!("{}: {k}: expected {wv}, got {}", rel.display(), gv.map_or("nothing".into(), |v| v.to_string()))),
            }
        }
        for k in g.keys().filter(|k| !w.contains_key(*k)) {
            failures.push(format!("{}: unexpected key {k}", rel.display()));
        }
    }
    assert!(failures.is_empty(), "{} mismatches:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn idle_gap_option_changes_active_time_only() {
    let root = common::fixtures_dir();
    let f = root.join("synthetic/projects/-Users-alex-code-app/d3cb2e5d-477b-4f6b-a7e5-1f4ed60e6538.jsonl");
    let run = |extra: &[&str]| -> Value {
        let out = Command::new(env!("CARGO_BIN_EXE_ccscope")).arg("stats").arg(&f).args(extra).output().unwrap();
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let default = run(&[]);
    // The 3-day gap counts as active only when the threshold exceeds it.
    let huge = run(&["--idle-gap-secs", "300000"]);
    assert_eq!(default["wall_seconds"], huge["wall_seconds"]);
    assert!(same(&huge["active_seconds"], &huge["wall_seconds"]));
    // A 10 s threshold drops every gap over 10 s (the 30 s agent call among them).
    let tight = run(&["--idle-gap-secs", "10"]);
    assert!(tight["active_seconds"].as_f64().unwrap() < default["active_seconds"].as_f64().unwrap());
}

#[test]
fn missing_file_is_named_in_the_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_ccscope")).args(["stats", "/nonexistent/x.jsonl"]).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/x.jsonl"));
}
