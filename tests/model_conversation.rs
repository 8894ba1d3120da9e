//! The conversation model on the synthetic fixture, whose every quirk is
//! known line by line (see the fixture and the format notes).

mod common;

use ccscope::disk;
use ccscope::index::Index;
use ccscope::model::conversation::{clients, failures, sessions, tool_calls, turns, CallState};

fn synthetic() -> Index {
    disk::index_file(&common::fixtures_dir().join("synthetic/projects/-Users-alex-code-app/d3cb2e5d-477b-4f6b-a7e5-1f4ed60e6538.jsonl")).unwrap()
}

fn line(ix: &Index, row: u32) -> u32 {
    ix.rows[row as usize].line_no
}

#[test]
fn a_message_split_over_lines_is_one_turn_with_its_last_output_count() {
    let ix = synthetic();
    let t = turns(&ix);
    assert_eq!(t.len(), 11);
    // Lines 4-6: thinking, text, tool_use of msg_011ff44…: one turn, 42 output tokens (not 8+19+42).
    assert_eq!(t[0].rows.iter().map(|&r| line(&ix, r)).collect::<Vec<_>>(), vec![4, 5, 6]);
    assert_eq!(t[0].output_tokens, 42);
    assert_eq!(t[0].context_tokens, 3 + 500 + 12000);
    // Parallel calls (lines 33-34) share one message id: one turn.
    assert!(t.iter().any(|t| t.rows.iter().map(|&r| line(&ix, r)).collect::<Vec<_>>() == vec![33, 34]));
}

#[test]
fn tool_calls_pair_with_results_durations_and_states() {
    let ix = synthetic();
    let calls = tool_calls(&ix);
    assert_eq!(calls.len(), 10);
    let by_id = |id: &str| calls.iter().find(|c| ix.str(ix.tool_uses[c.tool_use as usize].id) == id).unwrap();
    // Bash at 09:00:06.000, its result at 09:00:09.500.
    let bash = by_id("toolu_019384ec5f7882b254fe464d");
    assert_eq!((bash.duration_ms, bash.state), (Some(3500), CallState::Ok));
    assert_eq!(by_id("toolu_012461d52c3e7dbf7aa10e0c").state, CallState::Error);
    assert_eq!(by_id("toolu_01157b877f0d3a3642928125").state, CallState::Denied);
    // Results may arrive out of order (lines 10-11 answer calls on lines 8-9).
    assert_eq!(by_id("toolu_01f5fa6956963a3643c901de").duration_ms, Some(2400));
    assert!(calls.iter().all(|c| c.state != CallState::NoResult));
}

#[test]
fn failed_steps_are_the_four_signals_once_per_record() {
    let ix = synthetic();
    let lines: Vec<u32> = failures(&ix).into_iter().map(|r| line(&ix, r)).collect();
    // 11: is_error, 16: system api_error, 17: <synthetic> API error, 24: denial (+ is_error, once).
    assert_eq!(lines, vec![11, 16, 17, 24]);
}

#[test]
fn a_resume_and_a_client_switch_are_found_where_they_happen() {
    let ix = synthetic();
    let s = sessions(&ix);
    assert_eq!(s.iter().map(|s| (line(&ix, s.start_row), ix.str(s.value))).collect::<Vec<_>>(), vec![
        (2, "d3cb2e5d-477b-4f6b-a7e5-1f4ed60e6538"),
        (22, "5920a089-369c-4a77-abf3-9cebf8fa014e"),
    ]);
    let c = clients(&ix);
    assert_eq!(c.iter().map(|s| (line(&ix, s.start_row), ix.str(s.value))).collect::<Vec<_>>(), vec![
        (3, "claude-desktop"),
        (22, "claude-vscode"),
    ]);
}

#[test]
fn titles_are_kept_as_ranges_and_read_back_from_the_line() {
    let root = common::fixtures_dir();
    let path = root.join("synthetic/projects/-Users-alex-code-app/d3cb2e5d-477b-4f6b-a7e5-1f4ed60e6538.jsonl");
    let ix = disk::index_file(&path).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    let texts: Vec<(u32, String)> = ix
        .titles
        .iter()
        .map(|t| {
            let row = &ix.rows[t.row as usize];
            let at = row.offset as usize + t.start as usize;
            (row.line_no, String::from_utf8(bytes[at..at + t.len as usize].to_vec()).unwrap())
        })
        .collect();
    assert_eq!(texts, vec![
        (18, "Fix undefined variable in app build".to_string()),
        (19, "Ask a helper to audit the rest of the crate.".to_string()),
        (32, "app build fix".to_string()),
    ]);
}
