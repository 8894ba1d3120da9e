//! The conversation as a list a person reads: one item per prompt, per API
//! turn (its tool results folded in beside their calls), per system record,
//! per bookkeeping record, per malformed line, plus dividers where the clock
//! jumps or the session / client changes. File order throughout.

use super::conversation::{self, Segment, ToolCall, Turn};
use super::time::{self, Timeline};
use super::kind::{Kind, Kinds};
use crate::fmt;
use crate::index::{Compaction, Content, Index, Sym};

const NONE: u32 = u32::MAX;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemKind {
    /// A user record shown on its own: a prompt, a command, a compact
    /// summary, or tool results whose call is not in this file.
    User,
    /// An API turn: index into [`Items::turns`].
    Turn(u32),
    /// A system record (compact boundary, API error, notes).
    System,
    /// A record of another type, or without a type: bookkeeping.
    Other,
    Malformed,
    /// The clock jumped by more than the idle threshold.
    Idle { gap_ms: i64 },
    /// A new `sessionId` and/or `entrypoint` starts here.
    Resume { session: Option<Sym>, client: Option<Sym> },
}

/// One entry of the list. `row` is the first row it shows (for dividers:
/// the row they precede).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Item {
    pub kind: ItemKind,
    pub row: u32,
    /// One of its records is a failed step (four signals).
    pub failed: bool,
}

impl Item {
    pub fn is_divider(&self) -> bool {
        matches!(self.kind, ItemKind::Idle { .. } | ItemKind::Resume { .. })
    }
}

/// Everything the list needs, computed once per file (and again when the
/// idle threshold changes).
#[derive(Clone, Debug, Default)]
pub struct Items {
    pub items: Vec<Item>,
    pub turns: Vec<Turn>,
    pub calls: Vec<ToolCall>,
    /// `Index::tool_uses` index → index into `calls` (`u32::MAX`: none).
    pub call_of_use: Vec<u32>,
    /// Row → the item showing it (a result row maps to its call's turn).
    pub item_of_row: Vec<u32>,
    pub timeline: Timeline,
    pub sessions: Vec<Segment>,
    pub clients: Vec<Segment>,
    /// Rows that are failed steps.
    pub failures: Vec<u32>,
}

