//! Redaction for sharing: user names in home paths (and in the encoded
//! project directories, `-Users-<n>-…`), e-mail addresses and likely
//! secrets are replaced by stable placeholders — `<user>`, `<email-1>`,
//! `<secret-1>` — the same value always by the same placeholder for as long
//! as one [`Redactor`] lives. It works on text about to be shown or
//! exported; the files themselves are never touched.
//!
//! **Redact first, then cut.** A key cut in half no longer looks like a key
//! (`AKIAPLANTEDEXA…`), and a value cut from its name (`hunter22` without
//! `password=`) no longer looks like a secret: so every text is redacted
//! whole, and only then cut, joined or marked. [`Redactor::redact_mapped`]
//! says where each replacement went, so a range of the original (a search
//! hit) can be found in the redacted text ([`Redactor::snippet`],
//! [`Redactor::marked`]); [`Redactor::shown`] cuts after redacting.
//!
//! The rules, each finding byte ranges of the original text (pinned by the
//! table test below); overlapping ranges merge into one replacement:
//! - home paths: `/Users/<n>`, `/home/<n>`, `C:\Users\<n>` (either slash),
//!   and `-Users-<n>-` / `-home-<n>-` in encoded project names (a name once
//!   seen as `jane.doe` is found in its encoded form `jane-doe` too); a name
//!   once seen is also replaced wherever it stands as a word, in any case;
//! - e-mail addresses: `local@domain.tld`;
//! - key shapes: Anthropic `sk-ant-…`, OpenAI `sk-…` / `sk-proj-…`, GitHub
//!   `ghp_` `gho_` `ghu_` `ghs_` `ghr_` `github_pat_`, AWS `AKIA…` / `ASIA…`,
//!   Slack `xox[abprs]-…`; `Bearer <token>`; the value after `password`,
//!   `passwd`, `api_key`, `apikey`, `client_secret`, `secret_key`,
//!   `access_token`, `auth_token`, `aws_secret_access_key` and `=` or `:`;
//!   `-----BEGIN … PRIVATE KEY-----` blocks.

use std::borrow::Cow;
use std::ops::Range;

#[derive(Clone, Debug, Default)]
pub struct Redactor {
    /// Names seen in home paths, as seen.
    users: Vec<String>,
    /// The same names lower-cased, and in their encoded form (every
    /// character but letters and digits made `-`, as Claude Code names
    /// project directories), longest first.
    forms: Vec<String>,
    emails: Vec<String>,
    secrets: Vec<String>,
}

/// What a range of text is replaced by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    User,
    Email,
    Secret,
}

/// A byte range of the original text to replace.
#[derive(Clone, Copy, Debug)]
struct Cut {
    start: usize,
    end: usize,
    kind: Kind,
}

/// Where a replacement went: `from` in the original, `to` in the redacted text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Moved {
    pub from: Range<usize>,
    pub to: Range<usize>,
}

/// Key prefixes and the fewest characters that must follow them.
const KEY_PREFIXES: &[(&str, usize)] = &[
    ("sk-ant-", 16),
    ("sk-proj-", 16),
    ("sk-", 20),
    ("github_pat_", 20),
    ("ghp_", 30),
    ("gho_", 30),
    ("ghu_", 30),
    ("ghs_", 30),
    ("ghr_", 30),
    ("xoxb-", 10),
    ("xoxp-", 10),
    ("xoxa-", 10),
    ("xoxr-", 10),
    ("xoxs-", 10),
    ("AKIA", 16),
    ("ASIA", 16),
];

/// What every key prefix of [`KEY_PREFIXES`] contains (fewer searches).
const KEY_STEMS: &[&str] = &["sk-", "gh", "github_pat_", "xox", "AKIA", "ASIA"];
/// What every name of [`SECRET_NAMES`] contains, lower-cased.
const SECRET_STEMS: &[&str] = &["pass", "apikey", "api_key", "secret", "_token"];

/// Names whose value follows `=` or `:`.
const SECRET_NAMES: &[&str] = &["password", "passwd", "api_key", "apikey", "client_secret", "secret_key", "access_token", "auth_token", "aws_secret_access_key"];

