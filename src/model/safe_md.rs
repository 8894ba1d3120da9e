//! Markdown that is data, not code: what the export writes for text taken
//! from a transcript. People paste exports into wikis, static sites and
//! tickets, whose renderers often allow raw HTML; a hostile transcript must
//! not run a script or make a request there.
//!
//! The rules (pinned by the tests below, and in the browser by rendering
//! exports with markdown-it, `html: true`):
//! - prose (prompts, assistant text) is parsed ([`super::markdown::parse`],
//!   where raw HTML is already text, images are their address as text and
//!   only `http(s)` links survive) and written back with every character
//!   that could start markup escaped: no raw HTML, no entity, no image, no
//!   link but an `http(s)` one;
//! - a line of text ([`inline`]) is escaped the same way, newlines folded;
//! - text inside an HTML element the export writes (`<summary>`) is HTML-escaped ([`html`]);
//! - code is fenced with a fence longer than any backtick run inside it
//!   ([`code_block`], [`code_span`]).

use super::markdown::{is_web_link, El, Node};

/// `text` as Markdown text: every character that could start markup is
/// backslash-escaped (CommonMark allows it before any ASCII punctuation), so
/// it renders as exactly these characters.
fn escape_text(out: &mut String, text: &str, at_line_start: &mut bool) {
    let chars: Vec<char> = text.chars().collect();
    for (k, &c) in chars.iter().enumerate() {
        let prev = if k > 0 { chars[k - 1] } else { ' ' };
        let next = chars.get(k + 1).copied().unwrap_or(' ');
        let escape = match c {
            '\\' | '`' | '*' | '[' | ']' | '<' | '>' | '|' | '~' | '$' => true,
            // Intraword `_` is never emphasis; at a word's edge it may be.
            '_' => !(prev.is_alphanumeric() && next.is_alphanumeric()),
            '&' => next.is_ascii_alphanumeric() || next == '#',
            '!' => next == '[',
            // Line starts: headings, lists, setext underlines, tables, blocks.
            '#' | '-' | '+' | '=' | ':' => *at_line_start,
            '.' | ')' => ends_line_start_digits(&chars, k),
            _ => false,
        };
        if escape {
            out.push('\\');
        }
        out.push(c);
        if c == '\n' {
            *at_line_start = true;
        } else if !(c == ' ' && *at_line_start) {
            *at_line_start = false;
        }
    }
}

/// Whether `chars[k]` (a `.` or `)`) ends a run of digits that starts a line
/// (or this text): an ordered list marker.
fn ends_line_start_digits(chars: &[char], k: usize) -> bool {
    let mut j = k;
    while j > 0 && chars[j - 1].is_ascii_digit() {
        j -= 1;
    }
    j < k && chars[..j].iter().rev().take_while(|&&c| c != '\n').all(|&c| c == ' ')
}

/// One line of text from a transcript (a title, a tool name, a headline) as
/// Markdown text: escaped, newlines folded into spaces.
pub fn inline(text: &str) -> String {
    let folded: String = text.chars().map(|c| if c == '\n' || c == '\r' { ' ' } else { c }).collect();
    let mut out = String::with_capacity(folded.len() + 8);
    // As if at a line's start: a leading `#` or `-` is escaped too.
    let mut start = true;
    escape_text(&mut out, &folded, &mut start);
    out
}

/// Text inside an HTML element the export writes (`<summary>…</summary>`):
/// Markdown is not read there, HTML is; newlines folded.
pub fn html(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// A fence longer than any run of backticks in `text` (at least three).
pub fn fence(text: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    "`".repeat(longest.max(2) + 1)
}

/// `text` as a fenced code block (`lang` kept only when it is a plain word).
pub fn code_block(out: &mut String, lang: &str, text: &str) {
    let f = fence(text);
    let lang = if lang.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '+') { lang } else { "" };
    out.push_str(&format!("{f}{lang}\n{}\n{f}\n", text.trim_end_matches('\n')));
}

/// `text` as an inline code span: delimited by more backticks than any run
/// inside, padded when it starts or ends with one.
pub fn code_span(text: &str) -> String {
    let folded: String = text.chars().map(|c| if c == '\n' || c == '\r' { ' ' } else { c }).collect();
    let mut longest = 0;
    let mut run = 0;
    for c in folded.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let ticks = "`".repeat(longest + 1);
    let pad = if folded.starts_with('`') || folded.ends_with('`') || folded.trim().is_empty() { " " } else { "" };
    format!("{ticks}{pad}{folded}{pad}{ticks}")
}

/// Prose from a transcript (a prompt, assistant text) as safe Markdown.
pub fn prose(text: &str) -> String {
    let mut w = Writer::default();
    w.blocks(&super::markdown::parse(text), "");
    w.out.trim_end().to_string()
}

