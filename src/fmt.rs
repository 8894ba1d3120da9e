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

/// Milliseconds for "time taken": `"12 ms"`, `"1.25 s"`.
pub fn elapsed_ms(ms: f64) -> String {
    if ms < 1000.0 {
        format!("{ms:.0} ms")
    } else {
        format!("{:.2} s", ms / 1000.0)
    }
}

#[cfg(test)]
mod tests {
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
        assert_eq!(duration_secs(259_405.2), "3 d 0 h");
        assert_eq!(duration_secs(205.2), "3 min 25 s");
        assert_eq!(duration_secs(9.04), "9.0 s");
        assert_eq!(elapsed_ms(12.4), "12 ms");
        assert_eq!(elapsed_ms(1250.0), "1.25 s");
    }
}
