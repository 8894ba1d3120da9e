//! The list a person reads, on every fixture and on the synthetic one's
//! known quirks.

mod common;

use ccscope::disk;
use ccscope::index::Index;
use ccscope::model::body::Body;
use ccscope::model::items::{Filter, ItemKind, RoleFilter, Items};
use ccscope::model::{Stats, DEFAULT_IDLE_GAP_SECS};

const IDLE_SECS: u64 = DEFAULT_IDLE_GAP_SECS;

fn synthetic() -> (Index, Vec<u8>) {
    let path = common::fixtures_dir().join("synthetic/projects/-Users-alex-code-app/d3cb2e5d-477b-4f6b-a7e5-1f4ed60e6538.jsonl");
    (disk::index_file(&path).unwrap(), std::fs::read(&path).unwrap())
}

fn body(ix: &Index, bytes: &[u8], row: u32) -> Body {
    let r = &ix.rows[row as usize];
    Body::parse(&bytes[r.offset as usize..r.end_offset() as usize]).expect("a parsed row reads back as a body")
}

#[test]
fn every_fixture_lists_each_turn_once_and_every_row_somewhere() {
    let files = common::all_transcripts();
    for path in &files {
        let ix = disk::index_file(path).unwrap();
        let bytes = std::fs::read(path).unwrap();
        let view = Items::build(&ix, IDLE_SECS);
        let stats = Stats::compute(&ix, DEFAULT_IDLE_GAP_SECS);
        let turn_items = view.items.iter().filter(|i| matches!(i.kind, ItemKind::Turn(_))).count() as u64;
        assert_eq!(turn_items, stats.assistant_messages, "{}: turn items vs assistant_messages", path.display());
        // Every row is shown by exactly one item, and items follow file order.
        for (r, &item) in view.item_of_row.iter().enumerate() {
            assert!((item as usize) < view.items.len(), "{}: row {r} is on no item", path.display());
            assert!(view.items[item as usize].row <= r as u32, "{}: row {r} shown before its item starts", path.display());
        }
        assert!(view.items.windows(2).all(|w| w[0].row <= w[1].row), "{}: items out of file order", path.display());
        // Failed steps all land on a failed item.
        for &f in &view.failures {
            assert!(view.items[view.item_of_row[f as usize] as usize].failed, "{}: failure row {f} not marked", path.display());
        }
        // Every readable line reads back as a body (the lenient parse never refuses an object).
        for (r, row) in ix.rows.iter().enumerate() {
            if row.malformed.is_none() {
                let line = &bytes[row.offset as usize..row.end_offset() as usize];
                assert!(Body::parse(line).is_some(), "{}: line {} did not read back", path.display(), ix.rows[r].line_no);
            }
        }
    }
}

#[test]
fn results_fold_into_the_turn_of_their_call() {
    let (ix, bytes) = synthetic();
    let view = Items::build(&ix, IDLE_SECS);
    // Line 7 is the Bash result of the turn on lines 4-6.
    let row7 = ix.rows.iter().position(|r| r.line_no == 7).unwrap() as u32;
    let item = view.item_of_row[row7 as usize];
    assert_eq!(view.items[item as usize].row, ix.rows.iter().position(|r| r.line_no == 4).unwrap() as u32);
    let rows = view.rows_of(&ix, &view.items[item as usize]);
    assert!(rows.contains(&row7));
    let b = body(&ix, &bytes, row7);
    assert!(b.result_for("toolu_019384ec5f7882b254fe464d").is_some());
}

#[test]
fn dividers_mark_the_three_day_gap_and_the_resume_from_another_client() {
    let (ix, _) = synthetic();
    let view = Items::build(&ix, IDLE_SECS);
    let idle: Vec<i64> = view.items.iter().filter_map(|i| match i.kind { ItemKind::Idle { gap_ms } => Some(gap_ms), _ => None }).collect();
    assert!(idle.iter().any(|&g| g >= 3 * 86_400_000), "{idle:?}");
    let resume = view.items.iter().find_map(|i| match i.kind { ItemKind::Resume { session, client } => Some((session, client)), _ => None }).unwrap();
    assert_eq!(resume.1.map(|c| ix.str(c)), Some("claude-vscode"));
    assert_eq!(resume.0.map(|s| ix.str(s)), Some("5920a089-369c-4a77-abf3-9cebf8fa014e"));
    // A larger threshold swallows the gap.
    let lax = Items::build(&ix, 5 * 86_400);
    assert!(!lax.items.iter().any(|i| matches!(i.kind, ItemKind::Idle { .. })));
}

#[test]
fn filters_narrow_the_list() {
    let (ix, _) = synthetic();
    let view = Items::build(&ix, IDLE_SECS);
    let all = Filter::default().apply(&ix, &view);
    assert!(all.iter().all(|&i| view.items[i as usize].kind != ItemKind::Other), "bookkeeping hidden by default");
    let with_bk = Filter { show_bookkeeping: true, ..Filter::default() }.apply(&ix, &view);
    assert_eq!(with_bk.len(), view.items.len());
    let failures = Filter { failures_only: true, ..Filter::default() }.apply(&ix, &view);
    assert!(!failures.is_empty() && failures.iter().all(|&i| view.items[i as usize].failed));
    let bash = ix.strings.get("Bash").unwrap();
    let bash_turns = Filter { tool: Some(bash), ..Filter::default() }.apply(&ix, &view);
    assert!(!bash_turns.is_empty() && bash_turns.iter().all(|&i| matches!(view.items[i as usize].kind, ItemKind::Turn(_))));
    let users = Filter { role: RoleFilter::User, ..Filter::default() }.apply(&ix, &view);
    assert!(users.iter().all(|&i| view.items[i as usize].kind == ItemKind::User));
}

#[test]
fn lines_and_offsets_find_their_items() {
    let (ix, _) = synthetic();
    let view = Items::build(&ix, IDLE_SECS);
    let row7 = ix.rows.iter().position(|r| r.line_no == 7).unwrap();
    assert_eq!(view.item_at_line(&ix, 7), Some(view.item_of_row[row7]));
    let mid = ix.rows[row7].offset + 10;
    assert_eq!(view.item_at_offset(&ix, mid), Some(view.item_of_row[row7]));
    assert_eq!(view.item_at_line(&ix, 100_000), None);
}

#[test]
fn the_title_is_the_last_custom_title_on_the_synthetic_fixture() {
    use ccscope::model::title::{resolve, source, TitleKind};
    let (ix, bytes) = synthetic();
    let view = Items::build(&ix, IDLE_SECS);
    let title = resolve(&source(&ix, &view), |r| Some(body(&ix, &bytes, r))).expect("a title");
    assert_eq!((title.text.as_str(), title.kind), ("app build fix", TitleKind::Custom));
}
