//! Bodies on demand: a row's line is read back with `Blob.slice(offset,
//! offset + len)` and parsed only when its item is on screen, into a small
//! bounded cache. A 1.3 MB image line costs nothing until it is shown.
//! Lines inside the file's first chunk, which the page holds anyway, are
//! taken from it: the first screen of a file costs no read of its own while
//! the worker is still reading the file (each read is a round trip through
//! the browser, on the threads the worker's reads need).

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use js_sys::Uint8Array;
use wasm_bindgen_futures::JsFuture;
use web_sys::Blob;

use crate::index::Index;
use crate::model::body::Body;

/// Parsed bodies by row, least recently used evicted first once their lines
/// add up to more than `budget_bytes` (the newest entry always stays).
pub struct BodyCache {
    map: HashMap<u32, (Rc<Body>, u64, u32)>,
    line_bytes: u64,
    budget_bytes: u64,
    tick: u64,
}

/// Source bytes of parsed lines kept at most (bodies are about this size).
pub const CACHE_BUDGET_BYTES: u64 = 8 << 20;

impl BodyCache {
    pub fn new(budget_bytes: u64) -> Self {
        BodyCache { map: HashMap::new(), line_bytes: 0, budget_bytes, tick: 0 }
    }

    pub fn get(&mut self, row: u32) -> Option<Rc<Body>> {
        self.tick += 1;
        let tick = self.tick;
        self.map.get_mut(&row).map(|e| {
            e.1 = tick;
            e.0.clone()
        })
    }

    pub fn put(&mut self, row: u32, body: Rc<Body>, len_bytes: u32) {
        self.tick += 1;
        if let Some(old) = self.map.insert(row, (body, self.tick, len_bytes)) {
            self.line_bytes -= old.2 as u64;
        }
        self.line_bytes += len_bytes as u64;
        while self.line_bytes > self.budget_bytes && self.map.len() > 1 {
            let Some((&oldest, _)) = self.map.iter().filter(|(&r, _)| r != row).min_by_key(|(_, e)| e.1) else { break };
            if let Some(e) = self.map.remove(&oldest) {
                self.line_bytes -= e.2 as u64;
            }
        }
    }
}

pub type SharedCache = Rc<RefCell<BodyCache>>;

/// Rows closer than this in the file are read with one `Blob.slice` (each
/// slice of a picked file costs the browser a round trip of its own).
const MERGE_GAP_BYTES: u64 = 64 << 10;
/// One read covers at most this many bytes (unless a single line is longer).
const MERGE_MAX_BYTES: u64 = 4 << 20;

/// Reads and parses `rows` (cached ones are not read again). `head` is the
/// file's first bytes: rows that lie inside it are not read from `blob`. A
/// row that cannot be read or parsed comes back as `None`. Rows near each
/// other in the file are read together.
pub async fn fetch(blob: &Blob, head: &[u8], ix: &Index, cache: &SharedCache, rows: &[u32]) -> Vec<(u32, Option<Rc<Body>>)> {
    let mut out = Vec::with_capacity(rows.len());
    let mut missing = Vec::new();
    for &r in rows {
        match cache.borrow_mut().get(r) {
            Some(b) => out.push((r, Some(b))),
            None => missing.push(r),
        }
    }
    missing.sort_by_key(|&r| ix.rows[r as usize].offset);
    for run in runs(ix, &missing) {
        let (first, last) = (&ix.rows[run[0] as usize], &ix.rows[run[run.len() - 1] as usize]);
        let (start, end) = (first.offset, last.end_offset());
        let read = match end <= head.len() as u64 {
            true => None,
            false => read_range(blob, start, end).await,
        };
        let bytes = match end <= head.len() as u64 {
            true => head.get(start as usize..end as usize),
            false => read.as_deref(),
        };
        for &r in run {
            let row = &ix.rows[r as usize];
            let line = bytes.and_then(|b| b.get((row.offset - start) as usize..(row.end_offset() - start) as usize));
            let body = line.and_then(Body::parse).map(Rc::new);
            if let Some(b) = &body {
                cache.borrow_mut().put(r, b.clone(), row.len_bytes);
            }
            out.push((r, body));
        }
    }
    out
}

/// Splits `rows` (in file order) into runs that one read can cover.
fn runs<'a>(ix: &Index, rows: &'a [u32]) -> Vec<&'a [u32]> {
    let mut out = Vec::new();
    let mut from = 0;
    for k in 1..=rows.len() {
        let split = k == rows.len() || {
            let (start, prev_end) = (ix.rows[rows[from] as usize].offset, ix.rows[rows[k - 1] as usize].end_offset());
            let next = &ix.rows[rows[k] as usize];
            next.offset > prev_end + MERGE_GAP_BYTES || next.end_offset() - start > MERGE_MAX_BYTES
        };
        if split {
            out.push(&rows[from..k]);
            from = k;
        }
    }
    out
}

/// The bytes `[start, end)` of `blob`.
pub async fn read_range(blob: &Blob, start: u64, end: u64) -> Option<Vec<u8>> {
    let slice = blob.slice_with_f64_and_f64(start as f64, end as f64).ok()?;
    let ab = JsFuture::from(slice.array_buffer()).await.ok()?;
    Some(Uint8Array::new(&ab).to_vec())
}
