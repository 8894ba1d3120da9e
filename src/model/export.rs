//! Export a conversation (or the items a filter shows, or one turn) as
//! Markdown or JSON: prompts, assistant text, each tool call with its input
//! and result folded in `<details>`, failures marked, system records,
//! dividers, and a header with the facts. The page and `ccscope export`
//! call this one function with the same bodies, so both give the same bytes.
//!
//! Bodies come from `body_of(row)`; a row whose body is missing (unreadable)
//! is exported as "(not readable)", never silently dropped.

use std::borrow::Borrow;

use serde::Serialize;
use serde_json::Value;

use super::body::Body;
use super::conversation::CallState;
use super::facts::Facts;
use super::safe_md::{self, code_block};
use super::stats::Stats;
use super::title::Title;
use super::verdict::SKIPPED_NAMED;
use super::items::{compaction_words, ItemKind, Items};
use super::kind::SYNTHETIC_MODEL;
use crate::fmt;
use crate::index::{flag, Index};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Markdown,
    Json,
}

impl Format {
    pub fn parse(s: &str) -> Option<Format> {
        match s {
            "md" | "markdown" => Some(Format::Markdown),
            "json" => Some(Format::Json),
            _ => None,
        }
    }

    pub fn extension(self) -> &'static str {
        match self {
            Format::Markdown => "md",
            Format::Json => "json",
        }
    }
}

/// Every row whose body an export of `items` reads: the items' own rows and
/// their calls' results, and the title's rows; ascending, each once.
pub fn rows_needed(ix: &Index, view: &Items, items: &[u32], title: &super::title::TitleSource) -> Vec<u32> {
    let mut rows: Vec<u32> = items.iter().filter_map(|&i| view.items.get(i as usize)).flat_map(|it| view.rows_of(ix, it)).collect();
    rows.extend(title.rows());
    rows.sort_unstable();
    rows.dedup();
    rows
}

/// What the export is of, and what it says about itself.
pub struct Export<'a> {
    pub ix: &'a Index,
    pub view: &'a Items,
    pub stats: &'a Stats,
    pub facts: &'a Facts,
    /// The file's name.
    pub name: &'a str,
    pub title: Option<&'a Title>,
    /// Item ids, ascending.
    pub items: &'a [u32],
    /// "the whole conversation", "12 items the filter shows", "one turn".
    pub scope: &'a str,
    /// Subagent runs to nest under the calls that spawned them.
    pub nested: &'a [Nested],
    /// 0 for a conversation; 1 for a run inside one (no header of its own,
    /// smaller headings).
    pub depth: u8,
}

/// A subagent run's own export, nested under the call that spawned it.
#[derive(Clone, Debug)]
pub struct Nested {
    pub tool_use_id: String,
    pub agent_id: String,
    pub api_turns: u64,
    pub markdown: String,
    pub json: Value,
}

impl Nested {
    /// The export of the run file `bytes` (the whole run, as a conversation
    /// is exported), to nest under the call `tool_use_id`.
    pub fn build(agent_id: &str, tool_use_id: &str, bytes: &[u8]) -> Nested {
        Nested::build_with(agent_id, tool_use_id, bytes, |_| {})
    }

    /// [`Nested::build`], each body passed through `each` as it is parsed
    /// (the page redacts there).
    pub fn build_with(agent_id: &str, tool_use_id: &str, bytes: &[u8], mut each: impl FnMut(&mut Body)) -> Nested {
        let ix = crate::index::Indexer::index_bytes(bytes);
        let view = Items::build(&ix, super::DEFAULT_IDLE_GAP_SECS);
        let stats = Stats::compute(&ix, super::DEFAULT_IDLE_GAP_SECS);
        let facts = Facts::compute(&ix, &view);
        let items = super::items::Filter::default().apply(&ix, &view);
        let name = format!("agent-{agent_id}.jsonl");
        let e = Export { ix: &ix, view: &view, stats: &stats, facts: &facts, name: &name, title: None, items: &items, scope: "the whole run", nested: &[], depth: 1 };
        let mut body_of = |r: u32| {
            let row = &ix.rows[r as usize];
            let mut b = Body::parse(bytes.get(row.offset as usize..row.end_offset() as usize)?)?;
            each(&mut b);
            Some(b)
        };
        Nested {
            tool_use_id: tool_use_id.to_string(),
            agent_id: agent_id.to_string(),
            api_turns: stats.assistant_messages,
            markdown: e.render(Format::Markdown, &mut body_of),
            json: serde_json::from_str(&e.render(Format::Json, &mut body_of)).unwrap_or(Value::Null),
        }
    }
}

