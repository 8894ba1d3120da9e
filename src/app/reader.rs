//! Reading a picked `File` (or the sample `Blob`) in chunks with
//! `Blob.slice`, pushing each into the shared [`Indexer`]. Nothing is sent
//! anywhere: the bytes go from the browser's file API into wasm memory.

use js_sys::Uint8Array;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::Blob;

use crate::index::{Index, Indexer};

/// The shared chunk size (see [`crate::index::CHUNK_BYTES`]).
pub const CHUNK_BYTES: u64 = crate::index::CHUNK_BYTES as u64;

/// The first read is this small, so the start of the file is on screen
/// (see `on_first`) long before a big file is indexed.
pub const FIRST_CHUNK_BYTES: u64 = 256 << 10;

/// How many leading bytes are kept for sniffing binary formats.
pub const SNIFF_BYTES: usize = 16;

pub struct ReadOutcome {
    pub index: Index,
    pub first_bytes: Vec<u8>,
}

/// Why a read stopped.
pub enum ReadError {
    /// A newer pick replaced this read.
    Superseded,
    /// The browser could not read the file; the text says why.
    Browser(String),
}

fn js_message(e: wasm_bindgen::JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "the browser could not read the file".into())
}

/// Reads `blob` chunk by chunk. `on_first(bytes)` gets the first chunk
/// (at most [`FIRST_CHUNK_BYTES`]) before it is indexed; `on_progress(read_bytes)`
/// is called after each chunk and returns `false` when the read should stop
/// (superseded). Between chunks control returns to the event loop, so the
/// page stays responsive and the progress bar repaints.
pub async fn read_blob(
    blob: &Blob,
    chunk_bytes: u64,
    on_first: impl FnOnce(&[u8]),
    mut on_progress: impl FnMut(u64) -> bool,
) -> Result<ReadOutcome, ReadError> {
    let size = blob.size() as u64;
    let mut ix = Indexer::new();
    let mut buf: Vec<u8> = Vec::new();
    let mut first_bytes = Vec::new();
    let mut at = 0u64;
    let mut on_first = Some(on_first);
    while at < size {
        let step = if at == 0 { chunk_bytes.min(FIRST_CHUNK_BYTES) } else { chunk_bytes };
        let end = (at + step.max(1)).min(size);
        let slice = blob.slice_with_f64_and_f64(at as f64, end as f64).map_err(|e| ReadError::Browser(js_message(e)))?;
        let ab = JsFuture::from(slice.array_buffer()).await.map_err(|e| ReadError::Browser(js_message(e)))?;
        let view = Uint8Array::new(&ab);
        buf.resize(view.length() as usize, 0);
        view.copy_to(&mut buf);
        if first_bytes.len() < SNIFF_BYTES {
            let need = SNIFF_BYTES - first_bytes.len();
            first_bytes.extend_from_slice(&buf[..need.min(buf.len())]);
        }
        if let Some(f) = on_first.take() {
            f(&buf);
        }
        ix.push(&buf);
        at = end;
        if !on_progress(at) {
            return Err(ReadError::Superseded);
        }
        // Let the page paint and handle input before the next chunk.
        gloo::timers::future::TimeoutFuture::new(0).await;
    }
    Ok(ReadOutcome { index: ix.finish(), first_bytes })
}
