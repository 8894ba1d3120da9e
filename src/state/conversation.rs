//! The conversation view's state and every action that changes it. No DOM
//! here: the app's components render a [`Ui`] and send [`Action`]s; what
//! needs the browser (reading bodies, searching the file, rebuilding the
//! list at another idle threshold) is asked for through fields the glue
//! watches ([`Ui::view_pending`], [`Search::Running`]) and comes back as
//! actions.
//!
//! Item ids index `view.items`. A new view (another idle threshold, or the
//! whole file after its preview) renumbers items; the place is kept by the
//! row the current item shows.

use std::rc::Rc;

use super::doc::Doc;
use crate::model::items::{Filter, ItemKind, Items};
use crate::model::DEFAULT_IDLE_GAP_SECS;

/// The longest idle threshold the view accepts: a week.
pub const MAX_IDLE_GAP_SECS: u64 = 7 * 86_400;
/// The shortest: a minute.
pub const MIN_IDLE_GAP_SECS: u64 = 60;

/// "Bring item `id` to the top of the list"; a new `nonce` repeats the
/// request for the same item.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    pub id: u32,
    pub nonce: u64,
}

/// Which items `j`/`k`, `n`/`N` and the search arrows step through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Walk {
    Turns,
    Failures,
    Hits,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Search {
    Idle,
    /// The glue reads the file for `query` and reports back with `serial`.
    Running { serial: u64, query: Rc<str>, read_bytes: u64 },
    /// `items`: ids of items with a match, ascending; `at`: the one shown.
    Done { query: Rc<str>, items: Rc<Vec<u32>>, matches: u64, at: Option<usize> },
}

impl Search {
    /// The query in force (running or done).
    pub fn query(&self) -> Option<&Rc<str>> {
        match self {
            Search::Running { query, .. } | Search::Done { query, .. } => Some(query),
            Search::Idle => None,
        }
    }
}

#[derive(Clone)]
pub struct Ui {
    pub doc: Rc<Doc>,
    /// The list at `idle_gap_secs`.
    pub view: Rc<Items>,
    pub filter: Filter,
    /// Item ids the filter lets through, ascending.
    pub visible: Rc<Vec<u32>>,
    pub idle_gap_secs: u64,
    /// `view` is not at `idle_gap_secs` yet: the glue builds it and sends
    /// [`Action::ViewBuilt`].
    pub view_pending: bool,
    pub current: Option<u32>,
    pub target: Option<Target>,
    /// The first item in view, as the list last reported it.
    pub top: Option<u32>,
    /// The item the person reads: the one last chosen (a jump), or the one
    /// at the top after they scrolled since. `None` at the untouched start.
    /// The address names its line.
    pub reading: Option<u32>,
    pub search: Search,
    /// Numbers searches: results of an older one are dropped.
    pub search_serial: u64,
    /// Changes when item ids are renumbered (another idle threshold): the
    /// list's measured heights then mean nothing. The whole file after its
    /// preview keeps the preview's numbers.
    pub numbering: u64,
    /// The insights panel is shown in place of the list.
    pub insights: bool,
}

/// What a key press asks for (outside text fields; without modifiers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    Step(Walk, bool),
    FocusSearch,
    /// `Escape`: clear the search.
    Clear,
    /// `i`: the insights panel, or the list again.
    Insights,
}

/// The keyboard map: `j`/`k` turns, `n`/`N` failures, `/` search, `Esc`,
/// `i` insights.
pub fn key_command(key: &str) -> Option<Key> {
    Some(match key {
        "j" => Key::Step(Walk::Turns, true),
        "k" => Key::Step(Walk::Turns, false),
        "n" => Key::Step(Walk::Failures, true),
        "N" => Key::Step(Walk::Failures, false),
        "/" => Key::FocusSearch,
        "Escape" => Key::Clear,
        "i" => Key::Insights,
        _ => return None,
    })
}

