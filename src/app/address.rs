//! The address's `#`, which never leaves the browser: `#L<line>` for the one
//! file picked; `#/<path>` for a conversation of a folder (or one of its
//! runs, by the run's file path) and `#/<path>:L<line>` for a line in it.
//! While redaction is on, a file is named by its number in the pick instead
//! (`#/~<entry>:L<line>`): the address bar and every link then hold no path.

/// What an address names: a file of the folder by its path or its number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    Path(String),
    Entry(u32),
}

/// `#/<path>[:L<line>]` or `#/~<entry>[:L<line>]` → (target, line).
pub fn parse(hash: &str) -> Option<(Target, Option<u32>)> {
    let rest = hash.strip_prefix("#/")?;
    let (path, line) = match rest.rsplit_once(":L") {
        Some((p, l)) if l.chars().all(|c| c.is_ascii_digit()) && !l.is_empty() => (p, l.parse().ok()),
        _ => (rest, None),
    };
    if let Some(entry) = path.strip_prefix('~').and_then(|e| e.parse().ok()) {
        return Some((Target::Entry(entry), line));
    }
    let path = js_sys::decode_uri_component(path).ok()?.as_string()?;
    Some((Target::Path(path), line))
}

/// A file of the folder as an address prefix: `/<encoded path>:`, or
/// `/~<entry>:` when `opaque` (redaction on). The viewer adds `L<line>`.
pub fn prefix(path: &str, entry: u32, opaque: bool) -> String {
    if opaque {
        return format!("/~{entry}:");
    }
    let encoded: Vec<String> = path.split('/').map(|seg| String::from(js_sys::encode_uri_component(seg))).collect();
    format!("/{}:", encoded.join("/"))
}

pub fn current() -> String {
    web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default()
}

/// Puts `#<hash>` in the address as a new history entry (the back button
/// returns to the list), with no request and no `hashchange`.
pub fn push(hash: &str) {
    if let Some(h) = web_sys::window().and_then(|w| w.history().ok()) {
        let _ = h.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("#{hash}")));
    }
}

/// Replaces the address's `#` (no history entry).
pub fn replace(hash: &str) {
    if let Some(h) = web_sys::window().and_then(|w| w.history().ok()) {
        let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("#{hash}")));
    }
}
