//! Following the conversation on screen while Claude Code writes it: a file
//! opened through a handle is looked at about once a second while the tab
//! is visible and following is on (`getFile()`: its size and date). When it
//! grew, only the appended bytes are read and pushed through the same
//! indexer ([`crate::index::follow::Tail`]); the document is built again
//! from the longer index and handed to the mounted viewer, which keeps its
//! place. A hidden tab is not looked at; the first check after it shows
//! again reads everything appended meanwhile.

use std::cell::Cell;
use std::rc::Rc;

use wasm_bindgen::{JsCast, JsValue};
use yew::Callback;

use super::blob::read_range;
use super::files::Files;
use super::handles;
use super::open::Source;
use super::task::{yield_to_page, Cancel};
use crate::index::follow::{Change, Restart, Tail};
use crate::model::items::Items;
use crate::model::{Stats, DEFAULT_IDLE_GAP_SECS};
use crate::state::live::{Live, CHECK_MS};
use crate::state::state::Action;
use crate::state::Doc;

/// A conversation to follow, as it was first shown.
pub struct Following {
    pub doc: Rc<Doc>,
    pub handle: JsValue,
    pub files: Files,
    pub send: Callback<Action>,
    /// Set by a newer pick: following ends.
    pub cancel: Cancel,
    /// The person's toggle.
    pub on: Rc<Cell<bool>>,
    /// Reads the file whole again (it shrank or was replaced).
    pub reopen: Callback<Source>,
}

impl Following {
    fn send(&self, a: Action) -> bool {
        if self.cancel.is_cancelled() {
            return false;
        }
        self.send.emit(a);
        true
    }

    /// Checks until a newer pick, the file vanishing, or a restart.
    pub async fn run(self) {
        let mut doc = self.doc.clone();
        let mut live = Live { open_line_bytes: 0, now_ms: js_sys::Date::now() as i64, gone: None };
        if !self.send(Action::Live(Some(live.clone()))) {
            return;
        }
        let mut tail: Option<Tail> = None;
        // The file as first read: what a check compares with.
        let first_read = self.files.get(doc.file).and_then(|b| b.dyn_into::<web_sys::File>().ok());
        let mut seen = first_read.map_or((doc.size_bytes, 0.0), |f| (f.size() as u64, f.last_modified()));
        loop {
            gloo::timers::future::TimeoutFuture::new(CHECK_MS).await;
            if self.cancel.is_cancelled() {
                return;
            }
            if !self.on.get() || !crate::app::task::page_shown() {
                continue;
            }
            let file = match handles::file_of(&self.handle).await {
                Ok(f) => f,
                Err(why) => {
                    live.gone = Some(why);
                    self.send(Action::Live(Some(live)));
                    return;
                }
            };
            let now = (file.size() as u64, file.last_modified());
            live.now_ms = js_sys::Date::now() as i64;
            if now == seen {
                // Nothing new; a running call's clock still moves.
                if !doc.running.is_empty() {
                    self.send(Action::Live(Some(live.clone())));
                }
                continue;
            }
            let t = tail.get_or_insert_with(|| Tail::resume(doc.index.clone(), &doc.head));
            let mut change = t.change(now.0);
            // A read can fail while the file is being written (the `File`
            // is then out of date): the next check tries again.
            if !matches!(change, Change::Restart(_)) {
                let Ok(first) = read_range(&file, 0, t.head().len() as u64).await else { continue };
                if !t.same_head(&first) {
                    change = Change::Restart(Restart::Rewritten);
                }
            }
            match change {
                Change::Same => {}
                Change::Grew { from, to } => match read_range(&file, from, to).await {
                    Ok(bytes) => t.push(&bytes),
                    Err(_) => continue,
                },
                Change::Restart(why) => {
                    self.files.renew(doc.file, file.into());
                    self.send(Action::Notice(format!("{}: {why}.", doc.name).into()));
                    if !self.cancel.is_cancelled() {
                        self.reopen.emit(Source::Known { file: doc.file, name: doc.name.clone() });
                    }
                    return;
                }
            }
            seen = now;
            self.files.renew(doc.file, file.into());
            live.open_line_bytes = t.open_line_bytes();
            let ix = t.settled();
            if ix.len_bytes != doc.index.len_bytes {
                // Built as a first read is, a step per task.
                let stats = Stats::compute(&ix, DEFAULT_IDLE_GAP_SECS);
                yield_to_page().await;
                let view = Items::build(&ix, DEFAULT_IDLE_GAP_SECS);
                yield_to_page().await;
                let grown = Rc::new(Doc::with_view(doc.file, &doc.name, now.0, doc.head.clone(), ix, stats, view, true));
                if !self.send(Action::Grew(grown.clone())) {
                    return;
                }
                doc = grown;
            }
            self.send(Action::Live(Some(live.clone())));
        }
    }
}
