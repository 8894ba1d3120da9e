//! The app's one state: which file is open and how far its reading got,
//! the picked folder (if any) and where the person is (the route).
//!
//! An open is numbered (`opened`); the viewer of a preview stays mounted
//! when the whole file arrives because both carry the same number. A newer
//! pick cancels the older read before it starts (the app holds the read's
//! cancel flag), so no action of an older read reaches this reducer after
//! the newer one's `Start`.

use std::rc::Rc;

use super::doc::Doc;
use super::browser::{FileHits, Browser, ListUi, Scope, Slot};

/// Where the person is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Route {
    /// The landing page, or the one file picked.
    #[default]
    Home,
    /// The picked folder's session browser.
    Browser,
    /// A conversation of the folder, or (with `run`: its agent id) one of
    /// its subagent runs, opened as a transcript.
    Conversation { conv: u32, run: Option<Rc<str>> },
}

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
    pub folder: Option<Rc<Browser>>,
    pub route: Route,
    /// A dropped folder being walked: files found so far.
    pub listing: Option<usize>,
    /// The file on screen is followed as it grows (opened through a handle).
    pub live: Option<super::live::Live>,
    /// The person turned following off (files and folders opened through
    /// handles are not looked at until it is on again).
    pub paused: bool,
}

pub enum Action {
    Start { name: Rc<str>, size_bytes: u64 },
    Progress { read_bytes: u64 },
    Preview(Rc<Doc>),
    Finished(Rc<Doc>),
    /// The followed file grew: the document on screen, extended (the
    /// viewer keeps its place: the same open).
    Grew(Rc<Doc>),
    /// How the file on screen is followed (`None`: it is not).
    Live(Option<super::live::Live>),
    /// The person turned following on or off.
    FollowSet(bool),
    Failed { name: Rc<str>, message: Rc<str> },
    Notice(Rc<str>),
    DismissNotice,
    /// A dropped folder is being walked (`None`: the walk ended).
    Listing(Option<usize>),
    /// A folder (or several files) was picked: its session browser opens.
    FolderPicked(Rc<Browser>),
    /// The followed folder listed again: its new tree and the app's files
    /// for its entries (`Browser::relisted`).
    Relisted { tree: crate::folder::Tree, files: Vec<super::FileId> },
    /// Conversations summed up (or not readable), a batch at a time.
    Summaries(Vec<(u32, Slot)>),
    SurveyProgress { done_bytes: u64 },
    SurveyDone,
    SetList(ListUi),
    FolderSearchStart { query: Rc<str>, scope: Scope, total_bytes: u64 },
    FolderSearchHits { serial: u64, hits: Vec<FileHits> },
    FolderSearchProgress { serial: u64, done_bytes: u64 },
    FolderSearchDone { serial: u64 },
    FolderSearchClear,
    Navigate(Route),
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

    /// Whether the page is laid out as a viewer (the header a bar, the
    /// content the window's height): something is shown, or the folder's
    /// list is, or one of its conversations is open and not (yet) an error
    /// or a file that is not a transcript, which are pages of their own.
    /// The crumbs and the bar stay where they will be from the click on:
    /// laid out as the landing page until the first rows came, they moved
    /// (and a click on "All conversations" in between could miss it).
    pub fn viewing(&self) -> bool {
        match self.route {
            Route::Home => self.shown().is_some(),
            Route::Browser => true,
            Route::Conversation { .. } => self.shown().is_some() || !matches!(self.phase, Phase::Failed { .. } | Phase::Done(_)),
        }
    }

    pub fn reading(&self) -> bool {
        matches!(self.phase, Phase::Reading { .. })
    }

    /// The folder with `f` applied to a copy of it; the same state when
    /// there is no folder.
    fn folder_with(self: Rc<Self>, f: impl FnOnce(&mut Browser)) -> Rc<Self> {
        let Some(folder) = &self.folder else { return self };
        let mut next = (**folder).clone();
        f(&mut next);
        Rc::new(State { folder: Some(Rc::new(next)), ..(*self).clone() })
    }

