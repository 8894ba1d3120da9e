//! Task lists (issue 32, item 3): the list as it stood after each call
//! that changed it, from TodoWrite's whole lists and TaskCreate/TaskUpdate's
//! steps. Fixture: tests/fixtures/tasks.jsonl (its README entry names the
//! shapes' sources).

mod common;

use ccscope::index::{Index, Indexer};
use ccscope::model::conversation::tool_calls;
use ccscope::model::items::Items;
use ccscope::model::tasks::{at, rows_to_read, states, task_calls, TaskState};

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/tasks.jsonl");

fn read() -> (Index, Vec<TaskState>) {
    let bytes = std::fs::read(FIXTURE).unwrap();
    let ix = Indexer::index_bytes(&bytes);
    let calls = task_calls(&ix, &tool_calls(&ix));
    let s = states(&ix, &calls, &common::bodies_of(&bytes, &ix, &rows_to_read(&ix, &calls)));
    (ix, s)
}

fn list(s: &TaskState) -> Vec<(String, String, bool)> {
    s.tasks.iter().map(|t| (t.subject.clone(), t.status.clone(), t.changed)).collect()
}

fn v(items: &[(&str, &str, bool)]) -> Vec<(String, String, bool)> {
    items.iter().map(|(a, b, c)| (a.to_string(), b.to_string(), *c)).collect()
}

#[test]
fn each_successful_call_makes_a_state_and_a_failed_one_changes_nothing() {
    let (_, s) = read();
    // TodoWrite on lines 2, 4, 8 (the one on 6 failed), TaskCreate 11, 13, TaskUpdate 15, 17.
    assert_eq!(s.iter().map(|s| s.line).collect::<Vec<_>>(), [2, 4, 8, 11, 13, 15, 17]);
    assert_eq!(list(&s[0]), v(&[("Write the parser", "pending", true), ("Test it", "pending", true), ("Ship", "pending", true)]));
    // Only what the call changed is marked.
    assert_eq!(list(&s[1]), v(&[("Write the parser", "in_progress", true), ("Test it", "pending", false), ("Ship", "pending", false)]));
    assert_eq!(list(&s[2]), v(&[("Write the parser", "completed", true), ("Test it", "in_progress", true)]));
    assert_eq!(s[2].removed, ["Ship"]);
    assert_eq!((s[2].count("completed"), s[2].count("in_progress"), s[2].count("pending")), (1, 1, 0));
}

#[test]
fn task_create_takes_its_number_from_the_result_and_update_finds_it() {
    let (_, s) = read();
    let created = &s[4];
    assert_eq!(created.tasks.iter().map(|t| t.id.clone()).collect::<Vec<_>>(), [None, None, Some("7".into()), Some("8".into())]);
    let updated = &s[5];
    let t7 = updated.tasks.iter().find(|t| t.id.as_deref() == Some("7")).unwrap();
    assert_eq!((t7.status.as_str(), t7.owner.as_deref(), t7.changed), ("in_progress", Some("alice"), true));
    // Deleted: gone from the list, named as removed.
    assert!(s[6].tasks.iter().all(|t| t.id.as_deref() != Some("8")));
    assert_eq!(s[6].removed, ["Benchmark"]);
}

#[test]
fn the_state_at_a_reading_position_is_the_last_call_at_or_before_it() {
    let (ix, s) = read();
    let view = Items::build(&ix, ccscope::model::DEFAULT_IDLE_GAP_SECS);
    let item = |line: u32| view.item_of_row[ix.rows.iter().position(|r| r.line_no == line).unwrap()];
    assert_eq!(at(&s, &view.item_of_row, item(1)), None, "before the first call there is no list");
    assert_eq!(at(&s, &view.item_of_row, item(4)).map(|s| s.line), Some(4));
    assert_eq!(at(&s, &view.item_of_row, item(10)).map(|s| s.line), Some(8), "the failed call on line 6 changed nothing");
    assert_eq!(at(&s, &view.item_of_row, item(20)).map(|s| s.line), Some(17));
}