const HOMES: &[&str] = &["/Users/", "/home/", "\\Users\\", "C:/Users/"];
const ENCODED_HOMES: &[&str] = &["-Users-", "-home-"];
/// Known names shorter than this are not looked for as words (too common).
const MIN_WORD_CHARS: usize = 3;

fn is_key_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

fn is_name_end(c: char) -> bool {
    c.is_whitespace() || matches!(c, '/' | '\\' | '"' | '\'' | '<' | '>' | ':' | ';' | ',' | ')' | '(' | '`' | '|' | '&' | '?' | '*' | '[' | ']' | '{' | '}')
}

fn is_email_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '%' | '+' | '-')
}

/// A name as Claude Code writes it in a project directory's name.
fn encoded(name: &str) -> String {
    name.chars().map(|c| if c.is_alphanumeric() { c } else { '-' }).collect()
}

/// `<user>`, `<email-N>`, `<secret-N>`: what this module writes.
fn is_placeholder(s: &str) -> bool {
    let Some(inner) = s.strip_prefix('<').and_then(|s| s.strip_suffix('>')) else { return false };
    inner == "user"
        || ["email-", "secret-"].iter().any(|p| inner.strip_prefix(p).is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())))
}

/// The placeholder for `value` in `list` (added if new): `<kind-N>`.
fn placeholder(list: &mut Vec<String>, kind: &str, value: &str) -> String {
    let k = match list.iter().position(|v| v == value) {
        Some(k) => k,
        None => {
            list.push(value.to_string());
            list.len() - 1
        }
    };
    format!("<{kind}-{}>", k + 1)
}

/// Byte offsets of every match of `needle` in `hay`.
fn find_all<'a>(hay: &'a str, needle: &'a str) -> impl Iterator<Item = usize> + 'a {
    memchr::memmem::find_iter(hay.as_bytes(), needle.as_bytes())
}

/// `text[..at]`'s last char.
fn before(text: &str, at: usize) -> Option<char> {
    text[..at].chars().next_back()
}

impl Redactor {
    pub fn new() -> Redactor {
        Redactor::default()
    }

