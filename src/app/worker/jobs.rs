//! What the reading worker does for the page: read and index one file, sum
//! up a folder's conversations, search files' raw bytes (for a folder: hits
//! with their strings; for the open file: where each match is). Each job
//! reports through its [`Out`] and checks its [`Cancel`] between chunks.
//!
//! The same jobs run on the page when no worker could start or it died
//! (`client`): there `Out` hands the replies straight to the waiting job.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use js_sys::Array;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::Blob;

use super::protocol::{FromWorker, JobId, ToWorker};
use crate::app::blob::{read_range, Chunks, ReadError, FIRST_CHUNK_BYTES};
use crate::app::task::{self, mark, mark_memory, Cancel};
use crate::folder::survey::Plan;
use crate::folder::{reads_needed, summarize, Meta, Parts, Prefetched, Run, Tree};
use crate::index::{Index, Indexer};
use crate::model::DEFAULT_IDLE_GAP_SECS;
use crate::state::search::{HitText, Matcher, HITS_PER_FILE};

/// The worker's reads: nothing else runs on its thread, so larger chunks
/// and more reads in flight keep the browser's file reading busy while the
/// indexer works (measured in `make bench-browser`).
const WORKER_CHUNK_BYTES: u64 = 8 << 20;
const WORKER_IN_FLIGHT: usize = 2;

/// Where a job's replies go: `postMessage` to the page, or (on the page) the job's channel.
pub type Out = Rc<dyn Fn(FromWorker)>;

/// Runs the job `msg` asks for until it ends or `cancel` is set.
pub async fn run(msg: ToWorker, cancel: Cancel, out: Out) {
    match msg {
        ToWorker::Read { id, blob, settled } => read(id, blob, settled, cancel, out).await,
        ToWorker::Survey { id, tree, files, order, keep } => survey(id, tree, files, order, keep, cancel, out).await,
        ToWorker::Search { id, query, files, keys } => search(id, query, files, keys, cancel, out).await,
        ToWorker::Find { id, query, blob } => find(id, query, blob, cancel, out).await,
        ToWorker::Walk { id, dir } => walk(id, dir, cancel, out).await,
        ToWorker::Cancel { .. } => {}
    }
}

/// A job stopped early.
type Stop = task::Stop<ReadError>;

/// Reads and indexes `blob`; `on_chunk(start, bytes)` sees each chunk first.
async fn index_blob(blob: &Blob, cancel: &Cancel, on_chunk: impl FnMut(u64, &[u8])) -> Result<(Index, Vec<u8>), Stop> {
    let (ix, head) = indexer_of(blob, cancel, on_chunk).await?;
    Ok((ix.finish(), head))
}

/// [`index_blob`]'s indexer at the end of the file, not yet finished.
async fn indexer_of(blob: &Blob, cancel: &Cancel, mut on_chunk: impl FnMut(u64, &[u8])) -> Result<(Indexer, Vec<u8>), Stop> {
    let mut chunks = Chunks::file(blob, WORKER_CHUNK_BYTES, WORKER_IN_FLIGHT);
    let mut ix = Indexer::new();
    let (mut buf, mut head) = (Vec::new(), Vec::new());
    while let Some(start) = chunks.next(&mut buf).await.map_err(Stop::Failed)? {
        if cancel.is_cancelled() {
            return Err(Stop::Cancelled);
        }
        if start == 0 {
            head.extend_from_slice(&buf[..buf.len().min(FIRST_CHUNK_BYTES as usize)]);
        }
        on_chunk(start, &buf);
        ix.push(&buf);
    }
    Ok((ix, head))
}

/// Reads and indexes one file for the page's view (`settled`: a followed
/// file, its unended last line left out).
async fn read(id: JobId, blob: Blob, settled: bool, cancel: Cancel, out: Out) {
    mark("worker-read-start");
    let size = blob.size() as u64;
    let mut progress = task::throttle();
    let outcome = indexer_of(&blob, &cancel, |start, buf| {
        let read_bytes = start + buf.len() as u64;
        if progress.due(read_bytes == size) {
            out(FromWorker::Progress { id, read_bytes });
        }
    })
    .await;
    match outcome {
        Ok((ix, _)) => {
            let index = if settled { ix.into_settled() } else { ix.finish() };
            let pieces = super::pieces::encode(&index);
            drop(index);
            mark_memory("worker-read-end");
            out(FromWorker::Indexed { id, pieces });
        }
        Err(Stop::Cancelled) => mark("worker-read-cancelled"),
        Err(Stop::Failed(e)) => out(FromWorker::Failed { id, message: e.to_string() }),
    }
}