#[derive(Serialize)]
struct CallOut {
    name: Option<String>,
    input: Option<Value>,
    state: &'static str,
    duration_ms: Option<i64>,
    result: Option<String>,
    result_line: Option<u32>,
    /// Subagent runs this call spawned, each exported whole.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    runs: Vec<Value>,
    #[serde(skip)]
    runs_md: Vec<(String, u64, String)>,
}

/// An image block in words: `[image: image/png, 12.3 kB]` (the export holds
/// no image data).
fn image_words(b: &super::body::Block) -> String {
    let src = b.source.as_ref();
    let media = src.and_then(|s| s.media_type.as_deref()).unwrap_or("unknown type");
    let len = src.and_then(|s| s.data.as_deref()).map_or(0, |d| d.len() as u64 * 3 / 4);
    format!("[image: {media}, {}]", fmt::bytes(len))
}

/// `text`, then the images among `blocks` in words, the non-empty ones
/// joined by `sep` (an image-only message is not an empty block).
fn with_images(text: String, blocks: &[super::body::Block], sep: &str) -> String {
    let images = blocks.iter().filter(|x| x.kind.is("image")).map(image_words);
    std::iter::once(text).chain(images).filter(|t| !t.is_empty()).collect::<Vec<_>>().join(sep)
}

/// A tool result's text, and its images in words.
fn result_words(b: &super::body::Block) -> String {
    with_images(b.result_text(), b.inner_blocks(), "\n")
}

/// Consecutive malformed items: the first [`SKIPPED_NAMED`] are exported
/// one by one, the rest as one count.
#[derive(Default)]
struct SkippedRun {
    named: usize,
    more: u64,
    first_more: u32,
    last_more: u32,
}

impl SkippedRun {
    /// Another malformed line: whether it is exported on its own.
    fn name(&mut self, line: u32) -> bool {
        if self.named < SKIPPED_NAMED {
            self.named += 1;
            return true;
        }
        if self.more == 0 {
            self.first_more = line;
        }
        self.more += 1;
        self.last_more = line;
        false
    }

    /// The run ended: its count, if lines were left out.
    fn end(&mut self, out: &mut Vec<ItemOut>) {
        if self.more > 0 {
            out.push(ItemOut {
                kind: "malformed",
                line: self.first_more,
                timestamp: None,
                failed: false,
                model: None,
                text: Some(format!(
                    "… and {} more {} that could not be read (lines {}–{})",
                    fmt::count(self.more),
                    fmt::agree(self.more, "line", "lines"),
                    fmt::count(u64::from(self.first_more)),
                    fmt::count(u64::from(self.last_more))
                )),
                calls: Vec::new(),
            });
        }
        *self = SkippedRun::default();
    }
}

#[derive(Serialize)]
struct ItemOut {
    kind: &'static str,
    line: u32,
    timestamp: Option<String>,
    failed: bool,
    model: Option<String>,
    text: Option<String>,
    calls: Vec<CallOut>,
}

#[derive(Serialize)]
struct Doc<'a> {
    file: &'a str,
    title: Option<&'a str>,
    scope: &'a str,
    lines: u64,
    api_turns: u64,
    tool_calls: u64,
    failed_steps: u64,
    compactions: u64,
    models: &'a [String],
    first: Option<String>,
    last: Option<String>,
    active_seconds: Option<f64>,
    wall_seconds: Option<f64>,
    items: Vec<ItemOut>,
}

fn state_word(s: CallState) -> &'static str {
    match s {
        CallState::Ok => "ok",
        CallState::Error => "error",
        CallState::Denied => "denied",
        CallState::NoResult => "no result",
    }
}

