//! Human formatting of sizes, counts and durations (shared by app and CLI).

/// `1_360_058` → `"1.4 MB"`; below 1 kB, bytes.
pub fn bytes(n: u64) -> String {
    const UNITS: [&str; 5] = ["kB", "MB", "GB", "TB", "PB"];
    if n < 1000 {
        return format!("{n} B");
    }
    let mut v = n as f64 / 1000.0;
    let mut unit = 0;
    while v >= 999.95 && unit + 1 < UNITS.len() {
        v /= 1000.0;
        unit += 1;
    }
    format!("{v:.1} {}", UNITS[unit])
}

/// `1234567` → `"1,234,567"`.
pub fn count(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A count and its noun: `(1, "line", "lines")` → `"1 line"`,
/// `(1234, ..)` → `"1,234 lines"`.
pub fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", count(n), if n == 1 { one } else { many })
}

/// The noun alone, agreeing with `n`: `("was", "were")`.
pub fn agree<'a>(n: u64, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 {
        one
    } else {
        many
    }
}

/// What a figure the file did not record is shown as (absent is not zero).
pub const MISSING: &str = "—";

/// A figure formatted by `f`, or [`MISSING`].
pub fn or_dash<T>(v: Option<T>, f: impl FnOnce(T) -> String) -> String {
    v.map_or_else(|| MISSING.to_string(), f)
}

/// The last part of a `/`-separated path: a file's name.
pub fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// A figure, or — when the file did not record it — a dash and why:
/// absent is not zero.
pub fn or_missing(value: Option<String>, why: &str) -> String {
    value.unwrap_or_else(|| format!("{MISSING} ({why})"))
}

/// Seconds → `"3 d 0 h"`, `"2 h 5 min"`, `"4 min 12 s"`, `"9.5 s"`.
pub fn duration_secs(secs: f64) -> String {
    let s = secs.max(0.0);
    let whole = s as u64;
    let (d, h, m) = (whole / 86_400, (whole / 3600) % 24, (whole / 60) % 60);
    if d > 0 {
        format!("{d} d {h} h")
    } else if h > 0 {
        format!("{h} h {m} min")
    } else if m > 0 {
        format!("{m} min {} s", whole % 60)
    } else if s >= 10.0 {
        format!("{whole} s")
    } else {
        format!("{s:.1} s")
    }
}

/// How long ago, coarsely: `"just now"`, `"5 min ago"`, `"2 h ago"`, `"3 d ago"`.
pub fn ago(secs: f64) -> String {
    let s = secs.max(0.0) as u64;
    match s {
        0..60 => "just now".into(),
        60..3600 => format!("{} min ago", s / 60),
        3600..86_400 => format!("{} h ago", s / 3600),
        _ => format!("{} d ago", s / 86_400),
    }
}

/// Milliseconds since the epoch → `"2026-09-01 09:00:02 UTC"` (the
/// transcript's own clock, shown in UTC so every reader sees the same).
pub fn utc_ms(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let (days, tod) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02} UTC", tod / 3600, (tod / 60) % 60, tod % 60)
}

/// `"2026-09-01"` (a date input's value) → its midnight UTC in ms since the epoch.
pub fn parse_date_ms(s: &str) -> Option<i64> {
    let mut it = s.trim().splitn(3, '-');
    let (y, m, d): (i64, i64, i64) = (it.next()?.parse().ok()?, it.next()?.parse().ok()?, it.next()?.parse().ok()?);
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    // Days from civil (Howard Hinnant's algorithm), the inverse of `utc_ms`.
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Some((era * 146_097 + doe - 719_468) * 86_400_000)
}

/// A day: `"2026-09-01"` (UTC; a date input's value).
pub fn utc_date(ms: i64) -> String {
    utc_ms(ms).get(..10).unwrap_or("").to_string()
}

/// A day and minute for a list: `"2026-09-01 09:00"` (UTC).
pub fn utc_minute(ms: i64) -> String {
    utc_ms(ms).get(..16).unwrap_or("").to_string()
}