#[derive(Default)]
struct Writer {
    out: String,
}

/// An `http(s)` address as a link destination: characters that would end
/// or break it percent-encoded.
fn destination(href: &str) -> String {
    let mut out = String::with_capacity(href.len());
    for c in href.trim().chars() {
        match c {
            ' ' | '(' | ')' | '<' | '>' | '"' | '\'' | '\\' | '`' | '\n' | '\r' | '\t' => out.push_str(&format!("%{:02X}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

impl Writer {
    /// Inline content of `nodes` as one string.
    fn inlines(nodes: &[Node]) -> String {
        let mut s = String::new();
        let mut start = false;
        for n in nodes {
            Writer::inline_node(&mut s, n, &mut start);
        }
        s
    }

    fn inline_node(s: &mut String, n: &Node, start: &mut bool) {
        match n {
            Node::Text(t) => escape_text(s, t, start),
            Node::Code(t) => s.push_str(&code_span(t)),
            Node::SoftBreak => s.push(' '),
            Node::HardBreak => {
                s.push_str("\\\n");
                *start = true;
            }
            Node::Link { href, children } if is_web_link(href) => {
                s.push('[');
                s.push_str(&Writer::inlines(children));
                s.push_str(&format!("]({})", destination(href)));
            }
            Node::El { tag, children } => {
                let inner = Writer::inlines(children);
                let mark = match tag {
                    El::Em => "*",
                    El::Strong => "**",
                    El::Del => "~~",
                    _ => "",
                };
                if inner.trim().is_empty() {
                    s.push_str(&inner);
                } else {
                    s.push_str(mark);
                    s.push_str(&inner);
                    s.push_str(mark);
                }
            }
            // A link to anything else keeps its text only; blocks inside
            // inline content are flattened to their text.
            Node::Link { children, .. } => s.push_str(&Writer::inlines(children)),
            Node::CodeBlock { text, .. } => s.push_str(&code_span(text)),
            Node::Rule => {}
        }
    }

    fn line(&mut self, prefix: &str, text: &str) {
        for l in text.split('\n') {
            self.out.push_str(prefix);
            self.out.push_str(l);
            self.out.push('\n');
        }
    }

    fn blocks(&mut self, nodes: &[Node], prefix: &str) {
        let mut inline_run: Vec<&Node> = Vec::new();
        for n in nodes {
            let block = matches!(n, Node::CodeBlock { .. } | Node::Rule)
                || matches!(n, Node::El { tag, .. } if matches!(tag, El::P | El::H(_) | El::Quote | El::Ul | El::Ol | El::Table | El::Li));
            if !block {
                inline_run.push(n);
                continue;
            }
            self.flush_inlines(&mut inline_run, prefix);
            self.block(n, prefix);
        }
        self.flush_inlines(&mut inline_run, prefix);
    }

    fn flush_inlines(&mut self, run: &mut Vec<&Node>, prefix: &str) {
        if run.is_empty() {
            return;
        }
        let owned: Vec<Node> = run.drain(..).cloned().collect();
        let text = Writer::inlines(&owned);
        if !text.trim().is_empty() {
            self.line(prefix, text.trim_end());
            self.line(prefix, "");
        }
    }

    fn block(&mut self, n: &Node, prefix: &str) {
        match n {
            Node::CodeBlock { lang, text } => {
                let mut s = String::new();
                code_block(&mut s, lang, text);
                self.line(prefix, s.trim_end());
                self.line(prefix, "");
            }
            Node::Rule => {
                self.line(prefix, "---");
                self.line(prefix, "");
            }
            Node::El { tag, children } => match tag {
                El::P => {
                    let text = Writer::inlines(children);
                    self.line(prefix, text.trim_end());
                    self.line(prefix, "");
                }
                El::H(level) => {
                    let text = Writer::inlines(children).replace('\n', " ");
                    self.line(prefix, &format!("{} {}", "#".repeat((*level).clamp(1, 6) as usize), text.trim()));
                    self.line(prefix, "");
                }
                El::Quote => self.blocks(children, &format!("{prefix}> ")),
                El::Ul | El::Ol => {
                    let mut k = 0;
                    for item in children {
                        let Node::El { tag: El::Li, children: kids } = item else { continue };
                        k += 1;
                        let marker = if *tag == El::Ol { format!("{k}. ") } else { "- ".to_string() };
                        let mut inner = Writer::default();
                        inner.blocks(kids, "");
                        let body = inner.out.trim_end();
                        let pad = " ".repeat(marker.len());
                        for (j, l) in body.split('\n').enumerate() {
                            let lead = if j == 0 { marker.as_str() } else { pad.as_str() };
                            self.out.push_str(prefix);
                            if l.is_empty() {
                                self.out.push('\n');
                            } else {
                                self.out.push_str(lead);
                                self.out.push_str(l);
                                self.out.push('\n');
                            }
                        }
                    }
                    self.line(prefix, "");
                }
                El::Li => self.blocks(children, prefix),
                El::Table => {
                    let rows: Vec<Vec<String>> = children
                        .iter()
                        .filter_map(|r| match r {
                            Node::El { tag: El::Tr, children } => Some(
                                children
                                    .iter()
                                    .map(|c| match c {
                                        Node::El { children, .. } => Writer::inlines(children).replace('\n', " "),
                                        other => Writer::inlines(std::slice::from_ref(other)),
                                    })
                                    .collect(),
                            ),
                            _ => None,
                        })
                        .collect();
                    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
                    for (k, r) in rows.iter().enumerate() {
                        let cells: Vec<String> = (0..cols).map(|c| r.get(c).cloned().unwrap_or_default()).collect();
                        self.line(prefix, &format!("| {} |", cells.join(" | ")));
                        if k == 0 {
                            self.line(prefix, &format!("|{}|", vec!["---"; cols].join("|")));
                        }
                    }
                    self.line(prefix, "");
                }
                _ => {
                    let text = Writer::inlines(children);
                    self.line(prefix, text.trim_end());
                }
            },
            other => {
                let text = Writer::inlines(std::slice::from_ref(other));
                self.line(prefix, &text);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Raw HTML that a renderer allowing HTML would run, or an address it
    /// would fetch: none may survive as markup.
    const HOSTILE: &str = "<script>alert(1)</script>\n\n<img src=x onerror=alert(2)>\n\n\
        ![i](http://evil.test/p.png) [j](javascript:alert(3)) <http://evil.test/a> &lt;b&gt; \n\n\
        <details open ontoggle=alert(4)>x</details>\n\n[r]: javascript:alert(5)\n\n[ref][r]\n";

    /// `md` with every backslash escape taken as the character it escapes
    /// removed: what is left is the markup a renderer would see.
    fn markup(md: &str) -> String {
        let mut out = String::new();
        let mut chars = md.chars();
        while let Some(c) = chars.next() {
            if c == '\\' {
                chars.next();
                out.push('_');
            } else {
                out.push(c);
            }
        }
        out
    }

    #[test]
    fn prose_keeps_no_markup_that_could_run() {
        let md = prose(HOSTILE);
        let live = markup(&md);
        for bad in ["<", "](javascript", "![", "&lt;", "&#"] {
            assert!(!live.contains(bad), "{bad} in {md}");
        }
        // What a person reads is still there, as text.
        for seen in ["script", "alert(1)", "onerror=alert(2)", "http://evil.test/p.png", " j "] {
            assert!(md.contains(seen) || md.replace('\\', "").contains(seen), "{seen} missing from {md}");
        }
    }

    #[test]
    fn prose_keeps_its_structure_and_web_links() {
        let md = prose("# Plan\n\n- one *two*\n- `three`\n\n1. a\n2. b\n\n```rust\nfn x() {}\n```\n\n> quoted\n\n[site](https://x.test/a(b))\n");
        assert!(md.contains("# Plan"), "{md}");
        assert!(md.contains("- one *two*"), "{md}");
        assert!(md.contains("- `three`"), "{md}");
        assert!(md.contains("1. a\n2. b"), "{md}");
        assert!(md.contains("```rust\nfn x() {}\n```"), "{md}");
        assert!(md.contains("> quoted"), "{md}");
        assert!(md.contains("[site](https://x.test/a%28b%29)"), "{md}");
    }

    #[test]
    fn text_that_looks_like_markup_is_escaped() {
        assert_eq!(inline("<b>bold</b> & co"), "\\<b\\>bold\\</b\\> & co");
        assert_eq!(inline("# not a heading\n- nor a list"), "\\# not a heading - nor a list");
        assert_eq!(inline("snake_case stays, _edge_ does not"), "snake_case stays, \\_edge\\_ does not");
        assert_eq!(inline("&amp; and &#60;"), "\\&amp; and \\&#60;");
        assert_eq!(inline("![x](y)"), "\\!\\[x\\](y)");
        assert_eq!(html("<img src=x onerror=alert(1)> & \"q\""), "&lt;img src=x onerror=alert(1)&gt; &amp; &quot;q&quot;");
        let md = prose("1. item\n\n10) other");
        assert!(md.starts_with("1. item"), "a real list stays a list: {md}");
    }

    #[test]
    fn code_is_fenced_longer_than_any_backtick_run() {
        let mut s = String::new();
        code_block(&mut s, "json\" onload=x", "a ```` b");
        assert_eq!(s, "`````\na ```` b\n`````\n", "a hostile language word is dropped");
        assert_eq!(code_span("a`b"), "``a`b``");
        assert_eq!(code_span("`x"), "`` `x ``");
    }
}
