//! `ccscope report`: the statistics pinned on the synthetic fixture by
//! numbers checked by hand against its lines, and the report's invariants
//! against contract v1 (`ccscope stats`) on every fixture transcript.

mod common;

use std::process::Command;

use serde_json::Value;

fn run(args: &[&std::ffi::OsStr]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_ccscope")).args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON")
}

fn synthetic_main() -> std::path::PathBuf {
    let dir = common::fixtures_dir().join("synthetic/projects");
    let project = std::fs::read_dir(&dir).unwrap().flatten().find(|e| e.path().is_dir()).unwrap().path();
    project.join("d3cb2e5d-477b-4f6b-a7e5-1f4ed60e6538.jsonl")
}

fn tool<'a>(r: &'a Value, name: &str) -> &'a Value {
    r["tools"].as_array().unwrap().iter().find(|t| t["name"] == name).unwrap_or_else(|| panic!("no {name}"))
}

#[test]
fn statistics_of_the_synthetic_conversation_by_hand() {
    let r = run(&["report".as_ref(), synthetic_main().as_os_str()]);
    // Bash: line 6 → 7 took 3.5 s, 23 → 24 was denied after 6 s, 25 → 26
    // took 48 s. Nearest rank: p50 is the 2nd of 3, p95 the 3rd.
    let bash = tool(&r, "Bash");
    assert_eq!((bash["calls"].as_u64(), bash["failures"].as_u64(), bash["denials"].as_u64()), (Some(3), Some(1), Some(1)));
    assert_eq!((bash["p50_ms"].as_i64(), bash["p95_ms"].as_i64(), bash["total_ms"].as_i64()), (Some(6000), Some(48000), Some(57500)));
    // Task: 22 s, 21 s and 15 s (lines 33→35, 34→36, 37→38).
    let task = tool(&r, "Task");
    assert_eq!((task["calls"].as_u64(), task["p50_ms"].as_i64(), task["p95_ms"].as_i64()), (Some(3), Some(21000), Some(22000)));
    // Grep failed with is_error (line 11): a failure rate of 1 in 1.
    let grep = tool(&r, "Grep");
    assert_eq!((grep["calls"].as_u64(), grep["errors"].as_u64(), grep["p50_ms"].as_i64()), (Some(1), Some(1), Some(700)));
    assert_eq!(r["failures"], serde_json::json!({"tool_errors": 2, "api_errors": 1, "system_errors": 1, "denials": 1}));
    // claude-opus-5: ten message ids, tokens from each id's last line
    // (output 42+55+12+60+25+30+15+11+41+18; cache reads 12000+14100+…+9900).
    let models = r["models"].as_array().unwrap();
    let opus = &models[0];
    assert_eq!(opus["model"], "claude-opus-5");
    assert_eq!(
        [&opus["api_turns"], &opus["input_tokens"], &opus["cache_creation_tokens"], &opus["cache_read_tokens"], &opus["output_tokens"]].map(|v| v.as_u64()),
        [Some(10), Some(30), Some(5000), Some(138_200), Some(309)]
    );
    // At $5 / $6.25 / $0.50 / $25 per million: 150 + 31250 + 69100 + 7725 µ$.
    assert!((opus["cost_usd"].as_f64().unwrap() - 0.108225).abs() < 1e-9, "{}", opus["cost_usd"]);
    assert_eq!(models[1]["model"], "<synthetic>", "the failed API call is counted, under its own name");
    assert_eq!(models[1]["api_turns"], 1);
    // Two stretches around the 3-day gap before line 22.
    let stretches: Vec<(u64, u64, f64)> =
        r["stretches"].as_array().unwrap().iter().map(|s| (s["first_line"].as_u64().unwrap(), s["last_line"].as_u64().unwrap(), s["seconds"].as_f64().unwrap())).collect();
    assert_eq!(stretches, [(3, 17, 93.2), (22, 39, 112.0)]);
    assert_eq!(r["idle_gaps"], serde_json::json!([{"line": 22, "seconds": 259200.0}]));
    assert_eq!(r["compactions"], serde_json::json!([{"line": 29, "trigger": "auto", "pre_tokens": 167000, "post_tokens": 9100}]));
    let days: Vec<(&str, u64)> = r["days"].as_array().unwrap().iter().map(|d| (d["date"].as_str().unwrap(), d["api_turns"].as_u64().unwrap())).collect();
    assert_eq!(days, [("2026-09-01", 5), ("2026-09-04", 6)]);
}

