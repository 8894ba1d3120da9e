//! The search task of the conversation view: the file's raw bytes read
//! again chunk by chunk and matched by [`Matcher`] (its rules, and the
//! carry across chunk edges, live in `ui::search`).

use std::rc::Rc;

use web_sys::Blob;
use yew::UseReducerDispatcher;

use super::blob::{Chunks, CHUNK_BYTES};
use super::task::{Cancel, Throttle};
use crate::state::search::Matcher;
use crate::state::conversation::{Action, Search, Ui};

/// Runs the search `ui.search` asks for; its answers carry the search's
/// serial (a newer search makes them stale), and `cancel` stops it at its
/// next chunk.
pub async fn run(blob: Blob, serial: u64, query: Rc<str>, ui: UseReducerDispatcher<Ui>, cancel: Cancel) {
    let Some(mut m) = Matcher::new(&query, false) else {
        ui.dispatch(Action::SearchDone { serial, offsets: Vec::new(), matches: 0 });
        return;
    };
    let size = blob.size() as u64;
    let mut chunks = Chunks::range(&blob, 0, size, CHUNK_BYTES, 1);
    let mut buf = Vec::new();
    let mut progress = Throttle::new();
    loop {
        match chunks.next(&mut buf).await {
            Ok(Some(start)) => {
                if cancel.is_cancelled() {
                    return;
                }
                m.feed(&buf);
                let read_bytes = start + buf.len() as u64;
                if progress.due(read_bytes == size) {
                    ui.dispatch(Action::SearchProgress { serial, read_bytes });
                }
            }
            Ok(None) => break,
            // A file that can no longer be read: no match can be claimed.
            Err(_) => break,
        }
    }
    let found = m.finish();
    ui.dispatch(Action::SearchDone { serial, offsets: found.hits.iter().map(|h| h.offset).collect(), matches: found.matches });
}

/// The serial and query of the search under way, if one is.
pub fn running(search: &Search) -> Option<(u64, Rc<str>)> {
    match search {
        Search::Running { serial, query, .. } => Some((*serial, query.clone())),
        _ => None,
    }
}
