//! `ccscope report`: where the context filled, which tools failed, where
//! the time and the tokens went. The insights panel, the chart's markers,
//! the folder dashboard and the CLI all read this one computation.
//!
//! Invariants (pinned by tests): `tools[].calls` sum to contract v1's
//! `tool_calls`; `models[].api_turns` sum to `assistant_messages` (every API
//! turn counted once, under the model of its first record that names one,
//! `<synthetic>` included); `models[].output_tokens` sum to `output_tokens`
//! (each turn's last record); `stretches` lengths sum to `active_seconds`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::conversation::{self, CallState, ToolCall, Turn};
use super::time::Timeline;
use super::prices::{cost_usd, price_of, Spend};
use super::stats::Stats;
use super::items::Items;
use super::kind::{Kind, Kinds, COMPACT_BOUNDARY, SYNTHETIC_MODEL};
use crate::fmt;
use crate::index::{FxHashMap, Index, Sym};

/// One tool name's calls.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ToolStats {
    pub name: String,
    pub calls: u64,
    /// Errors plus denials.
    pub failures: u64,
    pub errors: u64,
    pub denials: u64,
    /// Calls with no tool_result anywhere in the file.
    pub unanswered: u64,
    /// Nearest-rank percentiles of the calls with both timestamps; `None`
    /// when no call has a duration.
    pub p50_ms: Option<i64>,
    pub p95_ms: Option<i64>,
    pub total_ms: Option<i64>,
}

/// One model's API turns and tokens.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ModelStats {
    /// `None`: the records name no model.
    pub model: Option<String>,
    pub api_turns: u64,
    /// Token sums over the turns that carry `usage`; `None` when none does.
    pub input_tokens: Option<u64>,
    pub cache_creation_tokens: Option<u64>,
    /// Of the cache writes, those with the 1-hour lifetime (priced at its
    /// own rate).
    pub cache_write_1h_tokens: Option<u64>,
    pub cache_read_tokens: Option<u64>,
    pub output_tokens: Option<u64>,
    /// Web searches the API ran (priced per search).
    pub web_search_requests: u64,
    /// Turns served in fast mode (`usage.speed: "fast"`): in `cost_usd` at
    /// standard rates (see [`super::prices`]).
    pub fast_turns: u64,
    /// Estimated at list price ([`super::prices`]); `None`: no price known
    /// (or no tokens recorded). `<synthetic>` marks failed calls: 0.
    pub cost_usd: Option<f64>,
}

impl ModelStats {
    /// Every token of its turns (input, cache write and read, output);
    /// `None` when no turn carries usage.
    pub fn tokens(&self) -> Option<u64> {
        let kinds = [self.input_tokens, self.cache_creation_tokens, self.cache_read_tokens, self.output_tokens];
        kinds.iter().any(Option::is_some).then(|| kinds.iter().flatten().sum())
    }
}

/// Failed steps by signal (contract v1's counts).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Failures {
    pub tool_errors: u64,
    pub api_errors: u64,
    pub system_errors: u64,
    pub denials: u64,
}

/// An active stretch (see [`super::time::Stretch`]), for people and scripts.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StretchOut {
    pub start: String,
    pub end: String,
    pub first_line: u32,
    pub last_line: u32,
    pub seconds: f64,
}

/// A gap longer than the idle threshold, before line `line`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Gap {
    pub line: u32,
    pub seconds: f64,
}

/// A compaction boundary.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CompactionOut {
    pub line: u32,
    pub trigger: Option<String>,
    pub pre_tokens: Option<u64>,
    pub post_tokens: Option<u64>,
}

/// What happened on one UTC day (`date` "YYYY-MM-DD"; `None`: records
/// without a timestamp before them).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Day {
    pub date: Option<String>,
    pub active_seconds: f64,
    pub api_turns: u64,
    /// All four kinds; `None` when no turn that day carries `usage`.
    pub tokens: Option<u64>,
    pub cost_usd: Option<f64>,
}

/// One API message's share of a report, kept so a folder can count a
/// message that appears in more than one file once (a resumed session's
/// file may copy earlier messages: ccusage #1762 counted them twice).
/// Keyed by `message.id`; a turn without one is never a duplicate.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MessageShare {
    pub id: String,
    /// `None`: the records name no model (as [`ModelStats::model`]).
    pub model: Option<String>,
    /// The UTC day it was sent on (as [`Day::date`]).
    pub date: Option<String>,
    /// Input, cache write, cache read and output; `None` without usage.
    pub tokens: Option<[u64; 4]>,
    /// Of the cache writes, those at the 1-hour rate (0 without usage).
    #[serde(default)]
    pub cache_write_1h_tokens: u64,
    #[serde(default)]
    pub web_search_requests: u64,
    pub cost_usd: Option<f64>,
}

