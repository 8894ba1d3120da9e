//! Full-text search over raw bytes that arrive in chunks: ASCII
//! case-insensitive (both sides lower-cased), a match may span any chunk
//! edge, and each hit comes with its line number and a few bytes around it.
//! Text is matched as written in the JSON: `"` inside a string is `\"`.
//!
//! ```text
//!   feed(chunk) ─► buf = [ kept tail of earlier chunks | chunk ]
//!                        ▲ base (absolute offset of buf[0])
//!                  every start in [next_start, base + buf.len() - keep) is
//!                  checked now; later starts may run into the next chunk.
//! ```
//!
//! Invariants: `base <= next_start <= base + buf.len()`; a match is reported
//! once, at the feed where all its bytes have arrived; `lines_before` counts
//! the newlines in `[0, counted_to)` of the stream, `counted_to <= next_start`
//! (it stops short once the hits are capped: no later hit needs a line).

use memchr::memmem;

/// At most this many hit offsets are kept per search (the count goes on).
pub const MAX_HITS: usize = 100_000;
/// Bytes of context kept on each side of a hit for its snippet. Wider than
/// what is shown: the snippet is cut from the decoded, redacted string,
/// and a key or a `password=` must be seen whole before anything is cut.
pub const CONTEXT_BYTES: usize = 1024;
/// Hits kept with their snippets per file in a search across a folder
/// (the page shows these; the count goes on).
pub const HITS_PER_FILE: usize = 5;

/// One match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hit {
    /// Absolute offset of the match's first byte.
    pub offset: u64,
    /// 1-based physical line of the match.
    pub line_no: u32,
    /// Raw bytes around the match: up to [`CONTEXT_BYTES`] on each side of
    /// it, never across a newline.
    pub snippet: Vec<u8>,
    /// Where the match lies inside `snippet`.
    pub at: usize,
}

/// The outcome of a whole search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Found {
    /// The first [`MAX_HITS`] hits, in file order.
    pub hits: Vec<Hit>,
    /// Every match, including those past [`MAX_HITS`].
    pub matches: u64,
}

/// A search under way. See the module docs for its state.
pub struct Matcher {
    finder: memmem::Finder<'static>,
    /// The needle's length minus one: a match starting in the last `keep`
    /// bytes of a chunk may run into the next one.
    keep: usize,
    /// Raw bytes and their lower-cased copy, same length.
    raw: Vec<u8>,
    lower: Vec<u8>,
    base: u64,
    next_start: u64,
    lines_before: u32,
    counted_to: u64,
    found: Found,
    /// Whether hits carry snippets (a search inside one open file maps
    /// offsets to items and needs none). Turned off for good once the hits
    /// are capped and none waits for bytes: no snippet is cut after that.
    snippets: bool,
    /// Hits whose snippet still wants bytes after the match, that had not
    /// arrived yet: (index into `found.hits`, bytes still wanted).
    pending: Vec<(usize, usize)>,
    /// Hits kept at most (matches past it are only counted).
    max_hits: usize,
}

impl Matcher {
    /// A matcher for `needle`; `None` for an empty needle (which matches nothing).
    pub fn new(needle: &str, snippets: bool) -> Option<Matcher> {
        Matcher::keeping(needle, snippets, MAX_HITS)
    }

    /// [`Matcher::new`] keeping at most `max_hits` hits (the rest counted).
    pub fn keeping(needle: &str, snippets: bool, max_hits: usize) -> Option<Matcher> {
        if needle.is_empty() {
            return None;
        }
        let lower = needle.as_bytes().to_ascii_lowercase();
        Some(Matcher {
            keep: lower.len() - 1,
            finder: memmem::Finder::new(&lower).into_owned(),
            raw: Vec::new(),
            lower: Vec::new(),
            base: 0,
            next_start: 0,
            lines_before: 0,
            counted_to: 0,
            found: Found::default(),
            snippets,
            pending: Vec::new(),
            max_hits,
        })
    }

    /// Matches so far.
    pub fn matches(&self) -> u64 {
        self.found.matches
    }