impl Export<'_> {
    fn items_out<B: Borrow<Body>>(&self, body_of: &mut impl FnMut(u32) -> Option<B>) -> Vec<ItemOut> {
        let ix = self.ix;
        let mut out = Vec::with_capacity(self.items.len());
        // A run of malformed items: how many were named, and the rest counted
        // (a file of garbage exports its first few lines and a count).
        let mut skipped = SkippedRun::default();
        for &id in self.items {
            let Some(item) = self.view.items.get(id as usize) else { continue };
            let row = &ix.rows[item.row as usize];
            if item.kind != ItemKind::Malformed {
                skipped.end(&mut out);
            } else if !skipped.name(row.line_no) {
                continue;
            }
            let mut o = ItemOut {
                kind: "",
                line: row.line_no,
                timestamp: row.timestamp_ms.map(crate::model::report::iso_ms),
                failed: item.failed,
                model: None,
                text: None,
                calls: Vec::new(),
            };
            match item.kind {
                ItemKind::Turn(t) => {
                    o.kind = if row.has(flag::API_ERROR) { "api_error" } else { "assistant" };
                    let turn = &self.view.turns[t as usize];
                    let m = crate::model::report::turn_model(ix, turn);
                    o.model = m.is_some().then(|| ix.str(m).to_string());
                    let mut texts = Vec::new();
                    for &r in &turn.rows {
                        let Some(b) = body_of(r) else {
                            texts.push(format!("(line {} not readable)", ix.rows[r as usize].line_no));
                            continue;
                        };
                        let b = b.borrow();
                        if let Some(t) = b.text() {
                            texts.push(t.to_string());
                        }
                        texts.extend(b.blocks().iter().filter(|bl| bl.kind.is("text")).filter_map(|bl| bl.text.as_deref().map(str::to_string)));
                        if o.model.as_deref() == Some(SYNTHETIC_MODEL) && texts.is_empty() {
                            texts.push(b.api_error_words());
                        }
                        let r_row = &ix.rows[r as usize];
                        for (k, u) in ix.tool_uses_of(r_row).iter().enumerate() {
                            let Some(call) = self.view.call_of(r_row.tool_uses_start + k as u32) else { continue };
                            let block = b.blocks().iter().filter(|bl| bl.kind.is("tool_use")).nth(k);
                            let result = call.tool_result.map(|res| ix.tool_results[res as usize].row);
                            let result_text = result.and_then(|rr| {
                                let id = block.and_then(|bl| bl.id.as_deref().map(str::to_string))?;
                                let rb = body_of(rr)?;
                                let text = rb.borrow().result_for(&id).map(result_words);
                                text
                            });
                            let call_id = block.and_then(|bl| bl.id.as_deref());
                            let runs: Vec<&Nested> = self.nested.iter().filter(|n| Some(n.tool_use_id.as_str()) == call_id).collect();
                            o.calls.push(CallOut {
                                runs: runs.iter().map(|n| n.json.clone()).collect(),
                                runs_md: runs.iter().map(|n| (n.agent_id.clone(), n.api_turns, n.markdown.clone())).collect(),
                                name: u.name.is_some().then(|| ix.str(u.name).to_string()),
                                input: block.and_then(|bl| bl.input.clone()),
                                state: state_word(call.state),
                                duration_ms: call.duration_ms,
                                result: result_text,
                                result_line: result.map(|rr| ix.rows[rr as usize].line_no),
                            });
                        }
                    }
                    o.text = Some(texts.join("\n\n")).filter(|t| !t.is_empty());
                }
                ItemKind::User => {
                    // A compaction's summary is the client's, not a prompt.
                    o.kind = if row.has(flag::COMPACT_SUMMARY) { "compaction_summary" } else { "prompt" };
                    o.text = Some(body_of(item.row).map_or_else(|| "(not readable)".to_string(), |b| {
                        let b = b.borrow();
                        let p = b.prompt_text().into_owned();
                        let text = if p.is_empty() {
                            b.blocks().iter().filter(|bl| bl.kind.is("tool_result")).map(result_words).collect::<Vec<_>>().join("\n")
                        } else {
                            p
                        };
                        with_images(text, b.blocks(), "\n\n")
                    }));
                }
                ItemKind::System => {
                    o.kind = "system";
                    let compaction = ix.compactions.iter().find(|c| c.row == item.row);
                    o.text = Some(if ix.str(row.subtype) == crate::model::COMPACT_BOUNDARY {
                        compaction_words(ix, compaction)
                    } else {
                        body_of(item.row).and_then(|b| {
                            let b = b.borrow();
                            let words = b.api_error_words();
                            b.content.as_deref().map(str::to_string).or((!words.is_empty()).then_some(words))
                        }).unwrap_or_else(|| ix.str(row.subtype).to_string())
                    });
                }
                ItemKind::Other => {
                    o.kind = "bookkeeping";
                    o.text = Some(ix.str(row.record_type).to_string());
                }
                ItemKind::Malformed => {
                    o.kind = "malformed";
                    o.text = row.malformed.map(|m| m.describe().to_string());
                }
                ItemKind::Idle { gap_ms } => {
                    o.kind = "idle";
                    o.text = Some(format!("{} away", fmt::duration_ms(gap_ms)));
                }
                ItemKind::Resume { session, client } => {
                    o.kind = "resume";
                    let mut words = Vec::new();
                    if let Some(s) = session {
                        words.push(format!("session {}", ix.str(s)));
                    }
                    if let Some(c) = client {
                        words.push(format!("client {}", ix.str(c)));
                    }
                    o.text = Some(format!("resumed: {}", words.join(", ")));
                }
            }
            out.push(o);
        }
        skipped.end(&mut out);
        out
    }

    /// The export in `format`.
    pub fn render<B: Borrow<Body>>(&self, format: Format, mut body_of: impl FnMut(u32) -> Option<B>) -> String {
        let items = self.items_out(&mut body_of);
        let s = self.stats;
        let (first, last) = (self.view.timeline.first_ms, self.view.timeline.last_ms);
        let measured = self.view.timeline.measured();
        let doc = Doc {
            file: self.name,
            title: self.title.map(|t| t.text.as_str()),
            scope: self.scope,
            lines: s.lines,
            api_turns: s.assistant_messages,
            tool_calls: s.tool_calls,
            failed_steps: s.failed_steps,
            compactions: s.compactions,
            models: &self.facts.models,
            first: first.map(crate::model::report::iso_ms),
            last: last.map(crate::model::report::iso_ms),
            active_seconds: measured.map(|m| m.0 as f64 / 1000.0),
            wall_seconds: measured.map(|m| m.1 as f64 / 1000.0),
            items,
        };
        match format {
            Format::Json => serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n",
            Format::Markdown => markdown(&doc, self.depth),
        }
    }
}

