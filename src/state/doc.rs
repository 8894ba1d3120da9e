//! A read and indexed file, as the viewer holds it: everything the
//! conversation view shows is computed from a [`Doc`]. The file itself (a
//! browser `File`) stays with the app, named here by a [`FileId`].

use std::rc::Rc;

use crate::index::Index;
use crate::model::facts::Facts;
use crate::model::title::{self, TitleSource};
use crate::model::verdict::{self, Verdict};
use crate::model::items::Items;
use crate::model::{Stats, DEFAULT_IDLE_GAP_SECS};

/// A file the app holds, by number (the app keeps the `File`s; state and
/// logic refer to them by id).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId(pub u32);

/// One file's index and the facts and list built from it.
pub struct Doc {
    pub file: FileId,
    pub name: Rc<str>,
    pub size_bytes: u64,
    /// The file's first bytes as read (any number, usually its first
    /// chunk): bodies that lie inside them are taken from here.
    pub head: Rc<[u8]>,
    pub index: Index,
    pub stats: Stats,
    pub verdict: Verdict,
    /// The list at the default idle threshold.
    pub view: Rc<Items>,
    pub facts: Facts,
    pub title: TitleSource,
    /// Tool calls (indices into `Index::tool_uses`) with no result yet and
    /// nothing from the person after them: running, while the file is
    /// followed (`state::live::running`).
    pub running: Vec<u32>,
    /// `false` for a preview (the whole lines of the first chunk) shown
    /// while the rest of the file is read.
    pub complete: bool,
}

impl Doc {
    /// Builds everything at once (small files, tests).
    pub fn build(file: FileId, name: &str, size_bytes: u64, head: Rc<[u8]>, index: Index, complete: bool) -> Doc {
        let stats = Stats::compute(&index, DEFAULT_IDLE_GAP_SECS);
        Doc::with_stats(file, name, size_bytes, head, index, stats, complete)
    }

    /// Builds the rest once the stats are computed.
    pub fn with_stats(file: FileId, name: &str, size_bytes: u64, head: Rc<[u8]>, index: Index, stats: Stats, complete: bool) -> Doc {
        let view = Items::build(&index, DEFAULT_IDLE_GAP_SECS);
        Doc::with_view(file, name, size_bytes, head, index, stats, view, complete)
    }

    /// Builds the rest once the stats and the list are computed (the app
    /// computes each in a task of its own: on a 2 GB file each takes tens
    /// of ms).
    #[allow(clippy::too_many_arguments)]
    pub fn with_view(file: FileId, name: &str, size_bytes: u64, head: Rc<[u8]>, index: Index, stats: Stats, view: Items, complete: bool) -> Doc {
        let verdict = verdict::judge(&index, &head);
        let facts = Facts::compute(&index, &view);
        let title = title::source(&index, &view);
        let running = super::live::running(&index, &view.calls);
        Doc { file, name: name.into(), size_bytes, head, index, stats, verdict, view: Rc::new(view), facts, title, running, complete }
    }

    pub fn is_transcript(&self) -> bool {
        matches!(self.verdict, Verdict::Transcript { .. })
    }
}