    /// `text` with every rule applied; borrowed back when nothing matched.
    pub fn redact<'a>(&mut self, text: &'a str) -> Cow<'a, str> {
        let cuts = self.cuts(text);
        if cuts.is_empty() {
            return Cow::Borrowed(text);
        }
        let (mut out, _) = self.apply(text, &cuts);
        for _ in 1..MAX_PASSES {
            let more = self.cuts(&out);
            if more.is_empty() {
                break;
            }
            out = self.apply(&out, &more).0;
        }
        Cow::Owned(out)
    }

    /// [`Redactor::redact`], saying where each replacement went: one list
    /// per pass, each in order.
    pub fn redact_mapped(&mut self, text: &str) -> (String, Vec<Vec<Moved>>) {
        let mut out = text.to_string();
        let mut passes = Vec::new();
        for _ in 0..MAX_PASSES {
            let cuts = self.cuts(&out);
            if cuts.is_empty() {
                break;
            }
            let (next, moved) = self.apply(&out, &cuts);
            passes.push(moved);
            out = next;
        }
        (out, passes)
    }

    /// Learns the names in `text` (home paths) without redacting anything
    /// yet: a page primes its redactor with what it knows (each project's
    /// working directory) before it shows names in their encoded form.
    pub fn learn(&mut self, text: &str) {
        let _ = self.cuts(text);
    }

    /// `text` redacted, then cut to its first line of at most `max_chars`
    /// characters (an ellipsis marks a cut).
    pub fn shown(&mut self, text: &str, max_chars: usize) -> String {
        crate::model::tools::first_line(&self.redact(text), max_chars)
    }

    /// `text` redacted, with each range of `ranges` (of the original, by
    /// byte) moved to where it lies in the redacted text. A range that
    /// touches a replacement grows to cover all of it.
    pub fn marked(&mut self, text: &str, ranges: &[Range<usize>]) -> (String, Vec<Range<usize>>) {
        let (red, passes) = self.redact_mapped(text);
        let out = ranges
            .iter()
            .map(|r| {
                let m = passes.iter().fold(r.clone(), |r, moved| map_range(moved, r));
                m.start.min(red.len())..m.end.min(red.len())
            })
            .collect();
        (red, out)
    }

    /// A search hit as a person reads it: `text` (the whole string the hit
    /// lies in) redacted, the hit `hit` (a byte range of the original)
    /// found in it, and up to `context_chars` characters on each side,
    /// whitespace folded: `(before, hit, after)`, with `…` where cut.
    pub fn snippet(&mut self, text: &str, hit: Range<usize>, context_chars: usize) -> (String, String, String) {
        let (red, ranges) = self.marked(text, &[hit]);
        cut_around(&red, ranges.into_iter().next().unwrap_or(0..0), context_chars)
    }

    /// Replaces `cuts` (sorted, disjoint) by their placeholders.
    fn apply(&mut self, text: &str, cuts: &[Cut]) -> (String, Vec<Moved>) {
        let mut out = String::with_capacity(text.len());
        let mut moved = Vec::with_capacity(cuts.len());
        let mut at = 0;
        for c in cuts {
            out.push_str(&text[at..c.start]);
            let value = &text[c.start..c.end];
            let start = out.len();
            match c.kind {
                Kind::User => out.push_str("<user>"),
                Kind::Email => out.push_str(&placeholder(&mut self.emails, "email", value)),
                Kind::Secret => out.push_str(&placeholder(&mut self.secrets, "secret", value)),
            }
            moved.push(Moved { from: c.start..c.end, to: start..out.len() });
            at = c.end;
        }
        out.push_str(&text[at..]);
        (out, moved)
    }

    /// A quick test that lets most text through untouched (SIMD searches;
    /// a 40 MB prompt is looked at in tens of milliseconds).
    fn might_match(&self, text: &str, lower: &str) -> bool {
        let has = |hay: &str, n: &str| memchr::memmem::find(hay.as_bytes(), n.as_bytes()).is_some();
        memchr::memchr(b'@', text.as_bytes()).is_some()
            || ["Users", "home", "PRIVATE KEY", "Bearer"].iter().any(|n| has(text, n))
            || KEY_STEMS.iter().any(|p| has(text, p))
            || self.forms.iter().any(|u| has(lower, u))
            || SECRET_STEMS.iter().any(|n| has(lower, n))
    }

    /// Every range of `text` to replace, sorted and merged; learns the
    /// names in home paths on the way. Names and secret names are matched
    /// ASCII case-insensitively (byte offsets then fit `text` exactly).
    fn cuts(&mut self, text: &str) -> Vec<Cut> {
        let lower = text.to_ascii_lowercase();
        if !self.might_match(text, &lower) {
            return Vec::new();
        }
        let mut cuts = Vec::new();
        self.private_keys(text, &mut cuts);
        named_values(text, &lower, &mut cuts);
        key_shapes(text, &mut cuts);
        emails(text, &mut cuts);
        self.home_paths(text, &lower, &mut cuts);
        self.known_users(text, &lower, &mut cuts);
        cuts.retain(|c| c.start < c.end && !is_placeholder(&text[c.start..c.end]));
        merge(cuts)
    }

    fn private_keys(&self, text: &str, cuts: &mut Vec<Cut>) {
        for at in find_all(text, "-----BEGIN ") {
            let block = &text[at..];
            let header_end = block.find('\n').unwrap_or(block.len());
            if !block[..header_end].contains("PRIVATE KEY-----") {
                continue;
            }
            let end = block.find("-----END ").and_then(|e| block[e + 9..].find("-----").map(|f| e + 9 + f + 5));
            if let Some(e) = end {
                cuts.push(Cut { start: at, end: at + e, kind: Kind::Secret });
            }
        }
    }

    fn learn_user(&mut self, name: &str) {
        if name.is_empty() || is_placeholder(name) || self.users.iter().any(|u| u == name) {
            return;
        }
        self.users.push(name.to_string());
        for form in [name.to_ascii_lowercase(), encoded(&name.to_ascii_lowercase())] {
            if form.chars().count() >= MIN_WORD_CHARS && !self.forms.contains(&form) {
                self.forms.push(form);
            }
        }
        crate::sort::by(&mut self.forms, |a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
    }

    fn home_paths(&mut self, text: &str, lower: &str, cuts: &mut Vec<Cut>) {
        for home in HOMES {
            for at in find_all(text, home) {
                let from = at + home.len();
                let after = &text[from..];
                let len = after.find(is_name_end).unwrap_or(after.len());
                let name = &after[..len];
                if name.is_empty() || name.starts_with('<') {
                    continue;
                }
                self.learn_user(name);
                cuts.push(Cut { start: from, end: from + len, kind: Kind::User });
            }
        }
        for home in ENCODED_HOMES {
            for at in find_all(text, home) {
                let from = at + home.len();
                let after = &lower[from..];
                // A name seen before, in its encoded form (longest first);
                // else the first segment: `-Users-jane-doe-app` names `jane`
                // until `jane.doe` has been seen somewhere.
                let known = self.forms.iter().find(|f| {
                    after.starts_with(f.as_str()) && after[f.len()..].chars().next().is_none_or(|c| c == '-' || is_name_end(c))
                });
                let len = match known {
                    Some(f) => f.len(),
                    None => after.find(|c: char| c == '-' || is_name_end(c)).unwrap_or(after.len()),
                };
                let name = &text[from..from + len];
                if len == 0 || name.starts_with('<') {
                    continue;
                }
                if known.is_none() {
                    self.learn_user(name);
                }
                cuts.push(Cut { start: from, end: from + len, kind: Kind::User });
            }
        }
    }

    /// A name seen in a path, wherever it stands as a word (any case).
    fn known_users(&self, text: &str, lower: &str, cuts: &mut Vec<Cut>) {
        for form in &self.forms {
            for at in find_all(lower, form) {
                let end = at + form.len();
                let b = before(text, at);
                let a = text[end..].chars().next();
                // A word, and not the inside of a placeholder (`<user>`).
                let word = b.is_none_or(|c| !c.is_alphanumeric() && c != '<') && a.is_none_or(|c| !c.is_alphanumeric() && c != '>');
                if word {
                    cuts.push(Cut { start: at, end, kind: Kind::User });
                }
            }
        }
    }
}