pub enum Action {
    SetFilter(Filter),
    SetIdleGapSecs(u64),
    /// The list at `idle_gap_secs`, built by the glue.
    ViewBuilt { idle_gap_secs: u64, view: Rc<Items> },
    /// Show item `id` (from a link, `#L`, a click).
    Goto(u32),
    Step(Walk, bool),
    /// The list shows item `top` first now; `scrolled`: because the person
    /// scrolled (not a jump holding its item at the top).
    Shown { top: u32, scrolled: bool },
    SearchStart { query: Rc<str> },
    SearchProgress { serial: u64, read_bytes: u64 },
    /// Offsets of matches in the file, ascending, and how many there were.
    SearchDone { serial: u64, offsets: Vec<u64>, matches: u64 },
    SearchClear,
    /// Show the insights panel (`true`) or the list again (`false`, at
    /// the item it last showed first).
    Insights(bool),
    ToggleInsights,
    /// From the insights: the list at item `id`, clearing a filter that
    /// hides it (a mark names that item, not the next one shown).
    Reveal(u32),
    /// From the insights: the list with `filter`, from its first item.
    ShowFiltered(Filter),
    /// The file grew under the view: the preview became the whole file.
    /// Rows and (for the part already shown) items keep their numbers.
    Replace(Rc<Doc>),
}

impl Ui {
    pub fn new(doc: Rc<Doc>) -> Ui {
        let view = doc.view.clone();
        let filter = Filter::default();
        let visible = Rc::new(filter.apply(&doc.index, &view));
        Ui {
            doc,
            view,
            filter,
            visible,
            idle_gap_secs: DEFAULT_IDLE_GAP_SECS,
            view_pending: false,
            current: None,
            target: None,
            top: None,
            reading: None,
            search: Search::Idle,
            search_serial: 0,
            numbering: 0,
            insights: false,
        }
    }

    /// The physical line the current item starts on.
    pub fn current_line(&self) -> Option<u32> {
        self.current.map(|c| self.line_of(c))
    }

    /// The physical line the item the person reads starts on (the address's).
    pub fn reading_line(&self) -> Option<u32> {
        self.reading.map(|r| self.line_of(r))
    }

    fn line_of(&self, id: u32) -> u32 {
        self.doc.index.rows[self.view.items[id as usize].row as usize].line_no
    }

    /// Whether item `id` holds a search match.
    pub fn is_hit(&self, id: u32) -> bool {
        matches!(&self.search, Search::Done { items, .. } if items.binary_search(&id).is_ok())
    }

    fn with(&self, f: impl FnOnce(&mut Ui)) -> Rc<Ui> {
        let mut next = self.clone();
        f(&mut next);
        Rc::new(next)
    }

    /// The visible item at or after `id` (the filter may hide `id` itself).
    fn visible_at_or_after(&self, id: u32) -> Option<u32> {
        let k = self.visible.partition_point(|&v| v < id);
        self.visible.get(k).or_else(|| self.visible.last()).copied()
    }

    fn jump(&mut self, id: u32) {
        let nonce = self.target.map_or(1, |t| t.nonce + 1);
        self.current = Some(id);
        self.reading = Some(id);
        self.target = Some(Target { id, nonce });
    }

    fn walks(&self, walk: Walk, id: u32) -> bool {
        let item = &self.view.items[id as usize];
        match walk {
            Walk::Turns => matches!(item.kind, ItemKind::Turn(_) | ItemKind::User),
            Walk::Failures => item.failed,
            Walk::Hits => self.is_hit(id),
        }
    }

    /// Puts `view` in place, keeping the current item by its row (and, if
    /// `jump`, bringing it to the top again).
    fn set_view(&mut self, view: Rc<Items>, jump: bool) {
        let row = self.current.map(|c| self.view.items[c as usize].row);
        let reading_row = self.reading.map(|r| self.view.items[r as usize].row);
        self.view = view;
        // Item ids of the old view: the item reading holds is found again by its row.
        self.reading = reading_row.and_then(|r| self.view.item_of_row.get(r as usize).copied());
        self.visible = Rc::new(self.filter.apply(&self.doc.index, &self.view));
        self.current = None;
        self.top = None;
        // Hits were item ids of the old view: the search runs again.
        self.search_serial += 1;
        self.search = match &self.search {
            Search::Running { query, .. } | Search::Done { query, .. } => Search::Running { serial: self.search_serial, query: query.clone(), read_bytes: 0 },
            Search::Idle => Search::Idle,
        };
        let id = row.and_then(|r| self.view.item_of_row.get(r as usize).copied()).and_then(|i| self.visible_at_or_after(i));
        match id {
            Some(id) if jump => self.jump(id),
            id => self.current = id,
        }
    }

