//! A strict JSON cursor over one line: it validates exactly as `serde_json`
//! does (a value is accepted here iff `serde_json::from_slice::<Value>`
//! accepts it), skipping strings 64 bytes at a time (SIMD, `simd`) and
//! materialising nothing but what a caller asks for. The per-record field
//! handling that drives it is `scan`.

use std::borrow::Cow;

use super::intern::{Interner, Sym};
use super::row::Malformed;
use super::simd::skip_string;

pub(super) type R<T> = Result<T, Malformed>;

/// The deepest nesting `serde_json` accepts (its recursion limit is 128).
pub(super) const MAX_DEPTH: u32 = 127;

/// A string token inside the line: `start..end` excludes the quotes.
#[derive(Clone, Copy, Debug)]
pub(super) struct Str {
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) escaped: bool,
}

/// A cursor over one line.
pub(super) struct Cur<'a> {
    pub(super) b: &'a [u8],
    pub(super) i: usize,
    pub(super) depth: u32,
    /// [`Cur::ws`] skipped a `\n` (see [`scan_line_to_newline`]).
    pub(super) newline: bool,
}

impl<'a> Cur<'a> {
    pub(super) fn new(b: &'a [u8]) -> Self {
        Cur { b, i: 0, depth: 0, newline: false }
    }

    #[inline]
    pub(super) fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    /// The error for "did not find what JSON needs here".
    #[inline]
    pub(super) fn bad(&self) -> Malformed {
        if self.i >= self.b.len() {
            Malformed::Truncated
        } else {
            Malformed::Syntax
        }
    }

    #[inline]
    pub(super) fn ws(&mut self) {
        while let Some(c @ (b' ' | b'\t' | b'\r' | b'\n')) = self.peek() {
            self.newline |= c == b'\n';
            self.i += 1;
        }
    }

    /// Only whitespace may follow the top-level value.
    pub(super) fn end(&mut self) -> R<()> {
        self.ws();
        if self.i == self.b.len() {
            Ok(())
        } else {
            Err(Malformed::Syntax)
        }
    }

