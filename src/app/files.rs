//! The files the person picked, held by the app; state and logic name them
//! by [`FileId`]. Append-only for the page's lifetime (a `File` is a
//! reference to the file on disk, not its bytes).

use std::cell::RefCell;
use std::rc::Rc;

use web_sys::Blob;

use crate::state::FileId;

#[derive(Clone, Default)]
pub struct Files(Rc<RefCell<Vec<Blob>>>);

impl PartialEq for Files {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl Files {
    pub fn add(&self, blob: Blob) -> FileId {
        let mut v = self.0.borrow_mut();
        v.push(blob);
        FileId(v.len() as u32 - 1)
    }

    pub fn get(&self, id: FileId) -> Option<Blob> {
        self.0.borrow().get(id.0 as usize).cloned()
    }
}