    /// The next (or previous) item `walk` stops at, from the current item
    /// or, without one, from the first item in view.
    fn step_from(&self, walk: Walk, forward: bool) -> Option<u32> {
        let from = self.current.or(self.top).unwrap_or(0);
        let pos = self.visible.partition_point(|&v| v < from);
        if forward {
            let on_from = self.visible.get(pos) == Some(&from) && self.current.is_some();
            let start = if on_from { pos + 1 } else { pos };
            self.visible[start.min(self.visible.len())..].iter().copied().find(|&id| self.walks(walk, id))
        } else {
            self.visible[..pos].iter().rev().copied().find(|&id| self.walks(walk, id))
        }
    }

    /// Applies `action`; the same `Rc` back when nothing changed (Yew then
    /// skips the render).
    pub fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        match action {
            Action::SetFilter(filter) if filter != self.filter => self.with(|u| {
                u.visible = Rc::new(filter.apply(&u.doc.index, &u.view));
                u.filter = filter;
                if let Some(id) = u.current.and_then(|c| u.visible_at_or_after(c)) {
                    u.jump(id);
                }
            }),
            Action::SetIdleGapSecs(secs) => {
                let secs = secs.clamp(MIN_IDLE_GAP_SECS, MAX_IDLE_GAP_SECS);
                if secs == self.idle_gap_secs {
                    return self;
                }
                self.with(|u| {
                    u.idle_gap_secs = secs;
                    u.view_pending = true;
                })
            }
            Action::ViewBuilt { idle_gap_secs, view } if idle_gap_secs == self.idle_gap_secs => self.with(|u| {
                u.view_pending = false;
                u.numbering += 1;
                u.set_view(view, true);
            }),
            Action::Goto(id) => match self.visible_at_or_after(id) {
                Some(v) => self.with(|u| {
                    u.insights = false;
                    u.jump(v)
                }),
                None if self.insights => self.with(|u| u.insights = false),
                None => self,
            },
            Action::Reveal(id) if self.visible.binary_search(&id).is_err() && (id as usize) < self.view.items.len() => self.with(|u| {
                u.filter = Filter { show_bookkeeping: u.filter.show_bookkeeping || u.view.items[id as usize].kind == ItemKind::Other, ..Filter::default() };
                u.visible = Rc::new(u.filter.apply(&u.doc.index, &u.view));
                u.insights = false;
                u.jump(id);
            }),
            Action::Reveal(id) => self.reduce(Action::Goto(id)),
            Action::ToggleInsights => {
                let on = !self.insights;
                self.reduce(Action::Insights(on))
            }
            Action::Insights(on) if on != self.insights => self.with(|u| {
                u.insights = on;
                if let (false, Some(top)) = (on, u.top) {
                    u.jump(top);
                    u.current = None;
                }
            }),
            Action::ShowFiltered(filter) => self.with(|u| {
                u.visible = Rc::new(filter.apply(&u.doc.index, &u.view));
                u.filter = filter;
                u.insights = false;
                if let Some(&first) = u.visible.first() {
                    u.jump(first);
                }
                // Shown from the top, with no item chosen yet.
                u.current = None;
            }),
            Action::Step(walk, forward) => match self.step_from(walk, forward) {
                Some(id) => self.with(|u| {
                    u.jump(id);
                    if let (Search::Done { items, at, .. }, Walk::Hits) = (&mut u.search, walk) {
                        *at = items.binary_search(&id).ok();
                    }
                }),
                None => self,
            },
            Action::Shown { top, scrolled } if self.top != Some(top) => self.with(|u| {
                // (A first report of the first item is the list's start, not a scroll.)
                let start = u.top.is_none() && u.visible.first() == Some(&top);
                if scrolled && !start {
                    u.reading = Some(top);
                }
                u.top = Some(top);
            }),
            Action::SearchStart { query } => self.with(|u| {
                u.search_serial += 1;
                u.search = Search::Running { serial: u.search_serial, query, read_bytes: 0 };
            }),
            Action::SearchProgress { serial, read_bytes } => match &self.search {
                Search::Running { serial: s, query, .. } if *s == serial => {
                    let query = query.clone();
                    self.with(|u| u.search = Search::Running { serial, query, read_bytes })
                }
                _ => self,
            },
            Action::SearchDone { serial, offsets, matches } => {
                let query = match &self.search {
                    Search::Running { serial: s, query, .. } if *s == serial => query.clone(),
                    _ => return self,
                };
                self.with(|u| {
                    let mut items: Vec<u32> = offsets.iter().filter_map(|&o| u.view.item_at_offset(&u.doc.index, o)).collect();
                    items.sort_unstable();
                    items.dedup();
                    // The first hit from where the person is (a line they were
                    // sent to), else from the top.
                    let from = u.current.unwrap_or(0);
                    let visible_hit = |id: &u32| u.visible.binary_search(id).is_ok();
                    let first = items.iter().copied().find(|id| *id >= from && visible_hit(id)).or_else(|| items.iter().copied().find(visible_hit));
                    let at = first.and_then(|f| items.binary_search(&f).ok());
                    u.search = Search::Done { query, items: Rc::new(items), matches, at };
                    if let Some(id) = first {
                        u.jump(id);
                    }
                })
            }
            Action::SearchClear if self.search != Search::Idle => self.with(|u| {
                u.search_serial += 1;
                u.search = Search::Idle;
            }),
            Action::Replace(doc) => self.with(|u| {
                let view = doc.view.clone();
                u.doc = doc;
                // The doc's view is at the default threshold; another one is rebuilt.
                u.view_pending = u.idle_gap_secs != DEFAULT_IDLE_GAP_SECS;
                // The person is reading: the place stays, nothing scrolls.
                u.set_view(view, false);
            }),
            _ => self,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::Indexer;
    use crate::state::doc::FileId;
    use crate::model::items::RoleFilter;

    /// A prompt, a turn with a failing call, its result, an idle gap of an
    /// hour, a prompt, a turn, and a bookkeeping record.
    const TEXT: &str = concat!(
        r#"{"type":"user","uuid":"u1","timestamp":"2026-01-01T10:00:00Z","message":{"role":"user","content":"build it"}}"#, "\n",
        r#"{"type":"assistant","uuid":"a1","timestamp":"2026-01-01T10:00:05Z","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"make"}}]}}"#, "\n",
        r#"{"type":"user","uuid":"u2","timestamp":"2026-01-01T10:00:09Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","is_error":true,"content":"boom"}]}}"#, "\n",
        r#"{"type":"user","uuid":"u3","timestamp":"2026-01-01T11:00:00Z","message":{"role":"user","content":"try again"}}"#, "\n",
        r#"{"type":"assistant","uuid":"a2","timestamp":"2026-01-01T11:00:05Z","message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"done"}]}}"#, "\n",
        r#"{"type":"last-prompt","lastPrompt":"try again"}"#, "\n",
    );

    fn ui() -> Rc<Ui> {
        let ix = Indexer::index_bytes(TEXT.as_bytes());
        let doc = Doc::build(FileId(0), "t.jsonl", TEXT.len() as u64, Rc::from(TEXT.as_bytes()), ix, true);
        Rc::new(Ui::new(Rc::new(doc)))
    }

    fn kinds(u: &Ui) -> Vec<String> {
        u.visible.iter().map(|&i| format!("{:?}", u.view.items[i as usize].kind).chars().take_while(|c| c.is_alphabetic()).collect()).collect()
    }

    fn line_of(u: &Ui, id: Option<u32>) -> Option<u32> {
        id.map(|i| u.doc.index.rows[u.view.items[i as usize].row as usize].line_no)
    }

    #[test]
    fn keys_map_to_walks() {
        assert_eq!(key_command("j"), Some(Key::Step(Walk::Turns, true)));
        assert_eq!(key_command("N"), Some(Key::Step(Walk::Failures, false)));
        assert_eq!(key_command("/"), Some(Key::FocusSearch));
        assert_eq!(key_command("Escape"), Some(Key::Clear));
        assert_eq!(key_command("x"), None);
    }

    #[test]
    fn the_list_hides_bookkeeping_and_marks_the_hour_away() {
        let u = ui();
        assert_eq!(kinds(&u), ["User", "Turn", "Idle", "User", "Turn"]);
        let with_bk = u.clone().reduce(Action::SetFilter(Filter { show_bookkeeping: true, ..Filter::default() }));
        assert_eq!(kinds(&with_bk).last().map(String::as_str), Some("Other"));
    }

    #[test]
    fn walks_turns_and_failures_from_the_top_of_the_view() {
        let u = ui();
        let u = u.reduce(Action::Step(Walk::Turns, true));
        assert_eq!(line_of(&u, u.current), Some(1), "the first prompt");
        let u = u.reduce(Action::Step(Walk::Turns, true));
        assert_eq!(line_of(&u, u.current), Some(2), "then the turn");
        let u = u.reduce(Action::Step(Walk::Turns, false));
        assert_eq!(line_of(&u, u.current), Some(1));
        let before = u.clone();
        let u = u.reduce(Action::Step(Walk::Turns, false));
        assert!(Rc::ptr_eq(&u, &before), "nothing before the first: no change, no render");
        let u = u.reduce(Action::Step(Walk::Failures, true));
        assert_eq!(line_of(&u, u.current), Some(2), "the turn whose call failed");
        assert!(u.reduce(Action::Step(Walk::Failures, true)).current.is_some());
        // Without a current item the walk starts where the list shows.
        let fresh = ui().reduce(Action::Shown { top: 3, scrolled: true });
        let stepped = fresh.reduce(Action::Step(Walk::Turns, true));
        assert_eq!(line_of(&stepped, stepped.current), Some(4));
        let nonces: Vec<u64> = [Action::Goto(0), Action::Goto(0)].into_iter().scan(ui(), |u, a| {
            *u = u.clone().reduce(a);
            u.target.map(|t| t.nonce)
        }).collect();
        assert_eq!(nonces, [1, 2], "a repeated jump is a new request");
    }

    #[test]
    fn a_filter_keeps_the_place_on_the_next_visible_item() {
        let u = ui().reduce(Action::Goto(0));
        let u = u.reduce(Action::SetFilter(Filter { role: RoleFilter::Assistant, ..Filter::default() }));
        assert_eq!(kinds(&u), ["Turn", "Turn"]);
        assert_eq!(line_of(&u, u.current), Some(2));
        let same = u.clone().reduce(Action::SetFilter(u.filter.clone()));
        assert!(Rc::ptr_eq(&same, &u));
    }

    #[test]
    fn search_results_map_to_items_and_stale_ones_are_dropped() {
        let u = ui().reduce(Action::SearchStart { query: "again".into() });
        let Search::Running { serial, .. } = u.search else { panic!("running") };
        let again = TEXT.find("try again").unwrap() as u64;
        let last_prompt = TEXT.rfind("try again").unwrap() as u64;
        // A newer search makes the first one's answer stale.
        let newer = u.clone().reduce(Action::SearchStart { query: "boom".into() });
        let dropped = newer.clone().reduce(Action::SearchDone { serial, offsets: vec![again], matches: 1 });
        assert!(Rc::ptr_eq(&dropped, &newer));
        let done = u.reduce(Action::SearchDone { serial, offsets: vec![again, again + 2, last_prompt], matches: 3 });
        let Search::Done { items, matches, at, .. } = &done.search else { panic!("done") };
        assert_eq!((items.len(), *matches, *at), (2, 3, Some(0)), "two items; the bookkeeping one is hidden");
        assert_eq!(line_of(&done, done.current), Some(4), "jumps to the first visible hit");
        assert!(done.is_hit(done.current.unwrap()));
        let cleared = done.reduce(Action::SearchClear);
        assert_eq!(cleared.search, Search::Idle);
    }

    #[test]
    fn the_reading_place_survives_a_renumbering() {
        let u = ui().reduce(Action::Shown { top: 0, scrolled: true }).reduce(Action::Shown { top: 4, scrolled: true });
        let line = u.reading_line();
        assert!(line.is_some() && u.current.is_none());
        let u = u.reduce(Action::SetIdleGapSecs(2 * 3600));
        let built = Rc::new(Items::build(&u.doc.index, 2 * 3600));
        let u = u.reduce(Action::ViewBuilt { idle_gap_secs: 2 * 3600, view: built });
        assert_eq!(u.reading, Some(3), "one item fewer before it (the idle row is gone)");
        assert_eq!(u.reading_line(), line, "the same line");
    }

    #[test]
    fn another_idle_threshold_is_built_outside_and_keeps_the_place() {
        let u = ui().reduce(Action::Goto(3));
        let line = line_of(&u, u.current);
        let u = u.reduce(Action::SetIdleGapSecs(2 * 3600));
        assert!(u.view_pending);
        assert_eq!(kinds(&u), ["User", "Turn", "Idle", "User", "Turn"], "the old list stays until the new one is built");
        // An answer for another threshold (an older request) is ignored.
        let stale = u.clone().reduce(Action::ViewBuilt { idle_gap_secs: 600, view: Rc::new(Items::build(&u.doc.index, 600)) });
        assert!(Rc::ptr_eq(&stale, &u));
        let built = Rc::new(Items::build(&u.doc.index, 2 * 3600));
        let u = u.reduce(Action::ViewBuilt { idle_gap_secs: 2 * 3600, view: built });
        assert!(!u.view_pending);
        assert_eq!(u.numbering, 1, "items were renumbered");
        assert_eq!(kinds(&u), ["User", "Turn", "User", "Turn"], "an hour is no longer idle");
        assert_eq!(line_of(&u, u.current), line, "same line, new item number");
        assert_eq!(u.clone().reduce(Action::SetIdleGapSecs(1)).idle_gap_secs, MIN_IDLE_GAP_SECS);
        assert_eq!(u.reduce(Action::SetIdleGapSecs(u64::MAX)).idle_gap_secs, MAX_IDLE_GAP_SECS);
    }

    #[test]
    fn the_whole_file_replaces_its_preview_in_place() {
        let preview_len = TEXT.find("\n{\"type\":\"user\",\"uuid\":\"u3\"").unwrap() + 1;
        let head: Rc<[u8]> = Rc::from(&TEXT.as_bytes()[..preview_len]);
        let ix = Indexer::index_bytes(&head);
        let preview = Rc::new(Doc::build(FileId(0), "t.jsonl", TEXT.len() as u64, head, ix, false));
        let u = Rc::new(Ui::new(preview)).reduce(Action::Goto(1));
        assert_eq!(kinds(&u), ["User", "Turn"]);
        let whole = ui().doc.clone();
        let u = u.reduce(Action::Replace(whole));
        assert_eq!(kinds(&u), ["User", "Turn", "Idle", "User", "Turn"]);
        assert_eq!(line_of(&u, u.current), Some(2), "still on the turn");
        let searching = u.clone().reduce(Action::SearchStart { query: "again".into() });
        let again = searching.reduce(Action::Replace(ui().doc.clone()));
        assert!(matches!(&again.search, Search::Running { query, .. } if &**query == "again"), "a search runs again on the new view");
        assert!(!u.view_pending);
        assert_eq!(u.numbering, 0, "the preview's items keep their numbers");
    }

    #[test]
    fn the_address_follows_the_reading_position() {
        let u = ui().reduce(Action::Shown { top: 0, scrolled: true });
        assert_eq!(u.reading_line(), None, "the untouched start names no line");
        let scrolled = u.reduce(Action::Shown { top: 3, scrolled: true });
        assert_eq!(scrolled.reading, Some(3), "scrolled by the person: the top item");
        let chosen = scrolled.reduce(Action::Goto(1));
        assert_eq!(chosen.reading, Some(1), "a jump: the chosen item");
        assert_eq!(chosen.reading_line(), chosen.current_line());
        let first_seen_scrolled = ui().reduce(Action::Shown { top: 3, scrolled: true });
        assert_eq!(first_seen_scrolled.reading, Some(3), "the first report, already scrolled: the person's place");
        let held = chosen.reduce(Action::Shown { top: 0, scrolled: false });
        assert_eq!(held.reading, Some(1), "a jump moving the list is not the person scrolling");
        assert_eq!(held.top, Some(0));
    }

    #[test]
    fn insights_links_open_the_list_where_they_point() {
        let u = ui().reduce(Action::Shown { top: 3, scrolled: true }).reduce(Action::Insights(true));
        assert!(u.insights);
        let back = u.clone().reduce(Action::Insights(false));
        assert!(!back.insights);
        assert_eq!(back.target.map(|t| t.id), Some(3), "the list comes back where it was");
        let bash = u.doc.index.strings.get("Bash").unwrap();
        let failing = u.clone().reduce(Action::ShowFiltered(Filter { tool: Some(bash), failures_only: true, ..Filter::default() }));
        assert!(!failing.insights);
        assert_eq!(kinds(&failing), ["Turn"], "the one turn whose Bash call failed");
        assert_eq!(failing.target.map(|t| t.id), failing.visible.first().copied());
        let clicked = u.reduce(Action::Goto(4));
        assert!(!clicked.insights && clicked.current == Some(4), "a mark's click shows its item");
        let prompts = failing.reduce(Action::Insights(true)).reduce(Action::Reveal(0));
        assert_eq!((prompts.current, prompts.filter.narrows()), (Some(0), false), "a filter that hides the mark's item is cleared");
    }
}
