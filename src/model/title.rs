//! What a conversation is called: the last `custom-title` record, else the
//! last `ai-title`, else the last legacy `summary`, else the first prompt a
//! person typed (IDE context and client commands skipped). Every one of
//! them is user content, shown as text.
//!
//! Choosing needs bodies (the texts are not in the index), so it is two
//! steps: [`source`] names the rows, the caller reads them back (from disk,
//! or by `Blob.slice`), and [`resolve`] picks the text.

use std::borrow::Borrow;

use serde::{Deserialize, Serialize};

use super::body::Body;
use super::tools::first_line;
use super::items::{is_command_text, split_ide_context, ItemKind, Items};
use super::kind::{Kind, Kinds};
use crate::index::{flag, Content, Index};

/// The record types that carry a title, in the order they win.
pub const CUSTOM_TITLE: &str = "custom-title";
pub const AI_TITLE: &str = "ai-title";
pub const SUMMARY: &str = "summary";

/// A prompt title is cut to this many characters (the first line only, at
/// a space where it can be): long enough that what a page shows of it is
/// redacted before it is cut (a page shows titles cut by CSS, not here).
pub const PROMPT_TITLE_CHARS: usize = 400;
/// Prompts looked at for the first one a person typed.
const PROMPT_CANDIDATES: usize = 16;

/// Where a title comes from (sessions contract v1's `title_source`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TitleKind {
    #[serde(rename = "custom-title")]
    Custom,
    #[serde(rename = "ai-title")]
    Ai,
    #[serde(rename = "summary")]
    Summary,
    #[serde(rename = "prompt")]
    Prompt,
}

impl TitleKind {
    /// In words, beside the title.
    pub fn describe(self) -> &'static str {
        match self {
            TitleKind::Custom => "custom title",
            TitleKind::Ai => "title by Claude",
            TitleKind::Summary => "summary",
            TitleKind::Prompt => "first prompt",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Title {
    pub text: String,
    pub kind: TitleKind,
}

/// The rows a title is read from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TitleSource {
    /// A title record (custom-title, ai-title or summary) at this row.
    Record(TitleKind, u32),
    /// Candidate prompt rows in file order: the first whose text is the
    /// person's own wins.
    FirstPrompt(Vec<u32>),
}

impl TitleSource {
    /// Every row [`resolve`] may need the body of.
    pub fn rows(&self) -> Vec<u32> {
        match self {
            TitleSource::Record(_, r) => vec![*r],
            TitleSource::FirstPrompt(rows) => rows.clone(),
        }
    }
}

/// Names the rows the title comes from.
pub fn source(ix: &Index, view: &Items) -> TitleSource {
    source_among(ix, view.items.iter().filter(|i| i.kind == ItemKind::User).map(|i| i.row))
}

/// [`source`] without a list built: the user records that are not only
/// tool results (the ones the list shows as prompts).
pub fn source_from_index(ix: &Index) -> TitleSource {
    let kinds = Kinds::new(ix);
    let prompts = (0..ix.rows.len() as u32).filter(|&r| {
        let row = &ix.rows[r as usize];
        kinds.of(row) == Kind::User && !(row.content == Content::ToolResult && row.blocks == row.tool_results_len)
    });
    source_among(ix, prompts)
}

fn source_among(ix: &Index, user_rows: impl Iterator<Item = u32>) -> TitleSource {
    let last_of = |ty: &str| ix.titles.iter().rev().find(|t| ix.str(ix.rows[t.row as usize].record_type) == ty).map(|t| t.row);
    for (ty, kind) in [(CUSTOM_TITLE, TitleKind::Custom), (AI_TITLE, TitleKind::Ai), (SUMMARY, TitleKind::Summary)] {
        if let Some(r) = last_of(ty) {
            return TitleSource::Record(kind, r);
        }
    }
    let prompts = user_rows
        .filter(|&r| {
            let row = &ix.rows[r as usize];
            !row.has(flag::META) && !row.has(flag::COMPACT_SUMMARY) && !row.has(flag::SIDECHAIN)
        })
        .take(PROMPT_CANDIDATES)
        .collect();
    TitleSource::FirstPrompt(prompts)
}

/// The text the person typed in a prompt, IDE context removed; `None` when
/// it is a client command or empty.
pub fn words_of(text: &str) -> Option<&str> {
    let (_, words) = split_ide_context(text);
    (!words.trim().is_empty() && !is_command_text(words)).then_some(words)
}

/// The text inside `<tag>…</tag>` in `text`, trimmed.
fn inside<'a>(text: &'a str, tag: &str) -> Option<&'a str> {
    let open = format!("<{tag}>");
    let from = text.find(&open)? + open.len();
    let to = text[from..].find(&format!("</{tag}>"))? + from;
    Some(text[from..to].trim())
}

/// A slash command as the person typed it (`/orchestrator update the docs`),
/// from the `<command-name>` and `<command-args>` the client wrote.
pub fn slash_command(text: &str) -> Option<String> {
    let name = inside(text, "command-name").filter(|n| !n.is_empty())?;
    Some(match inside(text, "command-args").filter(|a| !a.is_empty()) {
        Some(args) => format!("{name} {args}"),
        None => name.to_string(),
    })
}