/// The `File` of entry `entry`.
fn blob_at(files: &Array, entry: u32) -> Option<Blob> {
    files.get(entry).dyn_into::<Blob>().ok()
}

/// Bytes `[start, end)` of entry `entry` (`end` past the file: to its end),
/// from `head` (the file's first bytes, already read) when they lie in it.
async fn fetch(files: &Array, entry: u32, start: u64, end: u64, head: Option<(u32, &[u8])>) -> Option<Vec<u8>> {
    if let Some((_, bytes)) = head.filter(|(e, b)| *e == entry && end <= b.len() as u64) {
        return bytes.get(start as usize..end as usize).map(<[u8]>::to_vec);
    }
    let blob = blob_at(files, entry)?;
    read_range(&blob, start, end.min(blob.size() as u64)).await.ok()
}

/// A run from its file and meta sidecar; `None` if it could not be read.
async fn run_of(files: &Array, agent_id: &str, jsonl: u32, meta: Option<u32>, cancel: &Cancel) -> Result<Option<Run>, Stop> {
    let Ok(blob) = files.get(jsonl).dyn_into::<Blob>() else { return Ok(None) };
    let (ix, head) = match index_blob(&blob, cancel, |_, _| {}).await {
        Ok(x) => x,
        Err(Stop::Failed(_)) => return Ok(None),
        Err(stop) => return Err(stop),
    };
    let meta = match meta {
        Some(m) => fetch(files, m, 0, u64::MAX, None).await.map(|b| Meta::parse(&b)),
        None => None,
    };
    Ok(Some(Run::from_index(agent_id, jsonl, &ix, &head, meta)))
}

/// Files worked on at once by a survey or a search: while one waits for the
/// browser's reads, the other is indexed (one at a time left the worker idle
/// between files; measured in `make bench-browser`).
const LANES: usize = 2;

/// Runs `lane` `LANES` times at once, each taking the next item of `items`.
async fn in_lanes<T, F: std::future::Future<Output = Result<(), Stop>>>(items: Vec<T>, lane: impl Fn(T) -> F) -> Result<(), Stop> {
    let queue = RefCell::new(items.into_iter());
    let next = || queue.borrow_mut().next();
    let one = || async {
        while let Some(item) = next() {
            lane(item).await?;
        }
        Ok(())
    };
    let results = futures::future::join_all((0..LANES).map(|_| one())).await;
    results.into_iter().collect()
}

