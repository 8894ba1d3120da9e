//! What every part of the conversation view reads: the document, the list
//! at the current idle threshold, the file to read bodies from, and the
//! body cache. No HTML here; components and tasks import it, it imports
//! none of them.

use std::cell::RefCell;
use std::rc::Rc;

use web_sys::Blob;

use crate::index::Index;
use crate::model::body::Body;
use crate::model::items::Items;
use crate::state::cache::BodyCache;
use crate::state::redact::Redactor;
use crate::state::Doc;

pub type Cache = Rc<RefCell<BodyCache<Body>>>;

pub struct Ctx {
    pub doc: Rc<Doc>,
    pub view: Rc<Items>,
    pub blob: Blob,
    pub cache: Cache,
    /// What comes before `L<line>` in the address's `#` ("" for one picked
    /// file, `/<path>:` for a conversation of a folder, `/~<entry>:` for one
    /// while redaction is on).
    pub address: Rc<str>,
    /// Set while redaction is on: every body read is redacted whole as it
    /// is parsed (the cache then holds only redacted bodies).
    pub redactor: Option<Rc<RefCell<Redactor>>>,
    /// Set when this is the context before it with only the file grown (a
    /// followed file): what need not be drawn again.
    pub grew: Option<Grew>,
}

/// A followed file grew: items below `unchanged_below`
/// (`model::items::Items::first_changed`) are drawn as they were with the
/// document at `from` (its address, compared, never followed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grew {
    pub from: usize,
    pub unchanged_below: u32,
}

impl Ctx {
    pub fn ix(&self) -> &Index {
        &self.doc.index
    }

    /// Whether item `id` draws the same with this context as with `other`
    /// (one grew from the other and the item is below what changed).
    pub fn draws_alike(&self, other: &Ctx, id: u32) -> bool {
        let grew_from = |a: &Ctx, b: &Ctx| a.grew.is_some_and(|g| g.from == Rc::as_ptr(&b.doc) as usize && id < g.unchanged_below);
        grew_from(self, other) || grew_from(other, self)
    }

    /// The list item that shows row `row`, if one does.
    pub fn item_of(&self, row: u32) -> Option<u32> {
        self.view.item_of_row.get(row as usize).copied().filter(|&i| (i as usize) < self.view.items.len())
    }

    /// A string from the index (a record type, a subtype, a block type: the
    /// writer's own words, but a hostile file can put anything there), as
    /// the page may show it: redacted while redaction is on.
    pub fn index_text(&self, s: &str) -> String {
        match &self.redactor {
            Some(r) => r.borrow_mut().redact(s).into_owned(),
            None => s.to_string(),
        }
    }

    /// The link to a line of this file.
    pub fn line_href(&self, line: u32) -> String {
        format!("#{}L{line}", self.address)
    }
}

/// While the file on screen is followed: the wall clock (ms since 1970) at
/// the last check, so a running call's duration moves (provided as a
/// context; only the calls read it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LiveClock(pub i64);
