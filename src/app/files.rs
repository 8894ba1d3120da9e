//! The files the person picked, held by the app; state and logic name them
//! by [`FileId`]. Append-only for the page's lifetime (a `File` is a
//! reference to the file on disk, not its bytes). A file opened through a
//! File System Access handle keeps its handle: it can be looked at again as
//! it grows (`follow`), and its `File` is then the newest one (an older
//! `File` of a changed file may no longer be readable).

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::JsValue;
use web_sys::Blob;

use crate::state::FileId;

struct Held {
    blob: Blob,
    handle: Option<JsValue>,
}

#[derive(Clone, Default)]
pub struct Files(Rc<RefCell<Vec<Held>>>);

impl PartialEq for Files {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl Files {
    /// A file and (when it came through one) its handle.
    pub fn add_with(&self, blob: Blob, handle: Option<JsValue>) -> FileId {
        let mut v = self.0.borrow_mut();
        v.push(Held { blob, handle });
        FileId(v.len() as u32 - 1)
    }

    pub fn get(&self, id: FileId) -> Option<Blob> {
        self.0.borrow().get(id.0 as usize).map(|h| h.blob.clone())
    }

    pub fn handle(&self, id: FileId) -> Option<JsValue> {
        self.0.borrow().get(id.0 as usize).and_then(|h| h.handle.clone())
    }

    /// The file as it is now (read again through its handle).
    pub fn renew(&self, id: FileId, blob: Blob) {
        if let Some(h) = self.0.borrow_mut().get_mut(id.0 as usize) {
            h.blob = blob;
        }
    }
}
