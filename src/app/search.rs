//! Full-text search over the file's raw bytes, re-read chunk by chunk with
//! `Blob.slice`, matched with memchr's `memmem` (ASCII case-insensitive:
//! both sides lower-cased). Matches are byte offsets; the viewer maps them
//! to items. Text inside the JSON is as written: `"` appears as `\"`.

use js_sys::Uint8Array;
use memchr::memmem;
use wasm_bindgen_futures::JsFuture;
use web_sys::Blob;

/// At most this many matches are kept (the count says when it is capped).
pub const MAX_MATCHES: usize = 100_000;

pub struct Found {
    /// Offsets of the first byte of each match, ascending.
    pub offsets: Vec<u64>,
    /// Every match seen, even past [`MAX_MATCHES`].
    pub matches: u64,
}

/// Searches `blob` for `needle`. `on_progress(read_bytes)` returns `false`
/// to stop (a newer search replaced this one): then `None`.
pub async fn search(blob: &Blob, needle: &str, chunk_bytes: u64, mut on_progress: impl FnMut(u64) -> bool) -> Option<Found> {
    let needle = needle.as_bytes().to_ascii_lowercase();
    if needle.is_empty() {
        return Some(Found { offsets: Vec::new(), matches: 0 });
    }
    let finder = memmem::Finder::new(&needle);
    let size = blob.size() as u64;
    let keep = needle.len() - 1;
    let mut buf: Vec<u8> = Vec::new();
    let mut found = Found { offsets: Vec::new(), matches: 0 };
    let mut at = 0u64;
    while at < size {
        let end = (at + chunk_bytes).min(size);
        let slice = blob.slice_with_f64_and_f64(at as f64, end as f64).ok()?;
        let ab = JsFuture::from(slice.array_buffer()).await.ok()?;
        let view = Uint8Array::new(&ab);
        // `buf` holds the last `keep` bytes of the previous chunk, then this one.
        let carried = buf.len();
        buf.resize(carried + view.length() as usize, 0);
        view.copy_to(&mut buf[carried..]);
        buf[carried..].make_ascii_lowercase();
        let base = at - carried as u64;
        for pos in finder.find_iter(&buf) {
            found.matches += 1;
            if found.offsets.len() < MAX_MATCHES {
                found.offsets.push(base + pos as u64);
            }
        }
        let tail = buf.len().saturating_sub(keep);
        buf.drain(..tail);
        at = end;
        if !on_progress(at) {
            return None;
        }
        gloo::timers::future::TimeoutFuture::new(0).await;
    }
    Some(found)
}