fn markdown(d: &Doc, depth: u8) -> String {
    let mut out = String::new();
    let h = if depth == 0 { "##" } else { "####" };
    if depth > 0 {
        return items_markdown(out, d, h);
    }
    out.push_str(&format!("# {}\n\n", safe_md::inline(d.title.unwrap_or(d.file))));
    out.push_str(&format!("- File: {} ({})\n", safe_md::code_span(d.file), d.scope));
    out.push_str(&format!(
        "- {} · {} · {} · {} · {}\n",
        fmt::plural(d.lines, "line", "lines"),
        fmt::plural(d.api_turns, "API turn", "API turns"),
        fmt::plural(d.tool_calls, "tool call", "tool calls"),
        fmt::plural(d.failed_steps, "failed step", "failed steps"),
        fmt::plural(d.compactions, "compaction", "compactions")
    ));
    if !d.models.is_empty() {
        out.push_str(&format!("- Models: {}\n", safe_md::inline(&d.models.join(", "))));
    }
    match (&d.first, &d.last, d.active_seconds, d.wall_seconds) {
        (Some(a), Some(b), Some(act), Some(wall)) => {
            out.push_str(&format!("- Time: {a} → {b} · active {} of {} wall\n", fmt::duration_secs(act), fmt::duration_secs(wall)))
        }
        _ => out.push_str("- Time: — (no timestamps)\n"),
    }
    out.push_str("\n---\n");
    items_markdown(out, d, h)
}