/// `text` cut to `context_chars` characters on each side of `hit` (a byte
/// range of it), never inside a placeholder, whitespace folded:
/// `(before, hit, after)`, with `…` where cut. Cut only what is redacted
/// already (or what needs no redaction).
pub fn cut_around(text: &str, hit: Range<usize>, context_chars: usize) -> (String, String, String) {
    let hit = hit.start.min(text.len())..hit.end.min(text.len()).max(hit.start.min(text.len()));
    let fold = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let from = outside_placeholder(text, text[..hit.start].char_indices().rev().nth(context_chars.saturating_sub(1)).map_or(0, |(k, _)| k), false);
    let from = if context_chars == 0 { hit.start } else { from };
    let to = outside_placeholder(text, text[hit.end..].char_indices().nth(context_chars).map_or(text.len(), |(k, _)| hit.end + k), true);
    let (head, tail) = (&text[from.min(hit.start)..hit.start], &text[hit.end..to.max(hit.end)]);
    let cut_head = {
        let folded = fold(head);
        let space = if head.ends_with(char::is_whitespace) && !folded.is_empty() { " " } else { "" };
        format!("{}{folded}{space}", if from > 0 { "…" } else { "" })
    };
    let cut_tail = {
        let folded = fold(tail);
        let space = if tail.starts_with(char::is_whitespace) && !folded.is_empty() { " " } else { "" };
        format!("{space}{folded}{}", if to < text.len() { "…" } else { "" })
    };
    (cut_head, fold(&text[hit]), cut_tail)
}

/// Redaction passes at most: a replacement can complete a shape the first
/// pass could not see (`a@b.io` before a private key block swallowed the
/// domain), so the result is redacted again until nothing changes.
const MAX_PASSES: usize = 3;

/// `at` (a byte offset of redacted text) moved out of any placeholder it
/// falls inside: to its end when `forward`, else to its start.
fn outside_placeholder(red: &str, at: usize, forward: bool) -> usize {
    let Some(open) = red[..at].rfind('<') else { return at };
    let Some(close) = red[open..].find('>').map(|k| open + k + 1) else { return at };
    if open < at && at < close && is_placeholder(&red[open..close]) {
        if forward {
            close
        } else {
            open
        }
    } else {
        at
    }
}