impl MessageShare {
    /// All four kinds together.
    pub fn all_tokens(&self) -> Option<u64> {
        self.tokens.map(|t| t.iter().sum())
    }
}

/// The report of one transcript.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub api_turns: u64,
    pub tool_calls: u64,
    pub tools: Vec<ToolStats>,
    pub failures: Failures,
    pub models: Vec<ModelStats>,
    /// Sum over the priced models; `None` when no model has a price.
    pub cost_usd: Option<f64>,
    /// Models whose tokens are not in `cost_usd`.
    pub unpriced_models: Vec<String>,
    pub peak_context_tokens: Option<u64>,
    pub compactions: Vec<CompactionOut>,
    /// `None` without timestamps.
    pub active_seconds: Option<f64>,
    pub wall_seconds: Option<f64>,
    pub stretches: Vec<StretchOut>,
    pub idle_gaps: Vec<Gap>,
    pub days: Vec<Day>,
    /// Turns served in fast mode, all models (their premium is not in
    /// `cost_usd`).
    pub fast_turns: u64,
    pub web_search_requests: u64,
    /// Record types, system subtypes, attachment types and content blocks
    /// ccscope does not understand ([`super::record::not_understood`]).
    pub unknown: Vec<super::record::Unknown>,
}

/// Rows of compaction boundaries (system records with subtype
/// `compact_boundary`, as contract v1 counts them), in file order.
pub fn compaction_rows(ix: &Index) -> Vec<u32> {
    let kinds = Kinds::new(ix);
    let boundary = ix.strings.get(COMPACT_BOUNDARY).unwrap_or(Sym(u32::MAX));
    (0..ix.rows.len() as u32)
        .filter(|&i| {
            let row = &ix.rows[i as usize];
            kinds.of(row) == Kind::System && row.subtype == boundary
        })
        .collect()
}

/// `values` sorted; the nearest-rank `q` percentile (`q` in 0..=1).
pub fn percentile(sorted: &[i64], q: f64) -> Option<i64> {
    if sorted.is_empty() {
        return None;
    }
    let rank = (q * sorted.len() as f64).ceil().max(1.0) as usize;
    Some(sorted[rank.min(sorted.len()) - 1])
}

/// The model of a turn: its first record that names one.
pub fn turn_model(ix: &Index, t: &Turn) -> Sym {
    t.rows.iter().map(|&r| ix.rows[r as usize].model).find(|m| m.is_some()).unwrap_or(Sym::NONE)
}

/// Token counts of a turn, from its last record (earlier records of a
/// `message.id` carry partial output counts): `[input, cache write, cache
/// read, output]`, or `None` without `usage`.
pub fn turn_tokens(ix: &Index, t: &Turn) -> Option<[u64; 4]> {
    let last = &ix.rows[*t.rows.last()? as usize];
    t.has_usage.then(|| {
        let u = &last.usage;
        [u.input_tokens as u64, u.cache_creation_input_tokens as u64, u.cache_read_input_tokens as u64, u.output_tokens as u64]
    })
}

/// What a turn spent beyond its four token counts, from its last record:
/// its 1-hour cache writes, its web searches, and whether it ran in fast
/// mode.
pub fn turn_extras(ix: &Index, t: &Turn) -> (u64, u64, bool) {
    match t.rows.last().map(|&r| &ix.rows[r as usize]).filter(|_| t.has_usage) {
        Some(last) => (last.usage.cache_creation_1h_input_tokens as u64, last.usage.web_search_requests as u64, last.has(crate::index::flag::FAST)),
        None => (0, 0, false),
    }
}

/// The estimated cost of `spend` by `model`: `None` without a price.
pub fn cost_of(model: &str, spend: &Spend) -> Option<f64> {
    if model == SYNTHETIC_MODEL {
        return Some(0.0);
    }
    price_of(model).map(|p| cost_usd(p, spend))
}

fn spend_of(tokens: [u64; 4], cache_write_1h: u64, web_searches: u64) -> Spend {
    Spend { input: tokens[0], cache_write: tokens[1], cache_write_1h, cache_read: tokens[2], output: tokens[3], web_searches }
}

/// Adds `n` to a sum that is absent until something is added.
pub fn add(slot: &mut Option<u64>, n: u64) {
    *slot = Some(slot.unwrap_or(0) + n);
}

/// Adds `n`, if present, to a sum that is absent until something is added.
pub fn add_f(slot: &mut Option<f64>, n: Option<f64>) {
    if let Some(n) = n {
        *slot = Some(slot.unwrap_or(0.0) + n);
    }
}

