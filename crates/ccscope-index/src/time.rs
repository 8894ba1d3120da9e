//! RFC 3339 timestamps to milliseconds since the Unix epoch.

/// Parses `YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM)` into Unix milliseconds.
/// Fractions beyond milliseconds are truncated. Returns `None` for anything
/// else, including impossible dates (Feb 30) and leap seconds.
pub fn parse_rfc3339_ms(s: &[u8]) -> Option<i64> {
    fn num(b: &[u8]) -> Option<i64> {
        let mut n = 0i64;
        for &c in b {
            if !c.is_ascii_digit() {
                return None;
            }
            n = n * 10 + (c - b'0') as i64;
        }
        Some(n)
    }
    if s.len() < 20 {
        return None;
    }
    if s[4] != b'-' || s[7] != b'-' || !matches!(s[10], b'T' | b't') || s[13] != b':' || s[16] != b':' {
        return None;
    }
    let year = num(&s[0..4])?;
    let month = num(&s[5..7])?;
    let day = num(&s[8..10])?;
    let hour = num(&s[11..13])?;
    let minute = num(&s[14..16])?;
    let second = num(&s[17..19])?;
    if !(1..=12).contains(&month) || day < 1 || day > days_in_month(year, month) {
        return None;
    }
    if hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    let mut i = 19;
    let mut millis = 0i64;
    if s[i] == b'.' {
        i += 1;
        let start = i;
        while i < s.len() && s[i].is_ascii_digit() {
            if i - start < 3 {
                millis = millis * 10 + (s[i] - b'0') as i64;
            }
            i += 1;
        }
        let digits = i - start;
        if digits == 0 {
            return None;
        }
        for _ in digits..3 {
            millis *= 10;
        }
    }
    let offset_minutes = match s.get(i..)? {
        [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2] => {
            let h = num(&[*h1, *h2])?;
            let m = num(&[*m1, *m2])?;
            if h > 23 || m > 59 {
                return None;
            }
            let off = h * 60 + m;
            if *sign == b'-' {
                -off
            } else {
                off
            }
        }
        _ => return None,
    };
    let days = days_from_civil(year, month, day);
    let secs = days * 86_400 + hour * 3600 + minute * 60 + second - offset_minutes * 60;
    Some(secs * 1000 + millis)
}

fn is_leap(y: i64) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

fn days_in_month(y: i64, m: i64) -> i64 {
    match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if is_leap(y) => 29,
        _ => 28,
    }
}

/// Days since 1970-01-01 (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::parse_rfc3339_ms as p;

    #[test]
    fn parses_the_writer_form_and_offsets() {
        assert_eq!(p(b"1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(p(b"1970-01-01T00:00:01.5Z"), Some(1500));
        assert_eq!(p(b"2026-09-01T09:00:00.000Z"), Some(1_788_253_200_000));
        assert_eq!(p(b"2026-09-01T11:00:00.000+02:00"), p(b"2026-09-01T09:00:00.000Z"));
        assert_eq!(p(b"2000-02-29T00:00:00.123456Z"), Some(951_782_400_123));
    }

    #[test]
    fn rejects_what_is_not_a_timestamp() {
        for bad in [&b""[..], b"2026-09-01", b"2026-02-30T00:00:00Z", b"2026-09-01T24:00:00Z",
            b"2026-09-01T09:00:00", b"2026-09-01T09:00:00.Z", b"2026-09-01 09:00:00Z", b"yesterday at noon"] {
            assert_eq!(p(bad), None, "{}", String::from_utf8_lossy(bad));
        }
    }
}
