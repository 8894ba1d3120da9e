//! `ccscope stats`: the contract-v1 facts of one transcript.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::conversation::{is_failed, is_system_error, tool_calls, turns, CallState, ToolCall, Turn};
use super::subagents::SubagentLink;
use super::time::{timeline, Timeline};
use super::facts::first_seen;
use super::kind::{Kind, Kinds, COMPACT_BOUNDARY};
use crate::index::{flag, Index};

/// Gaps longer than this (15 minutes) are idle by default.
pub const DEFAULT_IDLE_GAP_SECS: u64 = 900;

/// Contract v1. Field names and meanings are fixed: see the issue text and
/// `../shared/fixtures/expected/`. Serialised in key order.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    pub active_seconds: f64,
    pub api_errors: u64,
    pub assistant_messages: u64,
    pub backward_steps: u64,
    pub bytes: u64,
    pub compactions: u64,
    pub denials: u64,
    pub entrypoints: Vec<String>,
    pub failed_steps: u64,
    pub images: u64,
    pub lines: u64,
    pub malformed_lines: u64,
    pub max_line_bytes: u64,
    pub output_tokens: u64,
    pub peak_context_tokens: u64,
    pub persisted_outputs: u64,
    pub roots: u64,
    pub session_ids: Vec<String>,
    pub sidechain_records: u64,
    pub subagents: Vec<SubagentLink>,
    pub system_errors: u64,
    pub timestamped: u64,
    pub tool_calls: u64,
    pub tool_errors: u64,
    pub tool_results: u64,
    pub types: BTreeMap<String, u64>,
    pub unpaired_tool_calls: u64,
    pub wall_seconds: f64,
}

impl Stats {
    /// Computes every fact but `subagents` (which needs the runs beside the
    /// file: pass them through [`super::subagents::link`]).
    pub fn compute(ix: &Index, idle_gap_secs: u64) -> Stats {
        Stats::from_parts(ix, &turns(ix), &tool_calls(ix), &timeline(ix, idle_gap_secs))
    }

    /// [`Stats::compute`] from the turns, calls and timeline of `ix`
    /// already at hand (a caller that needs them too computes them once).
    pub fn from_parts(ix: &Index, turns: &[Turn], calls: &[ToolCall], t: &Timeline) -> Stats {
        let kinds = Kinds::new(ix);
        let parsed = || ix.rows.iter().filter(|r| r.malformed.is_none());
        let mut s = Stats {
            bytes: ix.len_bytes,
            lines: ix.rows.len() as u64,
            malformed_lines: ix.malformed_lines as u64,
            max_line_bytes: ix.max_line_bytes as u64,
            session_ids: first_seen(ix, parsed().map(|r| r.session_id)),
            entrypoints: first_seen(ix, parsed().map(|r| r.entrypoint)),
            ..Stats::default()
        };
        for row in parsed() {
            let kind = kinds.of(row);
            let ty = if row.record_type.is_some() { ix.str(row.record_type) } else { "(none)" };
            *s.types.entry(ty.to_string()).or_default() += 1;
            s.images += row.images as u64;
            if row.has(flag::HAS_UUID) && row.has(flag::PARENT_NONE) {
                s.roots += 1;
            }
            if row.has(flag::SIDECHAIN) {
                s.sidechain_records += 1;
            }
            match kind {
                Kind::Assistant => {
                    s.peak_context_tokens = s.peak_context_tokens.max(row.usage.context_tokens());
                    s.tool_calls += row.tool_uses_len as u64;
                    s.api_errors += row.has(flag::API_ERROR) as u64;
                }
                Kind::User => {
                    for tr in ix.tool_results_of(row) {
                        s.tool_results += 1;
                        s.persisted_outputs += tr.persisted as u64;
                        s.tool_errors += tr.is_error as u64;
                    }
                    s.denials += row.has(flag::DENIAL) as u64;
                }
                Kind::System => {
                    s.system_errors += is_system_error(ix, row) as u64;
                    if ix.str(row.subtype) == COMPACT_BOUNDARY {
                        s.compactions += 1;
                    }
                }
                _ => {}
            }
            s.failed_steps += is_failed(ix, &kinds, row) as u64;
        }
        // Calls with no tool_result anywhere in the file.
        s.unpaired_tool_calls = calls.iter().filter(|c| c.state == CallState::NoResult).count() as u64;
        // API turns: grouped by message.id, output from each turn's last line.
        s.assistant_messages = turns.len() as u64;
        s.output_tokens = turns.iter().map(|t| t.output_tokens).sum();
        s.timestamped = t.timestamped;
        s.backward_steps = t.backward_steps;
        s.wall_seconds = t.wall_ms() as f64 / 1000.0;
        s.active_seconds = t.active_ms as f64 / 1000.0;
        s
    }

    /// The contract-v1 JSON object, pretty-printed.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }

    /// The same facts on one line (`stats --follow` prints one per change).
    pub fn to_json_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }
}
