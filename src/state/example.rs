//! One record as an example to file a bug with: always redacted (values
//! and object keys alike: a key can be a path), long strings cut, whatever
//! the page's Redact toggle says. What is copied is JSON text, never
//! markup.

use serde_json::{Map, Value};

use super::redact::Redactor;

/// Characters of one string kept in an example.
pub const EXAMPLE_STRING_CHARS: usize = 200;

fn cut(s: &str, r: &mut Redactor, max_chars: Option<usize>) -> String {
    let red = r.redact(s);
    let Some(max) = max_chars else { return red.into_owned() };
    let mut out: String = red.chars().take(max).collect();
    if red.chars().nth(max).is_some() {
        out.push('…');
    }
    out
}

/// `v` with every string and every object key redacted (a key can be a
/// path or a name), strings cut at `max_chars` when given.
pub fn redact_json(v: Value, r: &mut Redactor, max_chars: Option<usize>) -> Value {
    match v {
        Value::String(s) => Value::String(cut(&s, r, max_chars)),
        Value::Array(a) => Value::Array(a.into_iter().map(|x| redact_json(x, r, max_chars)).collect()),
        Value::Object(m) => Value::Object(m.into_iter().map(|(k, x)| (r.redact(&k).into_owned(), redact_json(x, r, max_chars))).collect::<Map<_, _>>()),
        other => other,
    }
}

/// The line `line` as a redacted, cut JSON example; `None` when it is not
/// JSON.
pub fn redacted_example(line: &[u8], r: &mut Redactor) -> Option<String> {
    let v: Value = serde_json::from_slice(line).ok()?;
    serde_json::to_string_pretty(&redact_json(v, r, Some(EXAMPLE_STRING_CHARS))).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_and_names_go_in_values_and_keys_and_long_strings_are_cut() {
        let line = format!(
            r#"{{"type":"frame-link","cwd":"/Users/jane.doe/work","token":"sk-ant-api03-PLANTEDplantedPLANTED0123","backups":{{"/Users/jane.doe/work/a.rs":{{"v":1}}}},"long":"{}"}}"#,
            "x".repeat(500)
        );
        let mut r = Redactor::new();
        let out = redacted_example(line.as_bytes(), &mut r).unwrap();
        assert!(!out.contains("jane.doe") && !out.contains("PLANTED"), "{out}");
        assert!(out.contains("\"type\": \"frame-link\""), "the kind itself stays readable: {out}");
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["long"].as_str().unwrap().chars().count(), EXAMPLE_STRING_CHARS + 1);
        assert!(v["backups"].as_object().unwrap().keys().all(|k| !k.contains("jane")));
        assert_eq!(redacted_example(b"{not json", &mut r), None);
    }
}
