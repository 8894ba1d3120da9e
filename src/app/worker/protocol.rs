//! The messages between the page and its reading worker: one enum per
//! direction, encoded by serde (postcard: compact bytes, no field names) on
//! both ends, so a field renamed on one side is a compile error, and a
//! message that does not decode is a [`ProtocolError`] naming what was wrong.
//!
//! A message crosses as a JS array: its bytes (`Uint8Array`), then the JS
//! objects it holds (`File`s, handles, buffers), which only the browser can
//! pass on; in the bytes each is its place in that array ([`js`]).
//!
//! ```text
//!   page                                        worker
//!   {module}  (worker.js, before the wasm runs) ──►  init the page's compiled module
//!   Read { id, blob, settled }                  ──►  read and index the file
//!                                               ◄──  Progress { id, read_bytes }   at most every 100 ms
//!                                               ◄──  Indexed { id, pieces }   the index as `index::wire` pieces
//!                                               ◄──  Failed { id, message }   the browser could not read it
//!   Survey { id, tree, files, order, keep }     ──►  sum up a folder's conversations, in `order`
//!                                               ◄──  Summary { id, conversation, facts }   one per conversation
//!                                               ◄──  SummaryFailed { id, conversation, message }
//!                                               ◄──  Progress { id, read_bytes }   bytes of the folder done
//!                                               ◄──  Done { id }
//!   Search { id, query, files, keys }           ──►  search each file's raw bytes for `query`
//!                                               ◄──  Hits { id, key, matches, hits }   per file with a match
//!                                               ◄──  Progress { id, read_bytes }, Done { id }
//!   Find { id, query, blob }                    ──►  where `query` matches in the open file
//!                                               ◄──  Offsets { id, offsets, matches }   a chunk's worth at a time
//!                                               ◄──  Progress { id, read_bytes }, Done { id }
//!   Walk { id, dir }                            ──►  list a folder through its handle
//!                                               ◄──  Listed { id, files, handles, paths, unreadable }   a batch
//!                                               ◄──  Progress { id, read_bytes: files so far }, Done { id }
//!   Cancel { id }                               ──►  stop that job at its next chunk
//!                                               ◄──  Unreadable { message }   a request it could not decode
//! ```
//!
//! Byte buffers cross as `ArrayBuffer`s in the transfer list (moved, not
//! copied); the `File` crosses by reference (the worker reads the same file).

use std::cell::RefCell;

use js_sys::{Array, Uint8Array};
use serde::{Deserialize, Serialize};
use thiserror::Error;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Blob, DedicatedWorkerGlobalScope};

use crate::folder::{SessionFacts, Tree};
use crate::state::search::HitText;

/// A read's number, given by the page.
pub type JobId = u32;

#[derive(Clone, Serialize, Deserialize)]
pub enum ToWorker {
    Read {
        id: JobId,
        #[serde(with = "js")]
        blob: Blob,
        /// A file still being written (followed): a last line without its
        /// newline is left out, to be read when it ends.
        settled: bool,
    },
    Survey {
        id: JobId,
        tree: Tree,
        /// A `File` per entry of `tree`.
        #[serde(with = "js")]
        files: Array,
        /// Conversations to sum up, in this order.
        order: Vec<u32>,
        /// Of those, the ones a followed folder will sum again as they grow:
        /// the worker keeps their indexers, and later reads only what was
        /// appended.
        keep: Vec<u32>,
    },
    Search {
        id: JobId,
        query: String,
        /// The files to search, and the key each file's hits come back with.
        #[serde(with = "js")]
        files: Array,
        keys: Vec<u32>,
    },
    /// Where `query` matches in the open file.
    Find {
        id: JobId,
        query: String,
        #[serde(with = "js")]
        blob: Blob,
    },
    /// List a folder's files through its handle (File System Access).
    Walk {
        id: JobId,
        #[serde(with = "js")]
        dir: JsValue,
    },
    Cancel { id: JobId },
}



#[derive(Serialize, Deserialize)]
pub enum FromWorker {
    Progress { id: JobId, read_bytes: u64 },
    Indexed {
        id: JobId,
        /// `index::wire` pieces, `ArrayBuffer`s.
        #[serde(with = "js")]
        pieces: Array,
    },
    Failed { id: JobId, message: String },
    Summary { id: JobId, conversation: u32, facts: Box<SessionFacts> },
    SummaryFailed { id: JobId, conversation: u32, message: String },
    Hits { id: JobId, key: u32, matches: u64, hits: Vec<HitText> },
    /// More match offsets of a `Find`, ascending, and the matches so far.
    Offsets { id: JobId, offsets: Vec<u64>, matches: u64 },
    /// Files a walk found (a batch): `File`s, their handles, their paths
    /// from the folder's name down; then `Progress` counts the files so far.
    Listed {
        id: JobId,
        #[serde(with = "js")]
        files: Array,
        #[serde(with = "js")]
        handles: Array,
        paths: Vec<String>,
        /// Entries that could not be read, by path.
        unreadable: Vec<String>,
    },
    /// A survey, a search or a walk is over.
    Done { id: JobId },
    /// The worker received a request it could not decode.
    Unreadable { message: String },
}

