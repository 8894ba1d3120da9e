//! Reading a picked `File` (or the sample `Blob`) in chunks with
//! `Blob.slice`, pushing each into the shared [`Indexer`]. Nothing is sent
//! anywhere: the bytes go from the browser's file API into wasm memory.

use js_sys::Uint8Array;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::Blob;

use super::now_ms;
use crate::index::{Index, Indexer};

/// The shared chunk size (see [`crate::index::CHUNK_BYTES`]).
pub const CHUNK_BYTES: u64 = crate::index::CHUNK_BYTES as u64;

/// The first read is this small, so the start of the file is on screen
/// (see `on_first`) long before a big file is indexed.
pub const FIRST_CHUNK_BYTES: u64 = 256 << 10;

pub struct ReadOutcome {
    pub index: Index,
    /// Time spent in the indexer itself (not waiting for the browser).
    pub index_ms: f64,
    /// Time spent waiting for the browser to hand over chunks.
    pub wait_ms: f64,
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

/// The longest stretch of work between two turns of the event loop.
const YIELD_EVERY_MS: f64 = 30.0;

/// Starts reading `blob[from..to]`; the browser reads while wasm works.
fn start_read(blob: &Blob, from: u64, to: u64) -> Result<JsFuture, ReadError> {
    let slice = blob
        .slice_with_f64_and_f64(from as f64, to as f64)
        .map_err(|e| ReadError::Browser(js_message(e)))?;
    Ok(JsFuture::from(slice.array_buffer()))
}

/// Gives the page a turn of its event loop (input, rendering) without the
/// 4 ms minimum that nested `setTimeout(0)`s get: a message to ourselves.
pub async fn yield_to_page() {
    let Ok(ch) = web_sys::MessageChannel::new() else {
        gloo::timers::future::TimeoutFuture::new(0).await;
        return;
    };
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        ch.port1().set_onmessage(Some(resolve.unchecked_ref()));
        if ch
            .port2()
            .post_message(&wasm_bindgen::JsValue::NULL)
            .is_err()
        {
            let _ = resolve.call0(&wasm_bindgen::JsValue::NULL);
        }
    });
    let _ = JsFuture::from(promise).await;
    ch.port1().set_onmessage(None);
}

/// Reads `blob` chunk by chunk. `on_first(bytes)` gets the first chunk
/// (at most [`FIRST_CHUNK_BYTES`]) before it is indexed; `on_progress(read_bytes)`
/// is called after each chunk and returns `false` when the read should stop
/// (superseded). While a chunk is indexed, the next `in_flight` chunks are
/// already being read (at most `in_flight + 1` chunks in memory). Between
/// chunks control returns to the event loop, so the page stays responsive
/// and the progress bar repaints.
pub async fn read_blob(
    blob: &Blob,
    chunk_bytes: u64,
    in_flight: usize,
    on_first: impl FnOnce(&[u8]),
    mut on_progress: impl FnMut(u64) -> bool,
) -> Result<ReadOutcome, ReadError> {
    let size = blob.size() as u64;
    let chunk_bytes = chunk_bytes.max(1);
    let mut ix = Indexer::new();
    let mut buf: Vec<u8> = Vec::new();
    let mut on_first = Some(on_first);
    let mut index_ms = 0.0;
    let mut wait_ms = 0.0;
    let mut yielded_ms = now_ms();
    let in_flight = in_flight.max(1);
    let mut pending = std::collections::VecDeque::with_capacity(in_flight + 1);
    // Where the next read starts; the first read is small.
    let mut asked = chunk_bytes.min(FIRST_CHUNK_BYTES).min(size);
    if size > 0 {
        pending.push_back((asked, start_read(blob, 0, asked)?));
    }
    while let Some((end, read)) = pending.pop_front() {
        while pending.len() < in_flight && asked < size {
            let next_end = (asked + chunk_bytes).min(size);
            pending.push_back((next_end, start_read(blob, asked, next_end)?));
            asked = next_end;
        }
        let waited_from = now_ms();
        let ab = read.await.map_err(|e| ReadError::Browser(js_message(e)))?;
        wait_ms += now_ms() - waited_from;
        if now_ms() - waited_from > 1.0 {
            yielded_ms = now_ms();
        }
        let view = Uint8Array::new(&ab);
        buf.resize(view.length() as usize, 0);
        view.copy_to(&mut buf);
        if let Some(f) = on_first.take() {
            f(&buf);
        }
        let t0 = now_ms();
        ix.push(&buf);
        index_ms += now_ms() - t0;
        if !on_progress(end) {
            return Err(ReadError::Superseded);
        }
        // Awaiting a read usually hands the event loop over already; when
        // reads come back faster than we index, hand it over ourselves.
        if now_ms() - yielded_ms >= YIELD_EVERY_MS {
            yield_to_page().await;
            yielded_ms = now_ms();
        }
    }
    let t0 = now_ms();
    let index = ix.finish();
    index_ms += now_ms() - t0;
    Ok(ReadOutcome {
        index,
        index_ms,
        wait_ms,
    })
}
