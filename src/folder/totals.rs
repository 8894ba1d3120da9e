//! A folder's report: every conversation's [`Report`] summed by day, by
//! project, by model and by tool. The CLI's `report DIR` and the session
//! browser's dashboard both fold reports through [`Totals::add`], so what the
//! page shows is the sum of what `ccscope report` prints per conversation.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::model::record::{Level, Unknown};
use crate::model::report::{self, add_f, Day, ModelStats, Report};

/// One tool across the folder.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ToolTotals {
    pub name: String,
    pub calls: u64,
    pub failures: u64,
    /// Conversations that called it.
    pub conversations: u64,
    /// Conversations where a call of it failed.
    pub failing_conversations: u64,
}

/// One project across its conversations.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ProjectTotals {
    pub project: String,
    pub conversations: u64,
    pub active_seconds: f64,
    pub api_turns: u64,
    pub tokens: Option<u64>,
    pub cost_usd: Option<f64>,
}

/// The subagent runs beside the conversations: counted apart from them (a
/// conversation's report is its own file's), and added where labelled
/// "with runs".
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RunTotals {
    pub runs: u64,
    pub tokens: Option<u64>,
    pub cost_usd: Option<f64>,
}

/// An estimate with its runs' added (a conversation's, or the folder's):
/// missing only when every part is.
pub fn with_runs(own: Option<f64>, runs: impl IntoIterator<Item = Option<f64>>) -> Option<f64> {
    let mut sum = own;
    for r in runs {
        add_f(&mut sum, r);
    }
    sum
}

/// The folder's totals.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Totals {
    /// The conversations' subagent runs (not in the figures above).
    #[serde(default)]
    pub runs: RunTotals,
    pub conversations: u64,
    pub api_turns: u64,
    pub tool_calls: u64,
    pub active_seconds: f64,
    pub cost_usd: Option<f64>,
    pub unpriced_models: Vec<String>,
    pub tools: Vec<ToolTotals>,
    pub models: Vec<ModelStats>,
    pub projects: Vec<ProjectTotals>,
    pub days: Vec<Day>,
    /// API messages found in more than one file, counted once: how many
    /// later copies were left out, and what they would have added.
    #[serde(default)]
    pub duplicates: Duplicates,
    /// Files the conversations' edit calls changed, by project and path,
    /// most changes first.
    #[serde(default)]
    pub files: Vec<FileTotals>,
    /// The kinds not understood, across the conversations, in the order
    /// first met.
    #[serde(default)]
    pub unknown: Vec<UnknownTotals>,
    /// Message ids seen so far.
    #[serde(skip)]
    seen: std::collections::HashSet<String>,
}

/// One file's changes across the conversations (of one project).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FileTotals {
    pub project: String,
    /// As the conversations show it (relative to their working directory).
    pub path: String,
    pub conversations: u64,
    pub changes: u64,
    pub failed: u64,
    pub added: u64,
    /// `None` when a change's lines removed are unknown.
    pub removed: Option<u64>,
}

/// One kind not understood (`model::record::not_understood`) across the
/// conversations.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UnknownTotals {
    pub level: Level,
    pub name: Option<String>,
    pub count: u64,
    pub conversations: u64,
    /// Writer versions, in order of first appearance.
    pub versions: Vec<String>,
}

impl UnknownTotals {
    /// Whether `u` (a conversation's) is this kind.
    pub fn is(&self, u: &Unknown) -> bool {
        self.level == u.level && self.name == u.name
    }
}

/// Copies of API messages already counted in another file.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Duplicates {
    pub messages: u64,
    pub tokens: Option<u64>,
    pub cost_usd: Option<f64>,
}

fn sub(slot: &mut Option<u64>, n: Option<u64>) {
    if let (Some(s), Some(n)) = (slot.as_mut(), n) {
        *s = s.saturating_sub(n);
    }
}

fn sub_f(slot: &mut Option<f64>, n: Option<f64>) {
    if let (Some(s), Some(n)) = (slot.as_mut(), n) {
        *s -= n;
    }
}

fn add(slot: &mut Option<u64>, n: Option<u64>) {
    if let Some(n) = n {
        report::add(slot, n);
    }
}

/// The entry of `list` that `is` picks, made by `make` if there is none.
fn slot<T>(list: &mut Vec<T>, is: impl Fn(&T) -> bool, make: impl FnOnce() -> T) -> &mut T {
    let k = match list.iter().position(is) {
        Some(k) => k,
        None => {
            list.push(make());
            list.len() - 1
        }
    };
    &mut list[k]
}


