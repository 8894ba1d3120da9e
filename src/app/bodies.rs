//! Bodies on demand: a row's line is read back with `Blob.slice(offset,
//! offset + len)` and parsed only when its item is on screen, into a small
//! bounded cache. A 1.3 MB image line costs nothing until it is shown.

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

/// Reads and parses `rows` (cached ones are not read again). A row that
/// cannot be read or parsed comes back as `None`.
pub async fn fetch(blob: &Blob, ix: &Index, cache: &SharedCache, rows: &[u32]) -> Vec<(u32, Option<Rc<Body>>)> {
    let mut out = Vec::with_capacity(rows.len());
    for &r in rows {
        if let Some(b) = cache.borrow_mut().get(r) {
            out.push((r, Some(b)));
            continue;
        }
        let row = &ix.rows[r as usize];
        let body = read_range(blob, row.offset, row.end_offset()).await.and_then(|bytes| Body::parse(&bytes)).map(Rc::new);
        if let Some(b) = &body {
            cache.borrow_mut().put(r, b.clone(), row.len_bytes);
        }
        out.push((r, body));
    }
    out
}

/// The bytes `[start, end)` of `blob`.
pub async fn read_range(blob: &Blob, start: u64, end: u64) -> Option<Vec<u8>> {
    let slice = blob.slice_with_f64_and_f64(start as f64, end as f64).ok()?;
    let ab = JsFuture::from(slice.array_buffer()).await.ok()?;
    Some(Uint8Array::new(&ab).to_vec())
}
