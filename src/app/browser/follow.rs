//! Following a folder opened through handles while Claude Code writes in
//! it: listed again in the worker every few seconds while the tab is shown
//! and following is on. New conversations appear, grown or changed ones
//! (a new run, a deletion marker) are summed again from where they grew,
//! removed ones leave the list (`state::browser::Browser::relisted`).

use std::cell::Cell;
use std::collections::HashMap;
use std::rc::Rc;

use wasm_bindgen::{JsCast, JsValue};
use yew::Callback;

use super::tasks;
use crate::app::files::Files;
use crate::app::task::{now_ms, Cancel};
use crate::app::worker::{Client, Reply};
use crate::folder::{Entry, Tree};
use crate::state::state::Action;
use crate::state::FileId;

/// The shortest wait between two listings.
const CHECK_MS: f64 = 2000.0;
/// A listing takes at most this share of the time (a big tree is listed
/// less often): the wait is this many times the last listing's length.
const WAIT_PER_LISTING: f64 = 10.0;

pub struct FollowedFolder {
    /// The folders picked (their handles).
    pub dirs: Vec<JsValue>,
    /// The tree as listed last, and the app's file for each entry.
    pub tree: Rc<Tree>,
    pub ids: Vec<FileId>,
    pub files: Files,
    pub client: Client,
    pub send: Callback<Action>,
    /// Set by a newer pick.
    pub cancel: Cancel,
    /// The person's "Follow" toggle.
    pub on: Rc<Cell<bool>>,
    /// Conversations (by path) to sum again: their last summing failed
    /// while their file was being written.
    pub retry: Vec<String>,
}

impl FollowedFolder {
    /// Every file under the folders now: path, `File`, handle; `None` when
    /// a listing failed or was cancelled (tried again at the next check).
    async fn list(&self) -> Option<Vec<(String, web_sys::File, JsValue)>> {
        let mut out = Vec::new();
        for dir in &self.dirs {
            let mut job = self.client.walk(dir).ok()?;
            loop {
                match job.next().await.ok()? {
                    Reply::Listed { files, handles, paths, .. } => {
                        for ((f, h), path) in files.iter().zip(handles.iter()).zip(paths) {
                            out.push((path, f.dyn_into().ok()?, h));
                        }
                    }
                    Reply::Done => break,
                    _ => {}
                }
                if self.cancel.is_cancelled() {
                    return None;
                }
            }
        }
        crate::sort::by(&mut out, |a, b| a.0.cmp(&b.0));
        Some(out)
    }

    pub async fn run(mut self) {
        let mut wait_ms = CHECK_MS;
        loop {
            gloo::timers::future::TimeoutFuture::new(wait_ms as u32).await;
            if self.cancel.is_cancelled() {
                return;
            }
            if !self.on.get() || !crate::app::task::page_shown() {
                continue;
            }
            let started = now_ms();
            let Some(listed) = self.list().await else { continue };
            wait_ms = CHECK_MS.max(WAIT_PER_LISTING * (now_ms() - started));
            if self.cancel.is_cancelled() {
                return;
            }
            let known: HashMap<&str, u32> = self.tree.entries.iter().enumerate().map(|(k, e)| (e.path.as_str(), k as u32)).collect();
            let (mut entries, mut ids) = (Vec::with_capacity(listed.len()), Vec::with_capacity(listed.len()));
            for (path, file, handle) in listed {
                let modified = file.last_modified();
                let entry = Entry { path, size_bytes: file.size() as u64, modified_ms: (modified > 0.0).then_some(modified as i64) };
                // A file keeps its number; a changed one gets its newest `File`.
                let id = match known.get(entry.path.as_str()) {
                    Some(&k) => {
                        let id = self.ids[k as usize];
                        if *self.tree.entry(k) != entry {
                            self.files.renew(id, file.into());
                        }
                        id
                    }
                    None => self.files.add_with(file.into(), Some(handle)),
                };
                entries.push(entry);
                ids.push(id);
            }
            let mut order = Vec::new();
            if entries != self.tree.entries {
                let tree = Tree::build(entries);
                order = tree.unchanged_since(&self.tree).iter().enumerate().filter(|(_, k)| k.is_none()).map(|(c, _)| c as u32).collect();
                self.send.emit(Action::Relisted { tree: tree.clone(), files: ids.clone() });
                (self.tree, self.ids) = (Rc::new(tree), ids);
            }
            // And those whose last summing did not come back.
            for path in std::mem::take(&mut self.retry) {
                if let Ok(c) = self.tree.conversations.binary_search_by(|c| c.path.cmp(&path)) {
                    if !order.contains(&(c as u32)) {
                        order.push(c as u32);
                    }
                }
            }
            if !order.is_empty() {
                let answered = tasks::resum(&self.tree, &self.ids, &self.files, &self.client, &self.send, &self.cancel, order.clone()).await;
                self.retry = order.iter().filter(|c| !answered.contains(c)).map(|&c| self.tree.conversations[c as usize].path.clone()).collect();
            }
        }
    }
}
