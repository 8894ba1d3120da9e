//! Bodies on demand: a row's line is read back by byte range and parsed
//! only when its item is on screen, into the bounded cache. A 1.3 MB image
//! line costs nothing until it is shown. Lines inside the file's head (the
//! first chunk, which the page holds anyway) are taken from it: the first
//! screen of a file costs no read while the worker is still reading it.
//! While redaction is on, a body is redacted as it is parsed.

use std::rc::Rc;

use super::blob::read_range;
use super::task::yield_to_page;
use super::ctx::Ctx;
use crate::model::body::Body;
use crate::state::ranges::{line_in, plan};
use crate::state::redact::Redactor;

/// A read this big is parsed in a task of its own.
const LARGE_READ_BYTES: u64 = 1 << 20;

/// Redacts every string of `body` the page may show, whole, before
/// anything cuts, joins or marks it.
pub fn redact(body: &mut Body, r: &mut Redactor) {
    body.map_strings(&mut |s| match r.redact(s) {
        std::borrow::Cow::Owned(o) => Some(o),
        std::borrow::Cow::Borrowed(_) => None,
    });
}

/// Reads and parses `rows` as written — not redacted, not cached — for
/// matching names against the picked files (a plan file's name). The caller
/// redacts whatever of them it shows.
pub async fn fetch_unredacted(ctx: &Ctx, rows: &[u32]) -> crate::index::FxHashMap<u32, Body> {
    let ix = ctx.ix();
    let mut out = crate::index::FxHashMap::default();
    for &r in rows {
        let row = &ix.rows[r as usize];
        let Ok(bytes) = read_range(&ctx.blob, row.offset, row.end_offset()).await else { continue };
        if let Some(b) = Body::parse(&bytes) {
            out.insert(r, b);
        }
    }
    out
}

/// [`fetch`], keeping the rows that could be read, by row.
pub async fn fetch_map(ctx: &Ctx, rows: &[u32]) -> crate::index::FxHashMap<u32, Rc<Body>> {
    fetch(ctx, rows).await.into_iter().filter_map(|(r, b)| Some((r, b?))).collect()
}

/// Reads and parses `rows` (cached ones are not read again). A row that
/// cannot be read or parsed comes back as `None`.
pub async fn fetch(ctx: &Ctx, rows: &[u32]) -> Vec<(u32, Option<Rc<Body>>)> {
    let ix = ctx.ix();
    let mut out = Vec::with_capacity(rows.len());
    let mut missing = Vec::new();
    for &r in rows {
        match ctx.cache.borrow_mut().get(r) {
            Some(b) => out.push((r, Some(b))),
            None => missing.push(r),
        }
    }
    crate::sort::by_key(&mut missing, |&r| ix.rows[r as usize].offset);
    let head = &ctx.doc.head;
    for read in plan(ix, &missing, head.len() as u64) {
        let bytes = if read.from_head { None } else { read_range(&ctx.blob, read.start, read.end).await.ok() };
        // A big read is parsed in a task of its own (the page draws a frame
        // first), and not at all when another reader put it in the cache
        // meanwhile: a 40 MB prompt is parsed once, never twice in one task.
        if read.end - read.start > LARGE_READ_BYTES {
            yield_to_page().await;
        }
        let (base, held): (u64, Option<&[u8]>) = if read.from_head { (0, Some(head)) } else { (read.start, bytes.as_deref()) };
        for &r in &missing[read.rows] {
            if let Some(b) = ctx.cache.borrow_mut().get(r) {
                out.push((r, Some(b)));
                continue;
            }
            let row = &ix.rows[r as usize];
            let body = held.and_then(|b| line_in(base, b, (row.offset, row.end_offset()))).and_then(Body::parse).map(|mut b| {
                if let Some(r) = &ctx.redactor {
                    redact(&mut b, &mut r.borrow_mut());
                }
                Rc::new(b)
            });
            if let Some(b) = &body {
                ctx.cache.borrow_mut().put(r, b.clone(), u64::from(row.len_bytes));
            }
            out.push((r, body));
        }
        // And its drawing in another: parsing and drawing a big body are two tasks.
        if read.end - read.start > LARGE_READ_BYTES {
            yield_to_page().await;
        }
    }
    out
}
