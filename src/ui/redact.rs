//! Redaction for sharing: user names in home paths (and in the encoded
//! project directories, `-Users-<n>-…`), e-mail addresses and likely
//! secrets are replaced by stable placeholders — `<user>`, `<email-1>`,
//! `<secret-1>` — the same value always by the same placeholder for as long
//! as one [`Redactor`] lives. It works on text about to be shown or
//! exported; the files themselves are never touched.
//!
//! The rules (each pinned by the table test below):
//! - home paths: `/Users/<n>`, `/home/<n>`, `C:\Users\<n>` (either slash),
//!   and `-Users-<n>-` / `-home-<n>-` in encoded project names; a name once
//!   seen in a path is also replaced wherever it stands as a word;
//! - e-mail addresses: `local@domain.tld`;
//! - key shapes: Anthropic `sk-ant-…`, OpenAI `sk-…` / `sk-proj-…`, GitHub
//!   `ghp_` `gho_` `ghu_` `ghs_` `ghr_` `github_pat_`, AWS `AKIA…` / `ASIA…`,
//!   Slack `xox[abprs]-…`; `Bearer <token>`; the value after `password`,
//!   `passwd`, `api_key`, `apikey`, `client_secret`, `secret_key`,
//!   `access_token`, `auth_token`, `aws_secret_access_key` and `=` or `:`;
//!   `-----BEGIN … PRIVATE KEY-----` blocks.

use std::borrow::Cow;

#[derive(Clone, Debug, Default)]
pub struct Redactor {
    users: Vec<String>,
    emails: Vec<String>,
    secrets: Vec<String>,
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

/// Names whose value follows `=` or `:`.
const SECRET_NAMES: &[&str] = &["password", "passwd", "api_key", "apikey", "client_secret", "secret_key", "access_token", "auth_token", "aws_secret_access_key"];

const HOMES: &[&str] = &["/Users/", "/home/", "\\Users\\", "C:/Users/"];
const ENCODED_HOMES: &[&str] = &["-Users-", "-home-"];

fn is_key_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

fn is_name_end(c: char) -> bool {
    c.is_whitespace() || matches!(c, '/' | '\\' | '"' | '\'' | '<' | '>' | ':' | ';' | ',' | ')' | '(' | '`' | '|' | '&' | '?' | '*' | '[' | ']' | '{' | '}')
}

fn is_email_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '%' | '+' | '-')
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

impl Redactor {
    pub fn new() -> Redactor {
        Redactor::default()
    }

