//! What the worker does for the page: read and index one file, sum up a
//! folder's conversations, search files' raw bytes. Each reports through
//! [`post`] and checks its [`Cancel`] between chunks.

use std::collections::HashMap;

use js_sys::{Array, Uint8Array};
use wasm_bindgen::JsCast;
use web_sys::{Blob, FileReaderSync};

use super::protocol::{FromWorker, JobId};
use super::serve::post;
use crate::app::blob::{ReadError, Chunks, FIRST_CHUNK_BYTES};
use crate::app::task::{mark, mark_memory, Cancel, Throttle};
use crate::folder::{summarize, Meta, Parts, ReadAt, Run, Tree};
use crate::index::{Index, Indexer};
use crate::model::DEFAULT_IDLE_GAP_SECS;
use crate::ui::search::{HitText, Matcher};

/// The worker's reads: nothing else runs on its thread, so larger chunks
/// and more reads in flight keep the browser's file reading busy while the
/// indexer works (measured in `make bench-browser`).
const WORKER_CHUNK_BYTES: u64 = 8 << 20;
const WORKER_IN_FLIGHT: usize = 2;
/// Hits per file sent with their snippets (the count goes on).
const HITS_PER_FILE: usize = 50;

/// A job stopped early.
enum Stop {
    Cancelled,
    Failed(ReadError),
}

/// Reads and indexes `blob`; `on_chunk(start, bytes)` sees each chunk first.
async fn index_blob(blob: &Blob, cancel: &Cancel, mut on_chunk: impl FnMut(u64, &[u8])) -> Result<(Index, Vec<u8>), Stop> {
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
    Ok((ix.finish(), head))
}

/// Reads and indexes one file for the page's view.
pub async fn read(id: JobId, blob: Blob, cancel: Cancel) {
    mark("worker-read-start");
    let size = blob.size() as u64;
    let mut progress = Throttle::new();
    let outcome = index_blob(&blob, &cancel, |start, buf| {
        if start == 0 {
            // The page draws its preview from these (it need not read them again).
            post(FromWorker::First { id, bytes: Uint8Array::from(buf).buffer() });
        }
        let read_bytes = start + buf.len() as u64;
        if progress.due(read_bytes == size) {
            post(FromWorker::Progress { id, read_bytes });
        }
    })
    .await;
    match outcome {
        Ok((index, _)) => {
            let pieces = super::pieces::encode(&index);
            drop(index);
            mark_memory("worker-read-end");
            post(FromWorker::Indexed { id, pieces });
        }
        Err(Stop::Cancelled) => mark("worker-read-cancelled"),
        Err(Stop::Failed(e)) => post(FromWorker::Failed { id, message: e.0 }),
    }
}

/// Small reads of the picked files, done synchronously (a worker may:
/// title rows, meta and deletion sidecars are a few hundred bytes).
struct SyncReader<'a> {
    files: &'a Array,
    reader: Option<FileReaderSync>,
}

impl SyncReader<'_> {
    fn blob(&self, entry: u32) -> Option<Blob> {
        self.files.get(entry).dyn_into::<Blob>().ok()
    }

    fn read(&self, blob: &Blob) -> Option<Vec<u8>> {
        let ab = self.reader.as_ref()?.read_as_array_buffer(blob).ok()?;
        Some(Uint8Array::new(&ab).to_vec())
    }
}

impl ReadAt for SyncReader<'_> {
    fn read_at(&mut self, entry: u32, start: u64, end: u64) -> Option<Vec<u8>> {
        let slice = self.blob(entry)?.slice_with_f64_and_f64(start as f64, end as f64).ok()?;
        self.read(&slice)
    }

    fn read_all(&mut self, entry: u32) -> Option<Vec<u8>> {
        let blob = self.blob(entry)?;
        self.read(&blob)
    }
}

