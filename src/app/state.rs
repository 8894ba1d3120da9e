//! The app's one state and the actions that change it (no HTML here).
//!
//! Every read carries a `generation`; actions from an older read (the person
//! picked another file meanwhile) are dropped, so a second pick replaces the
//! first cleanly.

use std::rc::Rc;

use yew::Reducible;

use crate::index::Index;
use crate::model::verdict::Verdict;
use crate::model::view::View;
use crate::model::Stats;

/// A file that has been read and indexed (or, while reading, its start).
pub struct Loaded {
    pub name: String,
    pub size_bytes: u64,
    /// The picked file itself: bodies are re-read from it by byte range.
    pub blob: web_sys::Blob,
    /// The file's first bytes as read (its first chunk, at most
    /// `reader::FIRST_CHUNK_BYTES`): bodies inside them are taken from here.
    pub head: Rc<[u8]>,
    pub index: Index,
    pub stats: Stats,
    pub verdict: Verdict,
    /// The list at the default idle threshold.
    pub view: Rc<View>,
    /// From the pick until the whole index was in the page (reading, indexing
    /// and, from the worker, handing it over).
    pub elapsed_ms: f64,
    /// Of `elapsed_ms`, the time spent in the indexer.
    pub index_ms: f64,
    /// Of `elapsed_ms`, the time the reader waited for the browser.
    pub wait_ms: f64,
    /// Building the facts and the list from the index, after that.
    pub build_ms: f64,
    /// The worker's wasm memory, when a worker read the file.
    pub worker_memory_bytes: Option<f64>,
}

#[derive(Clone, Default)]
pub enum Phase {
    #[default]
    Empty,
    /// `preview`: the first chunk's whole lines, shown while the rest is read.
    Reading { name: Rc<str>, size_bytes: u64, read_bytes: u64, preview: Option<Rc<Loaded>> },
    Done(Rc<Loaded>),
    /// The file could not be read at all (permissions, vanished, ...).
    Failed { name: Rc<str>, message: Rc<str> },
}

#[derive(Clone, Default)]
pub struct State {
    pub generation: u64,
    pub phase: Phase,
}

pub enum Action {
    Start { generation: u64, name: Rc<str>, size_bytes: u64 },
    Progress { generation: u64, read_bytes: u64 },
    Preview { generation: u64, loaded: Rc<Loaded> },
    Finished { generation: u64, loaded: Rc<Loaded> },
    Failed { generation: u64, name: Rc<str>, message: Rc<str> },
}

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let current = self.generation;
        let next = |generation, phase| Rc::new(State { generation, phase });
        match action {
            Action::Start { generation, name, size_bytes } if generation > current => {
                next(generation, Phase::Reading { name, size_bytes, read_bytes: 0, preview: None })
            }
            Action::Progress { generation, read_bytes } if generation == current => match &self.phase {
                Phase::Reading { name, size_bytes, preview, .. } => next(
                    generation,
                    Phase::Reading { name: name.clone(), size_bytes: *size_bytes, read_bytes, preview: preview.clone() },
                ),
                _ => self,
            },
            Action::Preview { generation, loaded } if generation == current => match &self.phase {
                Phase::Reading { name, size_bytes, read_bytes, .. } => next(
                    generation,
                    Phase::Reading { name: name.clone(), size_bytes: *size_bytes, read_bytes: *read_bytes, preview: Some(loaded) },
                ),
                _ => self,
            },
            Action::Finished { generation, loaded } if generation == current => next(generation, Phase::Done(loaded)),
            Action::Failed { generation, name, message } if generation == current => {
                next(generation, Phase::Failed { name, message })
            }
            // Stale: from a read that a newer pick replaced.
            _ => self,
        }
    }
}
