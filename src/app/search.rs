//! The search task of the conversation view: a `Find` job of the reading
//! worker (or, without one, the same job on the page), which matches the
//! file's raw bytes chunk by chunk (`state::search::Matcher`: its rules and
//! the carry across chunk edges) and streams back where each match starts.
//! The page never scans the file itself; a newer query cancels the job.

use std::rc::Rc;

use web_sys::Blob;
use yew::UseReducerDispatcher;

use super::task::{self, Cancel};
use super::worker::{Client, Reply};
use crate::state::conversation::{Action, Search, Ui};

/// Runs the search `Ui::search` asks for; its answers carry the search's
/// serial (a newer search makes them stale), and `cancel` stops it in the
/// worker at once.
pub async fn run(client: Client, blob: Blob, serial: u64, query: Rc<str>, ui: UseReducerDispatcher<Ui>, cancel: Cancel) {
    let done = |offsets: Vec<u64>, matches: u64| ui.dispatch(Action::SearchDone { serial, offsets, matches });
    let mut job = match client.find(&query, &blob) {
        Ok(j) => j,
        // A request the reader cannot take: no match can be claimed.
        Err(_) => return done(Vec::new(), 0),
    };
    let (c, id) = (client.clone(), job.id());
    cancel.on_cancel(move || c.cancel(id));
    let (mut offsets, mut matches) = (Vec::new(), 0);
    let mut progress = task::throttle();
    loop {
        let reply = job.next().await;
        if cancel.is_cancelled() {
            return;
        }
        match reply {
            Ok(Reply::Offsets { offsets: more, matches: so_far }) => {
                offsets.extend(more);
                matches = so_far;
            }
            Ok(Reply::Progress(read_bytes)) => {
                if progress.due(false) {
                    ui.dispatch(Action::SearchProgress { serial, read_bytes });
                }
            }
            Ok(Reply::Done) => break,
            // A file that can no longer be read (or a reader that broke):
            // the matches found so far are what can be claimed.
            Ok(Reply::Failed(_)) | Err(_) => break,
            Ok(_) => {}
        }
    }
    done(offsets, matches);
}

/// The serial and query of the search under way, if one is.
pub fn running(search: &Search) -> Option<(u64, Rc<str>)> {
    match search {
        Search::Running { serial, query, .. } => Some((*serial, query.clone())),
        _ => None,
    }
}
