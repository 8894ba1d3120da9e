//! The folder's background work, done by the reading worker: summing up
//! every conversation (the survey) and searching across the folder. Each
//! reports back as app actions; cancelling stops it in the worker at once.

use std::rc::Rc;

use js_sys::Array;
use yew::Callback;

use crate::app::files::Files;
use crate::app::task::Cancel;
use crate::app::worker::{Client, Job, Reply, WorkerError};
use crate::ui::folder::{FileHits, Folder, Scope};
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
pub async fn survey(folder: Rc<Folder>, files: Files, client: Client, send: Callback<Action>, cancel: Cancel) {
    let all = blobs(&folder, &files, 0..folder.tree.entries.len() as u32);
    let mut job = match client.survey(&folder.tree, &all, folder.survey_order()) {
        Ok(j) => j,
        Err(e) => return send.emit(unavailable("The conversations' facts cannot be filled in", &e)),
    };
    stop_on_cancel(&cancel, &client, &job);
    loop {
        let reply = job.next().await;
        if cancel.is_cancelled() {
            return;
        }
        match reply {
            Ok(Reply::Summary { conversation, facts }) => send.emit(Action::Summary { conv: conversation, facts: Rc::new(*facts) }),
            Ok(Reply::SummaryFailed { conversation, message }) => send.emit(Action::SummaryFailed { conv: conversation, message: message.into() }),
            Ok(Reply::Progress(done_bytes)) => send.emit(Action::SurveyProgress { done_bytes }),
            Ok(Reply::Done) => return send.emit(Action::SurveyDone),
            Ok(_) => {}
            Err(e) => return send.emit(unavailable("The conversations' facts could not all be filled in", &e)),
        }
    }
}

/// Searches the files of `scope` for `query`, streaming hits back.
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
    loop {
        let reply = job.next().await;
        if cancel.is_cancelled() {
            return;
        }
        match reply {
            Ok(Reply::Hits { key, matches, hits }) => send.emit(Action::FolderSearchHits { serial, hits: FileHits { entry: key, matches, hits } }),
            Ok(Reply::Progress(done_bytes)) => send.emit(Action::FolderSearchProgress { serial, done_bytes }),
            Ok(Reply::Done) => return send.emit(Action::FolderSearchDone { serial }),
            Ok(_) => {}
            Err(e) => return send.emit(unavailable("The search stopped", &e)),
        }
    }
}
