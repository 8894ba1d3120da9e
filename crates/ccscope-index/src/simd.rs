//! The one hot loop of the scanner: skip the inside of a JSON string 64
//! bytes at a time, branch-free across escapes.
//!
//! Per 64-byte block we build bitmasks of quotes, backslashes and control
//! bytes; the characters escaped by an odd run of backslashes follow from
//! simdjson's carry trick ([`escaped_bits`]). The block is passed over unless
//! it holds an unescaped quote, a control byte, or an escape that is not a
//! simple one (`\u`, or invalid) — those stop the loop for the caller to
//! judge. Every byte loaded is ORed into an accumulator so the caller learns
//! whether a byte ≥ 0x80 went by (the line then needs UTF-8 validation).
//! A tail shorter than 64 bytes is copied into a zero-padded block (zeros are
//! control bytes, so the padding stops the scan).
//!
//! The loop prefetches [`PREFETCH_AHEAD`] bytes ahead.
//!
//! AVX2 on x86_64 when the CPU has it (checked at run time), else SSE2
//! (always present); simd128 on wasm32 when compiled with
//! `+simd128` (see `.cargo/config.toml`), a portable version elsewhere.

/// What [`skip_string`] found.
#[derive(Debug, PartialEq, Eq)]
pub struct Stop {
    /// Index of the closing `"`, of a control byte, or of the `\` of an
    /// escape to judge; `None` if the line ended first.
    pub at: Option<usize>,
    /// A backslash went by before `at`.
    pub escaped: bool,
    /// A byte ≥ 0x80 may have gone by (never false when one did).
    pub high: bool,
}

/// Masks of one 64-byte block, bit k for byte k.
#[derive(Clone, Copy, Default)]
struct Masks {
    /// Quotes and control bytes: where an unescaped one is, the scan stops.
    stop: u64,
    backslash: u64,
    /// `"`, `\`, `n` and `t`: the characters escaped most often, which
    /// need no further check when escaped (so the escape check rarely needs
    /// a table lookup). Only filled in when the block holds a quote,
    /// backslash or control byte. Three masks rather than four: wasm pays
    /// for each bitmask extraction.
    simple: u64,
    /// OR of all bytes has its top bit set.
    high: bool,
}

const EVEN_BITS: u64 = 0x5555_5555_5555_5555;

/// Bytes that may follow a backslash without further checks: `" \ / b f n r t`
/// (`\u` is judged by the caller).
const SIMPLE_ESCAPE: [bool; 256] = {
    let mut t = [false; 256];
    let ok = *b"\"\\/bfnrt";
    let mut i = 0;
    while i < ok.len() {
        t[ok[i] as usize] = true;
        i += 1;
    }
    t
};

/// The characters escaped by a backslash (simdjson's branchless
/// `find_escaped`). `carry` is 1 when the previous block ended inside an
/// odd run of backslashes.
#[inline(always)]
fn escaped_bits(backslash: u64, carry: &mut u64) -> u64 {
    let backslash = backslash & !*carry;
    let follows_escape = (backslash << 1) | *carry;
    let odd_starts = backslash & !EVEN_BITS & !follows_escape;
    let (even_starts, overflow) = odd_starts.overflowing_add(backslash);
    *carry = overflow as u64;
    let invert = even_starts << 1;
    (EVEN_BITS ^ invert) & follows_escape
}

/// Skips string content starting at `b[from]` (just past the opening quote,
/// or just past an escape the caller handled).
#[inline]
pub fn skip_string(b: &[u8], from: usize) -> Stop {
    // Most strings are keys and short values: one 16-byte look settles them
    // without entering the block loop.
    #[cfg(any(target_arch = "x86_64", all(target_arch = "wasm32", target_feature = "simd128")))]
    if let Some(block) = b.get(from..from + 16) {
        let (special, high) = imp::first16(block);
        if special != 0 {
            let k = special.trailing_zeros() as usize;
            if block[k] == b'"' {
                let before = (1u32 << k) - 1;
                return Stop { at: Some(from + k), escaped: false, high: high & before != 0 };
            }
        }
    }
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2 (checked just above; std caches the answer).
            return unsafe { skip_string_avx2(b, from) };
        }
    }
    skip_with(b, from, imp::masks)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn skip_string_avx2(b: &[u8], from: usize) -> Stop {
    skip_with(b, from, |block| unsafe { avx2::masks(block) })
}