/// An estimated cost in US dollars: `"$1,234"`, `"$12.34"`, `"$0.108"`.
pub fn usd(v: f64) -> String {
    if v >= 100.0 {
        format!("${}", count(v.round() as u64))
    } else if v >= 1.0 || v == 0.0 {
        format!("${v:.2}")
    } else {
        format!("${v:.3}")
    }
}

/// A share as a percentage: `(1, 3)` → `"33%"`; `None` of nothing.
pub fn percent(part: u64, whole: u64) -> Option<String> {
    (whole > 0).then(|| format!("{:.0}%", part as f64 * 100.0 / whole as f64))
}

/// Milliseconds as a duration (`duration_secs`).
pub fn duration_ms(ms: i64) -> String {
    duration_secs(ms as f64 / 1000.0)
}

/// Tokens the way people say them: `"950"`, `"12.3k"`, `"1.2M"`, `"1.5B"`.
pub fn tokens(n: u64) -> String {
    match n {
        0..=999 => n.to_string(),
        1000..=999_949 => format!("{:.1}k", n as f64 / 1e3),
        999_950..=999_949_999 => format!("{:.1}M", n as f64 / 1e6),
        _ => format!("{:.1}B", n as f64 / 1e9),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn ago_is_coarse() {
        assert_eq!([ago(5.0), ago(600.0), ago(7300.0), ago(3.0 * 86_400.0)], ["just now", "10 min ago", "2 h ago", "3 d ago"]);
    }

    use super::*;

    #[test]
    fn formats_people_can_read() {
        assert_eq!(bytes(297), "297 B");
        assert_eq!(bytes(1_360_058), "1.4 MB");
        assert_eq!(bytes(2_000_000_000), "2.0 GB");
        assert_eq!(bytes(999_990), "1.0 MB");
        assert_eq!(count(0), "0");
        assert_eq!(count(1000), "1,000");
        assert_eq!(count(1_234_567), "1,234,567");
        assert_eq!(plural(1, "line", "lines"), "1 line");
        assert_eq!(plural(0, "match", "matches"), "0 matches");
        assert_eq!(plural(1234, "line", "lines"), "1,234 lines");
        assert_eq!(agree(2, "was", "were"), "were");
        assert_eq!(or_missing(Some(tokens(0)), "no usage recorded"), "0");
        assert_eq!(or_missing(None, "no usage recorded"), "— (no usage recorded)");
        assert_eq!(duration_secs(259_405.2), "3 d 0 h");
        assert_eq!(duration_secs(205.2), "3 min 25 s");
        assert_eq!(duration_secs(9.04), "9.0 s");
        assert_eq!(utc_ms(1_788_253_202_000), "2026-09-01 09:00:02 UTC");
        assert_eq!(utc_ms(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(utc_ms(951_782_400_000), "2000-02-29 00:00:00 UTC");
        assert_eq!(parse_date_ms("2026-09-01"), Some(1_788_220_800_000));
        assert_eq!(parse_date_ms("2000-02-29").map(utc_ms).as_deref(), Some("2000-02-29 00:00:00 UTC"));
        assert_eq!(parse_date_ms("1970-01-01"), Some(0));
        assert_eq!(parse_date_ms("2026-13-01"), None);
        assert_eq!(parse_date_ms(""), None);
        assert_eq!(utc_minute(1_788_253_202_000), "2026-09-01 09:00");
        assert_eq!(tokens(12_345), "12.3k");
        assert_eq!(tokens(1_200_000), "1.2M");
        assert_eq!(tokens(1_516_900_000), "1.5B", "not 1516.9M");
        assert_eq!(tokens(999_999), "1.0M", "not 1000.0k");
        assert_eq!((file_name("a/b/c.jsonl"), file_name("c.jsonl"), file_name("")), ("c.jsonl", "c.jsonl", ""));
        assert_eq!(or_dash(None::<u64>, count), "—");
    }
}
