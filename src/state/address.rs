//! The address's `#`, which never leaves the browser, as data: `#L<line>`
//! for the one file picked; `#/<path>` for a file of a folder (a
//! conversation, or one of its runs by the run's file path) and
//! `#/<path>:L<line>` for a line in it; while redaction is on a file is
//! named by its number in the pick instead (`#/~<entry>:L<line>`), so the
//! address bar and every link hold no path. One codec for the app and the
//! conversation view; `app::address` only reads and writes `location`.
//!
//! Path segments are percent-encoded as `encodeURIComponent` does (letters,
//! digits and `-_.!~*'()` kept; every other UTF-8 byte as `%XX`), so a path
//! with spaces, `#`, `:L` or `%` in its names round-trips.

/// What an address names: a file of the folder by its path or its number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    Path(String),
    Entry(u32),
}

/// `encodeURIComponent`.
pub fn encode_component(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.!~*'()".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// `decodeURIComponent`: `None` for a malformed escape or bytes that are not UTF-8.
pub fn decode_component(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = std::str::from_utf8(b.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// A file of the folder as an address prefix: `/<encoded path>:`, or
/// `/~<entry>:` when `opaque` (redaction on). A line is `L<line>` after it.
pub fn prefix(path: &str, entry: u32, opaque: bool) -> String {
    if opaque {
        return format!("/~{entry}:");
    }
    let encoded = path.split('/').map(encode_component).collect::<Vec<_>>().join("/");
    // A path that starts with `~` must not read as a file's number.
    let encoded = match encoded.strip_prefix('~') {
        Some(rest) => format!("%7E{rest}"),
        None => encoded,
    };
    format!("/{encoded}:")
}

/// The address of a file of the folder, at `line` or at its top.
pub fn of(path: &str, entry: u32, opaque: bool, line: Option<u32>) -> String {
    let p = prefix(path, entry, opaque);
    match line {
        Some(l) => format!("{p}L{l}"),
        None => p.trim_end_matches(':').to_string(),
    }
}

/// `#/<path>[:L<line>]` or `#/~<entry>[:L<line>]` → (target, line).
pub fn parse(hash: &str) -> Option<(Target, Option<u32>)> {
    let rest = hash.strip_prefix("#/")?;
    let (path, line) = match rest.rsplit_once(":L") {
        Some((p, l)) if !l.is_empty() && l.bytes().all(|c| c.is_ascii_digit()) => (p, l.parse().ok()),
        _ => (rest, None),
    };
    if let Some(entry) = path.strip_prefix('~').and_then(|e| e.parse().ok()) {
        return Some((Target::Entry(entry), line));
    }
    let segs: Option<Vec<String>> = path.split('/').map(decode_component).collect();
    Some((Target::Path(segs?.join("/")), line))
}

/// The line a hash names in the file whose address prefix is `prefix`
/// (`""` for the one file picked: `#L<line>`).
pub fn line_in(hash: &str, prefix: &str) -> Option<u32> {
    hash.strip_prefix('#')?.strip_prefix(prefix)?.strip_prefix('L')?.parse().ok()
}

/// What a link opened before anything is picked asks for, in words (the
/// landing page says it; `show_path` redacts the path when Redact is on).
/// `None` for an address that names nothing.
pub fn describe(hash: &str, show_path: impl Fn(&str) -> String) -> Option<String> {
    let at = |line: Option<u32>| line.map(|l| format!(" at line {l}")).unwrap_or_default();
    if let Some(line) = line_in(hash, "") {
        return Some(format!("This link opens a transcript at line {line}: open that file and it opens there."));
    }
    match parse(hash)? {
        (Target::Path(p), _) if p.is_empty() => None,
        (Target::Path(p), line) => Some(format!("This link opens {}{}: open the folder that holds it and it opens there.", show_path(&p), at(line))),
        (Target::Entry(e), line) => Some(format!(
            "This link opens file number {e} of a folder{} (made with Redact on, it names no path): open that folder and it opens there.",
            at(line)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_link_before_a_pick_says_what_it_wants() {
        let plain = |p: &str| p.to_string();
        assert_eq!(
            describe("#/projects/-Users-alex-app/a%20b.jsonl:L40", plain).as_deref(),
            Some("This link opens projects/-Users-alex-app/a b.jsonl at line 40: open the folder that holds it and it opens there.")
        );
        assert_eq!(describe("#/projects/x.jsonl", |_| "[path]".into()).as_deref(), Some("This link opens [path]: open the folder that holds it and it opens there."));
        assert!(describe("#/~3:L7", plain).is_some_and(|s| s.starts_with("This link opens file number 3 of a folder at line 7")));
        assert!(describe("#L12", plain).is_some_and(|s| s.contains("at line 12")));
        assert_eq!(describe("#/", plain), None, "the list names no file");
        assert_eq!(describe("", plain), None);
        assert_eq!(describe("#Lx", plain), None);
    }

    #[test]
    fn addresses_as_the_browser_writes_them() {
        assert_eq!(of("p/-Users-a/x y.jsonl", 3, false, Some(12)), "/p/-Users-a/x%20y.jsonl:L12");
        assert_eq!(of("p/x.jsonl", 3, true, Some(12)), "/~3:L12");
        assert_eq!(of("p/x.jsonl", 3, false, None), "/p/x.jsonl");
        assert_eq!(parse("#/p/x%20y.jsonl:L7"), Some((Target::Path("p/x y.jsonl".into()), Some(7))));
        assert_eq!(parse("#/~4"), Some((Target::Entry(4), None)));
        assert_eq!(parse("#/"), Some((Target::Path(String::new()), None)), "the list");
        assert_eq!(parse("#L5"), None, "a line of the one file picked is not a folder address");
        assert_eq!(parse("#/bad%zz"), None);
        assert_eq!(line_in("#L5", ""), Some(5));
        assert_eq!(line_in("#/p/x.jsonl:L9", "/p/x.jsonl:"), Some(9));
        assert_eq!(line_in("#/p/y.jsonl:L9", "/p/x.jsonl:"), None, "another file's line");
    }

    proptest! {
        /// Any path (any characters, `#`, `%`, `:L`, spaces, emoji), any line:
        /// what is written is read back as it was.
        #[test]
        fn the_address_codec_round_trips(segs in proptest::collection::vec("[a-zA-Z0-9 #%:L.é😀~-]{0,12}", 1..5), line in proptest::option::of(0u32..1_000_000), entry in 0u32..10_000, opaque in any::<bool>()) {
            let path = segs.join("/");
            let hash = format!("#{}", of(&path, entry, opaque, line));
            let want = if opaque { Target::Entry(entry) } else { Target::Path(path.clone()) };
            prop_assert_eq!(parse(&hash), Some((want, line)));
            if let Some(l) = line {
                prop_assert_eq!(line_in(&hash, &prefix(&path, entry, opaque)), Some(l));
            }
        }
    }
}