impl Totals {
    /// Adds a conversation's runs: every run beside it, each once (a
    /// legacy root-level run counts where it is linked).
    pub fn add_runs(&mut self, runs: &[crate::folder::Linked]) {
        for l in runs.iter().filter(|l| !l.legacy || l.declined.is_none()) {
            self.runs.runs += 1;
            add(&mut self.runs.tokens, l.run.tokens);
            add_f(&mut self.runs.cost_usd, l.run.cost_usd);
        }
    }

    /// Adds one conversation (its report and each message's share), in
    /// project `project`: a message already counted from another file is
    /// taken out again, and counted in [`Totals::duplicates`].
    pub fn add_conversation(&mut self, project: &str, r: &Report, messages: &[report::MessageShare], files: &[crate::model::changes::FileOut]) {
        self.add(project, r);
        for f in files {
            let x = slot(&mut self.files, |x| x.project == project && x.path == f.path, || FileTotals { project: project.to_string(), path: f.path.clone(), removed: Some(0), ..FileTotals::default() });
            x.conversations += 1;
            x.changes += f.changes;
            x.failed += f.failed;
            x.added += f.added;
            x.removed = x.removed.zip(f.removed).map(|(a, b)| a + b);
        }
        for m in messages {
            if self.seen.insert(m.id.clone()) {
                continue;
            }
            self.duplicates.messages += 1;
            add(&mut self.duplicates.tokens, m.all_tokens());
            add_f(&mut self.duplicates.cost_usd, m.cost_usd);
            self.api_turns = self.api_turns.saturating_sub(1);
            sub_f(&mut self.cost_usd, m.cost_usd);
            if let Some(x) = self.models.iter_mut().find(|x| x.model == m.model) {
                x.api_turns = x.api_turns.saturating_sub(1);
                sub_f(&mut x.cost_usd, m.cost_usd);
                if let Some([i, w, rd, o]) = m.tokens {
                    for (slot, n) in [(&mut x.input_tokens, i), (&mut x.cache_creation_tokens, w), (&mut x.cache_read_tokens, rd), (&mut x.output_tokens, o)] {
                        sub(slot, Some(n));
                    }
                    sub(&mut x.cache_write_1h_tokens, Some(m.cache_write_1h_tokens));
                }
                x.web_search_requests = x.web_search_requests.saturating_sub(m.web_search_requests);
            }
            if let Some(p) = self.projects.iter_mut().find(|p| p.project == project) {
                p.api_turns = p.api_turns.saturating_sub(1);
                sub(&mut p.tokens, m.all_tokens());
                sub_f(&mut p.cost_usd, m.cost_usd);
            }
            if let Some(d) = self.days.iter_mut().find(|d| d.date == m.date) {
                d.api_turns = d.api_turns.saturating_sub(1);
                sub(&mut d.tokens, m.all_tokens());
                sub_f(&mut d.cost_usd, m.cost_usd);
            }
        }
    }

    /// Adds one conversation's report, in project `project`.
    fn add(&mut self, project: &str, r: &Report) {
        self.conversations += 1;
        self.api_turns += r.api_turns;
        self.tool_calls += r.tool_calls;
        self.active_seconds += r.active_seconds.unwrap_or(0.0);
        add_f(&mut self.cost_usd, r.cost_usd);
        for m in &r.unpriced_models {
            if !self.unpriced_models.contains(m) {
                self.unpriced_models.push(m.clone());
            }
        }
        for t in &r.tools {
            let x = slot(&mut self.tools, |x| x.name == t.name, || ToolTotals { name: t.name.clone(), ..ToolTotals::default() });
            x.calls += t.calls;
            x.failures += t.failures;
            x.conversations += 1;
            x.failing_conversations += (t.failures > 0) as u64;
        }
        for m in &r.models {
            let x = slot(&mut self.models, |x| x.model == m.model, || ModelStats { model: m.model.clone(), ..ModelStats::default() });
            x.api_turns += m.api_turns;
            add(&mut x.input_tokens, m.input_tokens);
            add(&mut x.cache_creation_tokens, m.cache_creation_tokens);
            add(&mut x.cache_write_1h_tokens, m.cache_write_1h_tokens);
            x.web_search_requests += m.web_search_requests;
            x.fast_turns += m.fast_turns;
            add(&mut x.cache_read_tokens, m.cache_read_tokens);
            add(&mut x.output_tokens, m.output_tokens);
            add_f(&mut x.cost_usd, m.cost_usd);
        }
        for u in &r.unknown {
            let x = slot(&mut self.unknown, |x| x.is(u), || UnknownTotals { level: u.level, name: u.name.clone(), count: 0, conversations: 0, versions: Vec::new() });
            x.count += u.count;
            x.conversations += 1;
            for v in &u.versions {
                if !x.versions.contains(v) {
                    x.versions.push(v.clone());
                }
            }
        }
        let p = slot(&mut self.projects, |p| p.project == project, || ProjectTotals { project: project.to_string(), ..ProjectTotals::default() });
        p.conversations += 1;
        p.active_seconds += r.active_seconds.unwrap_or(0.0);
        p.api_turns += r.api_turns;
        for m in &r.models {
            add(&mut p.tokens, m.tokens());
        }
        add_f(&mut p.cost_usd, r.cost_usd);
        let mut days: BTreeMap<Option<String>, Day> = self.days.drain(..).map(|d| (d.date.clone(), d)).collect();
        for d in &r.days {
            let x = days.entry(d.date.clone()).or_insert_with(|| Day { date: d.date.clone(), ..Day::default() });
            x.active_seconds += d.active_seconds;
            x.api_turns += d.api_turns;
            add(&mut x.tokens, d.tokens);
            add_f(&mut x.cost_usd, d.cost_usd);
        }
        self.days = days.into_values().collect();
    }