/// Sums up the conversations of `tree` in `order`, one message each.
async fn survey(id: JobId, tree: Tree, files: Array, order: Vec<u32>, keep: Vec<u32>, cancel: Cancel, out: Out) {
    let legacy: RefCell<HashMap<u32, Rc<Vec<Run>>>> = RefCell::default();
    let done_bytes = Cell::new(0u64);
    let progress = RefCell::new(task::throttle());
    let (tree, keep) = (&tree, &keep);
    let lane = |k: u32| {
        let (legacy, done_bytes, progress, cancel, files, out) = (&legacy, &done_bytes, &progress, &cancel, &files, &out);
        async move {
            let Some(plan) = Plan::of(tree, k) else { return Ok(()) };
            let c = &tree.conversations[k as usize];
            let outcome: Result<(), Stop> = async {
                // The project's legacy runs: read by the first of its conversations, kept for the others.
                let known = legacy.borrow().get(&plan.project).cloned();
                let project_runs = match known {
                    Some(runs) => runs,
                    None => {
                        let mut runs = Vec::new();
                        for (agent_id, e) in plan.legacy {
                            runs.extend(run_of(files, agent_id, *e, None, cancel).await?);
                        }
                        done_bytes.set(done_bytes.get() + plan.legacy_bytes(tree));
                        let runs = Rc::new(runs);
                        legacy.borrow_mut().insert(plan.project, runs.clone());
                        runs
                    }
                };
                let mut runs = Vec::new();
                for r in plan.runs {
                    runs.extend(run_of(files, &r.agent_id, r.jsonl, r.meta, cancel).await?);
                }
                let blob: Blob = files.get(plan.entry).dyn_into().map_err(|_| Stop::Failed(ReadError::NotPicked))?;
                let (ix, head) = match keep.contains(&k) {
                    true => super::tails::grown(&c.path, &blob, cancel).await?,
                    false => index_blob(&blob, cancel, |_, _| {}).await?,
                };
                // The few small reads a summary makes (title rows, cwd, the
                // deletion marker), fetched without blocking the worker: most
                // lie in the file's head, which is in memory already.
                let mut fetched = Vec::new();
                for key @ (entry, start, end) in reads_needed(c, &ix, &runs) {
                    if let Some(bytes) = fetch(files, entry, start, end, Some((plan.entry, &head))).await {
                        fetched.push((key, bytes));
                    }
                }
                let parts = Parts { ix: &ix, head: &head, runs, legacy: &project_runs, idle_gap_secs: DEFAULT_IDLE_GAP_SECS };
                let facts = summarize(tree, c, parts, &mut Prefetched(fetched));
                out(FromWorker::Summary { id, conversation: k, facts: Box::new(facts) });
                Ok(())
            }
            .await;
            done_bytes.set(done_bytes.get() + plan.own_bytes(tree));
            match outcome {
                // A followed conversation's read can fail while it is being
                // written: it is summed again when the folder, listed again,
                // shows it changed (no failure is said, and the worker stays).
                Err(Stop::Failed(_)) if keep.contains(&k) => {}
                Err(Stop::Failed(e)) => out(FromWorker::SummaryFailed { id, conversation: k, message: e.to_string() }),
                other => other?,
            }
            if progress.borrow_mut().due(false) {
                out(FromWorker::Progress { id, read_bytes: done_bytes.get() });
            }
            Ok(())
        }
    };
    if in_lanes(order, lane).await.is_err() {
        return;
    }
    mark_memory("worker-survey-end");
    out(FromWorker::Progress { id, read_bytes: done_bytes.get() });
    out(FromWorker::Done { id });
}

/// Searches each of `files` for `query`; hits come back per file, keyed.
async fn search(id: JobId, query: String, files: Array, keys: Vec<u32>, cancel: Cancel, out: Out) {
    if query.is_empty() {
        return out(FromWorker::Done { id });
    }
    let done_bytes = Cell::new(0u64);
    let progress = RefCell::new(task::throttle());
    let needle_len = query.len();
    let items: Vec<(JsValue, u32)> = files.iter().zip(keys).collect();
    let lane = |(file, key): (JsValue, u32)| {
        let (done_bytes, progress, cancel, query, out) = (&done_bytes, &progress, &cancel, &query, &out);
        async move {
            let Ok(blob) = file.dyn_into::<Blob>() else { return Ok(()) };
            let Some(mut m) = Matcher::keeping(query, true, HITS_PER_FILE) else { return Ok(()) };
            let mut chunks = Chunks::file(&blob, WORKER_CHUNK_BYTES, WORKER_IN_FLIGHT);
            let mut buf = Vec::new();
            // An unreadable file has no match to report; the others go on.
            while let Ok(Some(_)) = chunks.next(&mut buf).await {
                if cancel.is_cancelled() {
                    return Err(Stop::Cancelled);
                }
                m.feed(&buf);
                done_bytes.set(done_bytes.get() + buf.len() as u64);
                if progress.borrow_mut().due(false) {
                    out(FromWorker::Progress { id, read_bytes: done_bytes.get() });
                }
            }
            let found = m.finish();
            if found.matches > 0 {
                let hits = found.hits.iter().map(|h| HitText::of(h, needle_len)).collect();
                out(FromWorker::Hits { id, key, matches: found.matches, hits });
            }
            Ok(())
        }
    };
    if in_lanes(items, lane).await.is_err() {
        return;
    }
    out(FromWorker::Progress { id, read_bytes: done_bytes.get() });
    out(FromWorker::Done { id });
}

