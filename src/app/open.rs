//! Opening a pick: where its bytes are read and indexed (the reading
//! worker, else the page), the preview of its first lines, and the
//! [`Action`]s that tell the app how far it got.
//!
//! A file larger than its first read goes to the worker, which reads and
//! indexes all of it off the main thread and hands over its first chunk on
//! the way; the page indexes that chunk's whole lines on its own and shows
//! them (the preview) while the rest is read. Where no worker can run (or it
//! dies), the page reads the file itself, chunk by chunk. A newer pick
//! cancels this one: no action is sent after that, and the read stops at
//! its next chunk.

use std::rc::Rc;

use web_sys::Blob;
use yew::Callback;

use super::blob::{blob_of, read_range, Chunks, ReadError, CHUNK_BYTES, FIRST_CHUNK_BYTES};
use super::files::Files;
use super::task::{self, mark, mark_memory, yield_to_page, Cancel};
use super::worker::{pieces, Client, Reply, WorkerError};
use crate::index::{Index, Indexer};
use crate::model::items::Items;
use crate::model::{Stats, DEFAULT_IDLE_GAP_SECS};
use crate::state::state::Action;
use crate::state::{Doc, FileId};

/// The built-in sample transcript (no request: it is part of the wasm).
pub const SAMPLE: &[u8] = include_bytes!("../../www/sample.jsonl");
pub const SAMPLE_NAME: &str = "sample.jsonl";

/// Where the bytes come from.
#[derive(Clone, PartialEq)]
pub enum Source {
    File(web_sys::File),
    /// A file picked (or dropped, or reopened) through a File System Access
    /// handle: it is followed as it grows.
    Handle { file: web_sys::File, handle: wasm_bindgen::JsValue },
    Sample,
    /// A file of a picked folder, already in the app's file table.
    Known { file: FileId, name: Rc<str> },
}

/// What the person is told when the browser could not read the file.
fn read_failed(e: &ReadError) -> Rc<str> {
    format!("The browser could not read this file: {e}.").into()
}

/// One pick being opened.
pub struct Opening {
    pub cancel: Cancel,
    pub send: Callback<Action>,
    pub client: Client,
    pub files: Files,
}

/// The file's index and its first bytes as read.
struct Read {
    index: Index,
    head: Rc<[u8]>,
}

/// Why a read gave no index (a failure is told to the person as it is).
type Stop = task::Stop<Rc<str>>;

impl Opening {
    /// Sends `a` unless a newer pick cancelled this one.
    fn send(&self, a: Action) -> bool {
        if self.cancel.is_cancelled() {
            return false;
        }
        self.send.emit(a);
        true
    }

    /// Reads `source` to the end, sending progress as it goes. A file with
    /// a handle: the document shown and the handle, to follow it.
    pub async fn run(self, source: Source) -> Option<(Rc<Doc>, wasm_bindgen::JsValue)> {
        mark("open");
        let (mut handle, known) = (None, None);
        let (name, blob, known): (Rc<str>, Result<Blob, ReadError>, Option<FileId>) = match source {
            Source::File(f) => (f.name().into(), Ok(f.into()), known),
            Source::Handle { file, handle: h } => {
                handle = Some(h);
                (file.name().into(), Ok(file.into()), known)
            }
            Source::Sample => (SAMPLE_NAME.into(), blob_of(SAMPLE), known),
            Source::Known { file, name } => {
                handle = self.files.handle(file);
                let blob = self.files.get(file).ok_or(ReadError::NotPicked);
                (name, blob, Some(file))
            }
        };
        let blob = match blob {
            Ok(b) => b,
            Err(e) => {
                self.send(Action::Failed { name, message: read_failed(&e) });
                return None;
            }
        };
        let size_bytes = blob.size() as u64;
        let file = known.unwrap_or_else(|| self.files.add_with(blob.clone(), handle.clone()));
        self.send(Action::Start { name: name.clone(), size_bytes });
        let pick = Reading { o: &self, file, name, blob, size_bytes, settled: handle.is_some() };
        let read = if size_bytes > FIRST_CHUNK_BYTES {
            match pick.in_worker().await {
                // The reader (worker or, without one, the same job on the
                // page) gave no answer it could read: the page reads it here.
                Err(Some(e)) => {
                    self.send(Action::Notice(format!("The page's file reader failed ({e}), so this file was read on the page itself; reload the page to restore it.").into()));
                    pick.in_page().await
                }
                Err(None) => Err(Stop::Cancelled),
                Ok(r) => r,
            }
        } else {
            pick.in_page().await
        };
        match read {
            Ok(r) => pick.finish(r).await.zip(handle),
            Err(Stop::Failed(message)) => {
                self.send(Action::Failed { name: pick.name.clone(), message });
                None
            }
            Err(Stop::Cancelled) => None,
        }
    }
}