impl Items {
    /// Builds the list. `idle_gap_secs`: longer clock jumps get a divider.
    pub fn build(ix: &Index, idle_gap_secs: u64) -> Items {
        let kinds = Kinds::new(ix);
        let turns = conversation::turns(ix);
        let calls = conversation::tool_calls(ix);
        let timeline = time::timeline(ix, idle_gap_secs);
        let sessions = conversation::sessions(ix);
        let clients = conversation::clients(ix);
        let mut call_of_use = vec![NONE; ix.tool_uses.len()];
        for (k, c) in calls.iter().enumerate() {
            call_of_use[c.tool_use as usize] = k as u32;
        }
        let mut turn_of_row = vec![NONE; ix.rows.len()];
        for (t, turn) in turns.iter().enumerate() {
            for &r in &turn.rows {
                turn_of_row[r as usize] = t as u32;
            }
        }
        // Where each tool_use id was called: tool_use index by result index.
        let mut use_of_result = vec![NONE; ix.tool_results.len()];
        for c in &calls {
            if let Some(r) = c.tool_result {
                use_of_result[r as usize] = c.tool_use;
            }
        }

        let mut dividers_at: Vec<(u32, ItemKind)> = timeline.idle_gaps.iter().map(|&(row, gap_ms)| (row, ItemKind::Idle { gap_ms })).collect();
        let change = |segs: &[Segment]| segs.iter().skip(1).map(|s| (s.start_row, s.value)).collect::<Vec<_>>();
        let (new_sessions, new_clients) = (change(&sessions), change(&clients));
        let mut rows_with_change: Vec<u32> = new_sessions.iter().chain(&new_clients).map(|&(r, _)| r).collect();
        rows_with_change.sort_unstable();
        rows_with_change.dedup();
        for r in rows_with_change {
            let session = new_sessions.iter().find(|s| s.0 == r).map(|s| s.1);
            let client = new_clients.iter().find(|s| s.0 == r).map(|s| s.1);
            dividers_at.push((r, ItemKind::Resume { session, client }));
        }
        // Stable: at one row, the idle divider comes before the resume one.
        crate::sort::by_key(&mut dividers_at, |d| d.0);

        let mut items: Vec<Item> = Vec::new();
        let mut item_of_row = vec![NONE; ix.rows.len()];
        let mut item_of_turn = vec![NONE; turns.len()];
        let mut failures = Vec::new();
        let mut next_divider = 0;
        for (i, row) in ix.rows.iter().enumerate() {
            let i32 = i as u32;
            while next_divider < dividers_at.len() && dividers_at[next_divider].0 <= i32 {
                let (r, kind) = dividers_at[next_divider];
                items.push(Item { kind, row: r.max(i32), failed: false });
                next_divider += 1;
            }
            let kind = kinds.of(row);
            let failed = conversation::is_failed(ix, &kinds, row);
            if failed {
                failures.push(i32);
            }
            // A user record made only of results to calls already shown
            // folds into the turn of those calls.
            let folded_into = if kind == Kind::User && row.content == Content::ToolResult && row.blocks == row.tool_results_len {
                let k = row.tool_results_start as usize;
                let targets: Vec<u32> = (k..k + row.tool_results_len as usize)
                    .map(|r| {
                        let u = use_of_result[r];
                        let t = if u == NONE { NONE } else { turn_of_row[ix.tool_uses[u as usize].row as usize] };
                        if t == NONE { NONE } else { item_of_turn[t as usize] }
                    })
                    .collect();
                // Every result must belong to a call already on the list;
                // several turns' results in one record go with the first.
                targets.first().copied().filter(|_| targets.iter().all(|&t| t != NONE))
            } else {
                None
            };
            if let Some(item) = folded_into {
                item_of_row[i] = item;
                items[item as usize].failed |= failed;
                continue;
            }
            let item_kind = match kind {
                Kind::Assistant => {
                    let t = turn_of_row[i];
                    if item_of_turn[t as usize] != NONE {
                        let item = item_of_turn[t as usize];
                        item_of_row[i] = item;
                        items[item as usize].failed |= failed;
                        continue;
                    }
                    item_of_turn[t as usize] = items.len() as u32;
                    ItemKind::Turn(t)
                }
                Kind::User => ItemKind::User,
                Kind::System => ItemKind::System,
                Kind::Other | Kind::Untyped => ItemKind::Other,
                Kind::Malformed => ItemKind::Malformed,
            };
            item_of_row[i] = items.len() as u32;
            items.push(Item { kind: item_kind, row: i32, failed });
        }
        Items { items, turns, calls, call_of_use, item_of_row, timeline, sessions, clients, failures }
    }

    /// The first item that may show differently once rows `from_row..`
    /// were added to the file (a followed file grew; the list was built
    /// again from the longer index): the items of those rows, and of the
    /// calls their results answer. Items before it are drawn as they were;
    /// `items.len()` when no row was added.
    pub fn first_changed(&self, ix: &Index, from_row: u32) -> u32 {
        let mut first = self.items.len() as u32;
        for (r, row) in ix.rows.iter().enumerate().skip(from_row as usize) {
            first = first.min(self.item_of_row[r]);
            for res in ix.tool_results_of(row) {
                let call = ix.tool_uses.iter().position(|u| u.id == res.tool_use_id && u.id.is_some());
                if let Some(&item) = call.and_then(|u| self.item_of_row.get(ix.tool_uses[u].row as usize)) {
                    first = first.min(item);
                }
            }
        }
        first
    }

    /// The call made by tool_use `k`, if it is an assistant's call.
    pub fn call_of(&self, tool_use: u32) -> Option<&ToolCall> {
        self.call_of_use.get(tool_use as usize).filter(|&&c| c != NONE).map(|&c| &self.calls[c as usize])
    }

    /// Rows whose bodies an item needs: its own rows and the rows holding its
    /// calls' results, ascending, without repeats.
    pub fn rows_of(&self, ix: &Index, item: &Item) -> Vec<u32> {
        let mut rows = match item.kind {
            ItemKind::Turn(t) => {
                let turn = &self.turns[t as usize];
                let mut rows = turn.rows.clone();
                for &r in &turn.rows {
                    let row = &ix.rows[r as usize];
                    for k in row.tool_uses_start..row.tool_uses_start + row.tool_uses_len {
                        if let Some(res) = self.call_of(k).and_then(|c| c.tool_result) {
                            rows.push(ix.tool_results[res as usize].row);
                        }
                    }
                }
                rows
            }
            _ if item.is_divider() => Vec::new(),
            _ => vec![item.row],
        };
        rows.sort_unstable();
        rows.dedup();
        rows
    }