/// Picks the title from the bodies of `source`'s rows (`body_of(row)`,
/// `None` where a row could not be read; a `Body` or anything that lends
/// one). `None`: the file has no title at all (no title record, no typed
/// prompt).
pub fn resolve<B: Borrow<Body>>(source: &TitleSource, mut body_of: impl FnMut(u32) -> Option<B>) -> Option<Title> {
    match source {
        TitleSource::Record(kind, r) => {
            let b = body_of(*r)?;
            let b = b.borrow();
            let text = match kind {
                TitleKind::Custom => &b.custom_title,
                TitleKind::Ai => &b.ai_title,
                TitleKind::Summary => &b.summary,
                TitleKind::Prompt => return None,
            };
            Some(Title { text: text.0.clone()?, kind: *kind })
        }
        TitleSource::FirstPrompt(rows) => {
            // The first prompt typed in words; else the first slash command
            // (a session that only ran `/init` is called "/init"). Each text
            // is looked at where it lies, never copied whole.
            let mut command = None;
            for &r in rows {
                let Some(b) = body_of(r) else { continue };
                let b = b.borrow();
                let text = b.prompt_text();
                if let Some(words) = words_of(&text) {
                    return Some(Title { text: first_line(words, PROMPT_TITLE_CHARS), kind: TitleKind::Prompt });
                }
                if command.is_none() {
                    command = slash_command(&text);
                }
            }
            command.map(|c| Title { text: first_line(&c, PROMPT_TITLE_CHARS), kind: TitleKind::Prompt })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::Indexer;
    use crate::model::items::Items;

    fn title_of(text: &str) -> Option<Title> {
        let ix = Indexer::index_bytes(text.as_bytes());
        let view = Items::build(&ix, 900_000);
        let src = source(&ix, &view);
        resolve(&src, |r| {
            let row = &ix.rows[r as usize];
            Body::parse(&text.as_bytes()[row.offset as usize..row.end_offset() as usize])
        })
    }

    #[test]
    fn custom_then_ai_then_summary_then_prompt() {
        let prompt = r#"{"type":"user","uuid":"u","message":{"role":"user","content":"Fix the build\nplease"}}"#;
        let summary = r#"{"type":"summary","summary":"Old summary","leafUuid":"x"}"#;
        let ai = r#"{"type":"ai-title","aiTitle":"AI one"}"#;
        let ai2 = r#"{"type":"ai-title","aiTitle":"AI two"}"#;
        let custom = r#"{"type":"custom-title","customTitle":"Mine"}"#;
        let t = |lines: &[&str]| title_of(&(lines.join("\n") + "\n")).map(|t| (t.text, t.kind));
        assert_eq!(t(&[prompt, summary, ai, custom, ai2]), Some(("Mine".into(), TitleKind::Custom)));
        assert_eq!(t(&[prompt, ai, ai2, summary]), Some(("AI two".into(), TitleKind::Ai)), "the last ai-title");
        assert_eq!(t(&[prompt, summary]), Some(("Old summary".into(), TitleKind::Summary)));
        assert_eq!(t(&[prompt]), Some(("Fix the build…".into(), TitleKind::Prompt)));
    }

    #[test]
    fn commands_ide_context_and_bookkeeping_are_not_titles() {
        let cmd = r#"{"type":"user","uuid":"a","message":{"role":"user","content":"<command-name>/clear</command-name>"}}"#;
        let ide = r#"{"type":"user","uuid":"b","message":{"role":"user","content":"<ide_opened_file>f.rs</ide_opened_file>\nMake it blue"}}"#;
        let only_ide = r#"{"type":"user","uuid":"c","message":{"role":"user","content":"<ide_selection>x</ide_selection>"}}"#;
        assert_eq!(title_of(&format!("{cmd}\n{only_ide}\n{ide}\n")).map(|t| t.text), Some("Make it blue".into()));
        // Only a slash command: the command as typed.
        assert_eq!(title_of(&format!("{cmd}\n")).map(|t| t.text), Some("/clear".into()));
        // Without a list: the same rows.
        let both = format!("{cmd}\n{only_ide}\n{ide}\n");
        let ix = Indexer::index_bytes(both.as_bytes());
        assert_eq!(source_from_index(&ix), source(&ix, &Items::build(&ix, 900)));
        let with_args = r#"{"type":"user","uuid":"a","message":{"role":"user","content":"<command-message>x</command-message>\n<command-name>/review</command-name>\n<command-args>the parser</command-args>"}}"#;
        assert_eq!(title_of(&format!("{with_args}\n")).map(|t| t.text), Some("/review the parser".into()));
        let interrupted = r#"{"type":"user","uuid":"i","message":{"role":"user","content":[{"type":"text","text":"[Request interrupted by user for tool use]"}]}}"#;
        let words = r#"{"type":"user","uuid":"w","message":{"role":"user","content":"Now do it properly"}}"#;
        assert_eq!(title_of(&format!("{interrupted}\n{words}\n")).map(|t| t.text), Some("Now do it properly".into()), "an interruption marker is not a prompt");
        let caveat = r#"{"type":"user","uuid":"a","message":{"role":"user","content":"Caveat: the messages below were generated by the user while running local commands."}}"#;
        assert_eq!(title_of(&format!("{caveat}\n")), None);
        assert_eq!(title_of(r#"{"type":"file-history-snapshot","messageId":"m"}"#), None);
        assert_eq!(title_of(""), None);
    }
}