    /// Feeds the next bytes of the stream. Returns how many hits this chunk
    /// completed (they are the last ones of [`Matcher::hits`], unless capped).
    pub fn feed(&mut self, chunk: &[u8]) -> usize {
        self.complete_snippets(chunk);
        // Once the hits are capped and none waits for bytes, no snippet is
        // cut again: the raw copy stops (a folder search keeps 5 per file).
        if self.snippets && self.found.hits.len() >= self.max_hits && self.pending.is_empty() {
            self.snippets = false;
            self.raw = Vec::new();
        }
        if self.snippets {
            self.raw.extend_from_slice(chunk);
        }
        // Copied and lower-cased in one pass.
        self.lower.extend(chunk.iter().map(u8::to_ascii_lowercase));
        let end = self.base + self.lower.len() as u64;
        // Starts that are complete now: up to `end - keep` (exclusive).
        let last_start = end.saturating_sub(self.keep as u64).max(self.next_start);
        let scan_from = (self.next_start - self.base) as usize;
        let scan_to = (end - self.base) as usize;
        let mut new_hits = 0;
        let mut at = scan_from;
        while let Some(pos) = self.finder.find(&self.lower[at..scan_to]) {
            let p = at + pos;
            let abs = self.base + p as u64;
            if abs >= last_start {
                break;
            }
            self.found.matches += 1;
            if self.found.hits.len() < self.max_hits {
                self.count_lines_to(abs);
                let (snippet, at_in, wanted) = if self.snippets { self.snippet(p) } else { (Vec::new(), 0, 0) };
                if wanted > 0 {
                    self.pending.push((self.found.hits.len(), wanted));
                }
                self.found.hits.push(Hit { offset: abs, line_no: self.lines_before + 1, snippet, at: at_in });
                new_hits += 1;
            }
            at = p + 1;
        }
        self.next_start = last_start;
        // Lines are counted only for hits still to be kept.
        if self.found.hits.len() < self.max_hits {
            self.count_lines_to(last_start);
        }
        // Keep what a later match or snippet may still need.
        // From `next_start` on (a match may start there), and the context a
        // snippet shows before it.
        let context = if self.snippets { CONTEXT_BYTES } else { 0 };
        let keep_from = ((self.next_start - self.base) as usize).saturating_sub(context);
        self.lower.drain(..keep_from);
        if self.snippets {
            self.raw.drain(..keep_from);
        }
        self.base += keep_from as u64;
        new_hits
    }

    /// The hits so far.
    pub fn hits(&self) -> &[Hit] {
        &self.found.hits
    }

    /// Ends the stream: nothing more can match.
    pub fn finish(self) -> Found {
        self.found
    }

    fn count_lines_to(&mut self, abs: u64) {
        if abs <= self.counted_to {
            return;
        }
        let from = (self.counted_to - self.base) as usize;
        let to = (abs - self.base) as usize;
        self.lines_before += memchr::memchr_iter(b'\n', &self.lower[from..to]).count() as u32;
        self.counted_to = abs;
    }

    /// The snippet of a match at `p` (a position in `raw`), where the match
    /// lies in it, and how many bytes after it are still wanted (they have
    /// not arrived yet).
    fn snippet(&self, p: usize) -> (Vec<u8>, usize, usize) {
        let len = self.keep + 1;
        let before = p.saturating_sub(CONTEXT_BYTES);
        let start = memchr::memrchr(b'\n', &self.raw[before..p]).map_or(before, |nl| before + nl + 1);
        let after = (p + len + CONTEXT_BYTES).min(self.raw.len());
        let (end, wanted) = match memchr::memchr(b'\n', &self.raw[p + len..after]) {
            Some(nl) => (p + len + nl, 0),
            None => (after, p + len + CONTEXT_BYTES - after),
        };
        (self.raw[start..end].to_vec(), p - start, wanted)
    }

    /// Gives the hits waiting for bytes after their match the start of
    /// `chunk` (up to a newline).
    fn complete_snippets(&mut self, chunk: &[u8]) {
        let hits = &mut self.found.hits;
        self.pending.retain_mut(|(k, wanted)| {
            let take = (*wanted).min(chunk.len());
            let (part, done) = match memchr::memchr(b'\n', &chunk[..take]) {
                Some(nl) => (&chunk[..nl], true),
                None => (&chunk[..take], take == *wanted),
            };
            hits[*k].snippet.extend_from_slice(part);
            *wanted -= part.len();
            !done
        });
    }
}

/// A match as a list of results shows it: its line, and the JSON string it
/// lies in (as far as the context reaches), decoded — `\n`, `\"` and
/// `\u00e9` as the characters they stand for — with where the match is in
/// it. The page redacts this text whole and only then cuts it around the hit.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct HitText {
    pub line_no: u32,
    pub text: String,
    /// Byte range of the match in `text`.
    pub hit_start: u32,
    pub hit_end: u32,
}

/// Whether the quote at `raw[i]` is escaped (an odd run of backslashes before it).
fn escaped(raw: &[u8], i: usize) -> bool {
    raw[..i].iter().rev().take_while(|&&b| b == b'\\').count() % 2 == 1
}