/// How far ahead of the block loop the next bytes are asked for. Once a
/// block holds escapes the loop body is long, too few of its loads are in
/// flight to keep memory busy, and a long string that is not in cache was
/// skipped at 1.6 GB/s; asking 4 KiB ahead made that 9.7 GB/s (base64:
/// 5.4 → 14.4 GB/s) and the whole indexer 1.9 → 2.8–2.9 GB/s (`make bench`).
/// 2–8 KiB measured the same. wasm has no prefetch instruction.
const PREFETCH_AHEAD: usize = 4096;

/// Asks the CPU to bring `b[at]`'s cache line in (x86_64; a no-op elsewhere).
#[inline(always)]
fn prefetch(b: &[u8], at: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: a prefetch is a hint; it never faults, whatever the address.
        unsafe { core::arch::x86_64::_mm_prefetch(b.as_ptr().wrapping_add(at) as *const i8, core::arch::x86_64::_MM_HINT_T0) }
    }
    let _ = (b, at);
}

/// The loop, generic over how one block's masks are computed (so each
/// instruction set gets its own fully inlined copy).
#[inline(always)]
fn skip_with(b: &[u8], from: usize, masks: impl Fn(&[u8]) -> Masks) -> Stop {
    let mut stop = Stop { at: None, escaped: false, high: false };
    let mut carry = 0u64;
    let mut i = from;
    while i < b.len() {
        prefetch(b, i + PREFETCH_AHEAD);
        // Only the tail shorter than 64 bytes is copied, into a zeroed pad
        // (zeroing it on every turn cost wasm four stores per block).
        let mut pad: [u8; 64];
        let (block, real) = if i + 64 <= b.len() {
            (&b[i..i + 64], 64)
        } else {
            let n = b.len() - i;
            pad = [0u8; 64];
            pad[..n].copy_from_slice(&b[i..]);
            (&pad[..], n)
        };
        let m = masks(block);
        stop.high |= m.high;
        let esc = escaped_bits(m.backslash, &mut carry);
        // An escaped control byte is not in `simple`, so it is judged below.
        let mut stops = m.stop & !esc;
        // Escaped characters other than `" \ n t` are rare: judge those few
        // by table lookup.
        let mut e = esc & !m.simple;
        while e != 0 {
            let k = e.trailing_zeros() as usize;
            if !SIMPLE_ESCAPE[block[k] as usize] {
                stops |= 1 << k;
            }
            e &= e - 1;
        }
        if stops == 0 {
            stop.escaped |= m.backslash != 0;
            i += 64;
            continue;
        }
        let first = stops.trailing_zeros();
        let before = (1u64 << first) - 1;
        stop.escaped |= m.backslash & before != 0;
        if first as usize >= real {
            return stop; // the padding: the line ended inside the string
        }
        let at = i + first as usize;
        if esc & (1 << first) != 0 {
            // An escape to judge: point at its backslash (maybe in the previous block).
            stop.escaped = true;
            stop.at = Some(at - 1);
        } else {
            stop.at = Some(at);
        }
        return stop;
    }
    stop
}

#[allow(dead_code)]
mod portable {
    use super::Masks;

    pub fn masks(block: &[u8]) -> Masks {
        let mut m = Masks::default();
        let mut or = 0u8;
        for (k, &x) in block.iter().enumerate() {
            let bit = 1u64 << k;
            or |= x;
            m.stop |= bit * (x == b'"' || x < 0x20) as u64;
            m.backslash |= bit * (x == b'\\') as u64;
            m.simple |= bit * matches!(x, b'"' | b'\\' | b'n' | b't') as u64;
        }
        m.high = or & 0x80 != 0;
        m
    }

}

#[cfg(target_arch = "x86_64")]
mod imp {
    use core::arch::x86_64::*;

    use super::Masks;

    #[inline(always)]
    unsafe fn load4(block: &[u8]) -> [__m128i; 4] {
        debug_assert_eq!(block.len(), 64);
        let p = block.as_ptr();
        // SAFETY (caller): `block` has 64 bytes.
        unsafe {
            [
                _mm_loadu_si128(p as *const __m128i),
                _mm_loadu_si128(p.add(16) as *const __m128i),
                _mm_loadu_si128(p.add(32) as *const __m128i),
                _mm_loadu_si128(p.add(48) as *const __m128i),
            ]
        }
    }