    /// `text` with every rule applied; borrowed back when nothing matched.
    pub fn redact<'a>(&mut self, text: &'a str) -> Cow<'a, str> {
        if !self.might_match(text) {
            return Cow::Borrowed(text);
        }
        let mut s = self.private_keys(text);
        s = self.named_values(&s);
        s = self.tokens(&s);
        s = self.home_paths(&s);
        s = self.known_users(&s);
        if s == text {
            Cow::Borrowed(text)
        } else {
            Cow::Owned(s)
        }
    }

    /// A quick test that lets most text through untouched.
    fn might_match(&self, text: &str) -> bool {
        let has_secret_name = || {
            let lower = text.to_ascii_lowercase();
            SECRET_NAMES.iter().any(|n| lower.contains(n))
        };
        text.contains('@')
            || text.contains("Users")
            || text.contains("home")
            || text.contains("PRIVATE KEY")
            || text.contains("Bearer")
            || KEY_PREFIXES.iter().any(|(p, _)| text.contains(p))
            || self.users.iter().any(|u| text.contains(u.as_str()))
            || has_secret_name()
    }

    fn private_keys(&mut self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(at) = rest.find("-----BEGIN ") {
            let block = &rest[at..];
            let header_end = block.find('\n').unwrap_or(block.len());
            let is_private = block[..header_end].contains("PRIVATE KEY-----");
            let end = is_private.then(|| block.find("-----END ")).flatten().and_then(|e| block[e + 9..].find("-----").map(|f| e + 9 + f + 5));
            out.push_str(&rest[..at]);
            match end {
                Some(e) => {
                    out.push_str(&placeholder(&mut self.secrets, "secret", &block[..e]));
                    rest = &block[e..];
                }
                None => {
                    out.push_str("-----BEGIN ");
                    rest = &block[11..];
                }
            }
        }
        out.push_str(rest);
        out
    }

    fn learn_user(&mut self, name: &str) {
        if !name.is_empty() && name != "<user>" && !self.users.iter().any(|u| u == name) {
            self.users.push(name.to_string());
        }
    }

    fn home_paths(&mut self, text: &str) -> String {
        let mut s = text.to_string();
        for home in HOMES.iter().chain(ENCODED_HOMES) {
            let encoded = ENCODED_HOMES.contains(home);
            let mut out = String::with_capacity(s.len());
            let mut rest = s.as_str();
            while let Some(at) = rest.find(home) {
                let after = &rest[at + home.len()..];
                let end = after.find(|c: char| if encoded { c == '-' || is_name_end(c) } else { is_name_end(c) }).unwrap_or(after.len());
                let name = &after[..end];
                out.push_str(&rest[..at + home.len()]);
                if name.is_empty() || name.starts_with('<') || (encoded && end == after.len() && after.is_empty()) {
                    rest = after;
                    continue;
                }
                self.learn_user(name);
                out.push_str("<user>");
                rest = &after[end..];
            }
            out.push_str(rest);
            s = out;
        }
        s
    }

    /// A user name seen in a path, wherever it stands as a word.
    fn known_users(&self, text: &str) -> String {
        let mut s = text.to_string();
        for name in self.users.iter().filter(|u| u.chars().count() >= 3) {
            let mut out = String::with_capacity(s.len());
            let mut rest = s.as_str();
            while let Some(at) = rest.find(name.as_str()) {
                // What precedes may already be in `out` (an earlier match that
                // was not a word ended right here).
                let before = rest[..at].chars().next_back().or_else(|| out.chars().next_back());
                let after = rest[at + name.len()..].chars().next();
                // A word, and not the inside of a placeholder (`<user>`).
                let word = before.is_none_or(|c| !c.is_alphanumeric() && c != '<') && after.is_none_or(|c| !c.is_alphanumeric() && c != '>');
                out.push_str(&rest[..at]);
                out.push_str(if word { "<user>" } else { name });
                rest = &rest[at + name.len()..];
            }
            out.push_str(rest);
            s = out;
        }
        s
    }

    fn named_values(&mut self, text: &str) -> String {
        let lower = text.to_ascii_lowercase();
        let mut cuts: Vec<(usize, usize, bool)> = Vec::new();
        let bytes = text.as_bytes();
        // `Bearer <token>`.
        let mut from = 0;
        while let Some(k) = text[from..].find("Bearer ") {
            let start = from + k + 7;
            let len = text[start..].find(|c: char| !(c.is_ascii_alphanumeric() || "._~+/=-".contains(c))).unwrap_or(text.len() - start);
            if len >= 8 {
                cuts.push((start, start + len, false));
            }
            from = start;
        }
        for name in SECRET_NAMES {
            let mut from = 0;
            while let Some(k) = lower[from..].find(name) {
                let at = from + k;
                from = at + name.len();
                if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_') {
                    continue;
                }
                // Optional closing quote, then `=` or `:`, spaces, an opening quote.
                let mut i = from;
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
                    cuts.push((i, i + len, false));
                }
            }
        }
        self.replace_cuts(text, cuts)
    }

    /// Replaces the byte ranges `cuts` (any order; a range overlapping an
    /// earlier one is dropped) by placeholders: e-mails where `email`, else
    /// secrets. A placeholder already there stays.
    fn replace_cuts(&mut self, text: &str, mut cuts: Vec<(usize, usize, bool)>) -> String {
        cuts.sort_unstable();
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for (a, b, email) in cuts {
            if a < at {
                continue;
            }
            out.push_str(&text[at..a]);
            let value = &text[a..b];
            out.push_str(&match (value.starts_with('<'), email) {
                (true, _) => value.to_string(),
                (false, true) => placeholder(&mut self.emails, "email", value),
                (false, false) => placeholder(&mut self.secrets, "secret", value),
            });
            at = b;
        }
        out.push_str(&text[at..]);
        out
    }

    fn tokens(&mut self, text: &str) -> String {
        let mut cuts = Vec::new();
        // Key shapes, starting at a word boundary.
        for (prefix, min) in KEY_PREFIXES {
            let mut from = 0;
            while let Some(k) = text[from..].find(prefix) {
                let at = from + k;
                from = at + prefix.len();
                if text[..at].chars().next_back().is_some_and(is_key_char) {
                    continue;
                }
                let len = text[from..].find(|c: char| !is_key_char(c)).unwrap_or(text.len() - from);
                if len >= *min {
                    cuts.push((at, from + len, false));
                }
            }
        }
        // E-mail addresses.
        let mut from = 0;
        while let Some(k) = text[from..].find('@') {
            let at = from + k;
            from = at + 1;
            let start = text[..at].rfind(|c: char| !is_email_char(c)).map_or(0, |i| i + text[i..].chars().next().map_or(1, char::len_utf8));
            let local = &text[start..at];
            let dom_len = text[at + 1..].find(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '-')).unwrap_or(text.len() - at - 1);
            let domain = text[at + 1..at + 1 + dom_len].trim_end_matches('.');
            let tld_ok = domain.rsplit_once('.').is_some_and(|(head, tld)| !head.is_empty() && tld.len() >= 2 && tld.chars().all(|c| c.is_ascii_alphabetic()));
            if !local.is_empty() && !local.starts_with('.') && tld_ok {
                cuts.push((start, at + 1 + domain.len(), true));
            }
        }
        self.replace_cuts(text, cuts)
    }
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
            ("-home-jo-src", "-home-<user>-src"),
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
            ("alexander and Alex stay", "alexander and Alex stay"),
            ("nothing here: output_tokens 30, skill-set, ask-me, desk-top", "nothing here: output_tokens 30, skill-set, ask-me, desk-top"),
            ("-----BEGIN CERTIFICATE-----", "-----BEGIN CERTIFICATE-----"),
            ("user@localhost is not an address", "user@localhost is not an address"),
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

    proptest::proptest! {
        /// Redacting twice changes nothing more: the page redacts what it
        /// has redacted (a text node set by the observer is observed again).
        #[test]
        fn redaction_is_idempotent(parts in proptest::collection::vec(proptest::sample::select(vec![
            "/Users/", "/home/", "user", "alex", "-Users-", "<", ">", "@", "a@b.io", "sk-ant-", "abcdefghijklmnopqrstuvwxyz", " ", "=", "password",
            "Bearer ", "-----BEGIN RSA PRIVATE KEY-----", "-----END RSA PRIVATE KEY-----", "\n", "-", "x", "AKIA", "0123456789ABCDEF",
        ]), 0..24)) {
            let text: String = parts.concat();
            let mut r = Redactor::new();
            let once = r.redact(&text).into_owned();
            let twice = r.redact(&once).into_owned();
            proptest::prop_assert_eq!(&once, &twice);
        }
    }
}
