//! What the app's callbacks share, and the work they start: opening a
//! pick, a folder's survey and searches, walking a dropped folder, going to a
//! conversation and following the address.

use std::rc::Rc;

use yew::Callback;

use super::address;
use super::browser;
use super::files::Files;
use super::follow;
use super::handles;
use super::remembered;
use super::listing::{self, PickedFile};
use super::open::{self, Source};
use super::task::Cancel;
use super::worker;
use crate::folder::Tree;
use crate::state::browser::{Browser, OpenAt};
use crate::state::state::{Action, Route};
use crate::state::doc::FileId;

/// What the app's callbacks share: the state's dispatcher, the files, the
/// worker, and the cancel flags of the work under way.
#[derive(Clone)]
pub struct Hub {
    pub send: Callback<Action>,
    pub files: Files,
    pub client: worker::Client,
    /// The read of the file on screen.
    pub reading: Rc<std::cell::RefCell<Cancel>>,
    /// The folder's survey and search, and the walk of a dropped folder.
    pub survey: Rc<std::cell::RefCell<Cancel>>,
    pub walk: Rc<std::cell::RefCell<Cancel>>,
    pub search: Rc<std::cell::RefCell<Cancel>>,
    /// Redaction is on: addresses name files by number, not path.
    pub opaque: Rc<std::cell::Cell<bool>>,
    /// Where the session list was scrolled when a conversation opened from it.
    pub list_scroll: Rc<std::cell::Cell<f64>>,
    /// The "Follow" toggle: a file opened through a handle is followed as it grows.
    pub follow_on: Rc<std::cell::Cell<bool>>,
}

impl PartialEq for Hub {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.reading, &other.reading)
    }
}

/// A followed folder's conversations written to within this long are likely
/// still growing: the worker keeps their indexers from the first survey.
const RECENT_MS: i64 = 3600 * 1000;
const RECENT_KEPT: usize = 16;

/// Cancels what `slot` holds and puts a fresh flag there.
fn renew(slot: &std::cell::RefCell<Cancel>) -> Cancel {
    let fresh = Cancel::default();
    std::mem::replace(&mut *slot.borrow_mut(), fresh.clone()).cancel();
    fresh
}

impl Hub {
    pub fn open(&self, source: Source) {
        let cancel = renew(&self.reading);
        let o = open::Opening { cancel: cancel.clone(), send: self.send.clone(), client: self.client.clone(), files: self.files.clone() };
        let hub = self.clone();
        yew::platform::spawn_local(async move {
            // A file opened through a handle is followed as it grows.
            let Some((doc, handle)) = o.run(source).await else { return };
            let h = hub.clone();
            let reopen = Callback::from(move |s: Source| h.open(s));
            let f = follow::Following { doc, handle, files: hub.files.clone(), send: hub.send.clone(), cancel, on: hub.follow_on.clone(), reopen };
            f.run().await;
        });
    }

    /// The person turned following on or off.
    pub fn set_follow(&self, on: bool) {
        self.follow_on.set(on);
        self.send.emit(Action::FollowSet(on));
    }