/// The clamped clock at each row: the running maximum of the timestamps
/// so far (`None` before the first).
pub fn clamped_ms(ix: &Index) -> Vec<Option<i64>> {
    let mut now: Option<i64> = None;
    ix.rows
        .iter()
        .map(|r| {
            if let Some(ts) = r.timestamp_ms {
                now = Some(now.map_or(ts, |n| n.max(ts)));
            }
            now
        })
        .collect()
}

/// ISO 8601 in UTC with milliseconds.
pub fn iso_ms(ms: i64) -> String {
    let s = fmt::utc_ms(ms);
    format!("{}T{}.{:03}Z", fmt::utc_date(ms), &s[11..19], ms.rem_euclid(1000))
}

fn tools(ix: &Index, calls: &[ToolCall]) -> Vec<ToolStats> {
    let mut by_name: BTreeMap<&str, (ToolStats, Vec<i64>)> = BTreeMap::new();
    for c in calls {
        let name = ix.tool_uses[c.tool_use as usize].name;
        let name = if name.is_some() { ix.str(name) } else { "(unnamed)" };
        let (t, durations) = by_name.entry(name).or_insert_with(|| (ToolStats { name: name.to_string(), ..ToolStats::default() }, Vec::new()));
        t.calls += 1;
        match c.state {
            CallState::Error => t.errors += 1,
            CallState::Denied => t.denials += 1,
            CallState::NoResult => t.unanswered += 1,
            CallState::Ok => {}
        }
        durations.extend(c.duration_ms);
    }
    let mut out: Vec<ToolStats> = by_name
        .into_values()
        .map(|(mut t, mut d)| {
            d.sort_unstable();
            t.failures = t.errors + t.denials;
            t.p50_ms = percentile(&d, 0.5);
            t.p95_ms = percentile(&d, 0.95);
            t.total_ms = (!d.is_empty()).then(|| d.iter().sum());
            t
        })
        .collect();
    crate::sort::by(&mut out, |a, b| b.calls.cmp(&a.calls).then_with(|| a.name.cmp(&b.name)));
    out
}

impl Report {
    /// The report of `ix`, whose list at some idle threshold is `view` (its
    /// turns, calls and timeline are reused), with contract v1's `stats`.
    pub fn compute(ix: &Index, view: &Items, stats: &Stats) -> Report {
        Report::from_parts(ix, &view.turns, &view.calls, &view.timeline, stats)
    }

    /// [`Report::compute`] from the parts of a view (no list needed).
    pub fn from_parts(ix: &Index, turns: &[Turn], calls: &[ToolCall], tl: &Timeline, stats: &Stats) -> Report {
        Report::build(ix, turns, calls, tl, stats, None)
    }

    /// [`Report::from_parts`] and each API message's share, in file order
    /// (what a folder's totals count a message once by), from one pass
    /// over the turns.
    pub fn with_shares(ix: &Index, turns: &[Turn], calls: &[ToolCall], tl: &Timeline, stats: &Stats) -> (Report, Vec<MessageShare>) {
        let mut shares = Vec::new();
        let r = Report::build(ix, turns, calls, tl, stats, Some(&mut shares));
        (r, shares)
    }