impl HitText {
    pub fn of(hit: &Hit, needle_len: usize) -> HitText {
        let raw = &hit.snippet;
        let at = hit.at.min(raw.len());
        let end = (at + needle_len).min(raw.len());
        // The string the match lies in: from the quote before it to the quote after it.
        let open = (0..at).rev().find(|&i| raw[i] == b'"' && !escaped(raw, i)).map_or(0, |i| i + 1);
        let close = (end..raw.len()).find(|&i| raw[i] == b'"' && !escaped(raw, i)).unwrap_or(raw.len());
        let decode = |b: &[u8]| crate::cursor::unescape_prefix(b, usize::MAX);
        let (before, found, after) = (decode(&raw[open..at]), decode(&raw[at..end]), decode(&raw[end..close]));
        let (hit_start, hit_end) = (before.len() as u32, (before.len() + found.len()) as u32);
        HitText { line_no: hit.line_no, text: before + &found + &after, hit_start, hit_end }
    }

    /// The match's byte range in `text`.
    pub fn hit(&self) -> std::ops::Range<usize> {
        self.hit_start as usize..self.hit_end as usize
    }
}

/// Searches a whole buffer in one go (tests, the CLI).
pub fn search_bytes(needle: &str, bytes: &[u8], snippets: bool) -> Found {
    match Matcher::new(needle, snippets) {
        Some(mut m) => {
            m.feed(bytes);
            m.finish()
        }
        None => Found::default(),
    }
}

/// Where `needle` occurs in drawn `text`, by the search's rule (ASCII
/// letters in either case), as UTF-16 offsets — what a DOM `Range` counts —
/// without overlaps, in order; at most `max` of them. The page marks these
/// words in the items it draws.
pub fn marks_utf16(text: &str, needle: &str, max: usize) -> Vec<std::ops::Range<u32>> {
    if needle.is_empty() || text.len() < needle.len() {
        return Vec::new();
    }
    let (hay, pin) = (text.to_ascii_lowercase(), needle.to_ascii_lowercase());
    let mut out = Vec::new();
    // UTF-16 units up to byte `counted`: counted on as the matches go.
    let (mut counted, mut units) = (0usize, 0u32);
    while out.len() < max {
        let Some(k) = memmem::find(&hay.as_bytes()[counted..], pin.as_bytes()) else { break };
        let (start, end) = (counted + k, counted + k + pin.len());
        units += utf16_len(&text[counted..start]);
        let len = utf16_len(&text[start..end]);
        out.push(units..units + len);
        units += len;
        counted = end;
    }
    out
}

fn utf16_len(s: &str) -> u32 {
    s.chars().map(|c| c.len_utf16() as u32).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_are_utf16_ranges_of_each_match_in_either_case() {
        assert_eq!(marks_utf16("Error: an error", "ERROR", 10), vec![0..5, 10..15]);
        // "é" is one UTF-16 unit, "😀" two: offsets count units, not bytes.
        assert_eq!(marks_utf16("é😀 build Build", "build", 10), vec![4..9, 10..15]);
        assert_eq!(marks_utf16("aaaa", "aa", 10), vec![0..2, 2..4], "no overlaps");
        assert_eq!(marks_utf16("aaaa", "aa", 1), vec![0..2], "at most max");
        assert!(marks_utf16("abc", "", 10).is_empty());
        assert!(marks_utf16("ab", "abc", 10).is_empty());
    }

    /// The naive definition: every position where the lower-cased needle
    /// equals the lower-cased bytes.
    fn naive(needle: &str, hay: &[u8]) -> Vec<(u64, u32)> {
        let n = needle.as_bytes().to_ascii_lowercase();
        let h = hay.to_ascii_lowercase();
        if n.is_empty() || n.len() > h.len() {
            return Vec::new();
        }
        (0..=h.len() - n.len())
            .filter(|&i| h[i..i + n.len()] == n[..])
            .map(|i| (i as u64, 1 + hay[..i].iter().filter(|&&b| b == b'\n').count() as u32))
            .collect()
    }

    fn chunked(needle: &str, hay: &[u8], sizes: &[usize]) -> Found {
        let mut m = Matcher::new(needle, true).unwrap();
        let mut at = 0;
        let mut k = 0;
        while at < hay.len() {
            let n = sizes[k % sizes.len()].max(1).min(hay.len() - at);
            m.feed(&hay[at..at + n]);
            at += n;
            k += 1;
        }
        m.finish()
    }

    #[test]
    fn matches_across_every_chunk_split() {
        let hay = b"Fix the BUILD\nthe build\nbuildbuild\n\"build\" rebuild\nb\nuild";
        for needle in ["build", "b", "the build", "dbu", "\n", "uild\nb", "BUILD"] {
            let want = naive(needle, hay);
            for size in 1..hay.len() + 2 {
                let got = chunked(needle, hay, &[size]);
                let got: Vec<(u64, u32)> = got.hits.iter().map(|h| (h.offset, h.line_no)).collect();
                assert_eq!(got, want, "needle {needle:?}, chunks of {size}");
            }
        }
    }

    #[test]
    fn snippets_are_the_decoded_string_around_the_hit() {
        let hay = b"{\"a\":\"first line\"}\n{\"text\":\"the \\\"cargo\\\" build\\nfailed \\u00e9\",\"k\":1}\n";
        for size in [1, 3, 7, 64, 1000] {
            let f = chunked("Cargo", hay, &[size]);
            assert_eq!(f.hits.len(), 1);
            let h = HitText::of(&f.hits[0], 5);
            assert_eq!(h.line_no, 2);
            assert_eq!(h.text, "the \"cargo\" build\nfailed é", "the string, not its JSON (chunks of {size})");
            assert_eq!(&h.text[h.hit()], "cargo");
        }
        // A match across strings keeps what lies between them as it is.
        let f = search_bytes("\"text\":\"the", hay, true);
        let h = HitText::of(&f.hits[0], 11);
        assert_eq!(&h.text[h.hit()], "\"text\":\"the");
    }

    #[test]
    fn empty_needles_and_short_haystacks() {
        assert!(Matcher::new("", false).is_none());
        assert_eq!(search_bytes("", b"abc", false), Found::default());
        assert_eq!(search_bytes("abcd", b"abc", false).matches, 0);
        assert_eq!(search_bytes("a", b"", false).matches, 0);
        assert_eq!(search_bytes("aa", b"aaaa", false).matches, 3, "overlapping matches all count");
    }
}