/// `Bearer <token>` and the values of secret-looking names.
fn named_values(text: &str, lower: &str, cuts: &mut Vec<Cut>) {
    let bytes = text.as_bytes();
    for k in find_all(text, "Bearer ") {
        let start = k + 7;
        let len = text[start..].find(|c: char| !(c.is_ascii_alphanumeric() || "._~+/=-".contains(c))).unwrap_or(text.len() - start);
        if len >= 8 {
            cuts.push(Cut { start, end: start + len, kind: Kind::Secret });
        }
    }
    for name in SECRET_NAMES {
        for at in find_all(lower, name) {
            if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_') {
                continue;
            }
            // Optional closing quote, then `=` or `:`, spaces, an opening quote.
            let mut i = at + name.len();
            while i < bytes.len() && (bytes[i] == b'"' || bytes[i] == b'\'') {
                i += 1;
            }
            if i >= bytes.len() || !(bytes[i] == b'=' || bytes[i] == b':') {
                continue;
            }
            i += 1;
            while i < bytes.len() && (bytes[i] == b' ' || bytes[i] == b'"' || bytes[i] == b'\'') {
                i += 1;
            }
            let len = text[i..].find(|c: char| c.is_whitespace() || "\"'&,;".contains(c)).unwrap_or(text.len() - i);
            if len >= 4 {
                cuts.push(Cut { start: i, end: i + len, kind: Kind::Secret });
            }
        }
    }
}

/// Key shapes, starting at a word boundary. A bare `sk-` must not follow
/// a key character (`risk-assessment-…` is no key); the distinctive
/// prefixes may follow `-` or `_` (`--token=x`, `-ghp_…`).
fn key_shapes(text: &str, cuts: &mut Vec<Cut>) {
    for (prefix, min) in KEY_PREFIXES {
        let strict = *prefix == "sk-";
        for at in find_all(text, prefix) {
            if before(text, at).is_some_and(|c| if strict { is_key_char(c) } else { c.is_ascii_alphanumeric() }) {
                continue;
            }
            let from = at + prefix.len();
            let len = text[from..].find(|c: char| !is_key_char(c)).unwrap_or(text.len() - from);
            if len >= *min {
                cuts.push(Cut { start: at, end: from + len, kind: Kind::Secret });
            }
        }
    }
}

fn emails(text: &str, cuts: &mut Vec<Cut>) {
    for at in memchr::memchr_iter(b'@', text.as_bytes()) {
        let start = text[..at].rfind(|c: char| !is_email_char(c)).map_or(0, |i| i + text[i..].chars().next().map_or(1, char::len_utf8));
        let local = &text[start..at];
        let dom_len = text[at + 1..].find(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '-')).unwrap_or(text.len() - at - 1);
        let domain = text[at + 1..at + 1 + dom_len].trim_end_matches('.');
        let tld_ok = domain.rsplit_once('.').is_some_and(|(head, tld)| !head.is_empty() && tld.len() >= 2 && tld.chars().all(|c| c.is_ascii_alphabetic()));
        if !local.is_empty() && !local.starts_with('.') && tld_ok {
            cuts.push(Cut { start, end: at + 1 + domain.len(), kind: Kind::Email });
        }
    }
}

/// Sorts `cuts` and merges overlapping ones (the stronger kind wins:
/// secret over e-mail over user name).
fn merge(mut cuts: Vec<Cut>) -> Vec<Cut> {
    crate::sort::by(&mut cuts, |a, b| a.start.cmp(&b.start).then(b.end.cmp(&a.end)));
    let mut out: Vec<Cut> = Vec::with_capacity(cuts.len());
    for c in cuts {
        match out.last_mut() {
            Some(last) if c.start < last.end => {
                last.end = last.end.max(c.end);
                last.kind = last.kind.max(c.kind);
            }
            _ => out.push(c),
        }
    }
    out
}