    #[inline(always)]
    fn bits(m: [__m128i; 4]) -> u64 {
        // SAFETY: SSE2 is part of the x86_64 baseline.
        (0..4).fold(0u64, |acc, k| acc | ((unsafe { _mm_movemask_epi8(m[k]) } as u32 as u64) << (16 * k)))
    }

    /// The block's masks. Comparisons are made once; bitmasks are extracted
    /// only when the block holds a special byte at all (most do not).
    #[inline(always)]
    pub fn masks(block: &[u8]) -> Masks {
        // SAFETY: SSE2 is part of the x86_64 baseline; `block` has 64 bytes.
        unsafe {
            let v = load4(block);
            let (q, bs, lim) = (_mm_set1_epi8(b'"' as i8), _mm_set1_epi8(b'\\' as i8), _mm_set1_epi8(0x1f));
            let qm = v.map(|x| _mm_cmpeq_epi8(x, q));
            let bm = v.map(|x| _mm_cmpeq_epi8(x, bs));
            let cm = v.map(|x| _mm_cmpeq_epi8(_mm_min_epu8(x, lim), x));
            let or = _mm_or_si128(_mm_or_si128(v[0], v[1]), _mm_or_si128(v[2], v[3]));
            let high = _mm_movemask_epi8(or) != 0;
            let mut any = _mm_setzero_si128();
            for k in 0..4 {
                any = _mm_or_si128(any, _mm_or_si128(_mm_or_si128(qm[k], bm[k]), cm[k]));
            }
            if _mm_movemask_epi8(any) == 0 {
                return Masks { high, ..Masks::default() };
            }
            let (n, t) = (_mm_set1_epi8(b'n' as i8), _mm_set1_epi8(b't' as i8));
            let stop = [0, 1, 2, 3].map(|k| _mm_or_si128(qm[k], cm[k]));
            let simple = [0, 1, 2, 3].map(|k| {
                let nt = _mm_or_si128(_mm_cmpeq_epi8(v[k], n), _mm_cmpeq_epi8(v[k], t));
                _mm_or_si128(_mm_or_si128(qm[k], bm[k]), nt)
            });
            Masks { stop: bits(stop), backslash: bits(bm), simple: bits(simple), high }
        }
    }

    /// For 16 bytes: the mask of quotes, backslashes and control bytes, and
    /// the mask of bytes >= 0x80.
    #[inline(always)]
    pub fn first16(block: &[u8]) -> (u32, u32) {
        assert!(block.len() >= 16);
        // SAFETY: SSE2 is part of the x86_64 baseline; `block` has 16 bytes (asserted).
        unsafe {
            let x = _mm_loadu_si128(block.as_ptr() as *const __m128i);
            let q = _mm_cmpeq_epi8(x, _mm_set1_epi8(b'"' as i8));
            let bs = _mm_cmpeq_epi8(x, _mm_set1_epi8(b'\\' as i8));
            let lim = _mm_set1_epi8(0x1f);
            let c = _mm_cmpeq_epi8(_mm_min_epu8(x, lim), x);
            let special = _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(q, bs), c)) as u32;
            (special, _mm_movemask_epi8(x) as u32)
        }
    }

}