    fn build(ix: &Index, turns: &[Turn], calls: &[ToolCall], tl: &Timeline, stats: &Stats, mut shares: Option<&mut Vec<MessageShare>>) -> Report {
        let line = |row: u32| ix.rows[row as usize].line_no;
        let clock = clamped_ms(ix);
        let mut r = Report {
            api_turns: turns.len() as u64,
            tool_calls: calls.len() as u64,
            tools: tools(ix, calls),
            unknown: super::record::not_understood(ix),
            failures: Failures { tool_errors: stats.tool_errors, api_errors: stats.api_errors, system_errors: stats.system_errors, denials: stats.denials },
            ..Report::default()
        };
        // Models and days, per turn.
        let mut models: Vec<ModelStats> = Vec::new();
        let mut model_slot: FxHashMap<Sym, usize> = FxHashMap::default();
        let mut days: BTreeMap<Option<i64>, Day> = BTreeMap::new();
        let day_of = |ms: Option<i64>| ms.map(|m| m.div_euclid(86_400_000));
        for t in turns {
            let model = turn_model(ix, t);
            let k = *model_slot.entry(model).or_insert_with(|| {
                models.push(ModelStats { model: model.is_some().then(|| ix.str(model).to_string()), ..ModelStats::default() });
                models.len() - 1
            });
            let m = &mut models[k];
            m.api_turns += 1;
            let tokens = turn_tokens(ix, t);
            let (long, searches, fast) = turn_extras(ix, t);
            let cost = tokens.and_then(|tk| cost_of(ix.str(model), &spend_of(tk, long, searches)));
            if let Some([i, w, rd, o]) = tokens {
                add(&mut m.input_tokens, i);
                add(&mut m.cache_creation_tokens, w);
                add(&mut m.cache_write_1h_tokens, long);
                add(&mut m.cache_read_tokens, rd);
                add(&mut m.output_tokens, o);
            }
            m.web_search_requests += searches;
            m.fast_turns += fast as u64;
            let first = t.rows[0] as usize;
            if let (Some(s), true) = (shares.as_deref_mut(), t.message_id.is_some()) {
                s.push(MessageShare {
                    id: ix.str(t.message_id).to_string(),
                    model: m.model.clone(),
                    date: day_of(clock[first]).map(|d| fmt::utc_date(d * 86_400_000)),
                    tokens,
                    cache_write_1h_tokens: long,
                    web_search_requests: searches,
                    cost_usd: cost,
                });
            }
            let day = days.entry(day_of(clock[first])).or_default();
            day.api_turns += 1;
            if let Some(tk) = tokens {
                add(&mut day.tokens, tk.iter().sum());
            }
            add_f(&mut day.cost_usd, cost);
        }
        for m in &mut models {
            let name = m.model.as_deref().unwrap_or("");
            let tk = [m.input_tokens, m.cache_creation_tokens, m.cache_read_tokens, m.output_tokens];
            m.cost_usd = match tk {
                [Some(i), Some(w), Some(rd), Some(o)] => cost_of(name, &spend_of([i, w, rd, o], m.cache_write_1h_tokens.unwrap_or(0), m.web_search_requests)),
                _ => None,
            };
            r.fast_turns += m.fast_turns;
            r.web_search_requests += m.web_search_requests;
            match m.cost_usd {
                Some(c) => r.cost_usd = Some(r.cost_usd.unwrap_or(0.0) + c),
                None => r.unpriced_models.push(m.model.clone().unwrap_or_else(|| "(no model named)".into())),
            }
        }
        r.models = models;
        // Contract v1's peak, absent when no turn recorded usage.
        r.peak_context_tokens = turns.iter().any(|t| t.has_usage).then_some(stats.peak_context_tokens);
        // Time: stretches, gaps, and active time by the day it ended on.
        if let Some((active_ms, wall_ms)) = tl.measured() {
            r.active_seconds = Some(active_ms as f64 / 1000.0);
            r.wall_seconds = Some(wall_ms as f64 / 1000.0);
        }
        r.stretches = tl
            .stretches
            .iter()
            .map(|s| StretchOut { start: iso_ms(s.start_ms), end: iso_ms(s.end_ms), first_line: line(s.first_row), last_line: line(s.last_row), seconds: s.len_ms() as f64 / 1000.0 })
            .collect();
        r.idle_gaps = tl.idle_gaps.iter().map(|&(row, gap)| Gap { line: line(row), seconds: gap as f64 / 1000.0 }).collect();
        let mut prev: Option<i64> = None;
        let idle_rows: std::collections::HashSet<u32> = tl.idle_gaps.iter().map(|g| g.0).collect();
        for (i, now) in clock.iter().enumerate() {
            if let (Some(p), Some(n)) = (prev, *now) {
                if n > p && !idle_rows.contains(&(i as u32)) {
                    days.entry(day_of(Some(n))).or_default().active_seconds += (n - p) as f64 / 1000.0;
                }
            }
            prev = *now;
        }
        r.days = days
            .into_iter()
            .map(|(d, mut day)| {
                day.date = d.map(|d| fmt::utc_date(d * 86_400_000));
                day
            })
            .collect();
        r.compactions = compaction_rows(ix)
            .into_iter()
            .map(|row| {
                let meta = ix.compactions.iter().find(|c| c.row == row);
                CompactionOut {
                    line: line(row),
                    trigger: meta.filter(|c| c.trigger.is_some()).map(|c| ix.str(c.trigger).to_string()),
                    pre_tokens: meta.and_then(|c| c.pre_tokens),
                    post_tokens: meta.and_then(|c| c.post_tokens),
                }
            })
            .collect();
        r
    }

    /// Everything at the default idle threshold, as the CLI prints it.
    pub fn of_index(ix: &Index, idle_gap_secs: u64) -> Report {
        let (turns, calls, tl) = (conversation::turns(ix), conversation::tool_calls(ix), super::time::timeline(ix, idle_gap_secs));
        Report::from_parts(ix, &turns, &calls, &tl, &Stats::from_parts(ix, &turns, &calls, &tl))
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }
}
