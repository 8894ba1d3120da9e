//! Teammates (Claude Code 2.1.32+, agent teams): a teammate's words reach
//! the lead as a user record whose text holds one or more blocks
//!
//! ```text
//! <teammate-message teammate_id="alice" color="blue" summary="relay tests complete">
//! Relay module coverage is now **96%**.
//! </teammate-message>
//! ```
//!
//! possibly from several teammates, with text around them; `teammate_id="system"`
//! marks the team's own notices. (Source: daaain/claude-code-log
//! `dev-docs/teammates.md` §1.2, §3.2.) They are not the person's words.
//! A block that never closes ends the reading there (never guess where it
//! ends); what follows stays plain text.

/// One `<teammate-message>` block.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Block<'a> {
    pub teammate_id: Option<&'a str>,
    /// As written; shown only through [`palette`] (never as a style).
    pub color: Option<&'a str>,
    pub summary: Option<&'a str>,
    pub body: &'a str,
}

impl Block<'_> {
    /// The team's own notice, not a teammate's words.
    pub fn is_system(&self) -> bool {
        self.teammate_id == Some("system")
    }
}

/// A user text holding teammate blocks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Message<'a> {
    pub before: &'a str,
    pub blocks: Vec<Block<'a>>,
    pub after: &'a str,
}

const OPEN: &str = "<teammate-message";
const CLOSE: &str = "</teammate-message>";

/// The teammate blocks of `text`; `None` when it has none.
pub fn message(text: &str) -> Option<Message<'_>> {
    let first = text.find(OPEN)?;
    let mut m = Message { before: text[..first].trim(), ..Message::default() };
    let mut rest = &text[first..];
    while let Some(at) = rest.find(OPEN) {
        let tail = &rest[at + OPEN.len()..];
        // `<teammate-message>` or `<teammate-message attr=…>`, nothing else.
        if !tail.starts_with(|c: char| c == '>' || c.is_whitespace()) {
            break;
        }
        let Some(head_end) = tag_end(tail) else { break };
        let Some(body_len) = tail[head_end + 1..].find(CLOSE) else { break };
        let attrs = &tail[..head_end];
        let body = &tail[head_end + 1..head_end + 1 + body_len];
        m.blocks.push(Block { teammate_id: attr(attrs, "teammate_id"), color: attr(attrs, "color"), summary: attr(attrs, "summary"), body: body.trim() });
        rest = &tail[head_end + 1 + body_len + CLOSE.len()..];
    }
    m.after = rest.trim();
    (!m.blocks.is_empty()).then_some(m)
}

/// Where the opening tag ends (its `>` outside quotes).
fn tag_end(s: &str) -> Option<usize> {
    let mut quote = None;
    for (k, c) in s.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '>') => return Some(k),
            _ => {}
        }
    }
    None
}

/// Attribute `name`'s value (double- or single-quoted); empty is absent.
fn attr<'a>(attrs: &'a str, name: &str) -> Option<&'a str> {
    let mut s = attrs;
    while let Some(at) = s.find(name) {
        let before_ok = at == 0 || s[..at].ends_with(char::is_whitespace);
        let after = s[at + name.len()..].trim_start();
        if let (true, Some(v)) = (before_ok, after.strip_prefix('=')) {
            let v = v.trim_start();
            let q = v.chars().next().filter(|c| *c == '"' || *c == '\'')?;
            let end = v[1..].find(q)?;
            return Some(&v[1..1 + end]).filter(|v| !v.is_empty());
        }
        s = &s[at + name.len()..];
    }
    None
}

/// The colours a teammate may be drawn in (the names Claude Code gives
/// them); any other value is drawn in the neutral colour.
pub const PALETTE: [&str; 8] = ["red", "blue", "green", "yellow", "purple", "orange", "pink", "cyan"];

/// `color` if it is one of [`PALETTE`] (lowercased), else `None`.
pub fn palette(color: Option<&str>) -> Option<&'static str> {
    let c = color?.trim().to_ascii_lowercase();
    PALETTE.iter().copied().find(|p| *p == c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_from_several_teammates_with_text_around_them() {
        let text = concat!(
            "Updates:\n",
            "<teammate-message teammate_id=\"alice\" color=\"blue\" summary=\"relay tests complete\">\nCoverage is **96%**.\n</teammate-message>\n",
            "<teammate-message teammate_id='bob' color='green'>Done: a > b</teammate-message>",
            "<teammate-message teammate_id=\"system\">teammate_terminated: alice exited cleanly</teammate-message>\nthanks",
        );
        let m = message(text).unwrap();
        assert_eq!((m.before, m.after), ("Updates:", "thanks"));
        assert_eq!(
            m.blocks.iter().map(|b| (b.teammate_id, b.color, b.summary, b.body)).collect::<Vec<_>>(),
            [
                (Some("alice"), Some("blue"), Some("relay tests complete"), "Coverage is **96%**."),
                (Some("bob"), Some("green"), None, "Done: a > b"),
                (Some("system"), None, None, "teammate_terminated: alice exited cleanly"),
            ]
        );
        assert!(m.blocks[2].is_system());
    }

    #[test]
    fn an_unclosed_block_or_a_lookalike_is_not_guessed() {
        assert_eq!(message("plain words"), None);
        assert_eq!(message("<teammate-message teammate_id=\"a\">never closed"), None);
        assert_eq!(message("<teammate-messages>x</teammate-messages>"), None);
        let m = message("<teammate-message summary=\"has > inside\">ok</teammate-message><teammate-message>cut").unwrap();
        assert_eq!((m.blocks.len(), m.blocks[0].summary, m.after), (1, Some("has > inside"), "<teammate-message>cut"));
    }

    #[test]
    fn only_known_colours_are_drawn() {
        assert_eq!(palette(Some("Blue")), Some("blue"));
        assert_eq!(palette(Some("red; background:url(x)")), None);
        assert_eq!(palette(None), None);
    }
}
