//! The one chunked reader of a `Blob` (a picked `File`): opening a file,
//! reading bodies back and searching all read through [`Chunks`]. Nothing is
//! sent anywhere: bytes go from the browser's file API into wasm memory.

use std::collections::VecDeque;

use js_sys::Uint8Array;
use thiserror::Error;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::Blob;

use super::task::{now_ms, Pacer};

/// The page's reads (see [`crate::index::CHUNK_BYTES`]).
pub const CHUNK_BYTES: u64 = crate::index::CHUNK_BYTES as u64;
/// A file's first read is this small, so its start is on screen long
/// before a big file is indexed; files up to this size are read in the page.
pub const FIRST_CHUNK_BYTES: u64 = 256 << 10;

/// Why a file could not be read: told to the person once, in these words.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum ReadError {
    /// The browser refused or failed the read; its words.
    #[error("{0}")]
    Browser(String),
    /// The file is not among those picked (or no longer in the page's list).
    #[error("it was not picked, or is no longer in the page's list of files")]
    NotPicked,
}

impl ReadError {
    fn from_js(e: wasm_bindgen::JsValue) -> ReadError {
        ReadError::Browser(
            e.dyn_ref::<js_sys::Error>()
                .map(|e| String::from(e.message()))
                .or_else(|| e.as_string())
                .unwrap_or_else(|| "the browser could not read the file".into()),
        )
    }
}

/// Reads `blob[start..end]` chunk by chunk, keeping `in_flight` further
/// reads going while the caller works on one (at most `in_flight + 1`
/// chunks in memory). Between chunks the page gets a turn of its event loop
/// at least every [`super::task::YIELD_EVERY_MS`].
pub struct Chunks {
    blob: Blob,
    end: u64,
    chunk_bytes: u64,
    in_flight: usize,
    /// Where the next read starts.
    asked: u64,
    /// Reads under way: (start, their promise).
    pending: VecDeque<(u64, JsFuture)>,
    pacer: Pacer,
}

impl Chunks {
    /// The whole of `blob`, its first read at most [`FIRST_CHUNK_BYTES`].
    pub fn file(blob: &Blob, chunk_bytes: u64, in_flight: usize) -> Chunks {
        let size = blob.size() as u64;
        let mut c = Chunks::range(blob, 0, size, chunk_bytes, in_flight);
        c.first_read(chunk_bytes.min(FIRST_CHUNK_BYTES));
        c
    }

    /// The bytes `[start, end)` of `blob`.
    pub fn range(blob: &Blob, start: u64, end: u64, chunk_bytes: u64, in_flight: usize) -> Chunks {
        let end = end.min(blob.size() as u64).max(start);
        Chunks {
            blob: blob.clone(),
            end,
            chunk_bytes: chunk_bytes.max(1),
            in_flight: in_flight.max(1),
            asked: start,
            pending: VecDeque::new(),
            pacer: Pacer::new(),
        }
    }

    fn start_read(&mut self, len: u64) {
        let to = (self.asked + len).min(self.end);
        // A failed slice (never seen) surfaces as a failed read at `next`.
        let promise = match self.blob.slice_with_f64_and_f64(self.asked as f64, to as f64) {
            Ok(s) => s.array_buffer(),
            Err(e) => js_sys::Promise::reject(&e),
        };
        self.pending.push_back((self.asked, JsFuture::from(promise)));
        self.asked = to;
    }

    fn first_read(&mut self, len: u64) {
        if self.asked < self.end {
            self.start_read(len);
        }
    }

    /// Fills `buf` with the next chunk and returns its offset in the file;
    /// `None` after the last one.
    pub async fn next(&mut self, buf: &mut Vec<u8>) -> Result<Option<u64>, ReadError> {
        self.pacer.maybe_yield().await;
        while self.pending.len() <= self.in_flight && self.asked < self.end {
            self.start_read(self.chunk_bytes);
        }
        let Some((start, read)) = self.pending.pop_front() else { return Ok(None) };
        let waited_from = now_ms();
        let ab = read.await.map_err(ReadError::from_js)?;
        if now_ms() - waited_from > 1.0 {
            // The event loop turned while we waited.
            self.pacer.yielded();
        }
        let view = Uint8Array::new(&ab);
        let len = view.length() as usize;
        // Straight into spare capacity: zero-filling a fresh buffer first
        // (a search lane's, per file) cost a pass over every byte.
        buf.clear();
        buf.reserve(len);
        let filled = view.copy_to_uninit(&mut buf.spare_capacity_mut()[..len]).len();
        // SAFETY: `copy_to_uninit` initialised the first `len` spare bytes.
        unsafe { buf.set_len(filled) };
        Ok(Some(start))
    }
}

/// The bytes `[start, end)` of `blob`, in one read.
pub async fn read_range(blob: &Blob, start: u64, end: u64) -> Result<Vec<u8>, ReadError> {
    let mut c = Chunks::range(blob, start, end, end.saturating_sub(start), 1);
    let mut buf = Vec::new();
    c.next(&mut buf).await?;
    Ok(buf)
}

/// The whole of `blob` (a small file: a run, a memory file, a full tool
/// output), in one read.
pub async fn read_all(blob: &Blob) -> Result<Vec<u8>, ReadError> {
    read_range(blob, 0, blob.size() as u64).await
}

/// A `Blob` holding `bytes` (the built-in sample, tests).
pub fn blob_of(bytes: &[u8]) -> Result<Blob, ReadError> {
    let parts = js_sys::Array::of1(&Uint8Array::from(bytes));
    Blob::new_with_u8_array_sequence(&parts).map_err(ReadError::from_js)
}
