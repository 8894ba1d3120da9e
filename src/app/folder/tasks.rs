//! The folder's background work, done by the reading worker: summing up
//! every conversation (the survey) and searching across the folder. Each
//! reports back as app actions; cancelling stops it in the worker at once.

use std::rc::Rc;

use js_sys::Array;
use yew::Callback;

use crate::app::files::Files;
use crate::app::task::{Cancel, Throttle};
use crate::app::worker::{Client, Job, Reply, WorkerError};
use crate::ui::folder::{FileHits, Folder, Scope, Slot};
use crate::ui::state::Action;

/// The `File`s of `entries`, in that order.
fn blobs(folder: &Folder, files: &Files, entries: impl Iterator<Item = u32>) -> Array {
    let out = Array::new();
    for e in entries {
        if let Some(b) = folder.files.get(e as usize).and_then(|&id| files.get(id)) {
            out.push(&b);
        }
    }
    out
}

fn stop_on_cancel(cancel: &Cancel, client: &Client, job: &Job) {
    let (client, id) = (client.clone(), job.id());
    cancel.on_cancel(move || client.cancel(id));
}

fn unavailable(what: &str, e: &WorkerError) -> Action {
    Action::Notice(format!("{what}: the page's file reader is not available ({e}). File names and sizes are shown; open a conversation to read it.").into())
}

/// Sums up every conversation of `folder`, most recently modified first.
/// Summaries reach the page in batches (at most every `PROGRESS_MS`): one
/// render for many conversations, not one each.
pub async fn survey(folder: Rc<Folder>, files: Files, client: Client, send: Callback<Action>, cancel: Cancel) {
    // The list first: names and sizes are on screen before the worker is asked.
    crate::app::task::yield_to_page().await;
    if cancel.is_cancelled() {
        return;
    }
    let all = blobs(&folder, &files, 0..folder.tree.entries.len() as u32);
    let mut job = match client.survey(&folder.tree, &all, folder.survey_order()) {
        Ok(j) => j,
        Err(e) => return send.emit(unavailable("The conversations' facts cannot be filled in", &e)),
    };
    stop_on_cancel(&cancel, &client, &job);
    let (mut batch, mut done_bytes, mut throttle) = (Vec::new(), 0, Throttle::new());
    loop {
        let reply = job.next().await;
        if cancel.is_cancelled() {
            return;
        }
        let end = match reply {
            Ok(Reply::Summary { conversation, facts }) => {
                batch.push((conversation, Slot::Ready(Rc::new(*facts))));
                false
            }
            Ok(Reply::SummaryFailed { conversation, message }) => {
                batch.push((conversation, Slot::Failed(message.into())));
                false
            }
            Ok(Reply::Progress(bytes)) => {
                done_bytes = bytes;
                false
            }
            Ok(Reply::Done) => true,
            Ok(_) => false,
            Err(e) => {
                send.emit(Action::Summaries(std::mem::take(&mut batch)));
                return send.emit(unavailable("The conversations' facts could not all be filled in", &e));
            }
        };
        if throttle.due(end) {
            send.emit(Action::Summaries(std::mem::take(&mut batch)));
            send.emit(Action::SurveyProgress { done_bytes });
        }
        if end {
            crate::app::task::mark_memory("survey-done");
            return send.emit(Action::SurveyDone);
        }
    }
}

/// Searches the files of `scope` for `query`, hits streaming back in batches.
pub async fn search(folder: Rc<Folder>, files: Files, client: Client, query: Rc<str>, scope: Scope, send: Callback<Action>, cancel: Cancel) {
    let entries = folder.search_entries(scope);
    let total_bytes = entries.iter().map(|&e| folder.tree.entry(e).size_bytes).sum();
    send.emit(Action::FolderSearchStart { query: query.clone(), scope, total_bytes });
    let serial = folder.search.serial + 1;
    let arr = blobs(&folder, &files, entries.iter().copied());
    let mut job = match client.search(&query, &arr, entries) {
        Ok(j) => j,
        Err(e) => return send.emit(unavailable("The folder cannot be searched", &e)),
    };
    stop_on_cancel(&cancel, &client, &job);
    let (mut batch, mut done_bytes, mut throttle) = (Vec::new(), 0, Throttle::new());
    loop {
        let reply = job.next().await;
        if cancel.is_cancelled() {
            return;
        }
        let end = match reply {
            Ok(Reply::Hits { key, matches, hits }) => {
                batch.push(FileHits { entry: key, matches, hits });
                false
            }
            Ok(Reply::Progress(bytes)) => {
                done_bytes = bytes;
                false
            }
            Ok(Reply::Done) => true,
            Ok(_) => false,
            Err(e) => return send.emit(unavailable("The search stopped", &e)),
        };
        if throttle.due(end) {
            send.emit(Action::FolderSearchHits { serial, hits: std::mem::take(&mut batch) });
            send.emit(Action::FolderSearchProgress { serial, done_bytes });
        }
        if end {
            return send.emit(Action::FolderSearchDone { serial });
        }
    }
}