/// A message that is not one the other end can send.
#[derive(Debug, Error)]
#[error("the {from} sent a message this page cannot read ({why})")]
pub struct ProtocolError {
    pub from: &'static str,
    pub why: String,
}

/// The JS objects of the message being encoded or decoded, and why one did
/// not decode (postcard's error keeps no words of its own); empty between
/// messages (both run start to end without yielding).
#[derive(Default)]
struct Objects {
    list: Vec<JsValue>,
    why: Option<String>,
}

thread_local! {
    static OBJECTS: RefCell<Objects> = RefCell::default();
}

/// A field holding a JS object: in the bytes, its place among the message's
/// objects (`serde(with = "js")`).
mod js {
    use serde::{de::Error as _, Deserialize, Deserializer, Serializer};
    use wasm_bindgen::{JsCast, JsValue};

    use super::OBJECTS;

    pub fn serialize<T: AsRef<JsValue>, S: Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
        let at = OBJECTS.with(|o| {
            let list = &mut o.borrow_mut().list;
            list.push(v.as_ref().clone());
            list.len() - 1
        });
        s.serialize_u32(at as u32)
    }

    pub fn deserialize<'de, T: JsCast, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
        let at = u32::deserialize(d)? as usize;
        OBJECTS.with(|o| {
            let mut o = o.borrow_mut();
            let got = match o.list.get_mut(at).map(|v| std::mem::replace(v, JsValue::UNDEFINED)) {
                None => Err(format!("object {at} is missing")),
                Some(v) => v.dyn_into().map_err(|_| format!("object {at} is not of its field's type")),
            };
            got.map_err(|why| {
                let e = D::Error::custom(&why);
                o.why = Some(why);
                e
            })
        })
    }
}

fn encode<T: Serialize>(msg: &T, from: &'static str) -> Result<JsValue, ProtocolError> {
    OBJECTS.with(|o| *o.borrow_mut() = Objects::default());
    let bytes = postcard::to_allocvec(msg);
    let objects = OBJECTS.with(|o| std::mem::take(&mut o.borrow_mut().list));
    let bytes = bytes.map_err(|e| ProtocolError { from, why: e.to_string() })?;
    let out = Array::of1(&Uint8Array::from(&bytes[..]));
    for o in objects {
        out.push(&o);
    }
    Ok(out.into())
}

fn decode<T: for<'de> Deserialize<'de>>(v: JsValue, from: &'static str) -> Result<T, ProtocolError> {
    let bad = |why: String| ProtocolError { from, why };
    let parts: Array = v.dyn_into().map_err(|_| bad("not an array".into()))?;
    let bytes: Uint8Array = parts.get(0).dyn_into().map_err(|_| bad("no bytes first".into()))?;
    OBJECTS.with(|o| *o.borrow_mut() = Objects { list: parts.iter().skip(1).collect(), why: None });
    let msg = postcard::from_bytes(&bytes.to_vec());
    let why = OBJECTS.with(|o| std::mem::take(&mut *o.borrow_mut()).why);
    msg.map_err(|e| bad(why.unwrap_or_else(|| e.to_string())))
}

impl ToWorker {
    /// The job this message is for.
    pub fn id(&self) -> JobId {
        match self {
            ToWorker::Read { id, .. } | ToWorker::Survey { id, .. } | ToWorker::Search { id, .. } | ToWorker::Find { id, .. } | ToWorker::Walk { id, .. } | ToWorker::Cancel { id } => *id,
        }
    }

    pub fn encode(&self) -> Result<JsValue, ProtocolError> {
        encode(self, "page")
    }

    pub fn decode(v: JsValue) -> Result<ToWorker, ProtocolError> {
        decode(v, "page")
    }
}

impl FromWorker {
    pub fn encode(&self) -> Result<JsValue, ProtocolError> {
        encode(self, "reading worker")
    }

    pub fn decode(v: JsValue) -> Result<FromWorker, ProtocolError> {
        decode(v, "reading worker")
    }

    /// The buffers to move rather than copy.
    pub fn transfer(&self) -> Option<Array> {
        match self {
            FromWorker::Indexed { pieces, .. } => Some(pieces.clone()),
            _ => None,
        }
    }
}

/// Sends `msg` to the page (from the worker; buffers in the transfer list).
pub fn post(msg: FromWorker) {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let sent = msg.encode().and_then(|v| {
        let r = match msg.transfer() {
            Some(t) => scope.post_message_with_transfer(&v, &t),
            None => scope.post_message(&v),
        };
        r.map_err(|e| ProtocolError { from: "reading worker", why: format!("{e:?}") })
    });
    if let Err(e) = sent {
        web_sys::console::error_1(&format!("ccscope worker: {e}").into());
    }
}

