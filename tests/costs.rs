//! Costs that hold (issue 32, item 6): cache writes priced per lifetime,
//! web searches per search, fast-mode turns counted (their premium is not
//! guessed), an unpriced model "no price", never $0. Fixture:
//! tests/fixtures/costs.jsonl (its README entry names the shapes' sources).

use std::process::Command;

use ccscope::index::Indexer;
use ccscope::model::report::Report;

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/costs.jsonl");

fn report() -> Report {
    Report::of_index(&Indexer::index_bytes(&std::fs::read(FIXTURE).unwrap()), ccscope::model::DEFAULT_IDLE_GAP_SECS)
}

#[test]
fn one_hour_writes_and_web_searches_are_priced_at_their_own_rates() {
    let r = report();
    let opus = r.models.iter().find(|m| m.model.as_deref() == Some("claude-opus-5")).unwrap();
    assert_eq!((opus.cache_creation_tokens, opus.cache_write_1h_tokens, opus.web_search_requests), (Some(100_000), Some(60_000), 3));
    // Opus 5 at the pricing page's rates: input $5, 5m write $6.25, 1h write $10, read $0.50,
    // output $25 per MTok; $10 per 1,000 searches.
    let want = (1_500.0 * 5.0 + 40_000.0 * 6.25 + 60_000.0 * 10.0 + 100_000.0 * 0.5 + 3_000.0 * 25.0) / 1e6 + 3.0 * 0.01;
    let got = opus.cost_usd.unwrap();
    assert!((got - want).abs() < 1e-9, "{got} vs {want}");
    // At the old rule (every write at the 5-minute rate, no searches) it was lower.
    let old = (1_500.0 * 5.0 + 100_000.0 * 6.25 + 100_000.0 * 0.5 + 3_000.0 * 25.0) / 1e6;
    assert!(got - old > 0.2);
}

#[test]
fn fast_turns_are_counted_and_an_unpriced_model_has_no_price() {
    let r = report();
    assert_eq!((r.fast_turns, r.web_search_requests), (1, 3));
    let nova = r.models.iter().find(|m| m.model.as_deref() == Some("claude-nova-9")).unwrap();
    assert_eq!(nova.cost_usd, None, "no price, never $0");
    assert_eq!(r.unpriced_models, ["claude-nova-9"]);
    // The total holds the priced models only.
    let opus = r.models.iter().find(|m| m.model.as_deref() == Some("claude-opus-5")).unwrap();
    assert_eq!(r.cost_usd, opus.cost_usd);
}

#[test]
fn ccscope_report_prints_the_same_rules() {
    let out = Command::new(env!("CARGO_BIN_EXE_ccscope")).args(["report", FIXTURE]).output().unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((v["fast_turns"].as_u64(), v["web_search_requests"].as_u64()), (Some(1), Some(3)));
    let opus = v["models"].as_array().unwrap().iter().find(|m| m["model"] == "claude-opus-5").unwrap();
    assert_eq!(opus["cache_write_1h_tokens"].as_u64(), Some(60_000));
    assert!((opus["cost_usd"].as_f64().unwrap() - report().models.iter().find(|m| m.model.as_deref() == Some("claude-opus-5")).unwrap().cost_usd.unwrap()).abs() < 1e-12);
    let nova = v["models"].as_array().unwrap().iter().find(|m| m["model"] == "claude-nova-9").unwrap();
    assert!(nova["cost_usd"].is_null());
}

#[test]
fn in_a_folder_a_message_copied_into_a_resumed_file_is_counted_once() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/resumed");
    let out = Command::new(env!("CARGO_BIN_EXE_ccscope")).args(["report", dir]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let per_file: u64 = v["conversations"].as_array().unwrap().iter().map(|c| c["report"]["api_turns"].as_u64().unwrap()).sum();
    assert_eq!(per_file, 5, "each file on its own still counts its own messages");
    let t = &v["totals"];
    assert_eq!(t["api_turns"].as_u64(), Some(3), "msg_A, msg_B once, and msg_C");
    assert_eq!(t["duplicates"]["messages"].as_u64(), Some(2));
    // Sonnet 4.5: 1,000 input at $3 and the output at $15 per MTok.
    let cost = |out: f64| (1000.0 * 3.0 + out * 15.0) / 1e6;
    let want = cost(100.0) + cost(200.0) + cost(300.0);
    assert!((t["cost_usd"].as_f64().unwrap() - want).abs() < 1e-9, "{} vs {want}", t["cost_usd"]);
    assert!((t["duplicates"]["cost_usd"].as_f64().unwrap() - (cost(100.0) + cost(200.0))).abs() < 1e-9);
    let sonnet = &t["models"][0];
    assert_eq!((sonnet["api_turns"].as_u64(), sonnet["output_tokens"].as_u64()), (Some(3), Some(600)));
    assert_eq!(t["days"][0]["api_turns"].as_u64(), Some(3));
}
