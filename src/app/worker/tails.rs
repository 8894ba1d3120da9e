//! The indexers of a followed folder's growing conversations, kept in the
//! worker between surveys, so a conversation that grew is summed again from
//! where it grew: only the appended bytes are read ([`Tail`]). A file that
//! shrank or whose first bytes changed is read whole again. At most
//! [`KEPT`] are kept (the least recently summed goes first): a folder has
//! few conversations being written at once.

use std::cell::RefCell;
use std::collections::HashMap;

use web_sys::Blob;

use crate::app::blob::{read_range, Chunks, ReadError, FIRST_CHUNK_BYTES};
use crate::app::task::{Cancel, Stop};
use crate::index::follow::{Change, Tail};
use crate::index::Index;

/// Conversations whose indexers are kept.
const KEPT: usize = 64;
/// Bytes read at a time when a file is read whole.
const CHUNK_BYTES: u64 = 8 << 20;

struct Kept {
    tail: Tail,
    /// The file's first bytes, as a summary wants them.
    head: Vec<u8>,
    used: u64,
}

thread_local! {
    static TAILS: RefCell<(HashMap<String, Kept>, u64)> = RefCell::default();
}

/// Conversation `path`'s index as its file `blob` is now (its line still
/// being written left out) and its first bytes: from the kept indexer when
/// the file only grew, else read whole (and kept).
pub async fn grown(path: &str, blob: &Blob, cancel: &Cancel) -> Result<(Index, Vec<u8>), Stop<ReadError>> {
    let size = blob.size() as u64;
    let kept = TAILS.with(|t| t.borrow_mut().0.remove(path));
    let mut kept = match kept {
        Some(k) if !matches!(k.tail.change(size), Change::Restart(_)) => {
            let first = read_range(blob, 0, k.tail.head().len() as u64).await.map_err(Stop::Failed)?;
            k.tail.same_head(&first).then_some(k)
        }
        _ => None,
    }
    .unwrap_or_else(|| Kept { tail: Tail::default(), head: Vec::new(), used: 0 });
    let from = kept.tail.read_bytes();
    let mut chunks = Chunks::range(blob, from, size, CHUNK_BYTES, 2);
    let mut buf = Vec::new();
    while let Some(start) = chunks.next(&mut buf).await.map_err(Stop::Failed)? {
        if cancel.is_cancelled() {
            return Err(Stop::Cancelled);
        }
        if (kept.head.len() as u64) < FIRST_CHUNK_BYTES && start == kept.head.len() as u64 {
            let room = (FIRST_CHUNK_BYTES as usize - kept.head.len()).min(buf.len());
            kept.head.extend_from_slice(&buf[..room]);
        }
        kept.tail.push(&buf);
    }
    let out = (kept.tail.settled(), kept.head.clone());
    TAILS.with(|t| {
        let (map, clock) = &mut *t.borrow_mut();
        *clock += 1;
        kept.used = *clock;
        map.insert(path.to_string(), kept);
        if map.len() > KEPT {
            if let Some(oldest) = map.iter().min_by_key(|(_, k)| k.used).map(|(p, _)| p.clone()) {
                map.remove(&oldest);
            }
        }
    });
    Ok(out)
}
