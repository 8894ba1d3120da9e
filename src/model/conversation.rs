//! The structure of a conversation: API turns, tool calls paired with their
//! results, failed steps, resume segments and client switches. All in file
//! order (file order is the truth), all by row index.

use super::kind::{Kind, Kinds};
use crate::index::{flag, FxHashMap, Index, Row, Sym};

/// One API turn: every assistant record sharing a `message.id` (a record
/// without an id is a turn of its own).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    /// Rows of the turn, in file order.
    pub rows: Vec<u32>,
    pub message_id: Sym,
    /// From the turn's last row (earlier lines carry partial counts).
    pub output_tokens: u64,
    /// Largest prompt size over the turn's rows (all three input counters).
    pub context_tokens: u64,
    /// Some row of the turn carries `usage`: without it the two counts
    /// above are absent, not 0.
    pub has_usage: bool,
}

/// What became of a tool call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallState {
    Ok,
    Error,
    /// The person refused the permission prompt (`toolDenialKind`).
    Denied,
    /// No tool_result anywhere in the file.
    NoResult,
}

/// A tool_use paired with its tool_result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolCall {
    /// Index into `Index::tool_uses`.
    pub tool_use: u32,
    /// Index into `Index::tool_results`, if a result came back.
    pub tool_result: Option<u32>,
    /// Result record time minus call record time, when both have one.
    pub duration_ms: Option<i64>,
    pub state: CallState,
}

/// A run of records with one value of a field (`sessionId`, `entrypoint`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    /// First row carrying this value.
    pub start_row: u32,
    pub value: Sym,
}

/// A system record that reports an error: `level: "error"` or `subtype: "api_error"`.
pub fn is_system_error(ix: &Index, row: &Row) -> bool {
    ix.str(row.level) == "error" || ix.str(row.subtype) == "api_error"
}

/// Whether a record is a failed step: any of the four signals, counted once.
pub fn is_failed(ix: &Index, kinds: &Kinds, row: &Row) -> bool {
    match kinds.of(row) {
        Kind::Assistant => row.has(flag::API_ERROR),
        Kind::User => row.has(flag::DENIAL) || ix.tool_results_of(row).iter().any(|r| r.is_error),
        Kind::System => is_system_error(ix, row),
        _ => false,
    }
}

/// Rows that are failed steps, in file order.
pub fn failures(ix: &Index) -> Vec<u32> {
    let kinds = Kinds::new(ix);
    (0..ix.rows.len() as u32).filter(|&i| is_failed(ix, &kinds, &ix.rows[i as usize])).collect()
}

/// API turns, ordered by their first row.
pub fn turns(ix: &Index) -> Vec<Turn> {
    let kinds = Kinds::new(ix);
    let mut out: Vec<Turn> = Vec::new();
    let mut by_id: FxHashMap<Sym, usize> = FxHashMap::default();
    for (i, row) in ix.rows.iter().enumerate() {
        if kinds.of(row) != Kind::Assistant {
            continue;
        }
        let slot = if row.message_id.is_some() {
            *by_id.entry(row.message_id).or_insert_with(|| {
                out.push(Turn { rows: Vec::new(), message_id: row.message_id, output_tokens: 0, context_tokens: 0, has_usage: false });
                out.len() - 1
            })
        } else {
            out.push(Turn { rows: Vec::new(), message_id: Sym::NONE, output_tokens: 0, context_tokens: 0, has_usage: false });
            out.len() - 1
        };
        let t = &mut out[slot];
        t.rows.push(i as u32);
        t.output_tokens = row.usage.output_tokens as u64;
        t.context_tokens = t.context_tokens.max(row.usage.context_tokens());
        t.has_usage |= row.has(flag::HAS_USAGE);
    }
    out
}

/// Every tool_use of an assistant record, with its result (the first
/// tool_result naming its id), duration and state.
pub fn tool_calls(ix: &Index) -> Vec<ToolCall> {
    let kinds = Kinds::new(ix);
    let mut result_of: FxHashMap<Sym, u32> = FxHashMap::default();
    for (k, r) in ix.tool_results.iter().enumerate() {
        if r.tool_use_id.is_some() {
            result_of.entry(r.tool_use_id).or_insert(k as u32);
        }
    }
    ix.tool_uses
        .iter()
        .enumerate()
        .filter(|(_, u)| kinds.of(&ix.rows[u.row as usize]) == Kind::Assistant)
        .map(|(k, u)| {
            let result = if u.id.is_some() { result_of.get(&u.id).copied() } else { None };
            let (duration_ms, state) = match result {
                None => (None, CallState::NoResult),
                Some(r) => {
                    let res = &ix.tool_results[r as usize];
                    let res_row = &ix.rows[res.row as usize];
                    let call_ms = ix.rows[u.row as usize].timestamp_ms;
                    let duration = call_ms.zip(res_row.timestamp_ms).map(|(a, b)| b - a);
                    let state = if res_row.has(flag::DENIAL) {
                        CallState::Denied
                    } else if res.is_error {
                        CallState::Error
                    } else {
                        CallState::Ok
                    };
                    (duration, state)
                }
            };
            ToolCall { tool_use: k as u32, tool_result: result, duration_ms, state }
        })
        .collect()
}

/// Where a field's value changes, over the records that carry it: the first
/// segment starts at the first record with a value.
fn segments_by(ix: &Index, field: impl Fn(&Row) -> Sym) -> Vec<Segment> {
    let mut out: Vec<Segment> = Vec::new();
    for (i, row) in ix.rows.iter().enumerate() {
        let v = field(row);
        if v.is_some() && out.last().is_none_or(|s| s.value != v) {
            out.push(Segment { start_row: i as u32, value: v });
        }
    }
    out
}

/// Resume segments: a new `sessionId` starts one (resuming mints a new id).
pub fn sessions(ix: &Index) -> Vec<Segment> {
    segments_by(ix, |r| r.session_id)
}

/// Client switches: a new `entrypoint` (claude-desktop → claude-vscode).
pub fn clients(ix: &Index) -> Vec<Segment> {
    segments_by(ix, |r| r.entrypoint)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::Indexer;

    #[test]
    fn a_turn_without_usage_has_no_token_counts_and_a_call_without_times_no_duration() {
        let ix = Indexer::index_bytes(concat!(
            r#"{"type":"assistant","message":{"id":"a","content":[{"type":"tool_use","id":"t","name":"Bash","input":{}}]}}"#, "\n",
            r#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t","content":"ok"}]}}"#, "\n",
            r#"{"type":"assistant","message":{"id":"b","content":"hi","usage":{"output_tokens":0}}}"#, "\n",
        ).as_bytes());
        let t = turns(&ix);
        assert!(!t[0].has_usage, "no usage: the counts are absent");
        assert!(t[1].has_usage && t[1].output_tokens == 0, "a recorded 0 is a 0");
        let c = tool_calls(&ix);
        assert_eq!((c[0].state, c[0].duration_ms), (CallState::Ok, None));
    }
}