/// Matches of `query` in the open file, streamed a chunk at a time
/// (`Offsets`: where each match starts, ascending), then `Done` — the
/// conversation view's search, off the page's thread.
async fn find(id: JobId, query: String, blob: Blob, cancel: Cancel, out: Out) {
    let Some(mut m) = Matcher::new(&query, false) else { return out(FromWorker::Done { id }) };
    let size = blob.size() as u64;
    let mut chunks = Chunks::file(&blob, WORKER_CHUNK_BYTES, WORKER_IN_FLIGHT);
    let mut buf = Vec::new();
    let mut sent = 0;
    let mut progress = task::throttle();
    loop {
        match chunks.next(&mut buf).await {
            Ok(Some(start)) => {
                if cancel.is_cancelled() {
                    return;
                }
                m.feed(&buf);
                let hits = m.hits();
                if hits.len() > sent {
                    out(FromWorker::Offsets { id, offsets: hits[sent..].iter().map(|h| h.offset).collect(), matches: m.matches() });
                    sent = hits.len();
                }
                let read_bytes = start + buf.len() as u64;
                if progress.due(read_bytes == size) {
                    out(FromWorker::Progress { id, read_bytes });
                }
            }
            Ok(None) => break,
            Err(e) => return out(FromWorker::Failed { id, message: e.to_string() }),
        }
    }
    out(FromWorker::Offsets { id, offsets: Vec::new(), matches: m.matches() });
    out(FromWorker::Done { id });
}

/// Files a walk reports at a time.
const WALK_BATCH: usize = 500;

/// Lists the folder of handle `dir` (its entries' `values()`, folders
/// depth-first): each file's `File`, handle and path from the folder's name
/// down, in batches. Nothing is read but names, sizes and dates.
async fn walk(id: JobId, dir: JsValue, cancel: Cancel, out: Out) {
    use crate::app::handles::{call, get};
    let (mut files, mut handles, mut paths, mut unreadable) = (Array::new(), Array::new(), Vec::new(), Vec::new());
    let mut found = 0u64;
    let mut stack = vec![(crate::app::handles::name(&dir), dir)];
    let mut pending: Vec<(String, JsValue)> = Vec::new();
    let flush = |files: &mut Array, handles: &mut Array, paths: &mut Vec<String>, unreadable: &mut Vec<String>| {
        out(FromWorker::Listed { id, files: std::mem::replace(files, Array::new()), handles: std::mem::replace(handles, Array::new()), paths: std::mem::take(paths), unreadable: std::mem::take(unreadable) });
    };
    while let Some((path, d)) = stack.pop() {
        let Ok(entries) = call(&d, "values", &[]).await else {
            unreadable.push(path);
            continue;
        };
        loop {
            if cancel.is_cancelled() {
                return;
            }
            let step = match call(&entries, "next", &[]).await {
                Ok(s) => s,
                Err(_) => {
                    unreadable.push(path.clone());
                    break;
                }
            };
            if get(&step, "done").as_bool() == Some(true) {
                break;
            }
            let h = get(&step, "value");
            let child = format!("{path}/{}", crate::app::handles::name(&h));
            if crate::app::handles::is_folder(&h) {
                stack.push((child, h));
            } else {
                pending.push((child, h));
            }
        }
        // A folder's files asked for all at once (one by one, each waits
        // for the browser's answer: 881 files took 0.9 s).
        for batch in std::mem::take(&mut pending).chunks(WALK_BATCH) {
            let got = crate::app::handles::files_of(batch.iter().map(|(_, h)| h)).await;
            for ((child, h), f) in batch.iter().zip(got) {
                match f {
                    Some(f) => {
                        files.push(&f);
                        handles.push(h);
                        paths.push(child.clone());
                        found += 1;
                    }
                    None => unreadable.push(child.clone()),
                }
            }
            if paths.len() >= WALK_BATCH {
                flush(&mut files, &mut handles, &mut paths, &mut unreadable);
                out(FromWorker::Progress { id, read_bytes: found });
            }
        }
    }
    flush(&mut files, &mut handles, &mut paths, &mut unreadable);
    out(FromWorker::Progress { id, read_bytes: found });
    out(FromWorker::Done { id });
}