/// The same masks with 32-byte vectors, for CPUs that have AVX2 (chosen at
/// run time by [`skip_string`]).
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use core::arch::x86_64::*;

    use super::Masks;

    #[inline(always)]
    unsafe fn bits(lo: __m256i, hi: __m256i) -> u64 {
        // SAFETY (caller): AVX2 is enabled.
        unsafe { (_mm256_movemask_epi8(lo) as u32 as u64) | ((_mm256_movemask_epi8(hi) as u32 as u64) << 32) }
    }

    /// SAFETY: the caller runs with AVX2 enabled; `block` has 64 bytes.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub unsafe fn masks(block: &[u8]) -> Masks {
        debug_assert_eq!(block.len(), 64);
        unsafe {
            let p = block.as_ptr();
            let (a, b) = (_mm256_loadu_si256(p as *const __m256i), _mm256_loadu_si256(p.add(32) as *const __m256i));
            let (q, bs, lim) = (_mm256_set1_epi8(b'"' as i8), _mm256_set1_epi8(b'\\' as i8), _mm256_set1_epi8(0x1f));
            let (qa, qb) = (_mm256_cmpeq_epi8(a, q), _mm256_cmpeq_epi8(b, q));
            let (ba, bb) = (_mm256_cmpeq_epi8(a, bs), _mm256_cmpeq_epi8(b, bs));
            let (ca, cb) = (
                _mm256_cmpeq_epi8(_mm256_min_epu8(a, lim), a),
                _mm256_cmpeq_epi8(_mm256_min_epu8(b, lim), b),
            );
            let high = _mm256_movemask_epi8(_mm256_or_si256(a, b)) != 0;
            let any = _mm256_or_si256(_mm256_or_si256(_mm256_or_si256(qa, qb), _mm256_or_si256(ba, bb)), _mm256_or_si256(ca, cb));
            if _mm256_testz_si256(any, any) != 0 {
                return Masks { high, ..Masks::default() };
            }
            let (n, t) = (_mm256_set1_epi8(b'n' as i8), _mm256_set1_epi8(b't' as i8));
            let na = _mm256_or_si256(_mm256_cmpeq_epi8(a, n), _mm256_cmpeq_epi8(a, t));
            let nb = _mm256_or_si256(_mm256_cmpeq_epi8(b, n), _mm256_cmpeq_epi8(b, t));
            let (sa, sb) = (_mm256_or_si256(_mm256_or_si256(qa, ba), na), _mm256_or_si256(_mm256_or_si256(qb, bb), nb));
            Masks {
                stop: bits(_mm256_or_si256(qa, ca), _mm256_or_si256(qb, cb)),
                backslash: bits(ba, bb),
                simple: bits(sa, sb),
                high,
            }
        }
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod imp {
    use core::arch::wasm32::*;

    use super::Masks;

    #[inline(always)]
    fn load4(block: &[u8]) -> [v128; 4] {
        assert!(block.len() >= 64);
        let p = block.as_ptr();
        // SAFETY: `block` has at least 64 bytes (asserted).
        unsafe {
            [
                v128_load(p as *const v128),
                v128_load(p.add(16) as *const v128),
                v128_load(p.add(32) as *const v128),
                v128_load(p.add(48) as *const v128),
            ]
        }
    }

    #[inline(always)]
    fn bits(m: [v128; 4]) -> u64 {
        (0..4).fold(0u64, |acc, k| acc | ((i8x16_bitmask(m[k]) as u32 as u64) << (16 * k)))
    }

    /// Quotes and control bytes in one signed comparison: `x ^ 0x82` maps
    /// `0x00..=0x1f` onto `0x80..=0x9f` and `0x22` onto `0xa0` (-128..=-96
    /// as `i8`), every other byte above -96. V8 turns a signed byte
    /// comparison into one instruction, an unsigned one into four.
    #[inline(always)]
    fn quote_or_ctrl(x: v128) -> v128 {
        i8x16_lt(v128_xor(x, u8x16_splat(0x82)), i8x16_splat(-95))
    }

    /// The block's masks; bitmasks only extracted when a special byte is
    /// there. wasm pays for every vector instruction (V8 turns most into
    /// one or more SSE/AVX ones), so the common test is kept short.
    #[inline(always)]
    pub fn masks(block: &[u8]) -> Masks {
        let v = load4(block);
        let bs = u8x16_splat(b'\\');
        let qc = v.map(quote_or_ctrl);
        let bm = v.map(|x| u8x16_eq(x, bs));
        let high = i8x16_bitmask(v128_or(v128_or(v[0], v[1]), v128_or(v[2], v[3]))) != 0;
        let any = v128_or(
            v128_or(v128_or(qc[0], bm[0]), v128_or(qc[1], bm[1])),
            v128_or(v128_or(qc[2], bm[2]), v128_or(qc[3], bm[3])),
        );
        if !v128_any_true(any) {
            return Masks { high, ..Masks::default() };
        }
        let (q, n, t) = (u8x16_splat(b'"'), u8x16_splat(b'n'), u8x16_splat(b't'));
        let simple = [0, 1, 2, 3].map(|k| {
            let x = v[k];
            v128_or(v128_or(u8x16_eq(x, q), bm[k]), v128_or(u8x16_eq(x, n), u8x16_eq(x, t)))
        });
        Masks { stop: bits(qc), backslash: bits(bm), simple: bits(simple), high }
    }

    /// For 16 bytes: the mask of quotes, backslashes and control bytes, and
    /// the mask of bytes >= 0x80.
    #[inline(always)]
    pub fn first16(block: &[u8]) -> (u32, u32) {
        assert!(block.len() >= 16);
        // SAFETY: `block` has at least 16 bytes (asserted).
        let x = unsafe { v128_load(block.as_ptr() as *const v128) };
        let special = v128_or(quote_or_ctrl(x), u8x16_eq(x, u8x16_splat(b'\\')));
        (i8x16_bitmask(special) as u32, i8x16_bitmask(x) as u32)
    }

}