    /// The item showing the line `line_no` (1-based, physical), or the first
    /// item after it when that line is blank or folded away.
    pub fn item_at_line(&self, ix: &Index, line_no: u32) -> Option<u32> {
        let r = ix.rows.partition_point(|row| row.line_no < line_no);
        self.item_of_row.get(r).copied().filter(|&i| i != NONE)
    }

    /// The item containing the byte at `offset`.
    pub fn item_at_offset(&self, ix: &Index, offset: u64) -> Option<u32> {
        let r = ix.rows.partition_point(|row| row.end_offset() < offset);
        let row = ix.rows.get(r)?;
        (row.offset <= offset).then(|| self.item_of_row[r]).filter(|&i| i != NONE)
    }
}

/// Which items the list shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    pub role: RoleFilter,
    /// Only turns that call this tool (with `failures_only`: where a call
    /// of it failed).
    pub tool: Option<Sym>,
    pub failures_only: bool,
    pub show_bookkeeping: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RoleFilter {
    #[default]
    All,
    User,
    Assistant,
}

impl Filter {
    /// Something narrows the list beyond hiding bookkeeping.
    pub fn narrows(&self) -> bool {
        self.role != RoleFilter::All || self.tool.is_some() || self.failures_only
    }

    /// Indices into `view.items` that pass, in order.
    pub fn apply(&self, ix: &Index, view: &Items) -> Vec<u32> {
        let narrows = self.narrows();
        // With failures only, a tool filter keeps the turns where a call of
        // that tool failed (not those where the tool ran and something else
        // failed): "Bash, failures" shows exactly the failed Bash calls.
        let failing = |k: usize| {
            let c = view.call_of_use[k];
            c != NONE && matches!(view.calls[c as usize].state, conversation::CallState::Error | conversation::CallState::Denied)
        };
        let uses_tool = |t: u32, tool: Sym| {
            view.turns[t as usize].rows.iter().any(|&r| {
                let row = &ix.rows[r as usize];
                ix.tool_uses_of(row).iter().enumerate().any(|(k, u)| u.name == tool && (!self.failures_only || failing(row.tool_uses_start as usize + k)))
            })
        };
        (0..view.items.len() as u32)
            .filter(|&i| {
                let item = &view.items[i as usize];
                if item.is_divider() {
                    return !narrows;
                }
                if self.failures_only && !item.failed {
                    return false;
                }
                let role_ok = match (self.role, item.kind) {
                    (RoleFilter::All, ItemKind::Other) => self.show_bookkeeping,
                    (RoleFilter::All, _) => true,
                    (RoleFilter::User, k) => k == ItemKind::User,
                    (RoleFilter::Assistant, k) => matches!(k, ItemKind::Turn(_)),
                };
                let tool_ok = match (self.tool, item.kind) {
                    (None, _) => true,
                    (Some(tool), ItemKind::Turn(t)) => uses_tool(t, tool),
                    (Some(_), _) => false,
                };
                role_ok && tool_ok
            })
            .collect()
    }
}

/// A compaction in words, each figure only when the file recorded it:
/// "compacted (auto) · 167,000 → 9,100 tokens", "compacted (auto) ·
/// 167,117 tokens before", "compacted (unknown trigger)".
pub fn compaction_words(ix: &Index, c: Option<&Compaction>) -> String {
    let trigger = c.map(|c| ix.str(c.trigger)).filter(|t| !t.is_empty()).unwrap_or("unknown trigger");
    let tokens = match (c.and_then(|c| c.pre_tokens), c.and_then(|c| c.post_tokens)) {
        (Some(pre), Some(post)) => format!(" · {} → {} tokens", fmt::count(pre), fmt::count(post)),
        (Some(pre), None) => format!(" · {} tokens before", fmt::count(pre)),
        (None, Some(post)) => format!(" · {} tokens after", fmt::count(post)),
        (None, None) => String::new(),
    };
    format!("compacted ({trigger}){tokens}")
}

/// How text starts that the client wrote on the person's behalf, not the
/// person: slash commands and their output, the caveat before them, shell
/// output, reminders, an interruption marker, the summary that continues a
/// compacted conversation (writers before `isCompactSummary`).
pub const CLIENT_TEXT: [&str; 8] = [
    "<command-",
    "<local-command-",
    "Caveat: ",
    "<system-reminder>",
    "<bash-",
    "[Request interrupted by user",
    "This session is being continued from a previous conversation",
    "<task-notification>",
];

/// Text the client wrote on the person's behalf ([`CLIENT_TEXT`]): shown
/// muted, never used as a title.
pub fn is_command_text(text: &str) -> bool {
    let t = text.trim_start();
    CLIENT_TEXT.iter().any(|p| t.starts_with(p))
}

