//! The folder's background work, done by the reading worker: summing up
//! every conversation (the survey) and searching across the folder. Each
//! reports back as app actions; cancelling stops it in the worker at once.

use std::rc::Rc;

use js_sys::Array;
use yew::Callback;

use crate::app::files::Files;
use crate::app::task::Cancel;
use crate::app::worker::{Client, Job, Reply, WorkerError};
use crate::folder::Tree;
use crate::state::browser::{FileHits, Browser, Scope, Slot};
use crate::state::FileId;
use crate::state::state::Action;

/// The `File`s of `entries`, in that order.
fn blobs(folder: &Browser, files: &Files, entries: impl Iterator<Item = u32>) -> Array {
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

/// How often, at most, a survey's facts are handed to the page. Each
/// hand-over lays out and paints the whole list again (50-160 ms of the
/// page's thread in Chromium for the bench's 300 conversations, ~250 ms in
/// WebKit, however few facts arrived): at the progress bar's 100 ms the page
/// spent most of a survey drawing the list (`make bench-browser`). Slower
/// drawing spaces them further ([`Handing::Paced`]).
const SURVEY_FLUSH_MS: f64 = 400.0;

/// The longest wait for a hand-over's frame to be drawn, when measuring it.
const DRAWN_LIMIT_MS: u32 = 1000;

/// How often [`pump`] hands its state to the page.
#[derive(Clone, Copy)]
enum Handing {
    /// At most every so many milliseconds.
    Every(f64),
    /// At most every so many milliseconds, and further apart when drawing
    /// the last hand-over took long ([`crate::state::pace::paced_ms`]).
    Paced(f64),
}

/// Takes a job's replies until `Done`: `take` files each reply into
/// `state`, `flush` hands the state to the page as `handing` says and at
/// the end (one render for many replies, not one each). `Ok(false)`:
/// cancelled.
async fn pump<S>(job: &mut Job, cancel: &Cancel, state: &mut S, handing: Handing, take: impl Fn(&mut S, Reply), flush: impl Fn(&mut S)) -> Result<bool, WorkerError> {
    use crate::app::task::{frame_drawn, now_ms};
    let (Handing::Every(floor_ms) | Handing::Paced(floor_ms)) = handing;
    let mut throttle = crate::app::task::Throttle::new(floor_ms, now_ms);
    loop {
        let reply = job.next().await;
        if cancel.is_cancelled() {
            return Ok(false);
        }
        let reply = reply?;
        let end = matches!(reply, Reply::Done);
        if !end {
            take(state, reply);
        }
        if throttle.due(end) {
            flush(state);
            if let (Handing::Paced(_), false) = (handing, end) {
                // Replies that come meanwhile wait in the job's queue; the worker goes on.
                let handed_ms = now_ms();
                if frame_drawn(DRAWN_LIMIT_MS).await {
                    throttle.set_every_ms(crate::state::pace::paced_ms(floor_ms, now_ms() - handed_ms));
                }
            }
        }
        if end {
            return Ok(true);
        }
    }
}

/// Sums up every conversation of `folder`, most recently modified first;
/// those in `keep` are followed (the worker keeps their indexers).
pub async fn survey(folder: Rc<Browser>, files: Files, client: Client, send: Callback<Action>, cancel: Cancel, keep: Vec<u32>) {
    // The list first: names and sizes are on screen before the worker is asked.
    crate::app::task::yield_to_page().await;
    if cancel.is_cancelled() {
        return;
    }
    let all = blobs(&folder, &files, 0..folder.tree.entries.len() as u32);
    let mut job = match client.survey(&folder.tree, &all, folder.survey_order(), keep) {
        Ok(j) => j,
        Err(e) => return send.emit(unavailable("The conversations' facts cannot be filled in", &e)),
    };
    stop_on_cancel(&cancel, &client, &job);
    let mut state: (Vec<(u32, Slot)>, u64) = (Vec::new(), 0);
    let take = |(batch, done_bytes): &mut (Vec<(u32, Slot)>, u64), reply| match reply {
        Reply::Summary { conversation, facts } => batch.push((conversation, Slot::Ready(Rc::new(*facts)))),
        Reply::SummaryFailed { conversation, message } => batch.push((conversation, Slot::Failed(message.into()))),
        Reply::Progress(bytes) => *done_bytes = bytes,
        _ => {}
    };
    let flush = |(batch, done_bytes): &mut (Vec<(u32, Slot)>, u64)| {
        send.emit(Action::Summaries(std::mem::take(batch)));
        send.emit(Action::SurveyProgress { done_bytes: *done_bytes });
    };
    match pump(&mut job, &cancel, &mut state, Handing::Paced(SURVEY_FLUSH_MS), take, flush).await {
        Ok(true) => {
            crate::app::task::mark_memory("survey-done");
            send.emit(Action::SurveyDone);
        }
        Ok(false) => {}
        Err(e) => {
            send.emit(Action::Summaries(state.0));
            send.emit(unavailable("The conversations' facts could not all be filled in", &e));
        }
    }
}

/// A followed folder's conversations `order` (new or changed) summed again,
/// from where they grew (the worker kept their indexers); their facts are
/// sent as they come, with no survey progress (the list is on screen).
/// Those that came back (a read can fail while a file is being written:
/// the worker then says nothing, and the caller tries again).
pub async fn resum(tree: &Tree, ids: &[FileId], files: &Files, client: &Client, send: &Callback<Action>, cancel: &Cancel, order: Vec<u32>) -> Vec<u32> {
    let all = Array::new();
    for id in ids {
        if let Some(b) = files.get(*id) {
            all.push(&b);
        }
    }
    let Ok(mut job) = client.survey(tree, &all, order.clone(), order) else { return Vec::new() };
    stop_on_cancel(cancel, client, &job);
    let mut state: (Vec<(u32, Slot)>, Vec<u32>) = (Vec::new(), Vec::new());
    let take = |(batch, answered): &mut (Vec<(u32, Slot)>, Vec<u32>), reply| match reply {
        Reply::Summary { conversation, facts } => {
            answered.push(conversation);
            batch.push((conversation, Slot::Ready(Rc::new(*facts))));
        }
        Reply::SummaryFailed { conversation, message } => {
            answered.push(conversation);
            batch.push((conversation, Slot::Failed(message.into())));
        }
        _ => {}
    };
    let flush = |(batch, _): &mut (Vec<(u32, Slot)>, Vec<u32>)| send.emit(Action::Summaries(std::mem::take(batch)));
    let _ = pump(&mut job, cancel, &mut state, Handing::Every(crate::app::task::PROGRESS_MS), take, flush).await;
    state.1
}

/// Searches the files of `scope` for `query`, hits streaming back in batches.
pub async fn search(folder: Rc<Browser>, files: Files, client: Client, query: Rc<str>, scope: Scope, send: Callback<Action>, cancel: Cancel) {
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
    let mut state: (Vec<FileHits>, u64) = (Vec::new(), 0);
    let take = |(batch, done_bytes): &mut (Vec<FileHits>, u64), reply| match reply {
        Reply::Hits { key, matches, hits } => batch.push(FileHits { entry: key, matches, hits }),
        Reply::Progress(bytes) => *done_bytes = bytes,
        _ => {}
    };
    let flush = |(batch, done_bytes): &mut (Vec<FileHits>, u64)| {
        send.emit(Action::FolderSearchHits { serial, hits: std::mem::take(batch) });
        send.emit(Action::FolderSearchProgress { serial, done_bytes: *done_bytes });
    };
    match pump(&mut job, &cancel, &mut state, Handing::Paced(crate::app::task::PROGRESS_MS), take, flush).await {
        Ok(true) => send.emit(Action::FolderSearchDone { serial }),
        Ok(false) => {}
        Err(e) => send.emit(unavailable("The search stopped", &e)),
    }
}