#[cfg(test)]
mod properties {
    use super::*;
    use proptest::prelude::*;

    fn naive(needle: &[u8], hay: &[u8]) -> Vec<u64> {
        let n = needle.to_ascii_lowercase();
        let h = hay.to_ascii_lowercase();
        if n.len() > h.len() {
            return Vec::new();
        }
        (0..=h.len() - n.len()).filter(|&i| h[i..i + n.len()] == n[..]).map(|i| i as u64).collect()
    }

    /// `hay` fed to `m` in chunks of `sizes`, cycled.
    fn fed(mut m: Matcher, hay: &[u8], sizes: &[usize]) -> Found {
        let (mut at, mut k) = (0, 0);
        while at < hay.len() {
            let n = sizes[k % sizes.len()].min(hay.len() - at);
            m.feed(&hay[at..at + n]);
            at += n;
            k += 1;
        }
        m.finish()
    }

    proptest! {
        /// Any needle, any bytes, any chunking: the hits are the naive ones.
        #[test]
        fn chunked_search_equals_the_naive_scan(
            hay in proptest::collection::vec(prop_oneof![Just(b'a'), Just(b'B'), Just(b'\n'), Just(b'"'), any::<u8>()], 0..300),
            needle in "[aAbB\n]{1,5}",
            sizes in proptest::collection::vec(1usize..40, 1..8),
            snippets in any::<bool>(),
        ) {
            let f = fed(Matcher::new(&needle, snippets).unwrap(), &hay, &sizes);
            let want = naive(needle.as_bytes(), &hay);
            prop_assert_eq!(f.matches, want.len() as u64);
            let got: Vec<u64> = f.hits.iter().map(|h| h.offset).collect();
            prop_assert_eq!(&got, &want);
            for h in &f.hits {
                let line = 1 + hay[..h.offset as usize].iter().filter(|&&b| b == b'\n').count() as u32;
                prop_assert_eq!(h.line_no, line);
                if snippets {
                    let n = needle.len();
                    prop_assert_eq!(&h.snippet[h.at..h.at + n], &hay[h.offset as usize..h.offset as usize + n]);
                }
            }
        }

        /// A matcher keeping a few hits (a folder search's lane) keeps the
        /// first ones whole — offset, line, snippet — and counts all: past
        /// the cap it stops copying and counting lines, not matching.
        #[test]
        fn capped_hits_are_the_first_hits_and_every_match_counts(
            hay in proptest::collection::vec(prop_oneof![Just(b'a'), Just(b'B'), Just(b'\n'), any::<u8>()], 0..400),
            needle in "[aAbB\n]{1,4}",
            sizes in proptest::collection::vec(1usize..40, 1..8),
            cap in 0usize..6,
        ) {
            let all = search_bytes(&needle, &hay, true);
            let f = fed(Matcher::keeping(&needle, true, cap).unwrap(), &hay, &sizes);
            prop_assert_eq!(f.matches, all.matches);
            prop_assert_eq!(&f.hits[..], &all.hits[..all.hits.len().min(cap)]);
        }
    }
}