struct Reading<'a> {
    o: &'a Opening,
    file: FileId,
    name: Rc<str>,
    blob: Blob,
    size_bytes: u64,
    /// A followed file: a last line without its newline waits for it.
    settled: bool,
}

impl Reading<'_> {
    fn cancelled(&self) -> bool {
        self.o.cancel.is_cancelled()
    }

    /// The whole lines of the first chunk as a document of their own,
    /// unless the chunk is the whole file.
    fn preview(&self, first: &Rc<[u8]>) -> Option<Rc<Doc>> {
        if first.len() as u64 >= self.size_bytes {
            return None;
        }
        let end = memchr::memrchr(b'\n', first)?;
        let index = Indexer::index_bytes(&first[..=end]);
        Some(Rc::new(Doc::build(self.file, &self.name, self.size_bytes, first.clone(), index, false)))
    }

    /// Read by the worker. `Err(None)`: cancelled; `Err(Some(e))`: the
    /// worker could not do it (the page then reads the file itself). The
    /// preview comes from the page's own read of the file's start: it is on
    /// screen at once however busy the worker is (summing up a folder, say).
    async fn in_worker(&self) -> Result<Result<Read, Stop>, Option<WorkerError>> {
        let mut job = self.o.client.read(&self.blob, self.settled).map_err(Some)?;
        // A newer pick stops this read in the worker at once, not at its next reply.
        let (client, id) = (self.o.client.clone(), job.id());
        self.o.cancel.on_cancel(move || client.cancel(id));
        let head: Rc<[u8]> = match read_range(&self.blob, 0, FIRST_CHUNK_BYTES).await {
            Ok(b) => b.into(),
            Err(e) => return Ok(Err(Stop::Failed(read_failed(&e)))),
        };
        if self.cancelled() {
            return Err(None);
        }
        mark("head-read");
        if let Some(doc) = self.preview(&head) {
            mark("preview");
            self.o.send(Action::Preview(doc));
        }
        let mut progress = crate::app::task::throttle();
        loop {
            let reply = job.next().await;
            if self.cancelled() {
                return Err(None);
            }
            match reply.map_err(Some)? {
                Reply::Progress(read_bytes) => {
                    if progress.due(read_bytes == self.size_bytes) {
                        self.o.send(Action::Progress { read_bytes });
                    }
                }
                Reply::Indexed(p) => {
                    return Ok(match pieces::decode(&p).await {
                        Ok(index) => Ok(Read { index, head }),
                        Err(e) => Err(Stop::Failed(format!("The page's file reader handed over a damaged index ({e}).").into())),
                    });
                }
                Reply::Failed(why) => return Ok(Err(Stop::Failed(read_failed(&ReadError::Browser(why))))),
                // Not answers to a read.
                Reply::Summary { .. } | Reply::SummaryFailed { .. } | Reply::Hits { .. } | Reply::Offsets { .. } | Reply::Listed { .. } | Reply::Done => {}
            }
        }
    }

    /// Read and indexed in the page, chunk by chunk.
    async fn in_page(&self) -> Result<Read, Stop> {
        let mut chunks = Chunks::file(&self.blob, CHUNK_BYTES, 1);
        let mut ix = Indexer::new();
        let mut buf = Vec::new();
        let mut head: Rc<[u8]> = Rc::from(&[][..]);
        let mut progress = crate::app::task::throttle();
        while let Some(start) = chunks.next(&mut buf).await.map_err(|e| Stop::Failed(read_failed(&e)))? {
            if self.cancelled() {
                return Err(Stop::Cancelled);
            }
            if start == 0 {
                head = Rc::from(&buf[..]);
                if let Some(doc) = self.preview(&head) {
                    self.o.send(Action::Preview(doc));
                }
            }
            ix.push(&buf);
            let read_bytes = start + buf.len() as u64;
            if progress.due(read_bytes == self.size_bytes) {
                self.o.send(Action::Progress { read_bytes });
            }
        }
        let index = if self.settled { ix.into_settled() } else { ix.finish() };
        Ok(Read { index, head })
    }

    /// The facts, then the list, each in a task of its own, so that on a
    /// 2 GB file (300 k rows) none of them holds the page for long. The
    /// document shown, unless a newer pick came first.
    async fn finish(&self, r: Read) -> Option<Rc<Doc>> {
        mark("indexed");
        yield_to_page().await;
        if self.cancelled() {
            return None;
        }
        let stats = Stats::compute(&r.index, DEFAULT_IDLE_GAP_SECS);
        yield_to_page().await;
        if self.cancelled() {
            return None;
        }
        let view = Items::build(&r.index, DEFAULT_IDLE_GAP_SECS);
        yield_to_page().await;
        if self.cancelled() {
            return None;
        }
        let doc = Rc::new(Doc::with_view(self.file, &self.name, self.size_bytes, r.head, r.index, stats, view, true));
        yield_to_page().await;
        if !self.o.send(Action::Finished(doc.clone())) {
            return None;
        }
        mark_memory("finished");
        Some(doc)
    }
}