    pub(super) fn text(&self, s: Str) -> Cow<'a, str> {
        unescape(&self.b[s.start..s.end], s.escaped)
    }

    pub(super) fn sym(&self, s: Option<Str>, strings: &mut Interner) -> Sym {
        match s {
            Some(s) => strings.intern(&self.text(s)),
            None => Sym::NONE,
        }
    }

    pub(super) fn starts_with(&self, s: Str, prefix: &str) -> bool {
        let raw = &self.b[s.start..s.end];
        if !s.escaped {
            return raw.starts_with(prefix.as_bytes());
        }
        unescape_prefix(raw, prefix.len()).starts_with(prefix)
    }

    /// A string at the cursor (which is on its opening quote).
    #[inline]
    pub(super) fn string(&mut self) -> R<Str> {
        self.i += 1;
        let start = self.i;
        let mut escaped = false;
        let mut high = false;
        loop {
            let stop = skip_string(self.b, self.i);
            high |= stop.high;
            escaped |= stop.escaped;
            let Some(k) = stop.at else {
                self.i = self.b.len();
                return Err(Malformed::Truncated);
            };
            self.i = k;
            match self.b[k] {
                b'"' => {
                    self.i += 1;
                    // Bytes >= 0x80 are only valid inside strings (elsewhere
                    // they are a syntax error), so checking each string that
                    // had some, while it is still in cache, checks the line.
                    if high && simdutf8::basic::from_utf8(&self.b[start..k]).is_err() {
                        return Err(Malformed::InvalidUtf8);
                    }
                    return Ok(Str { start, end: k, escaped });
                }
                b'\\' => {
                    escaped = true;
                    self.escape()?;
                }
                _ => return Err(Malformed::Syntax),
            }
        }
    }

    /// A key as bytes (decoded only if it holds escapes, which keys never do
    /// in practice).
    #[inline]
    pub(super) fn key(&self, s: Str) -> Cow<'a, [u8]> {
        let raw = &self.b[s.start..s.end];
        if s.escaped {
            Cow::Owned(unescape(raw, true).into_owned().into_bytes())
        } else {
            Cow::Borrowed(raw)
        }
    }

    /// An escape at the cursor (on its backslash), with serde_json's rules:
    /// surrogates must pair.
    pub(super) fn escape(&mut self) -> R<()> {
        self.i += 1;
        match self.peek() {
            Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => {
                self.i += 1;
                Ok(())
            }
            Some(b'u') => {
                self.i += 1;
                let n = self.hex4()?;
                if (0xDC00..=0xDFFF).contains(&n) {
                    return Err(Malformed::Syntax);
                }
                if (0xD800..=0xDBFF).contains(&n) {
                    if self.peek() != Some(b'\\') {
                        return Err(self.bad());
                    }
                    self.i += 1;
                    if self.peek() != Some(b'u') {
                        return Err(self.bad());
                    }
                    self.i += 1;
                    let lo = self.hex4()?;
                    if !(0xDC00..=0xDFFF).contains(&lo) {
                        return Err(Malformed::Syntax);
                    }
                }
                Ok(())
            }
            _ => Err(self.bad()),
        }
    }

    pub(super) fn hex4(&mut self) -> R<u32> {
        let mut n = 0u32;
        for _ in 0..4 {
            let d = match self.peek() {
                Some(c @ b'0'..=b'9') => c - b'0',
                Some(c @ b'a'..=b'f') => c - b'a' + 10,
                Some(c @ b'A'..=b'F') => c - b'A' + 10,
                _ => return Err(self.bad()),
            };
            n = n * 16 + d as u32;
            self.i += 1;
        }
        Ok(n)
    }

    pub(super) fn literal(&mut self, lit: &[u8]) -> R<()> {
        for &expected in lit {
            match self.peek() {
                Some(b) if b == expected => self.i += 1,
                _ => return Err(self.bad()),
            }
        }
        Ok(())
    }

    /// A number. Returns its value when it is a plain non-negative integer
    /// that fits in u64 (what `Value::as_u64` would give), else `None`.
    pub(super) fn number(&mut self) -> R<Option<u64>> {
        let start = self.i;
        let negative = self.peek() == Some(b'-');
        if negative {
            self.i += 1;
        }
        match self.peek() {
            Some(b'0') => self.i += 1,
            Some(b'1'..=b'9') => {
                while let Some(b'0'..=b'9') = self.peek() {
                    self.i += 1;
                }
            }
            _ => return Err(self.bad()),
        }
        let int_end = self.i;
        let mut plain = true;
        if self.peek() == Some(b'.') {
            plain = false;
            self.i += 1;
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.bad());
            }
            while let Some(b'0'..=b'9') = self.peek() {
                self.i += 1;
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            plain = false;
            self.i += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.i += 1;
            }
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.bad());
            }
            while let Some(b'0'..=b'9') = self.peek() {
                self.i += 1;
            }
        }
        let digits = &self.b[start + negative as usize..int_end];
        if plain && digits.len() <= 20 {
            let mut n = 0u64;
            let mut fits = true;
            for &d in digits {
                match n.checked_mul(10).and_then(|n| n.checked_add((d - b'0') as u64)) {
                    Some(v) => n = v,
                    None => fits = false,
                }
            }
            if fits {
                return Ok(if negative { None } else { Some(n) });
            }
        }
        // Fractions, exponents and huge integers become doubles in
        // serde_json, which rejects (never returns) those that overflow to
        // infinity: its own number parser decides, so the verdict is its
        // verdict (and the page carries no second float parser:
        // `str::parse::<f64>` cost 12.6 kB of gzip'd wasm, most of it the
        // power-of-five table).
        match serde_json::from_slice::<f64>(&self.b[start..self.i]) {
            Ok(_) => Ok(None),
            Err(_) => Err(Malformed::NumberOutOfRange),
        }
    }

    pub(super) fn enter(&mut self) -> R<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            Err(Malformed::TooDeep)
        } else {
            Ok(())
        }
    }

    /// An object at the cursor (on `{`). For each member, `f` gets the key
    /// with the cursor on the value (whitespace skipped) and must consume it.
    #[inline]
    pub(super) fn object(&mut self, mut f: impl FnMut(&mut Self, Str) -> R<()>) -> R<()> {
        self.enter()?;
        self.i += 1;
        self.ws();
        if self.peek() == Some(b'}') {
            self.i += 1;
            self.depth -= 1;
            return Ok(());
        }
        loop {
            if self.peek() != Some(b'"') {
                return Err(self.bad());
            }
            let key = self.string()?;
            self.ws();
            if self.peek() != Some(b':') {
                return Err(self.bad());
            }
            self.i += 1;
            self.ws();
            f(self, key)?;
            self.ws();
            match self.peek() {
                Some(b',') => {
                    self.i += 1;
                    self.ws();
                }
                Some(b'}') => {
                    self.i += 1;
                    self.depth -= 1;
                    return Ok(());
                }
                _ => return Err(self.bad()),
            }
        }
    }

    /// An array at the cursor (on `[`); `f` consumes each element.
    #[inline]
    pub(super) fn array(&mut self, mut f: impl FnMut(&mut Self) -> R<()>) -> R<()> {
        self.enter()?;
        self.i += 1;
        self.ws();
        if self.peek() == Some(b']') {
            self.i += 1;
            self.depth -= 1;
            return Ok(());
        }
        loop {
            f(self)?;
            self.ws();
            match self.peek() {
                Some(b',') => {
                    self.i += 1;
                    self.ws();
                }
                Some(b']') => {
                    self.i += 1;
                    self.depth -= 1;
                    return Ok(());
                }
                _ => return Err(self.bad()),
            }
        }
    }

    /// Skips (and validates) any value at the cursor.
    pub(super) fn skip_value(&mut self) -> R<()> {
        match self.peek() {
            Some(b'"') => self.string().map(drop),
            Some(b'{') => self.object(|c, _| c.skip_value()),
            Some(b'[') => self.array(|c| c.skip_value()),
            Some(b't') => self.literal(b"true"),
            Some(b'f') => self.literal(b"false"),
            Some(b'n') => self.literal(b"null"),
            Some(b'-' | b'0'..=b'9') => self.number().map(drop),
            _ => Err(self.bad()),
        }
    }

    pub(super) fn opt_str(&mut self) -> R<Option<Str>> {
        if self.peek() == Some(b'"') {
            self.string().map(Some)
        } else {
            self.skip_value().map(|()| None)
        }
    }

    pub(super) fn opt_sym(&mut self, strings: &mut Interner) -> R<Sym> {
        let s = self.opt_str()?;
        Ok(self.sym(s, strings))
    }

    pub(super) fn opt_u64(&mut self) -> R<Option<u64>> {
        if let Some(b'-' | b'0'..=b'9') = self.peek() {
            self.number()
        } else {
            self.skip_value().map(|()| None)
        }
    }

    pub(super) fn is_true(&mut self) -> R<bool> {
        if self.peek() == Some(b't') {
            self.literal(b"true").map(|()| true)
        } else {
            self.skip_value().map(|()| false)
        }
    }

    pub(super) fn is_null(&mut self) -> R<bool> {
        if self.peek() == Some(b'n') {
            self.literal(b"null").map(|()| true)
        } else {
            self.skip_value().map(|()| false)
        }
    }
}