    /// Sorted for reading: tools by failures then calls, models by turns,
    /// projects by active time; days stay in date order.
    pub fn sorted(mut self) -> Totals {
        crate::sort::by(&mut self.tools, |a, b| b.failures.cmp(&a.failures).then(b.calls.cmp(&a.calls)).then_with(|| a.name.cmp(&b.name)));
        crate::sort::by(&mut self.models, |a, b| b.api_turns.cmp(&a.api_turns).then_with(|| a.model.cmp(&b.model)));
        crate::sort::by(&mut self.projects, |a, b| b.active_seconds.total_cmp(&a.active_seconds).then_with(|| a.project.cmp(&b.project)));
        crate::sort::by(&mut self.files, |a, b| b.changes.cmp(&a.changes).then_with(|| a.project.cmp(&b.project)).then_with(|| a.path.cmp(&b.path)));
        self
    }
}

/// One conversation of `ccscope report DIR`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConversationReport {
    pub path: String,
    pub project: String,
    pub report: Report,
    /// The files its edit calls changed.
    #[serde(default)]
    pub files: Vec<crate::model::changes::FileOut>,
}

/// `ccscope report DIR`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FolderReport {
    pub conversations: Vec<ConversationReport>,
    pub totals: Totals,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_duplicate_message_comes_off_a_models_1h_writes_and_web_searches_too() {
        // One API message (with 1-hour cache writes and two web searches) in two files: ccusage #1762's shape.
        let model = Some("claude-opus-5".to_string());
        let stats = ModelStats { model: model.clone(), api_turns: 1, input_tokens: Some(10), cache_creation_tokens: Some(80), cache_write_1h_tokens: Some(50), cache_read_tokens: Some(0), output_tokens: Some(5), web_search_requests: 2, ..ModelStats::default() };
        let report = Report { api_turns: 1, models: vec![stats], ..Report::default() };
        let share = report::MessageShare { id: "msg_1".into(), model, date: None, tokens: Some([10, 80, 0, 5]), cache_write_1h_tokens: 50, web_search_requests: 2, cost_usd: None };
        let mut t = Totals::default();
        t.add_conversation("p", &report, std::slice::from_ref(&share), &[]);
        t.add_conversation("p", &report, std::slice::from_ref(&share), &[]);
        let m = &t.models[0];
        assert_eq!((t.api_turns, m.api_turns, t.duplicates.messages), (1, 1, 1));
        assert_eq!((m.cache_creation_tokens, m.cache_write_1h_tokens, m.web_search_requests), (Some(80), Some(50), 2));
    }

    #[test]
    fn an_estimate_with_runs_is_missing_only_when_every_part_is() {
        assert_eq!(with_runs(None, [None, None]), None);
        assert_eq!(with_runs(Some(1.0), [None, Some(0.5)]), Some(1.5));
        assert_eq!(with_runs(None, [Some(2.0)]), Some(2.0), "a run's price, though the conversation has none");
        assert_eq!(with_runs(Some(1.0), []), Some(1.0));
    }
}
