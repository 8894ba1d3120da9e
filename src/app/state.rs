//! The app's one state and the actions that change it (no HTML here).
//!
//! Every read carries a `generation`; actions from an older read (the person
//! picked another file meanwhile) are dropped, so a second pick replaces the
//! first cleanly.

use std::rc::Rc;

use yew::Reducible;

use crate::index::Index;
use crate::model::verdict::Verdict;
use crate::model::Stats;

/// A file that has been read and indexed.
pub struct Loaded {
    pub name: String,
    pub size_bytes: u64,
    pub index: Index,
    pub stats: Stats,
    pub verdict: Verdict,
    pub elapsed_ms: f64,
}

#[derive(Clone, Default)]
pub enum Phase {
    #[default]
    Empty,
    Reading { name: Rc<str>, size_bytes: u64, read_bytes: u64 },
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
                next(generation, Phase::Reading { name, size_bytes, read_bytes: 0 })
            }
            Action::Progress { generation, read_bytes } if generation == current => match &self.phase {
                Phase::Reading { name, size_bytes, .. } => {
                    next(generation, Phase::Reading { name: name.clone(), size_bytes: *size_bytes, read_bytes })
                }
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
