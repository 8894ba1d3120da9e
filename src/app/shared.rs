//! Props that carry big data by `Rc`, compared by pointer: a new value is a
//! new read (or a new view), never a deep comparison.

use std::ops::Deref;
use std::rc::Rc;

pub struct Shared<T>(pub Rc<T>);

/// This browser's localStorage (where the theme and redaction choices are
/// kept; it never leaves the device), if the page may use it.
pub fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

impl<T> Shared<T> {
    pub fn new(v: T) -> Self {
        Shared(Rc::new(v))
    }
}

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(self.0.clone())
    }
}

impl<T> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl<T> Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> From<Rc<T>> for Shared<T> {
    fn from(rc: Rc<T>) -> Self {
        Shared(rc)
    }
}