fn items_markdown(mut out: String, d: &Doc, h: &str) -> String {
    for it in &d.items {
        let when = it.timestamp.as_deref().map(|t| format!(" · {t}")).unwrap_or_default();
        let failed = if it.failed { " · ⚠ failed" } else { "" };
        out.push('\n');
        match it.kind {
            "idle" | "resume" => {
                out.push_str(&format!("*— {} (line {}) —*\n", safe_md::inline(it.text.as_deref().unwrap_or("")), it.line));
                continue;
            }
            "prompt" => out.push_str(&format!("{h} Prompt · line {}{when}{failed}\n\n", it.line)),
            "compaction_summary" => out.push_str(&format!("{h} Compaction summary · line {}{when}{failed}\n\n", it.line)),
            "assistant" | "api_error" => {
                let model = it.model.as_deref().map(|m| format!(" · {}", safe_md::inline(m))).unwrap_or_default();
                let what = if it.kind == "api_error" { "⚠ API error" } else { "Assistant" };
                out.push_str(&format!("{h} {what} · line {}{model}{when}{failed}\n\n", it.line));
            }
            other => out.push_str(&format!("{h} {} · line {}{when}{failed}\n\n", other[..1].to_ascii_uppercase() + &other[1..], it.line)),
        }
        // Transcript text is written back as Markdown that cannot run
        // (`safe_md`): prose keeps its structure, anything else is a line.
        if let Some(t) = &it.text {
            let text = match it.kind {
                "prompt" | "compaction_summary" | "assistant" | "api_error" | "system" => safe_md::prose(t),
                _ => safe_md::inline(t),
            };
            out.push_str(text.trim_end());
            out.push('\n');
        }
        for c in &it.calls {
            let name = c.name.as_deref().unwrap_or("(unnamed tool)");
            let headline = c.input.as_ref().map(|i| crate::model::tools::summarize(name, i).headline).filter(|h| !h.is_empty()).map(|h| format!(" — {}", safe_md::html(&h))).unwrap_or_default();
            let dur = c.duration_ms.map(|ms| format!(" · {}", fmt::duration_ms(ms))).unwrap_or_default();
            let mark = if matches!(c.state, "error" | "denied") { "⚠ " } else { "" };
            out.push_str(&format!("\n<details>\n<summary>{mark}{}{headline} · {}{dur}</summary>\n\n", safe_md::html(name), c.state));
            if let Some(input) = &c.input {
                out.push_str("Input:\n\n");
                code_block(&mut out, "json", &serde_json::to_string_pretty(input).unwrap_or_default());
            }
            match (&c.result, c.result_line) {
                (Some(r), Some(line)) => {
                    out.push_str(&format!("\nResult (line {line}):\n\n"));
                    code_block(&mut out, "", r);
                }
                (None, Some(line)) => out.push_str(&format!("\nResult: line {line} (not readable)\n")),
                _ => out.push_str("\nNo result in this file.\n"),
            }
            for (agent, turns, md) in &c.runs_md {
                out.push_str(&format!("\n<details>\n<summary>Subagent run agent-{} · {}</summary>\n\n{}\n</details>\n", safe_md::html(agent), fmt::plural(*turns, "API turn", "API turns"), md.trim()));
            }
            out.push_str("\n</details>\n");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::Indexer;

    #[test]
    fn an_export_reads_its_items_rows_their_results_and_the_title() {
        let text = concat!(
            r#"{"type":"user","uuid":"u","message":{"role":"user","content":"go"}}"#, "\n",
            r#"{"type":"assistant","message":{"id":"a","content":[{"type":"tool_use","id":"t","name":"Bash","input":{}}]}}"#, "\n",
            r#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t","content":"ok"}]}}"#, "\n",
            r#"{"type":"custom-title","customTitle":"T"}"#, "\n",
        );
        let ix = Indexer::index_bytes(text.as_bytes());
        let items = Items::build(&ix, 900);
        let title = super::super::title::source(&ix, &items);
        // The turn alone: its row, its call's result, the title record.
        assert_eq!(rows_needed(&ix, &items, &[1], &title), vec![1, 2, 3]);
        assert_eq!(rows_needed(&ix, &items, &[0, 1, 99], &title), vec![0, 1, 2, 3], "an unknown item id is skipped");
    }
}