    /// A folder (or several files) was picked: list it at once, then sum
    /// its conversations up in the worker. Picked through handles (`dirs`:
    /// the folders), it is then followed as Claude Code writes in it.
    pub fn open_folder(&self, picked: Vec<PickedFile>, name: String, dirs: Vec<wasm_bindgen::JsValue>) {
        renew(&self.reading);
        renew(&self.search);
        let survey = renew(&self.survey);
        let (entries, files): (Vec<_>, Vec<_>) = picked.into_iter().map(|p| (p.entry, self.files.add_with(p.file.into(), p.handle))).unzip();
        let mut folder = Browser::new(&name, Tree::build(entries), files);
        folder.followed = !dirs.is_empty();
        let folder = Rc::new(folder);
        // A link opened before the pick (`#/<path>:L<n>`) opens its file
        // there once the folder holding it is picked.
        let wanted = address::parse(&address::current());
        self.send.emit(Action::FolderPicked(folder.clone()));
        address::push("/");
        // (A new history entry: Back returns to the list.)
        if let Some(at) = wanted.and_then(|(target, line)| Self::at(&folder, &target, line)) {
            let _ = self.open_at(&folder, &at, true);
        }
        // Followed: the worker keeps the indexers of the conversations
        // written to in the last hour (likely still growing), a few at most.
        let keep = if folder.followed { folder.recent(js_sys::Date::now() as i64 - RECENT_MS, RECENT_KEPT) } else { Vec::new() };
        let (files, client, send, on) = (self.files.clone(), self.client.clone(), self.send.clone(), self.follow_on.clone());
        yew::platform::spawn_local(async move {
            browser::tasks::survey(folder.clone(), files.clone(), client.clone(), send.clone(), survey.clone(), keep).await;
            if !dirs.is_empty() && !survey.is_cancelled() {
                let f = browser::follow::FollowedFolder { dirs, tree: folder.tree.clone(), ids: (*folder.files).clone(), files, client, send, cancel: survey, on, retry: Vec::new() };
                f.run().await;
            }
        });
    }

    /// Walks a dropped folder, then opens it; the entries it could not read
    /// are named.
    pub async fn walk(&self, entries: Vec<wasm_bindgen::JsValue>, opened: Callback<(Vec<PickedFile>, bool)>) {
        let cancel = renew(&self.walk);
        let send = self.send.clone();
        send.emit(Action::Listing(Some(0)));
        let (picked, unreadable) = listing::walk(entries, &cancel, |n| send.emit(Action::Listing(Some(n)))).await;
        if cancel.is_cancelled() {
            return;
        }
        send.emit(Action::Listing(None));
        if !unreadable.is_empty() {
            let n = unreadable.len() as u64;
            let named: Vec<&str> = unreadable.iter().take(5).map(String::as_str).collect();
            let text = format!("{} of the dropped folder could not be read and {} left out: {}", crate::fmt::plural(n, "entry", "entries"), crate::fmt::agree(n, "was", "were"), named.join(", "));
            send.emit(Action::Notice(text.into()));
        }
        if !picked.is_empty() {
            opened.emit((picked, true));
        }
    }

    /// Files or folders picked, dropped or reopened through handles: each is
    /// remembered; one file opens on its own (and is followed as it
    /// grows), folders are listed in the worker and open with the files
    /// beside them as one folder.
    pub async fn open_handles(&self, picked: Vec<wasm_bindgen::JsValue>) {
        for h in &picked {
            remembered::keep(h).await;
        }
        let (folders, files): (Vec<_>, Vec<_>) = picked.into_iter().partition(handles::is_folder);
        let folders_opened = folders.clone();
        if let ([], [one]) = (folders.as_slice(), files.as_slice()) {
            match handles::file_of(one).await {
                Ok(file) => self.open(Source::Handle { file, handle: one.clone() }),
                Err(why) => self.send.emit(Action::Failed { name: handles::name(one).into(), message: format!("The browser could not read this file: {why}.").into() }),
            }
            return;
        }
        let mut out = Vec::new();
        for h in files {
            if let Ok(f) = handles::file_of(&h).await {
                let name = f.name();
                out.push(listing::entry_of(f, name, Some(h)));
            }
        }
        let cancel = renew(&self.walk);
        let send = self.send.clone();
        send.emit(Action::Listing(Some(0)));
        let mut unreadable = Vec::new();
        for dir in folders {
            let Ok(mut job) = self.client.walk(&dir) else { continue };
            let (client, id) = (self.client.clone(), job.id());
            cancel.on_cancel(move || client.cancel(id));
            loop {
                let reply = job.next().await;
                if cancel.is_cancelled() {
                    return;
                }
                match reply {
                    Ok(worker::Reply::Listed { files, handles, paths, unreadable: lost }) => {
                        for ((f, h), path) in files.iter().zip(handles.iter()).zip(paths) {
                            if let Ok(f) = wasm_bindgen::JsCast::dyn_into::<web_sys::File>(f) {
                                out.push(listing::entry_of(f, path, Some(h)));
                            }
                        }
                        unreadable.extend(lost);
                    }
                    Ok(worker::Reply::Progress(n)) => send.emit(Action::Listing(Some(out.len().max(n as usize)))),
                    Ok(worker::Reply::Done) | Err(_) => break,
                    Ok(_) => {}
                }
            }
        }
        send.emit(Action::Listing(None));
        if !unreadable.is_empty() {
            let n = unreadable.len() as u64;
            let named: Vec<&str> = unreadable.iter().take(5).map(String::as_str).collect();
            send.emit(Action::Notice(format!("{} could not be read and {} left out: {}", crate::fmt::plural(n, "entry", "entries"), crate::fmt::agree(n, "was", "were"), named.join(", ")).into()));
        }
        if !out.is_empty() {
            crate::sort::by(&mut out, |a, b| a.entry.path.cmp(&b.entry.path));
            let name = listing::name_of(&out);
            self.open_folder(out, name, folders_opened);
        }
    }