#[test]
fn reports_agree_with_contract_v1_on_every_fixture() {
    let files = common::all_transcripts();
    assert!(files.len() >= 100, "{} transcripts", files.len());
    for f in &files {
        // An empty file is not a transcript: no report (the CLI says so, as the page does).
        if std::fs::metadata(f).unwrap().len() == 0 {
            let out = Command::new(env!("CARGO_BIN_EXE_ccscope")).arg("report").arg(f).output().unwrap();
            assert!(out.status.code() == Some(1) && String::from_utf8_lossy(&out.stderr).contains("This file is empty"), "{}", f.display());
            continue;
        }
        let r = run(&["report".as_ref(), f.as_os_str()]);
        let s = run(&["stats".as_ref(), f.as_os_str()]);
        let sum = |arr: &Value, key: &str| arr.as_array().unwrap().iter().map(|x| x[key].as_u64().unwrap_or(0)).sum::<u64>();
        let name = f.display();
        assert_eq!(sum(&r["tools"], "calls"), s["tool_calls"].as_u64().unwrap(), "{name}: tool calls");
        assert_eq!(sum(&r["models"], "api_turns"), s["assistant_messages"].as_u64().unwrap(), "{name}: API turns");
        assert_eq!(sum(&r["models"], "output_tokens"), s["output_tokens"].as_u64().unwrap(), "{name}: output tokens");
        assert_eq!(r["compactions"].as_array().unwrap().len() as u64, s["compactions"].as_u64().unwrap(), "{name}: compactions");
        let stretch_secs: f64 = r["stretches"].as_array().unwrap().iter().map(|x| x["seconds"].as_f64().unwrap()).sum();
        let active = r["active_seconds"].as_f64();
        assert!((stretch_secs - active.unwrap_or(0.0)).abs() < 0.01, "{name}: stretches {stretch_secs} vs active {active:?}");
        assert!((active.unwrap_or(0.0) - s["active_seconds"].as_f64().unwrap()).abs() < 0.001, "{name}: active seconds");
        let day_secs: f64 = r["days"].as_array().unwrap().iter().map(|x| x["active_seconds"].as_f64().unwrap()).sum();
        assert!((day_secs - stretch_secs).abs() < 0.01, "{name}: days {day_secs} vs stretches {stretch_secs}");
    }
}

#[test]
fn a_folder_report_is_the_sum_of_its_conversations() {
    let dir = common::fixtures_dir().join("real/daaain__claude-code-log/test/test_data/real_projects");
    let r = run(&["report".as_ref(), dir.as_os_str()]);
    let convs = r["conversations"].as_array().unwrap();
    assert!(convs.len() >= 40);
    let t = &r["totals"];
    let sum = |key: &str| convs.iter().map(|c| c["report"][key].as_u64().unwrap()).sum::<u64>();
    assert_eq!(t["conversations"].as_u64(), Some(convs.len() as u64));
    assert_eq!(t["api_turns"].as_u64(), Some(sum("api_turns")));
    assert_eq!(t["tool_calls"].as_u64(), Some(sum("tool_calls")));
    let cost: f64 = convs.iter().filter_map(|c| c["report"]["cost_usd"].as_f64()).sum();
    assert!((t["cost_usd"].as_f64().unwrap() - cost).abs() < 1e-6);
    let by_day: u64 = t["days"].as_array().unwrap().iter().map(|d| d["api_turns"].as_u64().unwrap()).sum();
    assert_eq!(by_day, sum("api_turns"), "every turn is on one day");
    let by_project: u64 = t["projects"].as_array().unwrap().iter().map(|d| d["api_turns"].as_u64().unwrap()).sum();
    assert_eq!(by_project, sum("api_turns"));
}