/// A run from its file and meta sidecar; `None` if it could not be read.
async fn run(files: &Array, io: &mut SyncReader<'_>, agent_id: &str, jsonl: u32, meta: Option<u32>, cancel: &Cancel) -> Result<Option<Run>, Stop> {
    let Ok(blob) = files.get(jsonl).dyn_into::<Blob>() else { return Ok(None) };
    let (ix, head) = match index_blob(&blob, cancel, |_, _| {}).await {
        Ok(x) => x,
        Err(Stop::Failed(_)) => return Ok(None),
        Err(stop) => return Err(stop),
    };
    let meta = meta.and_then(|m| io.read_all(m)).map(|b| Meta::parse(&b));
    Ok(Some(Run::from_index(agent_id, jsonl, &ix, &head, meta)))
}

/// Sums up the conversations of `tree` in `order`, one message each.
pub async fn survey(id: JobId, tree: Tree, files: Array, order: Vec<u32>, cancel: Cancel) {
    let mut io = SyncReader { files: &files, reader: FileReaderSync::new().ok() };
    let mut legacy: HashMap<u32, Vec<Run>> = HashMap::new();
    let (mut done_bytes, mut progress) = (0u64, Throttle::new());
    for k in order {
        let Some(c) = tree.conversations.get(k as usize) else { continue };
        let outcome: Result<(), Stop> = async {
            if !legacy.contains_key(&c.project) {
                let mut runs = Vec::new();
                for (agent_id, e) in &tree.projects[c.project as usize].legacy_runs {
                    runs.extend(run(&files, &mut io, agent_id, *e, None, &cancel).await?);
                    done_bytes += tree.entry(*e).size_bytes;
                }
                legacy.insert(c.project, runs);
            }
            let mut runs = Vec::new();
            for r in &c.runs {
                runs.extend(run(&files, &mut io, &r.agent_id, r.jsonl, r.meta, &cancel).await?);
                done_bytes += tree.entry(r.jsonl).size_bytes;
            }
            let blob: Blob = files.get(c.entry).dyn_into().map_err(|_| Stop::Failed(ReadError("the file is gone".into())))?;
            let (ix, head) = index_blob(&blob, &cancel, |_, _| {}).await?;
            let parts = Parts { ix: &ix, head: &head, runs, legacy: &legacy[&c.project], idle_gap_secs: DEFAULT_IDLE_GAP_SECS };
            post(FromWorker::Summary { id, conversation: k, facts: Box::new(summarize(&tree, c, parts, &mut io)) });
            Ok(())
        }
        .await;
        done_bytes += tree.entry(c.entry).size_bytes;
        match outcome {
            Ok(()) => {}
            Err(Stop::Cancelled) => return,
            Err(Stop::Failed(e)) => post(FromWorker::SummaryFailed { id, conversation: k, message: e.0 }),
        }
        if progress.due(false) {
            post(FromWorker::Progress { id, read_bytes: done_bytes });
        }
    }
    mark_memory("worker-survey-end");
    post(FromWorker::Progress { id, read_bytes: done_bytes });
    post(FromWorker::Done { id });
}

/// Searches each of `files` for `query`; hits come back per file, keyed.
pub async fn search(id: JobId, query: String, files: Array, keys: Vec<u32>, cancel: Cancel) {
    let (mut done_bytes, mut progress) = (0u64, Throttle::new());
    let needle_len = query.len();
    for (file, key) in files.iter().zip(keys) {
        let Ok(blob) = file.dyn_into::<Blob>() else { continue };
        let Some(mut m) = Matcher::new(&query, true) else { break };
        let mut chunks = Chunks::file(&blob, WORKER_CHUNK_BYTES, WORKER_IN_FLIGHT);
        let mut buf = Vec::new();
        // An unreadable file has no match to report; the others go on.
        while let Ok(Some(start)) = chunks.next(&mut buf).await {
            if cancel.is_cancelled() {
                return;
            }
            m.feed(&buf);
            if progress.due(false) {
                post(FromWorker::Progress { id, read_bytes: done_bytes + start + buf.len() as u64 });
            }
        }
        done_bytes += blob.size() as u64;
        let found = m.finish();
        if found.matches > 0 {
            let hits = found
                .hits
                .iter()
                .take(HITS_PER_FILE)
                .map(|h| HitText::of(h, needle_len))
                .collect();
            post(FromWorker::Hits { id, key, matches: found.matches, hits });
        }
    }
    post(FromWorker::Progress { id, read_bytes: done_bytes });
    post(FromWorker::Done { id });
}