/// Context an IDE client puts in front of what the person typed
/// (`<ide_opened_file>…</ide_opened_file>`, `<ide_selection>…</ide_selection>`):
/// returns those notes' inner text in order and the person's own words after
/// them. Text with no such prefix comes back whole; an unclosed tag is left as
/// the person's text (never guess where it ends).
pub fn split_ide_context(text: &str) -> (Vec<&str>, &str) {
    const TAGS: [(&str, &str); 2] = [("<ide_opened_file>", "</ide_opened_file>"), ("<ide_selection>", "</ide_selection>")];
    let mut notes = Vec::new();
    let mut rest = text.trim_start();
    'next: loop {
        for (open, close) in TAGS {
            if let Some(after) = rest.strip_prefix(open) {
                if let Some(end) = after.find(close) {
                    notes.push(after[..end].trim());
                    rest = after[end + close.len()..].trim_start();
                    continue 'next;
                }
            }
        }
        return (notes, rest);
    }
}

#[cfg(test)]
mod tests {
    use super::{compaction_words, split_ide_context};
    use crate::index::Indexer;

    #[test]
    fn growth_changes_the_items_of_the_new_rows_and_of_the_calls_they_answer() {
        let head = concat!(
            r#"{"type":"user","message":{"content":"go"}}"#, "\n",
            r#"{"type":"assistant","message":{"id":"m1","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{}}]}}"#, "\n",
            r#"{"type":"user","message":{"content":"and?"}}"#, "\n",
        );
        let answer = r#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"},{"type":"text","text":"here"}]}}"#;
        let ix = crate::index::Indexer::index_bytes(format!("{head}{answer}\n").as_bytes());
        let view = super::Items::build(&ix, 300);
        assert_eq!(view.first_changed(&ix, 3), 1, "the late result changes its call's turn, item 1");
        let ix = crate::index::Indexer::index_bytes(format!("{head}{{\"type\":\"user\",\"message\":{{\"content\":\"more\"}}}}\n").as_bytes());
        let view = super::Items::build(&ix, 300);
        assert_eq!(view.first_changed(&ix, 3), 3, "a new prompt: only the new item");
        assert_eq!(view.first_changed(&ix, 4), 4, "nothing added: no item changed");
    }

    #[test]
    fn a_compaction_names_only_the_figures_it_has() {
        let words = |meta: &str| {
            let line = format!(r#"{{"type":"system","subtype":"compact_boundary","compactMetadata":{meta}}}"#);
            let ix = Indexer::index_bytes(line.as_bytes());
            compaction_words(&ix, ix.compactions.first())
        };
        assert_eq!(words(r#"{"trigger":"auto","preTokens":167117}"#), "compacted (auto) · 167,117 tokens before");
        assert_eq!(words(r#"{"trigger":"manual","preTokens":167000,"postTokens":9100}"#), "compacted (manual) · 167,000 → 9,100 tokens");
        assert_eq!(words(r#"{"postTokens":0}"#), "compacted (unknown trigger) · 0 tokens after", "a recorded 0 is shown");
        assert_eq!(words(r#"{"preTokens":"many"}"#), "compacted (unknown trigger)");
        let none = Indexer::index_bytes(b"{\"type\":\"system\",\"subtype\":\"compact_boundary\"}");
        assert_eq!(compaction_words(&none, none.compactions.first()), "compacted (unknown trigger)");
    }

    #[test]
    fn ide_context_is_split_from_the_persons_words() {
        let text = "<ide_opened_file>The user opened the file /a/b.html in the IDE.</ide_opened_file>\n\n\
                    <ide_selection>The user selected line 3</ide_selection>\n\nMake it blue";
        let (notes, rest) = split_ide_context(text);
        assert_eq!(notes, ["The user opened the file /a/b.html in the IDE.", "The user selected line 3"]);
        assert_eq!(rest, "Make it blue");
    }

    #[test]
    fn text_without_ide_context_is_unchanged() {
        assert_eq!(split_ide_context("fix <ide_selection>x</ide_selection>"), (vec![], "fix <ide_selection>x</ide_selection>"));
        // Unclosed: the whole text stays the person's.
        assert_eq!(split_ide_context("<ide_selection>half"), (vec![], "<ide_selection>half"));
        // Only context: nothing the person typed.
        assert_eq!(split_ide_context("<ide_opened_file>f</ide_opened_file>"), (vec!["f"], ""));
    }
}
