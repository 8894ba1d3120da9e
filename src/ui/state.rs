//! The app's one state: which file is open and how far its reading got.
//!
//! An open is numbered (`opened`); the viewer of a preview stays mounted
//! when the whole file arrives because both carry the same number. A newer
//! pick cancels the older read before it starts (the app holds the read's
//! cancel flag), so no action of an older read reaches this reducer after
//! the newer one's `Start`.

use std::rc::Rc;

use super::doc::Doc;

#[derive(Clone, Default)]
pub enum Phase {
    #[default]
    Empty,
    /// `preview`: the first chunk's whole lines, shown while the rest is read.
    Reading { name: Rc<str>, size_bytes: u64, read_bytes: u64, preview: Option<Rc<Doc>> },
    Done(Rc<Doc>),
    /// The file could not be read at all (permissions, vanished, ...).
    Failed { name: Rc<str>, message: Rc<str> },
}

#[derive(Clone, Default)]
pub struct State {
    /// How many opens have started: the current one's number.
    pub opened: u64,
    pub phase: Phase,
    /// Something the person should know that is not about one file (the
    /// page's file reader failed, say), shown until dismissed.
    pub notice: Option<Rc<str>>,
}

pub enum Action {
    Start { name: Rc<str>, size_bytes: u64 },
    Progress { read_bytes: u64 },
    Preview(Rc<Doc>),
    Finished(Rc<Doc>),
    Failed { name: Rc<str>, message: Rc<str> },
    Notice(Rc<str>),
    DismissNotice,
}

impl State {
    /// The document on screen: the whole file, or its preview while reading.
    pub fn shown(&self) -> Option<&Rc<Doc>> {
        match &self.phase {
            Phase::Reading { preview: Some(d), .. } => Some(d),
            Phase::Done(d) if d.is_transcript() => Some(d),
            _ => None,
        }
    }

    pub fn reading(&self) -> bool {
        matches!(self.phase, Phase::Reading { .. })
    }

    pub fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let with = |phase| Rc::new(State { opened: self.opened, phase, notice: self.notice.clone() });
        match action {
            Action::Start { name, size_bytes } => Rc::new(State {
                opened: self.opened + 1,
                phase: Phase::Reading { name, size_bytes, read_bytes: 0, preview: None },
                notice: self.notice.clone(),
            }),
            Action::Progress { read_bytes } => match &self.phase {
                Phase::Reading { name, size_bytes, preview, .. } => {
                    with(Phase::Reading { name: name.clone(), size_bytes: *size_bytes, read_bytes, preview: preview.clone() })
                }
                _ => self,
            },
            Action::Preview(doc) => match &self.phase {
                Phase::Reading { name, size_bytes, read_bytes, .. } => {
                    with(Phase::Reading { name: name.clone(), size_bytes: *size_bytes, read_bytes: *read_bytes, preview: Some(doc) })
                }
                _ => self,
            },
            Action::Finished(doc) => with(Phase::Done(doc)),
            Action::Failed { name, message } => with(Phase::Failed { name, message }),
            Action::Notice(text) => Rc::new(State { notice: Some(text), ..(*self).clone() }),
            Action::DismissNotice if self.notice.is_some() => Rc::new(State { notice: None, ..(*self).clone() }),
            Action::DismissNotice => self,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::Indexer;
    use crate::ui::doc::FileId;

    fn doc(text: &str, complete: bool) -> Rc<Doc> {
        let ix = Indexer::index_bytes(text.as_bytes());
        Rc::new(Doc::build(FileId(0), "f.jsonl", text.len() as u64, Rc::from(text.as_bytes()), ix, complete))
    }

    #[test]
    fn a_read_goes_from_start_to_preview_to_done() {
        let s = Rc::new(State::default()).reduce(Action::Start { name: "f.jsonl".into(), size_bytes: 100 });
        assert_eq!(s.opened, 1);
        assert!(s.reading() && s.shown().is_none());
        let s = s.reduce(Action::Progress { read_bytes: 40 });
        let s = s.reduce(Action::Preview(doc("{\"type\":\"user\"}\n", false)));
        assert!(matches!(s.phase, Phase::Reading { read_bytes: 40, preview: Some(_), .. }));
        assert!(s.shown().is_some(), "the preview is shown while reading");
        let s = s.reduce(Action::Finished(doc("{\"type\":\"user\"}\n{\"type\":\"user\"}\n", true)));
        assert_eq!(s.shown().map(|d| d.index.rows.len()), Some(2));
        assert_eq!(s.opened, 1, "the same open: its viewer stays mounted");
        let s = s.reduce(Action::Notice("the reader failed".into()));
        let s = s.reduce(Action::Start { name: "g.jsonl".into(), size_bytes: 1 });
        assert_eq!(s.opened, 2);
        assert_eq!(s.notice.as_deref(), Some("the reader failed"), "a notice stays until dismissed");
        assert!(s.reduce(Action::DismissNotice).notice.is_none());
    }

    #[test]
    fn a_file_that_is_not_a_transcript_is_not_shown_as_one() {
        let s = Rc::new(State::default()).reduce(Action::Finished(doc("hello\n", true)));
        assert!(s.shown().is_none());
        let before = s.clone();
        assert!(Rc::ptr_eq(&s.reduce(Action::Progress { read_bytes: 1 }), &before), "progress after the end changes nothing");
    }
}