/// `r` (a byte range of a pass's input) in its output: an end inside a
/// replacement moves to that replacement's edge, so a range touching one
/// covers all of it.
fn map_range(moved: &[Moved], r: Range<usize>) -> Range<usize> {
    let map = |pos: usize, is_end: bool| -> usize {
        let mut shift: isize = 0;
        for m in moved {
            if pos <= m.from.start {
                break;
            }
            if pos < m.from.end {
                return if is_end { m.to.end } else { m.to.start };
            }
            shift += m.to.len() as isize - m.from.len() as isize;
        }
        (pos as isize + shift).max(0) as usize
    };
    let start = map(r.start, false);
    let end = map(r.end.max(r.start), true).max(start);
    start..end
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules_table() {
        let cases: &[(&str, &str)] = &[
            ("cd /Users/alex/code/app && ls", "cd /Users/<user>/code/app && ls"),
            ("/home/jo.smith/.claude/projects", "/home/<user>/.claude/projects"),
            ("C:\\Users\\Dana\\repo", "C:\\Users\\<user>\\repo"),
            ("C:/Users/Dana/repo", "C:/Users/<user>/repo"),
            ("-Users-alex-code-app", "-Users-<user>-code-app"),
            ("-home-jo-smith-src", "-home-<user>-src"),
            ("mail alex@example.com or Alex.B+x@mail.example.co.uk.", "mail <email-1> or <email-2>."),
            ("again alex@example.com", "again <email-1>"),
            ("key sk-ant-api03-AbCdEfGhIjKlMnOpQrStUv and sk-proj-abcdefghijklmnopqrstuvwx", "key <secret-1> and <secret-2>"),
            ("export OPENAI=sk-abcdefghijklmnopqrstuvwxyz012345", "export OPENAI=<secret-3>"),
            ("ghp_abcdefghijklmnopqrstuvwxyz0123456789 github_pat_11ABCDEFG0abcdefghijkl_mnop", "<secret-4> <secret-5>"),
            ("AKIAIOSFODNN7EXAMPLE in the config", "<secret-6> in the config"),
            ("xoxb-123456789012-abcdefghij", "<secret-7>"),
            ("Authorization: Bearer eyJhbGciOi.abc.def", "Authorization: Bearer <secret-8>"),
            ("password=hunter22&user=x", "password=<secret-9>&user=x"),
            ("{\"api_key\": \"abcd1234efgh\"}", "{\"api_key\": \"<secret-10>\"}"),
            ("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----\nafter", "<secret-11>\nafter"),
            ("alex wrote this", "<user> wrote this"),
            ("Alex and ALEX too, but alexander stays", "<user> and <user> too, but alexander stays"),
            ("nothing here: output_tokens 30, skill-set, ask-me, desk-top", "nothing here: output_tokens 30, skill-set, ask-me, desk-top"),
            ("-----BEGIN CERTIFICATE-----", "-----BEGIN CERTIFICATE-----"),
            ("user@localhost is not an address", "user@localhost is not an address"),
            ("password=sk-ant-api03-AbCdEfGhIjKlMnOpQrStUv", "password=<secret-1>"),
        ];
        let mut r = Redactor::new();
        for (input, want) in cases {
            assert_eq!(r.redact(input), *want, "{input}");
        }
        assert!(matches!(r.redact("plain text"), Cow::Borrowed(_)));
        assert_eq!(r.redact("<user> and <email-1>"), "<user> and <email-1>", "placeholders are left alone");
        // A user called `user`: its placeholder is not a word to redact again.
        assert_eq!(r.redact("/home/user/project and user"), "/home/<user>/project and <user>");
        assert_eq!(r.redact("/home/<user>/project and <user>"), "/home/<user>/project and <user>");
    }

    #[test]
    fn a_dotted_name_is_found_in_its_encoded_form_and_in_any_case() {
        let mut r = Redactor::new();
        r.learn("/Users/jane.doe/work");
        assert_eq!(r.redact("-Users-jane-doe-work-app/x.jsonl"), "-Users-<user>-work-app/x.jsonl");
        assert_eq!(r.redact("Jane.Doe signed it; JANE-DOE too"), "<user> signed it; <user> too");
        let mut fresh = Redactor::new();
        fresh.redact("/home/marco/src");
        assert_eq!(fresh.redact("Marco said"), "<user> said");
    }

    #[test]
    fn ranges_follow_the_replacements() {
        let mut r = Redactor::new();
        let text = "see sk-ant-api03-AbCdEfGhIjKlMnOpQrStUv now";
        let key = text.find("sk-").unwrap();
        // A hit inside the key marks the whole placeholder; one after it moves with it.
        let (red, ranges) = r.marked(text, &[key + 8..key + 12, text.len() - 3..text.len()]);
        assert_eq!(red, "see <secret-1> now");
        assert_eq!(&red[ranges[0].clone()], "<secret-1>");
        assert_eq!(&red[ranges[1].clone()], "now");
        let (b, h, a) = r.snippet("aaa bbb /Users/alex/code ccc ddd", 20..24, 6);
        assert_eq!((b.as_str(), h.as_str(), a.as_str()), ("…<user>/", "code", " ccc d…"), "never half a placeholder");
    }

    #[test]
    fn cut_after_redacting() {
        let mut r = Redactor::new();
        let title = "aws AKIAPLANTEDEXAMPLE12 and then some more words here";
        assert_eq!(r.shown(title, 14), "aws <secret-1>…");
    }

    #[test]
    fn the_quick_test_covers_every_rule() {
        for (p, _) in KEY_PREFIXES {
            assert!(KEY_STEMS.iter().any(|s| p.contains(s)), "{p}");
        }
        for n in SECRET_NAMES {
            assert!(SECRET_STEMS.iter().any(|s| n.contains(s)), "{n}");
        }
    }

    proptest::proptest! {
        /// Redacting twice changes nothing more: the page redacts what it
        /// has redacted (a text node set by the observer is observed again).
        #[test]
        fn redaction_is_idempotent(parts in proptest::collection::vec(proptest::sample::select(vec![
            "/Users/", "/home/", "user", "alex", "-Users-", "<", ">", "@", "a@b.io", "sk-ant-", "abcdefghijklmnopqrstuvwxyz", " ", "=", "password",
            "Bearer ", "-----BEGIN RSA PRIVATE KEY-----", "-----END RSA PRIVATE KEY-----", "\n", "-", "x", "AKIA", "0123456789ABCDEF", ".", "Alex",
        ]), 0..24)) {
            let text: String = parts.concat();
            let mut r = Redactor::new();
            let once = r.redact(&text).into_owned();
            let twice = r.redact(&once).into_owned();
            proptest::prop_assert_eq!(&once, &twice);
        }

        /// For any text, any cut and any highlight: no planted secret or
        /// name leaves more than 4 of its characters in what is shown.
        #[test]
        fn nothing_planted_survives_a_cut_or_a_mark(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "the ", "build ", "failed ", "see ", "log ", "ok ", "then ", "/tmp/x ", "(", ")", "\"", ": ", ", ", "\n", " ", "-", "=",
                "/Users/jane.doe/work ", "-Users-jane-doe-work-app ", "mail jane.doe@example.com ", "Jane.Doe ",
                "sk-ant-api03-PLANTEDplanted0123456789 ", "ghp_PLANTEDplantedPLANTEDplanted0123456 ", "AKIAPLANTEDEXAMPLE12 ",
                "Authorization: Bearer eyJPLANTEDtoken.abc.def ", "password=hunter2PLANTED ",
            ]), 1..30),
            hit_at in 0.0f64..1.0, hit_len in 0usize..30, context in 0usize..90, max_chars in 1usize..200,
        ) {
            let text: String = parts.concat();
            // The user's name must be known before it shows encoded: a page
            // learns it from the working directory first.
            let mut r = Redactor::new();
            r.learn("/Users/jane.doe/");
            let start = ((text.len() as f64 * hit_at) as usize).min(text.len());
            let start = (0..=start).rev().find(|&k| text.is_char_boundary(k)).unwrap_or(0);
            let end = (start + hit_len).min(text.len());
            let end = (end..=text.len()).find(|&k| text.is_char_boundary(k)).unwrap_or(text.len());
            let (b, h, a) = r.snippet(&text, start..end, context);
            let shown = r.shown(&text, max_chars);
            let (marked, _) = r.marked(&text, &[start..end]);
            let planted = ["jane.doe", "jane-doe", "PLANTEDplanted0123456789", "PLANTEDplantedPLANTEDplanted0123456", "PLANTEDEXAMPLE12", "eyJPLANTEDtoken.abc.def", "hunter2PLANTED"];
            for out in [format!("{b}{h}{a}"), shown, marked] {
                let low = out.to_lowercase();
                for p in planted {
                    let p = p.to_lowercase();
                    for k in 0..p.len().saturating_sub(4) {
                        let piece = &p[k..k + 5];
                        proptest::prop_assert!(!low.contains(piece), "{piece:?} of {p:?} in {out:?}");
                    }
                }
            }
        }
    }
}