/// Decodes the inside of a JSON string that the scanner has validated.
/// `escaped == false` borrows it as is.
pub fn unescape(raw: &[u8], escaped: bool) -> Cow<'_, str> {
    if !escaped {
        // The scanner has validated the string as UTF-8 (or it is ASCII);
        // `from_utf8` is the fast, safe check; lossy only if that ever failed.
        return match std::str::from_utf8(raw) {
            Ok(s) => Cow::Borrowed(s),
            Err(_) => String::from_utf8_lossy(raw),
        };
    }
    Cow::Owned(unescape_prefix(raw, usize::MAX))
}

/// Decodes at least the first `limit` bytes of a validated JSON string's
/// inside (all of it if shorter), without touching the rest.
pub fn unescape_prefix(raw: &[u8], limit: usize) -> String {
    let mut out = String::with_capacity(raw.len().min(limit.saturating_add(8)));
    let mut i = 0;
    while i < raw.len() && out.len() < limit {
        let k = memchr::memchr(b'\\', &raw[i..]).unwrap_or(raw.len() - i);
        let take = k.min((limit - out.len()).saturating_add(4));
        out.push_str(&String::from_utf8_lossy(&raw[i..i + take]));
        i += take;
        if take < k {
            break;
        }
        i += 1;
        let Some(&e) = raw.get(i) else { break };
        i += 1;
        match e {
            b'n' => out.push('\n'),
            b't' => out.push('\t'),
            b'r' => out.push('\r'),
            b'b' => out.push('\u{8}'),
            b'f' => out.push('\u{c}'),
            b'u' => {
                let hex = |s: &[u8]| -> Option<u32> {
                    std::str::from_utf8(s.get(..4)?).ok().and_then(|h| u32::from_str_radix(h, 16).ok())
                };
                let Some(n) = hex(&raw[i..]) else { break };
                i += 4;
                let c = if (0xD800..0xDC00).contains(&n) && raw.get(i..i + 2) == Some(b"\\u") {
                    match hex(&raw[i + 2..]) {
                        Some(lo) if (0xDC00..0xE000).contains(&lo) => {
                            i += 6;
                            char::from_u32(0x10000 + ((n - 0xD800) << 10) + (lo - 0xDC00))
                        }
                        _ => None,
                    }
                } else {
                    char::from_u32(n)
                };
                out.push(c.unwrap_or('\u{FFFD}'));
            }
            other => out.push(other as char),
        }
    }
    out
}