#[cfg(not(any(target_arch = "x86_64", all(target_arch = "wasm32", target_feature = "simd128"))))]
use portable as imp;

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain definition.
    fn plain(b: &[u8], mut i: usize) -> Stop {
        let mut stop = Stop { at: None, escaped: false, high: false };
        while i < b.len() {
            let x = b[i];
            stop.high |= x >= 0x80;
            if x == b'\\' {
                stop.escaped = true;
                match b.get(i + 1) {
                    Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => {
                        stop.high |= b[i + 1] >= 0x80;
                        i += 2;
                        continue;
                    }
                    None => return stop,
                    _ => {
                        stop.at = Some(i);
                        return stop;
                    }
                }
            }
            if x == b'"' || x < 0x20 {
                stop.at = Some(i);
                return stop;
            }
            i += 1;
        }
        stop
    }

    #[test]
    fn agrees_with_the_plain_definition_for_every_special_at_every_position() {
        let base: Vec<u8> = (0..200usize).map(|i| b"abcdefgh01234567 <>/"[i % 20]).collect();
        let inserts: [&[u8]; 10] = [b"\"", b"\\", b"\x00", b"\x1f", b"\\n", b"\\\"", b"\\u", b"\\\\", b"\\\\\\\"", b"\\x"];
        for ins in inserts {
            for at in 0..base.len() - ins.len() {
                let mut s = base.clone();
                s[at..at + ins.len()].copy_from_slice(ins);
                for from in [0, 1, 15, 16, 17, 63, 64, 65, 150, 199] {
                    let (fast, slow) = (skip_string(&s, from), plain(&s, from));
                    assert_eq!((fast.at, fast.escaped), (slow.at, slow.escaped), "{ins:?} at {at} from {from}");
                }
            }
        }
    }

    #[test]
    fn backslash_runs_across_block_boundaries() {
        for run in 1..6 {
            for at in 55..70 {
                let mut s = vec![b'a'; 140];
                s[at..at + run].fill(b'\\');
                s[at + run] = b'"';
                let (fast, slow) = (skip_string(&s, 0), plain(&s, 0));
                assert_eq!((fast.at, fast.escaped), (slow.at, slow.escaped), "run {run} at {at}");
            }
        }
    }

    #[test]
    fn notes_high_bytes() {
        let s = "plain ascii text then é and more text to pass a 64-byte block, and more, and more".as_bytes();
        let stop = skip_string(s, 0);
        assert_eq!(stop.at, None);
        assert!(stop.high);
        assert!(!skip_string(b"only ascii here, long enough to use the vector loops for sure, yes\"", 0).high);
    }

    #[test]
    fn portable_masks_match_the_simd_ones() {
        let s: Vec<u8> = (0..64u32).map(|i| [b'"', b'\\', b'n', 0x01, b'a', 0xc3, b'/', b'u'][(i * 7 % 8) as usize]).collect();
        let (a, b) = (portable::masks(&s), imp::masks(&s));
        assert_eq!((a.stop, a.backslash, a.simple, a.high), (b.stop, b.backslash, b.simple, b.high));
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: AVX2 is present (checked).
            let c = unsafe { avx2::masks(&s) };
            assert_eq!((a.stop, a.backslash, a.simple, a.high), (c.stop, c.backslash, c.simple, c.high));
        }
    }
}
