//! `ccscope sessions DIR` matches `../shared/fixtures/expected/sessions/*.jsonl`
//! on the three fixture trees, key by key; the title only where its source
//! is not "prompt" (the first-prompt rule is ours, see the fixtures' README).

mod common;

use std::process::Command;

use serde_json::Value;

fn lines(bytes: &[u8]) -> Vec<Value> {
    bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty()).map(|l| serde_json::from_slice(l).expect("a JSON line")).collect()
}

fn same(want: &Value, got: &Value) -> bool {
    match (want, got) {
        (Value::Number(a), Value::Number(b)) if a.is_f64() || b.is_f64() => (a.as_f64().unwrap_or(f64::NAN) - b.as_f64().unwrap_or(f64::NAN)).abs() <= 0.001,
        (Value::Object(w), Value::Object(g)) => w.len() == g.len() && w.iter().all(|(k, v)| g.get(k).is_some_and(|x| same(v, x))),
        _ => want == got,
    }
}

#[test]
fn sessions_match_the_expected_lines_on_three_trees() {
    let root = common::fixtures_dir();
    let trees = [
        ("synthetic__projects", "synthetic/projects", 3),
        ("daaain__real_projects", "real/daaain__claude-code-log/test/test_data/real_projects", 40),
        ("d-kimuson__projects", "real/d-kimuson__claude-code-viewer/mock-global-claude-dir/projects", 3),
    ];
    for (name, dir, at_least) in trees {
        let out = Command::new(env!("CARGO_BIN_EXE_ccscope")).arg("sessions").arg(root.join(dir)).output().unwrap();
        assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        let got = lines(&out.stdout);
        let want = lines(&std::fs::read(root.join(format!("expected/sessions/{name}.jsonl"))).unwrap());
        assert!(want.len() >= at_least, "{name}: the expected file lists {} conversations", want.len());
        let paths = |v: &[Value]| v.iter().map(|l| l["path"].as_str().unwrap_or("").to_string()).collect::<Vec<_>>();
        assert_eq!(paths(&got), paths(&want), "{name}: the same conversations, sorted by path");
        let mut failures = Vec::new();
        for (g, w) in got.iter().zip(&want) {
            let (Value::Object(g), Value::Object(w)) = (g, w) else { panic!("{name}: not objects") };
            let mut keys: Vec<&String> = g.keys().collect();
            keys.sort();
            let mut want_keys: Vec<&String> = w.keys().collect();
            want_keys.sort();
            assert_eq!(keys, want_keys, "{name}: exactly the contract's keys");
            for (k, wv) in w {
                if k == "title" && w["title_source"] == "prompt" {
                    assert!(g["title"].is_string(), "{name} {}: a prompt title is some text", w["path"]);
                    continue;
                }
                if !same(wv, &g[k]) {
                    failures.push(format!("{name} {}: {k}: expected {wv}, got {}", w["path"], g[k]));
                }
            }
        }
        assert!(failures.is_empty(), "{} mismatches:\n{}", failures.len(), failures.join("\n"));
    }
}

#[test]
fn a_missing_directory_is_named() {
    let out = Command::new(env!("CARGO_BIN_EXE_ccscope")).args(["sessions", "/nonexistent/dir"]).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/dir"));
}