    /// A remembered file or folder: the browser asks the person to let the
    /// page read it again (this runs from their click), then it opens.
    pub async fn reopen(&self, handle: wasm_bindgen::JsValue) {
        if handles::permitted(&handle, true).await {
            self.open_handles(vec![handle]).await;
        } else {
            self.send.emit(Action::Notice(format!("The browser did not allow reading {} again; pick it once more to open it.", handles::name(&handle)).into()));
        }
    }

    pub fn cancel_walk(&self) {
        renew(&self.walk);
        self.send.emit(Action::Listing(None));
    }

    pub fn search_folder(&self, folder: Rc<Browser>, query: String, scope: crate::state::browser::Scope) {
        let cancel = renew(&self.search);
        if query.is_empty() {
            return self.send.emit(Action::FolderSearchClear);
        }
        yew::platform::spawn_local(browser::tasks::search(folder, self.files.clone(), self.client.clone(), query.into(), scope, self.send.clone(), cancel));
    }

    /// Opens a conversation of the folder (or one of its runs) at a line;
    /// returns the file it opens (`None`: `folder` does not hold it).
    pub fn open_at(&self, folder: &Browser, at: &OpenAt, push: bool) -> Option<FileId> {
        // Leaving the list (it is on screen): keep its place for the way back.
        let doc = web_sys::window().and_then(|w| Some((w.document()?, w)));
        if let Some((d, w)) = doc {
            if d.query_selector(".browser-slot:not([hidden])").ok().flatten().is_some() {
                self.list_scroll.set(w.scroll_y().unwrap_or(0.0));
            }
        }
        let entry = folder.file_of(at.conv, at.run.as_deref());
        let (entry, file) = entry.and_then(|e| Some((e, *folder.files.get(e as usize)?)))?;
        let path = &folder.tree.entry(entry).path;
        let hash = address::of(path, entry, self.opaque.get(), at.line);
        if push {
            address::push(&hash);
        } else {
            address::replace(&hash);
        }
        self.send.emit(Action::Navigate(Route::Conversation { conv: at.conv, run: at.run.clone() }));
        let name = crate::fmt::file_name(&path).into();
        self.open(Source::Known { file, name });
        Some(file)
    }

    /// Follows the address: `#/` the list, `#/<path>[:L<n>]` (or
    /// `#/~<entry>[:L<n>]`) a conversation.
    pub fn follow(&self, folder: &Browser, route: &Route) {
        let Some((target, line)) = address::parse(&address::current()) else { return };
        if target == address::Target::Path(String::new()) {
            return self.send.emit(Action::Navigate(Route::Browser));
        }
        if let Some(at) = Self::at(folder, &target, line) {
            if *route != (Route::Conversation { conv: at.conv, run: at.run.clone() }) {
                let _ = self.open_at(folder, &at, false);
            }
        }
    }

    /// Where in `folder` an address's `target` and `line` point.
    fn at(folder: &Browser, target: &address::Target, line: Option<u32>) -> Option<OpenAt> {
        let (conv, run) = folder.owner_of(folder.entry_of(target)?)?;
        Some(OpenAt { conv, run: run.map(Rc::from), line, highlight: None })
    }
}