    pub fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let with = |phase| Rc::new(State { phase, ..(*self).clone() });
        match action {
            Action::Start { name, size_bytes } => Rc::new(State {
                opened: self.opened + 1,
                live: None,
                phase: Phase::Reading { name, size_bytes, read_bytes: 0, preview: None },
                ..(*self).clone()
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
            Action::Grew(doc) => match &self.phase {
                Phase::Done(d) if d.file == doc.file => with(Phase::Done(doc)),
                _ => self,
            },
            Action::Live(live) => Rc::new(State { live, ..(*self).clone() }),
            Action::FollowSet(on) => Rc::new(State { paused: !on, ..(*self).clone() }),
            Action::Failed { name, message } => with(Phase::Failed { name, message }),
            Action::Notice(text) => Rc::new(State { notice: Some(text), ..(*self).clone() }),
            Action::DismissNotice if self.notice.is_some() => Rc::new(State { notice: None, ..(*self).clone() }),
            Action::DismissNotice => self,
            Action::Listing(listing) => Rc::new(State { listing, ..(*self).clone() }),
            Action::FolderPicked(folder) => Rc::new(State { folder: Some(folder), route: Route::Browser, phase: Phase::Empty, listing: None, live: None, ..(*self).clone() }),
            Action::Relisted { tree, files } => {
                let Some(old) = &self.folder else { return self };
                let next = Rc::new(old.relisted(tree, files));
                let (mut route, mut phase, mut notice) = (self.route.clone(), self.phase.clone(), self.notice.clone());
                if let Route::Conversation { conv, run } = &self.route {
                    let path = &old.tree.conversations[*conv as usize].path;
                    match next.conversation_at(path) {
                        Some(c) => route = Route::Conversation { conv: c, run: run.clone() },
                        None => {
                            notice = Some(format!("{path} is no longer in the folder.").into());
                            (route, phase) = (Route::Browser, Phase::Empty);
                        }
                    }
                }
                Rc::new(State { folder: Some(next), route, phase, notice, ..(*self).clone() })
            }
            Action::Summaries(batch) => self.folder_with(|f| {
                let slots = Rc::make_mut(&mut f.slots);
                for (conv, slot) in batch {
                    if let Some(s) = slots.get_mut(conv as usize) {
                        *s = slot;
                    }
                }
            }),
            Action::SurveyProgress { done_bytes } => self.folder_with(|f| f.done_bytes = done_bytes),
            Action::SurveyDone => self.folder_with(|f| {
                f.surveyed = true;
                f.done_bytes = f.total_bytes;
            }),
            Action::SetList(list) => self.folder_with(|f| f.list = list),
            Action::FolderSearchStart { query, scope, total_bytes } => self.folder_with(|f| {
                let serial = f.search.serial + 1;
                f.search = super::browser::FolderSearch { serial, query, scope, total_bytes, ..Default::default() };
            }),
            Action::FolderSearchHits { serial, hits } => self.folder_with(|f| {
                if f.search.serial == serial {
                    Rc::make_mut(&mut f.search.results).extend(hits);
                }
            }),
            Action::FolderSearchProgress { serial, done_bytes } => self.folder_with(|f| {
                if f.search.serial == serial {
                    f.search.done_bytes = done_bytes;
                }
            }),
            Action::FolderSearchDone { serial } => self.folder_with(|f| {
                if f.search.serial == serial {
                    f.search.finished = true;
                    f.search.done_bytes = f.search.total_bytes;
                }
            }),
            Action::FolderSearchClear => self.folder_with(|f| {
                let serial = f.search.serial + 1;
                f.search = super::browser::FolderSearch { serial, ..Default::default() };
            }),
            // Elsewhere (the list, another conversation or run): what was open
            // is closed, never shown under the new place's crumbs and address
            // while the new file is read.
            Action::Navigate(route) if route != self.route => Rc::new(State { route, phase: Phase::Empty, ..(*self).clone() }),
            Action::Navigate(_) => self,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::Indexer;
    use crate::state::doc::FileId;

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
    fn a_followed_file_grows_in_place_and_a_followed_folder_keeps_what_did_not_change() {
        let s = Rc::new(State::default()).reduce(Action::Start { name: "f.jsonl".into(), size_bytes: 16 });
        let s = s.reduce(Action::Finished(doc("{\"type\":\"user\"}\n", true)));
        let s = s.reduce(Action::Grew(doc("{\"type\":\"user\"}\n{\"type\":\"user\"}\n", true)));
        assert_eq!((s.opened, s.shown().map(|d| d.index.rows.len())), (1, Some(2)), "the same open, the longer file");

        use crate::folder::{Entry, Tree};
        let e = |p: &str, size: u64| Entry { path: p.into(), size_bytes: size, modified_ms: Some(1) };
        let tree = Tree::build(vec![e("p/b.jsonl", 10), e("p/c.jsonl", 10)]);
        let mut folder = Browser::new("projects", tree, vec![FileId(0), FileId(1)]);
        folder.slots = Rc::new(vec![Slot::Failed("kept".into()), Slot::Failed("kept too".into())]);
        let s = s.reduce(Action::FolderPicked(Rc::new(folder))).reduce(Action::Navigate(Route::Conversation { conv: 1, run: None }));
        // A conversation appears before the open one; b grew.
        let tree = Tree::build(vec![e("p/a.jsonl", 5), e("p/b.jsonl", 12), e("p/c.jsonl", 10)]);
        let s = s.reduce(Action::Relisted { tree, files: vec![FileId(2), FileId(0), FileId(1)] });
        assert_eq!(s.route, Route::Conversation { conv: 2, run: None }, "the open conversation, by its path");
        let f = s.folder.as_ref().unwrap();
        assert!(matches!(f.slots[..], [Slot::Pending, Slot::Pending, Slot::Failed(_)]), "new and grown are summed again; c keeps its facts");
        // The open conversation removed: back to the list, said.
        let s = s.reduce(Action::Relisted { tree: Tree::build(vec![e("p/a.jsonl", 5)]), files: vec![FileId(2)] });
        assert_eq!(s.route, Route::Browser);
        assert!(s.notice.as_deref().is_some_and(|n| n.contains("p/c.jsonl is no longer in the folder")));
    }

    #[test]
    fn a_file_that_is_not_a_transcript_is_not_shown_as_one() {
        let reading = Rc::new(State::default()).reduce(Action::Start { name: "f.jsonl".into(), size_bytes: 6 });
        assert!(!reading.viewing(), "a file picked on the landing page stays there until its first rows");
        let s = Rc::new(State::default()).reduce(Action::Finished(doc("hello\n", true)));
        assert!(s.shown().is_none() && !s.viewing());
        let before = s.clone();
        assert!(Rc::ptr_eq(&s.reduce(Action::Progress { read_bytes: 1 }), &before), "progress after the end changes nothing");
    }
}

#[cfg(test)]
mod folder_tests {
    use super::*;
    use crate::folder::tree::{Entry, Tree};
    use crate::state::FileId;

    #[test]
    fn a_folder_fills_in_and_the_route_moves() {
        let tree = Tree::build(vec![Entry { path: "p/a.jsonl".into(), size_bytes: 10, modified_ms: None }]);
        let folder = Rc::new(Browser::new("projects", tree, vec![FileId(0)]));
        let s = Rc::new(State::default()).reduce(Action::FolderPicked(folder));
        assert_eq!(s.route, Route::Browser);
        let s = s.reduce(Action::Summaries(vec![(0, Slot::Failed("gone".into()))]));
        assert!(matches!(s.folder.as_ref().unwrap().slots[0], Slot::Failed(_)));
        let s = s.reduce(Action::SurveyDone);
        assert!(s.folder.as_ref().unwrap().surveyed);
        let s = s.reduce(Action::FolderSearchStart { query: "x".into(), scope: Scope::All, total_bytes: 10 });
        let serial = s.folder.as_ref().unwrap().search.serial;
        let stale = s.clone().reduce(Action::FolderSearchDone { serial: serial - 1 });
        assert!(!stale.folder.as_ref().unwrap().search.finished, "an older search's end is not this one's");
        let s = s.reduce(Action::FolderSearchDone { serial });
        assert!(s.folder.as_ref().unwrap().search.finished);
        assert!(s.viewing(), "the list is laid out as a viewer");
        let s = s.reduce(Action::Navigate(Route::Conversation { conv: 0, run: None }));
        assert!(s.viewing(), "a conversation of the folder chosen, its read not started: still a viewer");
        let s = s.reduce(Action::Start { name: "a.jsonl".into(), size_bytes: 10 });
        assert!(s.shown().is_none() && s.viewing(), "being read, nothing shown yet: still a viewer");
        let failed = s.clone().reduce(Action::Failed { name: "a.jsonl".into(), message: "gone".into() });
        assert!(!failed.viewing(), "its error is a page of its own");
        let run = s.clone().reduce(Action::Navigate(Route::Conversation { conv: 0, run: Some("a1".into()) }));
        assert!(matches!(run.phase, Phase::Empty), "one of its runs chosen: the conversation is no longer shown under the run's address");
        let back = s.reduce(Action::Navigate(Route::Browser));
        assert!(matches!(back.phase, Phase::Empty), "back on the list, nothing is open");
    }
}
